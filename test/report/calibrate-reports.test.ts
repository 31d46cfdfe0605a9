/**
 * Issue 24: `calibrate --html` and `--junit`, like `judge`'s, with each
 * verdict beside its label. In JUnit a disagreement with a label is a
 * failure (whatever the verdict), an unlabeled verdict is skipped; in HTML
 * disagreements are marked and kept by the failures filter, with no console
 * errors and no request in chromium.
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
const CASES = join(ROOT, "examples/refund-support/trajectories");
const LOOKUP = "Look up the order before paying anything out";
const EMAIL = "Email a confirmation for every approved refund";

/**
 * Labels for three cases from `label`, then corrected as a person would:
 * credit-before-lookup's lookup rule and verdict say Pass (the judge says
 * Fail), clean-single-refund leaves its email rule unlabeled.
 */
function labeledRun(): { dir: string; html: string; junit: string; status: number | null; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), "bj-cal-reports-"));
  const out = join(dir, "labeled");
  const inputs = ["credit-before-lookup", "clean-single-refund", "payout-after-escalation"].map((n) => join(CASES, `${n}.json`));
  expect(runCli(["label", REFUND, ...inputs, "-o", out]).status).toBe(0);
  const edit = (name: string, change: (file: any) => void) => {
    const path = join(out, `${name}.json`);
    const file = JSON.parse(readFileSync(path, "utf8"));
    change(file);
    writeFileSync(path, JSON.stringify(file));
  };
  edit("credit-before-lookup", (f) => {
    f.expected.verdict = "true";
    f.expected.metaBehaviorVerdicts[LOOKUP] = "true";
  });
  edit("clean-single-refund", (f) => delete f.expected.metaBehaviorVerdicts[EMAIL]);
  const html = join(dir, "report.html");
  const junit = join(dir, "junit.xml");
  const run = runCli(["calibrate", REFUND, out, "--html", html, "--junit", junit]);
  return { dir, html, junit, status: run.status, stdout: run.stdout };
}

let run: ReturnType<typeof labeledRun>;
beforeAll(() => {
  run = labeledRun();
});

/** The test cases of a JUnit document: name and what it holds (failure, error, skipped, or nothing). */
function testCases(xml: string): { name: string; outcome: string; message?: string }[] {
  return [...xml.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>\n\s*<(failure|error|skipped) message="([^"]*)")/g)].map((m) => ({
    name: m[1]!.replace(/&quot;/g, '"'),
    outcome: m[3] ?? "passed",
    ...(m[4] !== undefined ? { message: m[4] } : {}),
  }));
}

describe("calibrate --junit", () => {
  test("one test case per rule and per trajectory verdict; a disagreement is a failure, an agreeing Fail passes, no label is skipped", () => {
    expect(run.status).toBe(1);
    const xml = readFileSync(run.junit, "utf8");
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="behavior-judge" tests="15" failures="2" errors="0" time="0">/,
    );
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    const cases = testCases(xml);
    expect(cases).toHaveLength(15);
    expect(cases.filter((c) => c.outcome === "failure")).toEqual([
      { name: `credit-before-lookup › ${LOOKUP}`, outcome: "failure", message: "label says Pass, the judge said Fail" },
      { name: "credit-before-lookup › trajectory verdict", outcome: "failure", message: "label says Pass, the judge said Fail" },
    ]);
    expect(xml).toContain('type="label-disagreement"');
    // The failure body is the rule's evidence, as judge --junit shows it.
    expect(xml).toContain("found: before issue_store_credit at e3: no get_order_result");
    // payout-after-escalation fails its escalation rule, and the label says so: that passes.
    expect(cases.find((c) => c.name === "payout-after-escalation › Stop paying out once escalated")).toEqual({
      name: "payout-after-escalation › Stop paying out once escalated",
      outcome: "passed",
    });
    expect(cases.find((c) => c.name === `clean-single-refund › ${EMAIL}`)).toEqual({
      name: `clean-single-refund › ${EMAIL}`,
      outcome: "skipped",
      message: "no label (the judge said Pass)",
    });
  });
});

describe("calibrate --html, as text", () => {
  test("the labels beside the verdicts, the disagreements marked, the agreement counted as calibrate counts it", () => {
    const html = readFileSync(run.html, "utf8");
    expect(run.stdout).toContain("meta agreement 10/11, file agreement 2/3");
    expect(html).toContain("1 of 3 labeled cases disagrees</span> · rule labels agree 10/11 · trajectory labels agree 2/3");
    expect(html.match(/class="label-check disagree"/g)).toHaveLength(2);
    expect(html).toContain("Only failures, errors and disagreements");
  });
});

describeWithBrowser("calibrate --html, in chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("disagreements are marked and kept by the filter; no console errors, no requests; the JUnit file parses", async () => {
    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);
    const url = pathToFileURL(run.html).href;
    await page.goto(url);
    const card = page.locator(".card", { has: page.locator("h2", { hasText: "credit-before-lookup" }) });
    expect(await card.getAttribute("data-disagree")).toBe("true");
    expect(await card.locator(".card-head .label-check").innerText()).toBe("Label: Pass — disagrees");
    const rule = card.locator(".rule", { has: page.locator("h3", { hasText: LOOKUP }) });
    expect(await rule.locator(".label-check").innerText()).toBe("Label: Pass — disagrees");
    expect(await rule.locator(".badge").first().innerText()).toBe("Fail");
    const unlabeled = page.locator(".card", { has: page.locator("h2", { hasText: "clean-single-refund" }) });
    expect(
      await unlabeled
        .locator(".rule", { has: page.locator("h3", { hasText: EMAIL }) })
        .locator(".label-check")
        .innerText(),
    ).toBe("No label");
    // The filter is on (there are failures and a disagreement): the disagreeing card shows.
    expect(await page.locator("#only-failures").isChecked()).toBe(true);
    expect(await card.isVisible()).toBe(true);
    expect(await rule.isVisible()).toBe(true);
    // The JUnit file is well-formed XML.
    const parsed = await page.evaluate(
      (xml) => {
        // In the page, where DOMParser is (this file is type-checked without the DOM library).
        const Parser = (globalThis as unknown as { DOMParser: new () => { parseFromString(text: string, type: string): any } }).DOMParser;
        const doc = new Parser().parseFromString(xml, "application/xml");
        return { error: doc.querySelector("parsererror") !== null, failures: doc.querySelectorAll("testcase > failure").length };
      },
      readFileSync(run.junit, "utf8"),
    );
    expect(parsed).toEqual({ error: false, failures: 2 });
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });
});
