/**
 * Issue 24: in the judge's HTML report a case can be marked "verdict is
 * wrong" (a rule's label flipped or set to N/A) and saved, in the page, as a
 * labeled case file that calibrate reads with the corrected label. Checked
 * in chromium: the download's JSON parses, the page logs no error and
 * requests nothing but itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";

const REFUND = join(ROOT, "examples/refund-support/judge.mjs");
const CASE = join(ROOT, "examples/refund-support/trajectories/credit-before-lookup.json");
const LOOKUP = "Look up the order before paying anything out";
const ESCALATION = "Stop paying out once escalated";

function report(): { dir: string; html: string } {
  const dir = mkdtempSync(join(tmpdir(), "bj-relabel-"));
  const html = join(dir, "report.html");
  const run = runCli(["judge", REFUND, CASE, "--html", html, "--no-web"]);
  expect(run.status, run.stderr).toBe(0);
  return { dir, html };
}

describe("the relabel panel, as HTML", () => {
  test("each card embeds its trajectory and the judge, with every label starting at the verdict", () => {
    const { html } = report();
    const text = readFileSync(html, "utf8");
    const panel = text.slice(text.indexOf('<details class="relabel"'));
    expect(panel).toContain('data-file="credit-before-lookup.json"');
    const data = JSON.parse(
      panel
        .match(/data-case="([^"]*)"/)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&"),
    );
    expect(data.trajectory.id).toBe("credit-before-lookup");
    expect(data.trajectory.events).toHaveLength(JSON.parse(readFileSync(CASE, "utf8")).trajectory.events.length);
    expect(data.proposedBy).toMatchObject({ judge: "refund-support", judgeYamlSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(data.rules[0]).toBe(LOOKUP);
    expect(panel).toMatch(/data-rule-index="0"[^>]*data-proposed="false">/);
  });
});

describeWithBrowser("verdict is wrong: saved from the page, read by calibrate", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("flip a rule, set another to N/A, save: the download is a labeled case calibrate reads with the corrected labels", async () => {
    const { dir, html } = report();
    const page = await browser.newPage({ acceptDownloads: true });
    const { problems, requests } = watchPage(page);
    const url = pathToFileURL(html).href;
    await page.goto(url);
    const panel = page.locator("details.relabel").first();
    await panel.locator("summary").click();
    const lookup = panel.locator('select[data-rule-index="0"]');
    expect(await lookup.inputValue()).toBe("false");
    expect(await panel.locator("select.verdict-label").inputValue()).toBe("false");
    // The lookup rule's Fail is wrong: Pass. The trajectory verdict follows (no rule fails now).
    await lookup.selectOption("true");
    expect(await panel.locator("select.verdict-label").inputValue()).toBe("true");
    expect(await lookup.getAttribute("class")).toContain("changed");
    // And the escalation rule (N/A) is left unlabeled.
    await panel.locator('select[data-rule-index="2"]').selectOption("");
    const [download] = await Promise.all([page.waitForEvent("download"), panel.locator("button.save-label").click()]);
    expect(download.suggestedFilename()).toBe("credit-before-lookup.json");
    const saved = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(Object.keys(saved)).toEqual(["trajectory", "expected", "proposedBy"]);
    expect(saved.expected).toEqual({
      verdict: "true",
      metaBehaviorVerdicts: {
        [LOOKUP]: "true",
        "Email a confirmation for every approved refund": "true",
        "Refund at most three orders per session": "true",
      },
    });
    expect(saved.proposedBy.judge).toBe("refund-support");
    expect(await panel.locator(".save-status").innerText()).toContain("Saved credit-before-lookup.json");
    expect(problems).toEqual([]);
    expect(requests.filter((r) => !r.startsWith("blob:"))).toEqual([url]);
    await page.close();

    const file = join(dir, "credit-before-lookup.json");
    writeFileSync(file, JSON.stringify(saved));
    const calibrated = runCli(["calibrate", REFUND, file]);
    expect(calibrated.status).toBe(1);
    expect(calibrated.stdout).toContain(`${LOOKUP}: expected true, got false`);
    expect(calibrated.stdout).toContain("file verdict: expected true, got false");
    expect(calibrated.stdout).toContain(`1 of 4 rules unlabeled`);
    expect(calibrated.stdout).not.toContain(ESCALATION);
    expect(calibrated.stdout).toContain("meta agreement 2/3, file agreement 0/1");
  });
});
