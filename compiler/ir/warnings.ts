/**
 * Checks that parse but cannot do their job: ones that can never pass, or
 * never fail, and (given sample trajectories) patterns naming an action or
 * metadata key no sample uses. They stay valid judge.yaml (the reference
 * accepts them, and a judge built from them behaves as written), so `build`
 * and `lint` warn instead of refusing.
 */
import type { Trajectory } from "../../runtime/types.js";
import type { Diagnostic } from "../diagnostics.js";
import { buildVocabulary, vocabularyNames } from "../generate/vocabulary.js";
import { parseJudgeYaml, type IRPositions } from "./parse.js";
import { sampleValueWarnings } from "./sample-warnings.js";
import type { JudgeIR, Pattern } from "./types.js";

/** Two patterns match the same events when they list the same matchers (order of keys and items aside). */
function samePattern(a: Pattern, b: Pattern): boolean {
  const key = (p: Pattern) =>
    p
      .map((m) =>
        JSON.stringify(
          Object.entries(m)
            .map(([k, v]) => [k, typeof v === "object" ? Object.entries(v).sort() : v])
            .sort(),
        ),
      )
      .sort()
      .join("|");
  return key(a) === key(b);
}

export function judgeWarnings(ir: JudgeIR, positions: IRPositions | undefined, file: string): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  ir.metaBehaviors.forEach((rule, r) => {
    rule.checks.forEach((check, c) => {
      const line = positions?.metaBehaviors[r]?.checks[c] ?? 0;
      const at = { file, line, col: line === 0 ? 0 : 1, path: `metaBehaviors[${r}].checks[${c}]`, severity: "warning" as const };
      if (check.type === "count" && check.min !== undefined && check.max !== undefined && check.min > check.max) {
        warnings.push({
          ...at,
          message: `count with min ${check.min} greater than max ${check.max} can never pass`,
          hint: "swap them, or drop one",
        });
      }
      if (check.type === "count" && check.min === 0 && check.max === undefined) {
        warnings.push({
          ...at,
          message: "count with min 0 and no max can never fail: every trajectory has at least 0 matching events",
          hint: "give a max, or a min above 0",
        });
      }
      if (check.type === "pairing" && samePattern(check.each, check.followedBy)) {
        warnings.push({
          ...at,
          message:
            "pairing whose each and followedBy are the same pattern can never pass: the last such event has nothing after it to answer it",
          hint: "followedBy is the event that must come after each one",
        });
      }
      if (check.type === "ordering" && samePattern(check.first, check.before)) {
        warnings.push({
          ...at,
          message: "ordering whose first and before are the same pattern can never pass: the earliest such event has nothing before it",
          hint: "first is the event that must come earlier, before the one it guards",
        });
      }
    });
  });
  return warnings;
}

/**
 * The actions and metadata keys judge.yaml names that the samples never use,
 * as warnings (the samples may only be few): `text` must already parse
 * without a vocabulary, so every problem the vocabulary adds is one of these.
 */
export function vocabularyWarnings(text: string, file: string, samples: readonly Trajectory[]): Diagnostic[] {
  const plain = parseJudgeYaml(text, { file });
  const values = plain.ok ? sampleValueWarnings(plain.ir, plain.positions, file, samples) : [];
  const checked = parseJudgeYaml(text, { file, vocabulary: vocabularyNames(buildVocabulary(samples)) });
  if (checked.ok) return values;
  return [
    ...values,
    ...checked.diagnostics.map((d): Diagnostic => {
      const key = /^unknown metadata key (".*")$/.exec(d.message);
      if (key !== null)
        return {
          ...d,
          severity: "warning",
          code: "unknown-metadata-key",
          message: `the sample trajectories never use the metadata key ${key[1]}`,
        };
      const action = /^unknown action (".*")$/.exec(d.message);
      if (action !== null)
        return { ...d, severity: "warning", code: "unknown-action", message: `the sample trajectories never use the action ${action[1]}` };
      return { ...d, severity: "error", code: "judge-invalid" };
    }),
  ];
}
