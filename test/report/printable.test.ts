/**
 * Terminal escape injection: input text that reaches a terminal (error
 * messages quoting a trajectory, judge.yaml or spec, rule names, the per-rule
 * table) is shown with its control, bidi and invisible characters escaped,
 * through one shared function.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { renderComparison } from "../../compiler/report/calibration.js";
import { describeOrigin } from "../../compiler/inputs/case.js";
import { printable, printableLines } from "../../compiler/report/printable.js";
import { renderSummaryTable } from "../../compiler/report/summary.js";
import { renderTrajectoryText } from "../../compiler/report/text.js";
import { failureMessage, locatedMessage } from "../../compiler/run/judge-cases.js";
import { renderRunStatistics } from "../../compiler/report/runs.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { ROOT, runCli } from "../support/cli.js";

/** One of each class the issue names, plus the other invisible characters a reviewer could be fooled by. */
const ACTIVE_SAMPLES = [
  "\u0000",
  "\u0007",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u00ad",
  "\u061c",
  "\u180e",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2060",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\ufeff",
];
/** What must never reach a terminal unescaped (newline aside, for multi-line messages). */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

describe("printable", () => {
  test("escapes C0, DEL, C1, bidi controls, zero-width characters, U+2028/9 and the BOM", () => {
    for (const c of ACTIVE_SAMPLES) {
      const shown = printable(`a${c}b`);
      expect(shown, JSON.stringify(c)).not.toMatch(ACTIVE);
      expect(shown).not.toBe("ab");
    }
    expect(printable("\u001b]0;title\u0007")).toBe("\\u001b]0;title\\u0007");
    expect(printable("R\u200b")).toBe("R\\u200b");
    expect(printable("a\u202eb")).toBe("a\\u202eb");
    expect(printable("line\nnext\r\ttab")).toBe("line\\nnext\\r\\ttab");
    expect(printable("R\u{e0041}")).toBe("R\\u{e0041}"); // a tag character, invisible
  });

  test("leaves ordinary text alone, and escaping twice changes nothing", () => {
    const plain = 'Café — naïve 中文 😀 "quoted" C:\\path';
    expect(printable(plain)).toBe(plain);
    const once = printable("x\u001b[2J\u202e\u200b");
    expect(printable(once)).toBe(once);
  });

  test("printableLines keeps line breaks and tabs, and escapes the rest", () => {
    expect(printableLines("a\n\tb\u001b[2J\r\u2028c")).toBe("a\n\tb\\u001b[2J\\r\\u2028c");
  });
});

describe("names and the per-rule table", () => {
  test("`R` and `R` + U+200B are told apart; U+202E is escaped in the table", () => {
    const table = renderSummaryTable([
      { name: "R", passed: 1, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
      { name: "R\u200b", passed: 0, failed: 1, notApplicable: 0, noVerdict: 0, modelErrors: 0 },
      { name: "evil\u202eelbat", passed: 0, failed: 0, notApplicable: 1, noVerdict: 0, modelErrors: 0 },
    ]);
    expect(table).not.toMatch(ACTIVE);
    const names = table
      .split("\n")
      .slice(2, 5)
      .map((line) => line.split("  ")[0]!.trimEnd());
    expect(names).toEqual(["R", "R\\u200b", "evil\\u202eelbat"]);
  });

  test("the text report escapes zero-width characters and bidi isolates in rule names and ids", () => {
    const judgment: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t\u2066x\ufeff",
      verdict: "true",
      metaBehaviors: [{ name: "R\u200b", verdict: "true", naReason: null, triggered: true, clauses: [] }],
    };
    const text = renderTrajectoryText(judgment, "dir\u001b[2J/trips.json");
    expect(text).not.toMatch(ACTIVE);
    expect(text).toContain("R\\u200b");
    expect(text).toContain("t\\u2066x\\ufeff");
    expect(text).toContain("dir\\u001b[2J/trips.json");
  });

  test("calibrate's unknown labels, run statistics titles and case origins are escaped", () => {
    const line = renderComparison({
      file: "c.json",
      caseIndex: 0,
      trajectoryId: "t",
      verdict: { expected: "true", actual: "true", agree: true },
      metaBehaviors: [],
      unknownLabels: ["R\u202e\u0085"],
    });
    expect(line).not.toMatch(ACTIVE);
    expect(line).toContain("R\\u202e\\u0085");
    const stats = renderRunStatistics("behavior-judge (b\u001b]0;x\u0007)", {
      runs: 1,
      slots: 0,
      perRun: [],
      pooled: { agree: 0, total: 0, accuracy: 0, low: 0, high: 0 },
      perfectRuns: 0,
      unanimousSlots: 0,
    } as never);
    expect(stats).not.toMatch(ACTIVE);
    expect(describeOrigin({ file: "a\u001b[2J.jsonl", index: 0, line: 1 })).toBe("a\\u001b[2J.jsonl:1: case 0");
  });

  test("a trajectory error quoting an id (JSON.stringify leaves U+202E raw) is escaped", () => {
    const error = Object.assign(new Error('duplicates the id "x\u202e\u200b" of an earlier event'), {
      name: "TrajectoryError",
      field: "events[1].id",
    });
    const input = { file: "t.jsonl", index: 2, line: 3 };
    const message = locatedMessage(input, failureMessage(input, error));
    expect(message).not.toMatch(ACTIVE);
    expect(message).toBe('t.jsonl:3: case 2: events[1].id duplicates the id "x\\u202e\\u200b" of an earlier event');
  });
});

describe("the command line never echoes input raw", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "bj-escape-"));

  test("an invalid JSONL line with ESC]0;…BEL, and a duplicate id with U+202E, are escaped on stderr", () => {
    const d = dir();
    const events = [
      { id: "x\u202e", actor: "agent", action: "a" },
      { id: "x\u202e", actor: "agent", action: "a" },
    ];
    writeFileSync(
      join(d, "t.jsonl"),
      ['{"id": \u001b]0;pwned\u0007}', JSON.stringify({ id: "dup", complete: true, events })].join("\n") + "\n",
    );
    const run = runCli(["judge", join(ROOT, "examples", "refund-support", "judge.mjs"), join(d, "t.jsonl"), "--json"]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(ACTIVE);
    // The located JSON error names the control character instead of quoting the line.
    expect(run.stderr).toContain("t.jsonl:1:8: case 0: invalid JSON: expected a value, got U+001B");
    expect(run.stderr).toContain('duplicates the id "x\\u202e"');
  });

  test("a judge.yaml error quoting a key with U+200B and a value with ESC and U+202E is escaped", () => {
    const d = dir();
    const yaml = readFileSync(join(ROOT, "examples", "refund-support", "judge.yaml"), "utf8")
      .replace("    trigger:\n", "    trigge\u200br:\n")
      .replace("type: ordering", 'type: "order\\e]0;x\\a\\u202e"');
    writeFileSync(join(d, "judge.yaml"), yaml);
    const run = runCli(["build", join(d, "judge.yaml")]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(ACTIVE);
    expect(run.stderr).toContain('unknown key "trigge\\u200br"');
    expect(run.stderr).toContain("\\u001b]0;x\\u0007\\u202e");
    expect(run.stderr.split("\n").length).toBeGreaterThan(2); // still one located line per problem
  });

  test("lint findings quoting a rule name with U+200B are escaped", () => {
    const d = dir();
    copyFileSync(join(ROOT, "examples", "refund-support", "BEHAVIOR.md"), join(d, "BEHAVIOR.md"));
    const yaml = readFileSync(join(ROOT, "examples", "refund-support", "judge.yaml"), "utf8").replace(
      "name: Look up the order before paying anything out",
      "name: Look up the order before paying anything out\u200b",
    );
    writeFileSync(join(d, "judge.yaml"), yaml);
    const run = runCli(["lint", join(d, "BEHAVIOR.md"), join(d, "judge.yaml")]);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toMatch(ACTIVE);
    expect(run.stdout).toContain("paying anything out\\u200b");
  });
});
