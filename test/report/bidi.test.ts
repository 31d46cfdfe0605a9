/**
 * Issue 20 item 12: bidi controls from trajectory text must not reorder the
 * HTML report or the JUnit file around them. A right-to-left override in a
 * failing trajectory's id made its card read "Fail order-17 PASS"; both
 * reports now show such characters as visible escapes, as the text report
 * does, and the page isolates the text it took from the trajectory.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";

const JUDGE = join(ROOT, "examples", "refund-support", "judge.mjs");
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe("item 12: bidi override characters in the HTML report and JUnit", () => {
  test("a failing trajectory whose id and content hold overrides is shown with visible escapes", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-bidi-"));
    // Displayed raw, U+202E turns "SSAP" into "PASS": the failing card would read "Fail order-17 PASS".
    const id = "order-17 \u202eSSAP";
    const file = join(dir, "bidi.json");
    writeFileSync(
      file,
      JSON.stringify({
        id,
        description: "pays \u2067out\u2069 first",
        complete: true,
        events: [
          { id: "e1", actor: "user", action: "message", content: "refund \u202dme\u202c please" },
          { id: "e2\u200f", actor: "agent", action: "issue_refund", metadata: { order_id: "A\u202e1" } },
        ],
      }),
    );
    const html = join(dir, "report.html");
    const junit = join(dir, "report.xml");
    const run = runCli(["judge", JUDGE, file, "--no-web", "--html", html, "--junit", junit]);
    expect(run.status).toBe(0);
    const page = readFileSync(html, "utf8");
    const xml = readFileSync(junit, "utf8");
    for (const report of [page, xml]) {
      expect(report).not.toMatch(BIDI);
      expect(report).toContain("order-17 \\u202eSSAP");
    }
    expect(page).toContain("pays \\u2067out\\u2069 first");
    expect(page).toContain("e2\\u200f");
    expect(page).toMatch(/unicode-bidi: isolate/);
    // The text report already showed them so.
    expect(run.stdout).toContain("order-17 \\u202eSSAP");
  });
});
