/**
 * Issue 21, "Reports say what was expected": a failed extended check says, in
 * its clause's `explanation`, what it looked for and what it found: for a
 * condition the expression, the bound events (ids, actions) and the values
 * read; for a keyed check the key and its value; for `within` the N events
 * that came instead. judgeTrajectory carries it, and the text, JSON, HTML and
 * JUnit reports and formatJudgment show it alike.
 *
 * test/fixtures/every-form/judge.yaml has one rule per extended form that can
 * fail; breaks-every-rule.json breaks each once (worked out by hand below).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatJudgment } from "../../runtime/format-judgment.js";
import type { Trajectory, TrajectoryJudgment } from "../../runtime/types.js";
import { runCli } from "../support/cli.js";
import { compileYaml, importBundled } from "../support/judges.js";

const DIR = "test/fixtures/every-form";
const YAML = `${DIR}/judge.yaml`;
const TRAJECTORY = `${DIR}/breaks-every-rule.json`;

/** Each rule's false clause: the events it cites and its explanation, from the trajectory by hand. */
const EXPECTED: Record<string, [string[], string]> = {
  // e6 refunds order B; only order A was looked up (e3).
  "Look up the same order before refunding it": [
    ["e6"],
    'e6 matches `before` (order_id "B"), and no event matching `first` with the same order_id came before it',
  ],
  // The one yes (e1) served e5; nothing since e5 before e6.
  "A fresh yes before every write": [
    ["e6"],
    "e6 matches `before`, and no event matching `first` came since the previous event matching `before`",
  ],
  // e7 looks up C; the next two events are a result for D and an escalation.
  "Lookups answered within two events": [
    ["e7"],
    'e7 (order_id "C") was followed by 2 events, e8 (lookup_result, order_id "D"), e9 (escalate), and none of them matched `followedBy` with the same order_id',
  ],
  // e9 escalates; e10..e17 hold no acknowledge: the first four and the last two are named.
  "Escalations answered soon": [
    ["e9"],
    "e9 was followed by 8 events, e10 (close), e11 (edit), e12 (say), e13 (say), … 2 more …, e16 (say), e17 (say), and none of them matched `followedBy`",
  ],
  // No confirm at all in a complete trajectory: both refunds, the first explained.
  "Every refund is confirmed": [["e5", "e6"], 'e5 (order_id "A") has no later event matching `followedBy` with the same order_id'],
  "A note for every opened order": [["e2"], 'no match with order_id "A" after e2, which opened its window'],
  "No edits after close": [["e11"], 'e11 (order_id "A") comes after the window of its order_id opened'],
  "One call per turn": [["e5", "e6"], '@turn "3" has 2 matches, above the max of 1'],
  "Refunds add up to at most 500": [["e5", "e6"], "the sum of amount over all matches is 850, above the max of 500"],
  "Refunds per order add up to at most 300": [["e6"], 'the sum of amount for order_id "B" is 600, above the max of 300'],
  // e5 refunds A, whose lookup result e4 says refundable "no" and total 100 (below 250).
  "Refund only what is refundable": [
    ["e5", "e4", "e6"],
    'at e5, `o.refundable == "yes" && o.total >= event.amount` does not hold (it is false); o = e4 (lookup_result); o.refundable = "no"; o.total = "100"; event.amount = "250"',
  ],
  // A v1 check with a value matcher: what it looks for, from judge.yaml.
  "Big refunds are approved": [["e6"], "approve before the first refund (amount > 500)"],
};

const trajectory = JSON.parse(readFileSync(TRAJECTORY, "utf8")) as Trajectory;

function explanations(judgment: TrajectoryJudgment): Record<string, [string[], string | undefined]> {
  return Object.fromEntries(
    judgment.metaBehaviors.map((rule) => {
      const clause = rule.clauses.find((c) => c.verdict === "false")!;
      return [rule.name, [clause.citations.map((c) => c.eventId), clause.explanation]];
    }),
  );
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const htmlText = (text: string) => xmlText(text).replace(/"/g, "&quot;");

describe("issue 21: a failed extended check says what was expected and what came instead", () => {
  test("judgeTrajectory: every rule false, each clause citing and explaining as worked out by hand", async () => {
    const { compiled } = await compileYaml(readFileSync(YAML, "utf8"), YAML);
    const judge = await importBundled(compiled);
    const judgment = await judge.judgeTrajectory(trajectory);
    expect(judgment.metaBehaviors.map((m) => m.verdict)).toEqual(Object.keys(EXPECTED).map(() => "false"));
    expect(explanations(judgment)).toEqual(EXPECTED);

    // formatJudgment (toSatisfyBehavior's message) shows each under its clause.
    const message = formatJudgment(judgment, { trajectory });
    for (const [, explanation] of Object.values(EXPECTED)) expect(message).toContain(`      expected: ${explanation}\n`);
  });

  test("the command's text, JSON, HTML and JUnit reports show each explanation", () => {
    const out = mkdtempSync(join(tmpdir(), "bj-every-form-"));
    const run = runCli(["judge", YAML, TRAJECTORY, "--no-web", "--html", join(out, "r.html"), "--junit", join(out, "r.xml")]);
    expect(run.stderr).not.toMatch(/error|warning/i);
    const html = readFileSync(join(out, "r.html"), "utf8");
    const junit = readFileSync(join(out, "r.xml"), "utf8");
    for (const [, explanation] of Object.values(EXPECTED)) {
      expect(run.stdout).toContain(`            expected: ${explanation}\n`);
      expect(html).toContain(`<span class="label">Expected</span> ${htmlText(explanation)}</p>`);
      expect(junit).toContain(`  expected: ${xmlText(explanation)}\n`);
    }
    const json = runCli(["judge", YAML, TRAJECTORY, "--json"]);
    const [judgment] = JSON.parse(json.stdout) as TrajectoryJudgment[];
    expect(explanations(judgment!)).toEqual(EXPECTED);
  });
});
