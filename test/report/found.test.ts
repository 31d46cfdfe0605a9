/**
 * Issue 24, the evidence of a failure: a false ordering says which `before`
 * event came and what the earlier events of `first`'s action had instead
 * (`get_order_result at e3 with actor tool, status "not_found"`), and every
 * output a person reads shows it under what was expected: the text report,
 * HTML (in chromium), JUnit, formatJudgment and assertBehavior's message.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as refund from "../../examples/refund-support/judge.mjs";
import { renderHtmlReport } from "../../compiler/report/html.js";
import { renderJunit } from "../../compiler/report/junit.js";
import { renderTrajectoryText } from "../../compiler/report/text.js";
import { formatJudgment } from "../../runtime/format-judgment.js";
import type { Trajectory, TrajectoryJudgment } from "../../runtime/types.js";
import { AssertionError, assertBehavior } from "../../testing/index.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { ROOT } from "../support/cli.js";

const EXPECTED = 'get_order_result (actor tool, status "found") before the first issue_refund or issue_store_credit';
const FOUND = 'before issue_refund at e5: get_order_result at e3 with actor tool, status "not_found"';

const { trajectory } = JSON.parse(
  readFileSync(join(ROOT, "examples/refund-support/trajectories/refund-after-empty-lookup.json"), "utf8"),
) as { trajectory: Trajectory };

async function judged(): Promise<TrajectoryJudgment> {
  return (await refund.judgeTrajectory(trajectory)) as TrajectoryJudgment;
}

describe("the evidence of a false ordering, in every output", () => {
  test("the judgment carries it as `found`, after `explanation`", async () => {
    const clause = (await judged()).metaBehaviors[0]!.clauses[0]!;
    expect(clause.explanation).toBe(EXPECTED);
    expect(clause.found).toBe(FOUND);
  });

  test("text report: a found line under the expected line", async () => {
    const text = renderTrajectoryText(await judged(), "t.json", { model: false, events: trajectory.events }).split("\n");
    const at = text.findIndex((line) => line.trim() === `expected: ${EXPECTED}`);
    expect(at).toBeGreaterThan(0);
    expect(text[at + 1]!.trim()).toBe(`found: ${FOUND}`);
  });

  test("JUnit: in the failure body", async () => {
    const xml = renderJunit({ files: [{ file: "t.json", judgments: [await judged()], trajectories: [trajectory] }], model: false });
    expect(xml).toContain(`  expected: ${EXPECTED}\n  found: ${FOUND}`);
  });

  test("formatJudgment (the library's and judge.mjs's own) and assertBehavior's message", async () => {
    const judgment = await judged();
    const lines = [`      expected: ${EXPECTED}`, `      found: ${FOUND}`].join("\n");
    expect(formatJudgment(judgment, { trajectory })).toContain(lines);
    expect(refund.formatJudgment(judgment, { trajectory })).toContain(lines);
    const error = await assertBehavior(refund, trajectory).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toContain(lines);
  });
});

describeWithBrowser("the evidence in the HTML report, in chromium", () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), "bj-found-"));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test("a failed clause shows Expected, then Found, with no console errors", async () => {
    const file = join(dir, "report.html");
    writeFileSync(
      file,
      renderHtmlReport({ rules: refund.rules, results: [{ file: "t.json", judgment: await judged(), trajectory }], model: false }),
    );
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    await page.goto(pathToFileURL(file).href);
    const clause = page.locator('.clause[data-verdict="false"]').first();
    expect(await clause.locator(".explanation").allInnerTexts()).toEqual([`Expected ${EXPECTED}`, `Found ${FOUND}`]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
