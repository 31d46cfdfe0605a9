/**
 * Issue 21, "The built judge.mjs still has no imports and runs in Node, Deno,
 * Bun and browsers": a judge using the extended forms (test/fixtures/every-form:
 * keyed and fresh orderings, pairings with on and within, keyed windows, counts
 * per key and by sum, a condition, value matchers with a regex under `i`),
 * loaded as a module in chromium, judges and monitors a trajectory exactly as
 * it does in Node: the same judgment (explanations included) and the same
 * violations, pushed one event at a time. Deno and Bun are not installed here.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Trajectory } from "../../runtime/types.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { compileYaml, importBundled } from "../support/judges.js";

const YAML = "test/fixtures/every-form/judge.yaml";
const trajectory = JSON.parse(readFileSync("test/fixtures/every-form/breaks-every-rule.json", "utf8")) as Trajectory;

describeWithBrowser("issue 21: an extended judge.mjs in a browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("judges and monitors as in Node, with no request and no console error", async () => {
    const { compiled } = await compileYaml(readFileSync(YAML, "utf8"), YAML);
    expect(compiled.judgeMjs).not.toMatch(/^\s*import\b|\brequire\(/m);
    const judge = await importBundled(compiled);
    const inNode = {
      judgment: await judge.judgeTrajectory(trajectory),
      violations: (() => {
        const monitor = judge.createMonitor({ id: trajectory.id });
        return trajectory.events.map((e) => monitor.push(e));
      })(),
    };

    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);
    // Written as text, so the test runner's transform leaves its dynamic import alone.
    const script = `(async () => {
      const url = URL.createObjectURL(new Blob([${JSON.stringify(compiled.judgeMjs)}], { type: "text/javascript" }));
      const judge = await import(url);
      const trajectory = ${JSON.stringify(trajectory)};
      const monitor = judge.createMonitor({ id: trajectory.id });
      const violations = trajectory.events.map((e) => monitor.push(e));
      return JSON.stringify({ judgment: await judge.judgeTrajectory(trajectory), violations });
    })()`;
    const inBrowser = JSON.parse((await page.evaluate(script)) as string) as typeof inNode;
    await page.close();
    expect(JSON.stringify(inBrowser)).toBe(JSON.stringify(inNode));
    // Every rule of the fixture fails, and the monitor saw violations of several checks.
    expect(inBrowser.judgment.verdict).toBe("false");
    expect(inBrowser.violations.flat().length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
    expect(requests.filter((r) => !r.startsWith("blob:"))).toEqual([]);
  }, 120_000);
});
