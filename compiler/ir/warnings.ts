/**
 * Checks that parse but cannot do their job: ones that can never pass. They
 * stay valid judge.yaml (the reference accepts them, and a judge built from
 * them behaves as written), so `build` warns instead of refusing.
 */
import type { Diagnostic } from "../diagnostics.js";
import type { IRPositions } from "./parse.js";
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
