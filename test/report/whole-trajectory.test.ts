/**
 * Issue 24, the HTML report: a case's whole trajectory can be expanded
 * (every event, the cited ones marked), an event without content says so
 * instead of showing an empty box, and "… and N more" in the failed-in
 * column is a link that shows every trajectory where the rule failed.
 * Checked in chromium, with no console errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { renderHtmlReport, type ReportInput } from "../../compiler/report/html.js";
import type { Clause, Trajectory, TrajectoryEvent, TrajectoryJudgment } from "../../runtime/types.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";

const EXPECTED = 'lookup (status "found") before the first refund';

function event(id: string, action: string, content?: string, metadata?: Record<string, string>): TrajectoryEvent {
  return { id, actor: action === "message" ? "user" : "agent", action, content, metadata };
}

const events = [
  event("e1", "message", "refund me"),
  event("e2", "lookup", undefined, { status: "missing" }),
  event("e3", "note", ""),
  event("e4", "refund", "Refunded $5"),
  event("e5", "message", "thanks"),
];

function failing(id: string): TrajectoryJudgment {
  const clause: Clause = {
    kind: "predicate",
    check: "ordering",
    quote: "look up before refunding",
    verdict: "false",
    naReason: null,
    citations: [{ eventId: "e4", description: "event matching `before` with no earlier event matching `first`" }],
    explanation: EXPECTED,
    found: 'before refund at e4: lookup at e2 with status "missing"',
  };
  return {
    behavior: "b",
    trajectoryId: id,
    verdict: "false",
    metaBehaviors: [{ name: "Look up first", verdict: "false", naReason: null, triggered: true, clauses: [clause] }],
  };
}

function report(cases: number): ReportInput {
  return {
    rules: [
      {
        name: "Look up first",
        trigger: { description: "A refund.", kind: "match" },
        checks: [{ type: "ordering", quote: "look up before refunding", expected: EXPECTED }],
        semanticChecks: [],
      },
    ],
    results: Array.from({ length: cases }, (_, i) => {
      const trajectory: Trajectory = { id: `case-${i}`, description: "", complete: true, events };
      return { file: "cases.jsonl", judgment: failing(`case-${i}`), trajectory };
    }),
    model: false,
  };
}

describe("the whole trajectory, as HTML", () => {
  test("every event of a case, in order, the cited ones marked; no content is said", () => {
    const html = renderHtmlReport(report(1));
    const panel = html.slice(html.indexOf('<details class="trajectory"'));
    expect(panel).toContain("Whole trajectory: 5 events, 1 cited");
    expect(panel.match(/<li class="step/g)).toHaveLength(5);
    expect(panel).toMatch(/<li class="step cited"[^>]*><div class="event-head"><code class="event-id">e4<\/code>/);
    expect(html).not.toContain("undefined");
  });
});

describeWithBrowser("the whole trajectory and the failed-in link, in chromium", () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), "bj-whole-"));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function open(name: string, input: ReportInput): Promise<{ page: Page; problems: string[] }> {
    const file = join(dir, name);
    writeFileSync(file, renderHtmlReport(input));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const { problems } = watchPage(page);
    await page.goto(pathToFileURL(file).href);
    return { page, problems };
  }

  test("expanding a case shows every event, the cited one marked, and 'no content' where there is none", async () => {
    const { page, problems } = await open("whole.html", report(1));
    const panel = page.locator(".card").first().locator("details.trajectory");
    expect(await panel.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    await panel.locator("summary").click();
    const steps = panel.locator("li.step");
    expect(await steps.locator(".event-id").allTextContents()).toEqual(["e1", "e2", "e3", "e4", "e5"]);
    expect(await steps.nth(3).locator(".cited-mark").innerText()).toBe("cited");
    expect(await panel.locator("li.step.cited").count()).toBe(1);
    expect(await steps.nth(1).locator(".no-content").innerText()).toBe("no content");
    expect(await steps.nth(2).locator(".no-content").innerText()).toBe("no content");
    expect(await steps.nth(0).locator(".no-content").count()).toBe(0);
    expect(await steps.nth(1).locator(".metadata").innerText()).toMatch(/status\s+missing/);
    // The expected pattern and what was found, above.
    expect(await page.locator(".card").first().locator(".explanation").allInnerTexts()).toEqual([
      `Expected ${EXPECTED}`,
      'Found before refund at e4: lookup at e2 with status "missing"',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("'… and N more' in the failed-in column is a link that shows every failing trajectory of the rule", async () => {
    const { page, problems } = await open("more.html", report(13));
    const more = page.locator(".summary td.failing-in a.more");
    expect(await more.innerText()).toBe("… and 3 more");
    // Another rule filter first: the link must show this rule's failures anyway.
    await page.locator("#only-failures").uncheck();
    await more.click();
    expect(await page.locator("#only-failures").isChecked()).toBe(true);
    expect(await page.locator("#rule-filter").inputValue()).toBe("0");
    expect(await page.locator(".card:visible").count()).toBe(13);
    const target = page.locator("#trajectory-10-rule-0");
    await expect.poll(() => target.isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
