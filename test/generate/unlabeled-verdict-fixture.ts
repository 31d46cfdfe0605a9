/**
 * A one-rule spec with samples and no labels, for the verdict questions asked from the words
 * (issue 25): a ferry's car deck, where a vehicle boards only once weighed. Its wordings: in
 * plain prose, a "shall" sentence, capitals (each drafted as "weighed before boarding"), and a
 * flowchart question whose draft misreads it (a boarding after a weighing forbidden).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";
import { session, type Step } from "./verdict-fixture.js";

export const FERRY_RULE = "Weigh before boarding";
export const WORDINGS = {
  prose: "A vehicle boards only after it has been weighed.",
  shall: "Before boarding any vehicle, the agent shall weigh it.",
  capitals: "VEHICLES SHALL BE WEIGHED BEFORE THEY BOARD.",
} as const;
/** The flowchart voice, which the words path misreads. */
export const FLOWCHART = "Q: Has the vehicle been weighed? If no, it does not board.";

export const ferrySpecText = (body: string) => `---
name: ferry-desk
description: The ferry desk agent boards vehicles.
---
The agent runs the car deck.

## ${FERRY_RULE}

${body}
`;
export function ferrySpec(body: string) {
  const parsed = parseBehaviorMd(ferrySpecText(body));
  if (!parsed.ok) throw new Error("spec");
  return parsed.spec;
}

const weigh = (plate: string, tonnes: string): Step[] => [
  ["agent", "weigh_vehicle", { plate }],
  ["tool", "weigh_vehicle_result", { tonnes }],
];
const board = (plate: string): Step => ["agent", "board_vehicle", { plate }];
const hello: Step = ["user", "message"];
export const ferrySamples: Trajectory[] = [
  session("weighed-then-boarded", hello, ...weigh("A1", "2"), board("A1")),
  session("boarded-unweighed", hello, board("B2")),
  session("weighed-after", hello, board("C3"), ...weigh("C3", "3")),
  session("weighed-only", hello, ...weigh("D4", "1")),
  session("two-boarded-one-weighed", hello, ...weigh("E5", "2"), board("E5"), board("F6")),
  session("question-only", hello, ["agent", "answer_question"]),
];
/** What a person on the deck would answer. */
export const ferryTruth: Record<string, "true" | "false" | "na"> = {
  "weighed-then-boarded": "true",
  "boarded-unweighed": "false",
  "weighed-after": "false",
  "weighed-only": "na",
  "two-boarded-one-weighed": "false",
  "question-only": "na",
};
export const ferryVocabulary = buildVocabulary(ferrySamples);

/** The rule's verdict on each sample, by the judge's code. */
export function ferryVerdicts(ir: JudgeIR): Record<string, string> {
  const rule = previewJudge(ir, ferrySamples).rules[0]!;
  return Object.fromEntries(
    ferrySamples.map((s) => [s.id, rule.rule.pass.includes(s.id) ? "true" : rule.rule.fail.includes(s.id) ? "false" : "na"]),
  );
}

/** A folder with the spec in `body`'s wording and the samples, none labeled. */
export function ferryProject(body: string): { dir: string; spec: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "bj-ferry-"));
  const spec = join(dir, "BEHAVIOR.md");
  writeFileSync(spec, ferrySpecText(body));
  const file = join(dir, "samples.json");
  writeFileSync(file, JSON.stringify(ferrySamples));
  return { dir, spec, files: [file] };
}
