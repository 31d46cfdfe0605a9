/** `lint`: the spec's diagnostics, and a judge.yaml's quotes, rule names and vocabulary against the spec and samples. */
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSamples } from "../../compiler/generate/samples.js";
import { lintSpec } from "../../compiler/behavior-md/lint.js";
import { formatDiagnostic } from "../../compiler/diagnostics.js";
import { ROOT, runCli } from "../support/cli.js";

const LINT = join(ROOT, "test", "fixtures", "spec", "lint");
const samplesOf = (dir: string) =>
  readdirSync(join(dir, "trajectories"))
    .sort()
    .map((f) => join(dir, "trajectories", f));

describe("lintSpec", () => {
  it("finds every mismatch between the judge.yaml beside the spec, the spec and the samples, each located", async () => {
    const samples = await loadSamples([join(LINT, "samples.json")]);
    const result = await lintSpec(LINT, { samples });
    const judge = join(LINT, "judge.yaml");
    expect(result.judge).toBe(judge);
    expect(result.findings.map((f) => [f.severity, f.code, f.file === judge ? "judge" : "spec", f.line])).toEqual([
      ["warning", "section-without-rule", "spec", 11],
      // The samples may just not show everything: a warning (issue 13), not an error.
      ["warning", "unknown-action", "judge", 17],
      ["error", "rule-not-a-section", "judge", 21],
      ["warning", "unknown-metadata-key", "judge", 34],
      ["warning", "source-stale", "judge", 35],
      ["error", "quote-not-verbatim", "judge", 40],
    ]);
    expect(result.errors).toBe(2);
    expect(result.warnings).toBe(4);
    const text = result.findings.map(formatDiagnostic).join("\n");
    expect(text).toContain('the sample trajectories never use the action "issue_refnud" (did you mean "issue_refund"?)');
    expect(text).toContain('"Confirm every refunds" is not an H2 heading');
    expect(text).toContain('(did you mean "Confirm every refund"?)');
  });

  it("accepts a quote that differs from the section only in whitespace (the first check's quote spans a line break)", async () => {
    const result = await lintSpec(LINT);
    expect(result.findings.filter((f) => f.code === "quote-not-verbatim").map((f) => f.path)).toEqual([
      "metaBehaviors[2].semanticChecks[0].quote",
    ]);
  });

  it("checks vocabulary only when samples are given", async () => {
    const result = await lintSpec(LINT);
    expect(result.findings.some((f) => f.code?.startsWith("unknown-"))).toBe(false);
  });

  it("reports the spec's own diagnostics and stops there", async () => {
    const result = await lintSpec(join(ROOT, "test", "fixtures", "spec", "broken", "duplicate-heading.md"));
    expect(result.findings).toEqual([expect.objectContaining({ code: "duplicate-heading", line: 15, severity: "error" })]);
  });

  it("reports a judge.yaml that is not UTF-8 as judge-invalid, at the byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-lint-"));
    copyFileSync(join(LINT, "BEHAVIOR.md"), join(dir, "BEHAVIOR.md"));
    writeFileSync(join(dir, "judge.yaml"), Buffer.concat([Buffer.from("version: 1\nbehavior: "), Buffer.from([0xff]), Buffer.from("\n")]));
    const result = await lintSpec(dir);
    expect(result.findings).toEqual([
      expect.objectContaining({
        code: "judge-invalid",
        severity: "error",
        line: 2,
        col: 11,
        message: "invalid UTF-8 at byte 21: 0xFF",
        hint: "save the file as UTF-8",
      }),
    ]);
  });

  // The hand-written judges leave qualifiers and explanations unquoted: lint says so (issue 25), and nothing else.
  const uncovered: Record<string, string[]> = {
    "refund-support": [
      "The first payout of the session must come after a successful order lookup",
      "a lookup that comes back empty, or the customer's own description of the order, does not count",
      "A declined refund needs no confirmation",
      "a customer with more disputed orders is escalated instead",
    ],
    "staged-rollout": [
      "A re-check that fails again is a response to the earlier failure, but it is a failing result too and needs its own response",
      "A second retry after a rollback needs a human decision, not another automatic attempt",
      "posting the same text again does not count twice",
    ],
    // The last two are one sentence's halves, "is not grounded" and "does not ground": since
    // the drafter reads a negated passive as a prohibition (issue 25) they count as obligations,
    // and they are: what the clause's quote leaves out is what grounding excludes.
    "tax-research": [
      "Questions whose answer does not depend on the year need no such question",
      "A figure recalled from memory or read off a search-result snippet is not grounded, however accurate it is",
      "fetching the source after answering does not ground the answer that came before",
    ],
  };
  it.each(["refund-support", "staged-rollout", "tax-research"])("finds nothing wrong with the %s example", async (name) => {
    const dir = join(ROOT, "examples", name);
    const result = await lintSpec(dir, { samples: await loadSamples(samplesOf(dir)) });
    expect(result.findings.filter((f) => f.code !== "uncovered-sentence")).toEqual([]);
    expect(result.findings.map((f) => /quotes "(.*)"$/.exec(f.message)?.[1])).toEqual(uncovered[name]);
    expect(result.errors).toBe(0);
  });
});

describe("behavior-judge lint", () => {
  it("prints the findings and exits 1 on errors", () => {
    const run = runCli(["lint", join(LINT, "BEHAVIOR.md"), join(LINT, "judge.yaml"), "--samples", join(LINT, "samples.json")]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("judge.yaml:40:1 error: quote-not-verbatim:");
    expect(run.stdout).toMatch(/2 errors, 4 warnings: checked .*BEHAVIOR\.md, .*judge\.yaml, 1 sample trajectory\n$/);
  });

  it("exits 0 for a clean example", () => {
    const dir = join(ROOT, "examples", "staged-rollout");
    const run = runCli(["lint", dir, "--samples", ...samplesOf(dir)]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // Its only warnings: sentences its hand-written judge does not quote (issue 25).
    expect(run.stdout).toMatch(/^0 errors, 3 warnings: checked /m);
    expect(run.stdout.split("\n").filter((l) => /:\d+:\d+ (?:error|warning): /.test(l) && !/warning: uncovered-sentence:/.test(l))).toEqual(
      [],
    );
  });

  it("checks the name against the folder also when run from inside .agents/behaviors/<name>/", () => {
    const folder = join(ROOT, "test", "fixtures", "spec", ".agents", "behaviors", "refund-support");
    for (const path of [".", "BEHAVIOR.md"]) {
      const run = runCli(["lint", path], { cwd: folder });
      expect(run.status).toBe(1);
      expect(run.stdout).toContain("BEHAVIOR.md:2:1 error: name-mismatch:");
    }
  });

  it("exits 1 with the located diagnostic for a broken spec", () => {
    const run = runCli(["lint", join(ROOT, "test", "fixtures", "spec", "broken", "name-invalid.md")]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("name-invalid.md:4:1 error: name-invalid:");
  });
});

describe("lint warnings about sections a reader sees differently", () => {
  const lintText = async (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "bj-lint-")), "BEHAVIOR.md");
    writeFileSync(file, text);
    return (await lintSpec(file)).findings.map((f) => [f.severity, f.code, f.line]);
  };
  const front = "---\nname: a\ndescription: d\n---\n";

  it("warns about an empty section: there is nothing to judge in it", async () => {
    expect(await lintText(`${front}## Empty\n\n## Full\nThe agent never refunds.\n`)).toEqual([["warning", "section-empty", 5]]);
  });

  it("warns about a setext heading, which Markdown shows as an H2 but is not a meta-behavior", async () => {
    expect(await lintText(`${front}## A\nThe agent never refunds.\n\nRefund limits\n-------------\n\nAt most three.\n`)).toEqual([
      ["warning", "setext-heading", 8],
    ]);
  });

  it("does not take a thematic break, a list, a table or a fence for a setext heading", async () => {
    const body = "## A\nText.\n\n---\n\n- item\n---\n\n| a | b |\n|---|---|\n\n```\ncode\n---\n```\n\n> quote\n---\n";
    expect(await lintText(front + body)).toEqual([]);
  });
});
