/**
 * The first hour, in the reports (issue 13 item 4): a PASS that rests on
 * fewer clauses than the spec states says so in text, HTML and JUnit;
 * "(unverified)" only where a model could have verified; the no-model notice
 * is one short line; `--json` says where each judgment came from; JUnit
 * failures show the cited events' action and content; the HTML report opens
 * on the failures. Run through the real command.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";

const TAX = "examples/tax-research";
const REFUND = "examples/refund-support";
const taxCase = (name: string) => `${TAX}/trajectories/${name}.json`;
const refundCase = (name: string) => `${REFUND}/trajectories/${name}.json`;

describe("without a model", () => {
  test("the notice is one short line, and a PASS says how many clauses no model decided", () => {
    const run = runCli(["judge", `${TAX}/judge.mjs`, taxCase("asks-year-then-grounds-answer"), taxCase("figure-from-memory"), "--no-web"]);
    expect(run.status).toBe(0);
    const notice = run.stderr.split("\n").filter((l) => l !== "");
    expect(notice).toEqual([
      "behavior-judge: no model configured (set BRAINTRUST_API_KEY or OPENAI_API_KEY): semantic clauses are left undecided",
    ]);
    expect(notice[0]!.length).toBeLessThanOrEqual(120);
    expect(run.stdout).toContain(
      `PASS (2 clauses undecided: no model)  asks-year-then-grounds-answer  (${taxCase("asks-year-then-grounds-answer")})\n`,
    );
    expect(run.stdout).toContain("  PASS (1 clause undecided: no model) Rest the answer on a provision the agent retrieved\n");
    // Nothing could have verified the failure: no "(unverified)" to puzzle over.
    expect(run.stdout).toContain(`false ordering: "Before answering, the agent fetches at least one official source" [e2]\n`);
    expect(run.stdout).not.toContain("unverified");
    const flag = runCli(["judge", `${TAX}/judge.mjs`, taxCase("figure-from-memory"), "--no-web", "--no-model"]);
    expect(flag.stderr).toBe("behavior-judge: --no-model: no model calls; semantic clauses are left undecided\n");
  });

  test("the HTML and JUnit reports say the same, and neither says unverified", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-first-hour-"));
    const html = join(dir, "report.html");
    const junit = join(dir, "junit.xml");
    const run = runCli([
      "judge",
      `${TAX}/judge.mjs`,
      taxCase("asks-year-then-grounds-answer"),
      taxCase("figure-from-memory"),
      "--no-web",
      "--html",
      html,
      "--junit",
      junit,
    ]);
    expect(run.status).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`<span class="badge pass">Pass</span> <span class="undecided">(2 clauses undecided: no model)</span>`);
    expect(page).not.toContain("Unverified");
    // There is a failure: the page opens on it.
    expect(page).toContain(`<input type="checkbox" id="only-failures" checked>`);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(
      /<testcase name="asks-year-then-grounds-answer › Rest the answer on a provision the agent retrieved" [^>]*>\n {6}<system-out>PASS \(1 clause undecided: no model\)\n/,
    );
    expect(xml).not.toContain("unverified");
    // The failure shows the cited event's action and content, not only its id.
    expect(xml).toMatch(/cited events:\n {4}- e2 agent\/final_answer "[^"\n]+" \(event matching `before`/);
  });
});

test("with a model configured, a failure nothing verified says (unverified), in text and JUnit", () => {
  // A deterministic judge with --no-verify makes no model call: the address is never contacted.
  const dir = mkdtempSync(join(tmpdir(), "bj-first-hour-"));
  const junit = join(dir, "junit.xml");
  const run = runCli([
    "judge",
    `${REFUND}/judge.mjs`,
    refundCase("credit-before-lookup"),
    "--no-web",
    "--base-url",
    "http://127.0.0.1:9",
    "--no-verify",
    "--junit",
    junit,
  ]);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/false ordering: "[^"]+" \[e3\] \(unverified\)\n/);
  expect(readFileSync(junit, "utf8")).toContain("  verification: unverified");
});

test("--json carries each judgment's input file and case index after its own fields", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-first-hour-"));
  const jsonl = join(dir, "two.jsonl");
  const one = (name: string) => JSON.stringify(JSON.parse(readFileSync(refundCase(name), "utf8")).trajectory);
  writeFileSync(jsonl, `${one("clean-single-refund")}\n${one("credit-before-lookup")}\n`);
  const run = runCli(["judge", `${REFUND}/judge.mjs`, refundCase("clean-escalation"), jsonl, "--json"]);
  expect(run.status).toBe(0);
  const elements = JSON.parse(run.stdout) as Record<string, unknown>[];
  expect(elements.map((e) => [e.trajectoryId, e.file, e.case])).toEqual([
    ["clean-escalation", refundCase("clean-escalation"), 0],
    ["clean-single-refund", jsonl, 0],
    ["credit-before-lookup", jsonl, 1],
  ]);
  expect(Object.keys(elements[0]!)).toEqual(["behavior", "trajectoryId", "verdict", "metaBehaviors", "file", "case"]);
});
