/**
 * The separating question asked in the terminal interview (issue 25): labels that leave a rule
 * with two readings make `generate` ask the verdict question on the sample where they disagree;
 * the answer is saved as a labeled case beside judge.yaml and re-chooses the draft. Scripted use
 * (no terminal) asks nothing and keeps the question as a note.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";
import { runTerminalInterview } from "../../compiler/interview/terminal.js";
import { runCli } from "../support/cli.js";
import { DOORS_SPEC, draft, labelsFor, RULE, samples, truth, TWO_LABELED, verdicts } from "../generate/verdict-fixture.js";

const QUESTION = draft(labelsFor(TWO_LABELED)).questions![0]!;

/** A folder with the spec and the samples, the two of TWO_LABELED as labeled cases. */
export function doorsProject(): { dir: string; spec: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "bj-ask-"));
  const spec = join(dir, "BEHAVIOR.md");
  writeFileSync(spec, DOORS_SPEC);
  const cases = samples.map((s) =>
    TWO_LABELED.includes(s.id) ? { trajectory: s, expected: { verdict: truth[s.id], metaBehaviorVerdicts: { [RULE]: truth[s.id] } } } : s,
  );
  const file = join(dir, "samples.json");
  writeFileSync(file, JSON.stringify(cases));
  return { dir, spec, files: [file] };
}

function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, text: () => text };
}

async function generateIn(project: ReturnType<typeof doorsProject>, ...lines: string[]) {
  const out = capture();
  const input = new PassThrough();
  input.end(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  const result = await generateJudgeYaml({
    spec: project.spec,
    samples: project.files,
    out: join(project.dir, "judge.yaml"),
    interviewer: (i) => runTerminalInterview(i, { input, output: out.stream }),
    compile: false,
  });
  return { result, transcript: out.text() };
}

describe("the verdict question in the terminal interview", () => {
  it("asks about the sample, keeps the answer as a saved label, and re-drafts the rule with it", async () => {
    const project = doorsProject();
    const answer = truth[QUESTION.sample] === "false" ? "n" : truth[QUESTION.sample] === "true" ? "y" : "n.a.";
    const { result, transcript } = await generateIn(project, "maybe", answer);
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
    expect(result.questionsAsked).toBeGreaterThan(1);
    expect(result.warnings.flatMap((w) => w.messages).join("\n")).not.toContain("did the agent follow");
    // The next run with the labels folder reads the answer: nothing left to ask.
    const again = await generateIn({ ...project, files: [...project.files, saved] });
    expect(again.transcript).not.toContain("did the agent follow");
    expect(verdicts(again.result.ir)).toEqual(truth);
  });

  it("answered against the draft, picks the other reading", async () => {
    const project = doorsProject();
    const other = { true: "y", false: "n", na: "na" }[QUESTION.readings.other];
    const { result } = await generateIn(project, other);
    expect(verdicts(result.ir)[QUESTION.sample]).toBe(QUESTION.readings.other);
    for (const id of TWO_LABELED) expect(verdicts(result.ir)[id]).toBe(truth[id]);
  });

  it("a skipped question saves nothing, keeps the draft, and stays a note", async () => {
    const project = doorsProject();
    const { result, transcript } = await generateIn(project, "s");
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
