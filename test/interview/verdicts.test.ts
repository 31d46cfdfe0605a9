/**
 * The separating question asked in the terminal interview (issue 25): labels that leave a rule
 * with two readings make `generate` ask the verdict question on the sample where they disagree;
 * the answer is saved as a labeled case beside judge.yaml and re-chooses the draft. Scripted use
 * (no terminal) asks nothing and keeps the question as a note.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { generateInTerminal } from "./generate-runs.js";
import { doorsProject, draft, labelsFor, RULE, truth, truthfulQuestions, TWO_LABELED, verdicts } from "../generate/verdict-fixture.js";

const QUESTION = draft(labelsFor(TWO_LABELED)).questions![0]!;

describe("the verdict question in the terminal interview", () => {
  it("asks about the sample, keeps the answer as a saved label, and re-drafts the rule with it", async () => {
    const project = doorsProject();
    // Every question answered truly (the first after a non-answer): the labels leave one reading.
    const asked = truthfulQuestions(TWO_LABELED);
    const answers = asked.map((q) => ({ true: "y", false: "n", na: "n.a." })[truth[q.sample]!]);
    const { result, transcript } = await generateInTerminal(project, "maybe", ...answers);
    const saved = join(project.dir, "labels", `${QUESTION.sample}.json`);
    // The question names the sample and the rule, shows the sample's events, and refuses a non-answer.
    expect(transcript).toContain(`In ${QUESTION.sample}, did the agent follow "${RULE}"? y/n/n.a.`);
    expect(transcript).toContain("Visitors are let in only after they have been checked.");
    expect(transcript).toMatch(/e2 agent unlock_door \{door=front\}/);
    expect(transcript).toContain('unknown answer "maybe"');
    // Where the answer went, and how the re-drafted rule agrees.
    expect(transcript).toContain(`kept as a label, saved to ${saved}.`);
    expect(transcript).toContain("agrees with 3 of the 3 labels given for this rule");
    expect(JSON.parse(readFileSync(saved, "utf8")).expected.metaBehaviorVerdicts).toEqual({ [RULE]: truth[QUESTION.sample] });
    // The clause interview and the written judge are the re-drafted rule: right on every sample.
    expect(verdicts(result.ir)).toEqual(truth);
    for (const q of asked) expect(transcript).toContain(q.text);
    expect(result.questionsAsked).toBeGreaterThan(asked.length);
    expect(result.warnings.flatMap((w) => w.messages).join("\n")).not.toContain("did the agent follow");
    // The next run with the labels folder reads the answer: nothing left to ask.
    const savedFiles = [...new Set(asked.map((q) => join(project.dir, "labels", `${q.sample}.json`)))];
    const again = await generateInTerminal({ ...project, files: [...project.files, ...savedFiles] });
    expect(again.transcript).not.toContain("did the agent follow");
    expect(verdicts(again.result.ir)).toEqual(truth);
  });

  it("answered against the draft, picks the other reading", async () => {
    const project = doorsProject();
    const other = { true: "y", false: "n", na: "na" }[QUESTION.readings.other];
    const { result } = await generateInTerminal(project, other);
    expect(verdicts(result.ir)[QUESTION.sample]).toBe(QUESTION.readings.other);
    for (const id of TWO_LABELED) expect(verdicts(result.ir)[id]).toBe(truth[id]);
  });

  it("a skipped question saves nothing, keeps the draft, and stays a note", async () => {
    const project = doorsProject();
    const { result, transcript } = await generateInTerminal(project, "s");
    expect(transcript).toContain(`Skipped: ${QUESTION.sample} is not labeled`);
    expect(existsSync(join(project.dir, "labels"))).toBe(false);
    expect(verdicts(result.ir)[QUESTION.sample]).toBe(QUESTION.readings.draft);
    expect(result.warnings.flatMap((w) => w.messages)).toContain(`${QUESTION.text} (label it to settle the reading)`);
  });

  it("without a terminal, generate asks nothing and the question stays a note", () => {
    const project = doorsProject();
    const out = join(project.dir, "judge.yaml");
    const run = runCli([
      "generate",
      project.spec,
      ...project.files,
      "--offline",
      "--no-web",
      "-o",
      out,
      "--labels",
      join(project.dir, "mine"),
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("1 verdict question not asked (no terminal)");
    expect(run.stderr).not.toContain("Verdict question");
    expect(run.stdout).toContain(`${QUESTION.text} (label it to settle the reading)`);
    expect(existsSync(join(project.dir, "mine"))).toBe(false);
  });
});
