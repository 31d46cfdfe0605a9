/**
 * An interview over test/fixtures/golden/extended.yaml, the judge.yaml with
 * every form of the extended rule language once, drafted as it is, with
 * sessions written for it as samples.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BehaviorSpec } from "../../compiler/behavior-md/load.js";
import type { InterviewInput } from "../../compiler/generate/types.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { EXTENDED_SESSIONS } from "../support/extended-sessions.js";
import { parseOrThrow } from "../support/judges.js";

export const EXTENDED_YAML = readFileSync(join(import.meta.dirname, "..", "fixtures", "golden", "extended.yaml"), "utf8");

export function extendedIR(): JudgeIR {
  return parseOrThrow(EXTENDED_YAML).ir;
}

/** The draft is extended.yaml; each section's body holds its rule's quotes, so they are verbatim in it, and is the rule's source. */
export function extendedInterviewInput(): InterviewInput {
  const ir = extendedIR();
  const spec: BehaviorSpec = {
    file: "BEHAVIOR.md",
    name: ir.behavior,
    description: "Every form of the extended rule language.",
    preamble: "",
    sections: ir.metaBehaviors.map((rule, i) => ({
      heading: rule.name,
      line: 3 + i * 4,
      body: `${rule.checks.map((c) => c.quote).join(". ")}.`,
    })),
  };
  const samples = EXTENDED_SESSIONS.map((s) => validateTrajectory(s));
  // Confirmed rules carry their section as source; so does the draft, so that confirming it unchanged is the draft.
  ir.metaBehaviors.forEach((rule, i) => (rule.source = spec.sections[i]!.body));
  return {
    spec,
    draft: { ir, notes: [], origins: ir.metaBehaviors.map(() => "offline" as const) },
    vocabulary: buildVocabulary(samples),
    samples,
  };
}
