/**
 * The separating question in the browser interview (issue 25): the page asks the verdict question
 * on the sample before the clauses, shows the sample's events, and says where the answer went;
 * the server keeps it as a label, re-drafts the rule, and refuses answers to another question.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVerdictRequest } from "../../compiler/interview/web.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { generateOnPage, post } from "./generate-runs.js";
import { doorsProject, draft, labelsFor, RULE, truth, truthfulQuestions, TWO_LABELED, verdicts } from "../generate/verdict-fixture.js";

const QUESTION = draft(labelsFor(TWO_LABELED)).questions![0]!;
const ANSWER = truth[QUESTION.sample]!;

/** Starts generate in the doors project with the browser interview; resolves the page's URL and the run. */
async function generateOnTheWeb() {
  const project = doorsProject();
  return { project, ...(await generateOnPage(project)) };
}

describe("the verdict endpoint", () => {
  it("reads only {sample, rule, answer} with a verdict or skip", () => {
    expect(parseVerdictRequest(JSON.stringify({ sample: "s", rule: "r", answer: "na" }))).toEqual({ sample: "s", rule: "r", answer: "na" });
    expect(parseVerdictRequest(JSON.stringify({ sample: "s", rule: "r", answer: "yes" }))).toMatch(/answer must be/);
    expect(parseVerdictRequest(JSON.stringify({ sample: 1, rule: "r", answer: "na" }))).toMatch(/expected/);
  });

  it("refuses clause answers and answers to another sample while a verdict question is open, then takes the right one", async () => {
    const { project, server, run } = await generateOnTheWeb();
    const action = await post(server, "/action", { at: 0, action: { type: "accept" } });
    expect(action.status).toBe(409);
    expect(((await action.json()) as { view: { kind: string } }).view.kind).toBe("verdict");
    const wrong = await post(server, "/verdict", { sample: "lock-only", rule: RULE, answer: "na" });
    expect(wrong.status).toBe(409);
    expect(existsSync(join(project.dir, "labels"))).toBe(false);
    const right = await post(server, "/verdict", { sample: QUESTION.sample, rule: RULE, answer: ANSWER });
    expect(right.status).toBe(200);
    const reply = (await right.json()) as { view: { kind: string }; previous: string };
    // The next verdict question, if the answer leaves one, else the first clause.
    expect(reply.view.kind).toBe(truthfulQuestions(TWO_LABELED).length > 1 ? "verdict" : "question");
    expect(reply.previous).toContain(`saved to ${join(project.dir, "labels", `${QUESTION.sample}.json`)}`);
    await server.close();
    await expect(run).rejects.toThrow();
  });
});

describeWithBrowser("the verdict question in chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("asks about the sample first, says where the answer went, and writes the judge the answer picked", async () => {
    const { project, server, run } = await generateOnTheWeb();
    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);
    await page.goto(server.url);
    await page.locator("#verdict-text", { hasText: QUESTION.text }).waitFor({ timeout: 10_000 });
    expect(await page.locator("#progress").textContent()).toBe("Verdict question 1 (1 open)");
    expect(await page.locator("#verdict-section").textContent()).toContain("Visitors are let in only after they have been checked.");
    expect(await page.locator("#verdict-events tr.event").count()).toBeGreaterThan(1);
    expect(await page.locator("#verdict-events").textContent()).toContain("unlock_door");
    expect(await page.locator("#question").isHidden()).toBe(true);
    await page.click(`#verdict-${ANSWER}`);
    const saved = join(project.dir, "labels", `${QUESTION.sample}.json`);
    await page.locator("#notice", { hasText: `saved to ${saved}` }).waitFor({ timeout: 10_000 });
    expect(await page.locator("#notice").textContent()).toContain("agrees with 3 of the 3 labels given for this rule");
    // Any question that follows, answered truly too, until the clause questions start.
    const asked = truthfulQuestions(TWO_LABELED);
    for (const next of asked.slice(1)) {
      await page.locator("#verdict-text", { hasText: next.text }).waitFor({ timeout: 10_000 });
      await page.click(`#verdict-${truth[next.sample]}`);
      await page.locator("#notice", { hasText: `${next.sample}: ` }).waitFor({ timeout: 10_000 });
    }
    await page.locator("#progress", { hasText: /^Question 1 of \d+$/ }).waitFor({ timeout: 10_000 });
    expect(await page.locator("#verdict").isHidden()).toBe(true);
    // The clause questions are about the re-drafted rule; accept them all and write.
    for (let i = 0; i < 10; i++) {
      await page.locator("#progress", { hasText: /^(Question \d+ of \d+|Review)/ }).waitFor({ timeout: 10_000 });
      if ((await page.locator("#progress").textContent())!.startsWith("Review")) break;
      const before = await page.locator("#progress").textContent();
      await page.click("#choice-accept");
      // Polled from here: the page's CSP forbids the evaluated string a waitForFunction would run.
      for (let t = 0; t < 100 && (await page.locator("#progress").textContent()) === before; t++)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.click("#confirm");
    const result = await run;
    expect(verdicts(result.ir)).toEqual(truth);
    expect(JSON.parse(readFileSync(saved, "utf8")).expected.metaBehaviorVerdicts).toEqual({ [RULE]: ANSWER });
    expect(requests.filter((u) => !u.startsWith(new URL(server.url).origin + "/"))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
