/** BEHAVIOR.md loading (docs/FORMATS.md §1): one fixture per diagnostic code, each at the line it is about. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBehaviorSpec, parseBehaviorMd, readBehaviorSpec, SPEC_DIAGNOSTIC_CODES } from "../../compiler/behavior-md/load.js";
import { SpecError } from "../../compiler/diagnostics.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "spec");
const BROKEN = join(FIXTURES, "broken");

/** code → [line, col] of the single diagnostic its fixture must produce. */
const EXPECTED: Record<string, [number, number]> = {
  "frontmatter-missing": [1, 1],
  "frontmatter-unclosed": [1, 1],
  "frontmatter-invalid": [3, 32],
  "name-missing": [1, 1],
  "name-invalid": [4, 1],
  "description-missing": [3, 1],
  "description-invalid": [3, 1],
  "description-too-long": [4, 1],
  "license-invalid": [4, 1],
  "metadata-invalid": [4, 1],
  "heading-empty": [10, 1],
  "duplicate-heading": [15, 1],
  "encoding-invalid": [8, 30],
};

describe("spec diagnostics fixtures", () => {
  it("has a fixture for every code the loader knows", () => {
    const fixtures = readdirSync(BROKEN).map((f) => f.replace(/\.md$/, ""));
    expect([...fixtures, "name-mismatch"].sort()).toEqual([...SPEC_DIAGNOSTIC_CODES].sort());
  });

  it.each(Object.entries(EXPECTED))("%s is reported at its line", async (code, [line, col]) => {
    const file = join(BROKEN, `${code}.md`);
    const result = await readBehaviorSpec(file);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toEqual([expect.objectContaining({ code, line, col, file })]);
  });

  it("checks the name against the folder of .agents/behaviors/<name>/", async () => {
    const folder = join(FIXTURES, ".agents", "behaviors", "refund-support");
    const error = await loadBehaviorSpec(folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    const diagnostics = (error as SpecError).diagnostics;
    expect(diagnostics).toEqual([expect.objectContaining({ code: "name-mismatch", line: 2, file: join(folder, "BEHAVIOR.md") })]);
    expect((error as SpecError).message).toContain(`${join(folder, "BEHAVIOR.md")}:2:1 error: name-mismatch`);
  });

  it("names the byte offset of invalid UTF-8 instead of reading it as U+FFFD", async () => {
    const file = join(BROKEN, "encoding-invalid.md");
    const error = await loadBehaviorSpec(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).message).toBe(
      `${file}:8:30 error: encoding-invalid: invalid UTF-8 at byte 119: 0xE9 0x20 (save the file as UTF-8)`,
    );
  });

  it("suggests a valid name for an invalid one", async () => {
    const result = await readBehaviorSpec(join(BROKEN, "name-invalid.md"));
    expect(!result.ok && result.diagnostics[0]!.hint).toBe('did you mean "refund-support"?');
  });

  it("reports every problem at once, in line order", () => {
    const result = parseBehaviorMd('---\nname: Bad Name\ndescription: ""\nmetadata: [1]\n---\n## A\n\n## A\n', "x.md");
    expect(!result.ok && result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["name-invalid", 2],
      ["description-missing", 3],
      ["metadata-invalid", 4],
      ["duplicate-heading", 8],
    ]);
  });

  it("rejects a name over 64 characters", () => {
    const result = parseBehaviorMd(`---\nname: ${"a".repeat(65)}\ndescription: d\n---\n## A\n`);
    expect(!result.ok && result.diagnostics.map((d) => d.code)).toEqual(["name-invalid"]);
    expect(parseBehaviorMd(`---\nname: ${"a".repeat(64)}\ndescription: d\n---\n## A\n`).ok).toBe(true);
  });

  it("accepts a description of exactly 1024 characters", () => {
    expect(parseBehaviorMd(`---\nname: a\ndescription: ${"d".repeat(1024)}\n---\n## A\n`).ok).toBe(true);
  });
});

describe("loading a valid spec", () => {
  it("takes the folder or the file, ignores unknown fields, and splits sections", async () => {
    const fromFolder = await loadBehaviorSpec(join(FIXTURES, "valid"));
    const fromFile = await loadBehaviorSpec(join(FIXTURES, "valid", "BEHAVIOR.md"));
    expect(fromFolder).toEqual(fromFile);
    expect(fromFolder).toMatchObject({
      name: "refund-support",
      description: "Rules for refunds.",
      license: "Apache-2.0",
      metadata: { owner: "support-team" },
      preamble: "Preamble text.",
      sections: [{ heading: "Look up the order first", line: 11, body: "The agent looks up the order before it refunds." }],
    });
    expect(fromFolder).not.toHaveProperty("allowed-tools");
  });

  it("reads CRLF files and a byte-order mark", () => {
    const result = parseBehaviorMd("\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\n## Rule\r\nBody.\r\n");
    expect(result.ok && result.spec.sections).toEqual([{ heading: "Rule", line: 5, body: "Body." }]);
  });
});

describe("Markdown that looks like a heading but is not one (CommonMark)", () => {
  const front = "---\nname: a\ndescription: d\n---\n";
  const headings = (body: string) => {
    const result = parseBehaviorMd(front + body);
    return result.ok ? result.spec.sections.map((s) => [s.heading, s.line]) : result.diagnostics.map((d) => [d.code, d.line]);
  };

  it("does not close a fence at a line with an info string, and keeps its ## lines in the section", () => {
    expect(headings("## A\n```\n```js\n## not a heading\n```\n## B\nx\n")).toEqual([
      ["A", 5],
      ["B", 10],
    ]);
  });

  it("closes a fence only with the same character, at least as many", () => {
    expect(headings("## A\n````\n```\n## in\n~~~~\n## in\n````\n## B\n")).toEqual([
      ["A", 5],
      ["B", 12],
    ]);
  });

  it("does not take a line of inline backticks for a fence", () => {
    expect(headings("## A\n```x``` is code\n## B\nx\n")).toEqual([
      ["A", 5],
      ["B", 7],
    ]);
  });

  it("skips a section commented out with <!-- -->", () => {
    expect(headings("## A\n<!--\n## Old rule\nThe agent never refunds.\n-->\n<!-- ## one line --> \n## B\n")).toEqual([
      ["A", 5],
      ["B", 11],
    ]);
  });

  it("reads a closing sequence of #s as no text", () => {
    expect(headings("## A ##\n## C#\n## #\n")).toEqual([["heading-empty", 7]]);
    expect(headings("## A ##\n## C#\n")).toEqual([
      ["A", 5],
      ["C#", 6],
    ]);
  });

  it("reads old Mac line endings (a lone CR)", () => {
    expect(parseBehaviorMd("---\rname: a\rdescription: d\r---\r## Rule\rBody.\r")).toMatchObject({
      ok: true,
      spec: { sections: [{ heading: "Rule", line: 5, body: "Body." }] },
    });
  });
});

describe("frontmatter lengths are counted in characters", () => {
  it("accepts a 1024-character description of characters outside the BMP", () => {
    expect(parseBehaviorMd(`---\nname: a\ndescription: ${"😀".repeat(1024)}\n---\n## A\n`).ok).toBe(true);
    const long = parseBehaviorMd(`---\nname: a\ndescription: ${"😀".repeat(1025)}\n---\n## A\n`);
    expect(!long.ok && long.diagnostics[0]!.message).toBe("description has 1025 characters; at most 1024 are allowed");
  });
});
