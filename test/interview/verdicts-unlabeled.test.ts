/**
 * Verdict questions from no labels in both front ends (issue 25): `generate` with samples and no
 * labels asks, in the terminal and on the interview page, where a reading the rule's words support
 * judges a sample otherwise than the draft; the answer is saved in the labels folder beside
 * judge.yaml and the rule re-drafted. Without a terminal nothing is asked nor announced. The
 * terminal and page tests fail before this change (no labels, no question).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { generateInTerminal, generateOnPage, post } from "./generate-runs.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { verdictAsking } from "../../compiler/generate/verdicts.js";
import {
  FERRY_RULE,
  ferryProject,
  ferrySamples as samples,
  ferrySpec,
  ferryTruth as truth,
  ferryVerdicts as verdicts,
  ferryVocabulary as vocabulary,
  FLOWCHART,
  WORDINGS,
} from "../generate/unlabeled-verdict-fixture.js";

const firstQuestion = (body: string) => {
  const spec = ferrySpec(body);
  const draft = draftOffline({ spec, vocabulary, samples });
  return { draft, question: verdictAsking({ spec, vocabulary, samples, labels: {}, draft })!.questions[0]! };
};
const letter = { true: "y", false: "n", na: "n.a." } as const;

describe("verdict questions from no labels in the terminal", () => {
  it("asks, saves the answer beside judge.yaml, and keeps the draft the answer confirms", async () => {
    const { draft, question } = firstQuestion(WORDINGS.capitals);
    const project = ferryProject(WORDINGS.capitals);
    const { result, transcript } = await generateInTerminal(project, letter[truth[question.sample]!]);
    const saved = join(project.dir, "labels", `${question.sample}.json`);
    expect(transcript).toContain(question.text);
    expect(transcript).toContain(`kept as a label, saved to ${saved}.`);
    expect(JSON.parse(readFileSync(saved, "utf8")).expected.metaBehaviorVerdicts).toEqual({ [FERRY_RULE]: truth[question.sample] });
    expect(verdicts(result.ir)).toEqual(verdicts(draft.ir));
  });

  it("re-drafts a misread rule from the answer", async () => {
    const { draft, question } = firstQuestion(FLOWCHART);
    const project = ferryProject(FLOWCHART);
    const { result } = await generateInTerminal(project, letter[truth[question.sample]!]);
    expect(verdicts(draft.ir)[question.sample]).not.toBe(truth[question.sample]);
    expect(verdicts(result.ir)[question.sample]).toBe(truth[question.sample]);
  });

  it("without a terminal, asks nothing and says nothing of questions", () => {
    const project = ferryProject(WORDINGS.prose);
    const run = runCli(["generate", project.spec, ...project.files, "--offline", "--no-web", "-o", join(project.dir, "judge.yaml")]);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain("verdict question");
    expect(run.stdout + run.stderr).not.toContain("did the agent follow");
    expect(existsSync(join(project.dir, "labels"))).toBe(false);
  });
});

describe("verdict questions from no labels on the interview page", () => {
  it("shows the question first, and the answer is saved as a label", async () => {
    const { question } = firstQuestion(WORDINGS.shall);
    const project = ferryProject(WORDINGS.shall);
    const { server, run } = await generateOnPage(project);
    const refused = await post(server, "/action", { at: 0, action: { type: "accept" } });
    expect(refused.status).toBe(409);
    const answered = await post(server, "/verdict", { sample: question.sample, rule: FERRY_RULE, answer: truth[question.sample] });
    expect(answered.status).toBe(200);
    const reply = (await answered.json()) as { previous: string };
    const saved = join(project.dir, "labels", `${question.sample}.json`);
    expect(reply.previous).toContain(`saved to ${saved}`);
    expect(JSON.parse(readFileSync(saved, "utf8")).expected.metaBehaviorVerdicts).toEqual({ [FERRY_RULE]: truth[question.sample] });
    await server.close();
    await expect(run).rejects.toThrow();
  });
});
