/** The minimal BEHAVIOR.md loader the baseline needs (frontmatter + H2 sections). */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";

const spec = (body: string, front = "name: tax-research\ndescription: Rules for a tax agent.") => `---\n${front}\n---\n${body}`;

describe("parseBehaviorMd", () => {
  it("reads frontmatter, preamble and every H2 with its line and body", () => {
    const parsed = parseBehaviorMd(
      spec("# Title\n\nIntro.\n\n## First rule\n\nBody one.\n\n### Detail\nMore.\n\n## Second rule ##\nBody two.\n"),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.spec).toMatchObject({ name: "tax-research", description: "Rules for a tax agent.", preamble: "# Title\n\nIntro." });
    expect(parsed.spec.sections).toEqual([
      { heading: "First rule", line: 9, body: "Body one.\n\n### Detail\nMore." },
      { heading: "Second rule", line: 16, body: "Body two." },
    ]);
  });

  it("ignores ## lines inside fenced code", () => {
    const parsed = parseBehaviorMd(spec("## Rule\n\n```md\n## not a heading\n```\n"));
    expect(parsed.ok && parsed.spec.sections.map((s) => s.heading)).toEqual(["Rule"]);
  });

  it.each([
    ["frontmatter-missing", "## Rule\n", 1],
    ["frontmatter-unclosed", "---\nname: x\n## Rule\n", 1],
    ["duplicate-heading", spec("## Rule\n\n## Rule\n"), 7],
    ["name-invalid", spec("## Rule\n", "name: Tax Research\ndescription: d"), 2],
    ["description-missing", spec("## Rule\n", "name: x"), 1],
    ["description-too-long", spec("## Rule\n", `name: x\ndescription: ${"d".repeat(1025)}`), 3],
  ])("reports %s with its line", (code, text, line) => {
    const parsed = parseBehaviorMd(text, "spec.md");
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.diagnostics).toEqual([expect.objectContaining({ code, line, file: "spec.md" })]);
  });

  it("checks the name against the conventional folder", () => {
    const parsed = parseBehaviorMd(spec("## Rule\n", "name: other\ndescription: d"), "/repo/.agents/behaviors/tax-research/BEHAVIOR.md");
    expect(!parsed.ok && parsed.diagnostics.map((d) => d.code)).toEqual(["name-mismatch"]);
  });
});
