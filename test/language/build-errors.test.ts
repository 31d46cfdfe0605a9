/**
 * Issue 21, "Bad input is a located error at build time": an unknown operator,
 * two operators where one is allowed, a bad regex, a regex that cannot run in
 * linear time, `gt` with a non-number/non-date operand, an expression that
 * does not parse, a name not bound in `with`, a type error the compiler can
 * see, `within: 0` (and a misspelt key, a `per` without `metadata.`): each
 * `judge.yaml:LINE:COL error: path: message`, all from one build, with
 * did-you-mean where it helps, and nothing written.
 */
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../support/cli.js";

test("one build reports every mistake of the extended language, each at its line and column", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-bad-extended-"));
  const file = join(dir, "judge.yaml");
  copyFileSync("test/fixtures/every-form/bad-judge.yaml", file);
  const run = runCli(["build", "judge.yaml"], { cwd: dir });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr.split("\n")).toEqual([
    'judge.yaml:11:40 error: metaBehaviors[0].checks[0].match.metadata.amount: unknown operator "grt" (did you mean "gt"?)',
    "judge.yaml:14:26 error: metaBehaviors[0].checks[1].match.action: has 2 operators (in, matches); one is allowed (only gt/gte with lt/lte combine, into a range; write two matchers in a list for any-of)",
    "judge.yaml:17:39 error: metaBehaviors[0].checks[2].match.content.matches: is not a regular expression the judge can run: missing ) for this group",
    "judge.yaml:20:38 error: metaBehaviors[0].checks[3].match.content.matches: is not a regular expression the judge can run: unsupported: backreferences (\\1) cannot run in linear time",
    'judge.yaml:23:44 error: metaBehaviors[0].checks[4].match.metadata.amount.gt: "five hundred" is neither a number nor an ISO-8601 date (2024-05-14 or 2024-05-14T15:00:00Z)',
    'judge.yaml:26:44 error: metaBehaviors[0].checks[5].match.metadata.amount.gt: "500" is a string: write the number without quotes',
    "judge.yaml:31:25 error: metaBehaviors[0].checks[6].when: the expression ends where a value was expected",
    'judge.yaml:36:15 error: metaBehaviors[0].checks[7].when: unknown name "s": `with` binds r, and `event` is the each event (did you mean "r"?)',
    'judge.yaml:41:31 error: metaBehaviors[0].checks[8].when: `&&` needs a condition (true or false), but r.cabin is a value (compare it: r.cabin == "…")',
    "judge.yaml:46:17 error: metaBehaviors[0].checks[9].within: must be a positive integer (1: the very next event)",
    'judge.yaml:50:14 error: metaBehaviors[0].checks[10].per: must be "metadata.<key>" (write "metadata.turn")',
    'judge.yaml:57:9 error: metaBehaviors[0].checks[11]: unknown key "onn" (did you mean "on"?)',
    'judge.yaml:62:19 error: metaBehaviors[0].checks[12].when: a list is allowed only after `in` (x in ["a", "b"])',
    "judge.yaml:65:44 error: metaBehaviors[0].checks[13].match.metadata.amount.gt: must be a number or an ISO-8601 date string",
    "",
  ]);
  expect(existsSync(join(dir, "judge.mjs"))).toBe(false);
});
