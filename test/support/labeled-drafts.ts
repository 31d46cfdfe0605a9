/**
 * The offline drafter with some cases' labels given, for the tests of the label search
 * (test/generate/synthesize-shapes, synthesize-deadlines, synthesize-arithmetic): hand-made
 * trajectories, the draft made from the first `given` cases' labels for one rule, and the verdicts
 * it gives the cases held out beside theirs.
 */
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import type { Draft } from "../../compiler/generate/types.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

export type Verdict = "true" | "false" | "na";
export type Event = Omit<TrajectoryEvent, "id">;

/** Trajectories that open with the user's `opening` message, their events numbered e1, e2, …. */
export function trajectoriesOpening(opening: string): (id: string, events: Event[]) => Trajectory {
  return (id, events) => {
    const all: Event[] = [{ actor: "user", action: "message", content: opening }, ...events];
    return { id, description: "", complete: true, events: all.map((e, i) => ({ ...e, id: `e${i + 1}` })) as TrajectoryEvent[] };
  };
}

/** A BEHAVIOR.md's spec; a text that does not parse fails the test with why. */
/** A BEHAVIOR.md of one rule: the preamble `intro`, then the section `heading` holding `rule`. */
export const deskSpec = (name: string, intro: string, heading: string, rule: string) => `---
name: ${name}
description: An assistant's desk rules.
---
${intro}

## ${heading}

${rule}
`;

export function specOf(text: string) {
  const parsed = parseBehaviorMd(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  return parsed.spec;
}

export interface LabeledDraft {
  /** The draft made with the first `given` cases' labels for `rule`. */
  found: Draft;
  /** The same draft made again (for the tests that it is byte-identical on every run). */
  run: () => Draft;
  /** Each held-out case's id and label, then the verdict the draft gives it. */
  held: [string, Verdict][];
  got: [string, Verdict][];
}

/** The draft of `text` with the labels of the first `given` of `cases` for `rule`, and its verdicts on the rest. */
export function draftWithLabels(text: string, rule: string, cases: [Trajectory, Verdict][], given = 6): LabeledDraft {
  const samples = cases.map(([t]) => t);
  const labels: RuleLabels = Object.fromEntries(cases.slice(0, given).map(([t, v]) => [t.id, { [rule]: v }]));
  const run = () => draftOffline({ spec: specOf(text), vocabulary: buildVocabulary(samples), samples, labels });
  const found = run();
  const verdicts = previewJudge(found.ir, samples).rules.find((x) => x.name === rule)!.rule;
  const verdictOn = (id: string): Verdict => (verdicts.pass.includes(id) ? "true" : verdicts.fail.includes(id) ? "false" : "na");
  const rest = cases.slice(given);
  return { found, run, held: rest.map(([t, v]) => [t.id, v]), got: rest.map(([t]) => [t.id, verdictOn(t.id)]) };
}
