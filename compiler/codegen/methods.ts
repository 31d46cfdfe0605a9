/**
 * The methods of a rule's stepper (lower.ts lowerRule) as code, split into
 * `<method>Part<k>` helpers when a rule's checks are too many for
 * TypeScript's control flow analysis in one function.
 */
import type { Check, Pattern } from "../ir/types.js";
import { code, join, name, type Code } from "./code.js";

/**
 * How much a pattern asks of TypeScript's control flow analysis: one per field
 * tested (action, actor, contentIncludes, each metadata entry).
 */
export function patternConditions(pattern: Pattern): number {
  return pattern.reduce(
    (n, m) =>
      n +
      (m.action === undefined ? 0 : 1) +
      (m.actor === undefined ? 0 : 1) +
      (m.contentIncludes === undefined ? 0 : 1) +
      Object.keys(m.metadata ?? {}).length,
    0,
  );
}

/** A check's patterns' conditions, plus its own tests (`this.first0 === undefined`, the window, …). */
function checkConditions(check: Check): number {
  const patterns = Object.values(check).filter((value): value is Pattern => Array.isArray(value));
  return 3 + patterns.reduce((n, pattern) => n + patternConditions(pattern), 0);
}

/**
 * The most conditions one method holds. TypeScript analyses the flow of each
 * reference back through every condition before it in the same function: the
 * cost grows with the square of the conditions, and past about 2,000 nested
 * branches it gives up (TS2563, "too large for control flow analysis"; 500
 * small checks did it). A rule under the limit, every real one, keeps all its
 * checks in each method itself; a larger one gets `<method>Part<k>` helpers.
 */
export const STEP_CONDITIONS = 64;

/** Consecutive checks grouped so that each group holds at most STEP_CONDITIONS (or is one check). */
export function groupsOf(checks: readonly Check[]): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let conditions = 0;
  checks.forEach((check, j) => {
    const own = checkConditions(check);
    if (current.length > 0 && conditions + own > STEP_CONDITIONS) {
      groups.push(current);
      current = [];
      conditions = 0;
    }
    current.push(j);
    conditions += own;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

export interface MethodSpec {
  name: "step" | "violations" | "obligations" | "restore" | "check";
  params: Code;
  args: Code;
  /** Statements before the checks' (a trigger guard). */
  head: Code[];
  /** Each check's statements. */
  perCheck: Code[][];
  /** The checks each part covers (groupsOf). */
  groups: number[][];
  /** Statements after the checks'. */
  tail: Code[];
}

const METHOD_NAMES: Record<MethodSpec["name"], Code> = {
  step: code`step`,
  violations: code`violations`,
  obligations: code`obligations`,
  restore: code`restore`,
  check: code`check`,
};

/** The method, split into `<name>Part<k>` helpers when its checks form more than one group. */
export function method(spec: MethodSpec): Code[] {
  const parts = spec.groups.map((group) => group.flatMap((j) => spec.perCheck[j] ?? [])).filter((part) => part.length > 0);
  const declare = (methodName: Code, body: Code[]) => code`${methodName}(${spec.params}): void {\n${join(body, code`\n`)}\n}`;
  const methodName = METHOD_NAMES[spec.name];
  if (parts.length <= 1) return [declare(methodName, [...spec.head, ...(parts[0] ?? []), ...spec.tail])];
  const part = (k: number) => code`${methodName}${name("Part", k)}`;
  return [
    declare(methodName, [...spec.head, ...parts.map((_, k) => code`this.${part(k)}(${spec.args});`), ...spec.tail]),
    ...parts.map((body, k) => declare(part(k), body)),
  ];
}
