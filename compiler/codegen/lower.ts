/**
 * Lowers one meta-behavior to a specialized single-pass scan: each check
 * contributes declarations (its state, in locals), statements for the one
 * loop over the events, and the clause built from its final state.
 * Identifiers come from the check's index, never from user text.
 */
import type { Check, CountCheck, ForbiddenCheck, MetaBehavior, OrderingCheck, PairingCheck, Pattern, RequiredCheck } from "../ir/types.js";
import { lowerPattern, EVENT } from "./match.js";
import { lineCommentText, quoteString } from "./quote.js";

/** The pieces one check adds to its rule's scan function. */
export interface LoweredCheck {
  comment: string;
  declarations: string[];
  loop: string[];
  clause: string;
}

/** The arguments every clause builder takes first. */
function clauseArgs(check: Check): string {
  return `${quoteString(check.quote)}, events, complete`;
}

/**
 * `after:` keeps events strictly after the first `after` match: the check
 * looks at the event before the window may open on it.
 */
function lowerWindow(j: number, after: Pattern | undefined, guarded: string[]): { declarations: string[]; loop: string[]; open: string } {
  if (after === undefined) return { declarations: [], loop: guarded, open: "true" };
  const open = `open${j}`;
  return {
    declarations: [`let ${open} = false;`],
    loop: [`if (${open}) {`, ...guarded, `} else if ${lowerPattern(after)} ${open} = true;`],
    open,
  };
}

export function lowerOrdering(j: number, check: OrderingCheck): LoweredCheck {
  const first = `first${j}`;
  const before = `before${j}`;
  return {
    comment: "ordering",
    declarations: [`let ${first} = -1;`, `let ${before} = -1;`],
    // An event matching both sides sets both indexes; `first < before` then fails, as it must.
    loop: [
      `if (${before} < 0 && ${lowerPattern(check.before)}) ${before} = i;`,
      `if (${first} < 0 && ${lowerPattern(check.first)}) ${first} = i;`,
    ],
    clause: `orderingClause(${clauseArgs(check)}, ${first}, ${before})`,
  };
}

export function lowerPairing(j: number, check: PairingCheck): LoweredCheck {
  const eachs = `each${j}`;
  const followers = `followers${j}`;
  return {
    comment: "pairing",
    declarations: [`const ${eachs}: number[] = [];`, `const ${followers}: number[] = [];`],
    // followers[k] is the first follower of eachs[k]; the waiting `each` matches are the
    // tail of eachs past followers.length. A follower resolves them all at once, before
    // this event may itself start waiting (a follower is strictly later). Linear, no copies.
    loop: [
      `if (${followers}.length < ${eachs}.length && ${lowerPattern(check.followedBy)}) {`,
      `while (${followers}.length < ${eachs}.length) ${followers}.push(i);`,
      `}`,
      `if ${lowerPattern(check.each)} ${eachs}.push(i);`,
    ],
    clause: `pairingClause(${clauseArgs(check)}, ${eachs}, ${followers})`,
  };
}

export function lowerRequired(j: number, check: RequiredCheck): LoweredCheck {
  const found = `match${j}`;
  const window = lowerWindow(j, check.after, [`if (${found} < 0 && ${lowerPattern(check.match)}) ${found} = i;`]);
  return {
    comment: "required",
    declarations: [`let ${found} = -1;`, ...window.declarations],
    loop: window.loop,
    clause: `requiredClause(${clauseArgs(check)}, ${window.open}, ${found})`,
  };
}

export function lowerForbidden(j: number, check: ForbiddenCheck): LoweredCheck {
  const matches = `matches${j}`;
  const window = lowerWindow(j, check.after, [`if ${lowerPattern(check.match)} ${matches}.push(i);`]);
  return {
    comment: "forbidden",
    declarations: [`const ${matches}: number[] = [];`, ...window.declarations],
    loop: window.loop,
    clause: `forbiddenClause(${clauseArgs(check)}, ${window.open}, ${matches})`,
  };
}

/** The statement that counts event `i`, keeping only the first match per distinct value. */
function countStatement(j: number, check: CountCheck): string[] {
  const counted = `counted${j}`;
  const seen = `seen${j}`;
  const match = lowerPattern(check.match);
  if (check.distinctBy === undefined) return [`if ${match} ${counted}.push(i);`];
  if (check.distinctBy === "content") {
    const value = `value${j}`;
    return [
      `if ${match} {`,
      `const ${value} = ${EVENT}.content ?? "";`,
      `if (!${seen}.has(${value})) {`,
      `${seen}.add(${value});`,
      `${counted}.push(i);`,
      `}`,
      `}`,
    ];
  }
  const key = check.distinctBy.slice("metadata.".length);
  const value = `value${j}`;
  // Matches without the key are dropped; `typeof` also rejects inherited members such as `toString`.
  return [
    `if ${match} {`,
    `const ${value} = ${EVENT}.metadata?.[${quoteString(key)}];`,
    `if (typeof ${value} === "string" && !${seen}.has(${value})) {`,
    `${seen}.add(${value});`,
    `${counted}.push(i);`,
    `}`,
    `}`,
  ];
}

export function lowerCount(j: number, check: CountCheck): LoweredCheck {
  const counted = `counted${j}`;
  const window = lowerWindow(j, check.after, countStatement(j, check));
  const declarations = [`const ${counted}: number[] = [];`];
  if (check.distinctBy !== undefined) declarations.push(`const seen${j} = new Set<string>();`);
  return {
    comment: "count",
    declarations: [...declarations, ...window.declarations],
    loop: window.loop,
    clause: `countClause(${clauseArgs(check)}, ${window.open}, ${counted}, ${check.min ?? -1}, ${check.max ?? -1})`,
  };
}

export function lowerCheck(j: number, check: Check): LoweredCheck {
  switch (check.type) {
    case "ordering":
      return lowerOrdering(j, check);
    case "pairing":
      return lowerPairing(j, check);
    case "required":
      return lowerRequired(j, check);
    case "forbidden":
      return lowerForbidden(j, check);
    case "count":
      return lowerCount(j, check);
  }
}

/** Where each piece of a rule came from in judge.yaml, for the line comments. */
export interface RuleOrigin {
  file: string;
  line: number;
  checkLines: readonly number[];
}

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

/** A check's patterns' conditions, plus its own tests (`first0 < 0`, the window, …). */
function checkConditions(check: Check): number {
  const patterns = Object.values(check).filter((value): value is Pattern => Array.isArray(value));
  return 3 + patterns.reduce((n, pattern) => n + patternConditions(pattern), 0);
}

/**
 * The most conditions one function's loop body holds. TypeScript analyses the
 * flow of each reference back through every condition before it in the same
 * function: the cost grows with the square of the conditions, and past about
 * 2,000 nested branches it gives up (TS2563, "too large for control flow
 * analysis"; 500 small checks did it). Rules under the limit, every real one,
 * keep all their checks in the loop itself.
 */
export const STEP_CONDITIONS = 64;

/** Consecutive checks grouped so that each group holds at most STEP_CONDITIONS (or is one check). */
function stepsOf(checks: readonly Check[]): number[][] {
  const steps: number[][] = [];
  let current: number[] = [];
  let conditions = 0;
  checks.forEach((check, j) => {
    const own = checkConditions(check);
    if (current.length > 0 && conditions + own > STEP_CONDITIONS) {
      steps.push(current);
      current = [];
      conditions = 0;
    }
    current.push(j);
    conditions += own;
  });
  if (current.length > 0) steps.push(current);
  return steps;
}

/**
 * The body of `scan<n>(events, complete)`: state declarations, one loop over
 * the events, then the clauses (or null when a match trigger never fired).
 * When the checks hold more than STEP_CONDITIONS, each group of them looks at
 * the event in a `step<k>(e, i)` closure over the same state, called from the
 * one loop: still a single pass, with each function small for the type check.
 */
export function lowerRuleScanBody(rule: MetaBehavior, origin: RuleOrigin): string[] {
  const checks = rule.checks.map((check, j) => lowerCheck(j, check));
  const matchTrigger = rule.trigger.match;
  const declarations: string[] = [];
  const loop: string[] = [];
  if (matchTrigger !== undefined) {
    declarations.push("let triggered = false;");
    loop.push(`if (!triggered && ${lowerPattern(matchTrigger)}) triggered = true;`);
  }
  checks.forEach((lowered, j) => {
    const where = `${lineCommentText(origin.file)}:${origin.checkLines[j] ?? origin.line}`;
    declarations.push(`// checks[${j}]: ${lowered.comment} (${where})`, ...lowered.declarations);
  });
  const steps = stepsOf(rule.checks);
  if (steps.length <= 1) {
    for (const lowered of checks) loop.push(...lowered.loop);
  } else {
    declarations.push(
      `// ${steps.length} steps look at each event: one function holding every check is too large for the type check.`,
    );
    steps.forEach((step, k) => {
      const first = step[0]!;
      const last = step[step.length - 1]!;
      const which = first === last ? `checks[${first}]` : `checks[${first}..${last}]`;
      declarations.push(
        `const step${k} = (${EVENT}: TrajectoryEvent, i: number): void => {`,
        `// ${which}`,
        ...step.flatMap((j) => checks[j]!.loop),
        `};`,
      );
      loop.push(`step${k}(${EVENT}, i);`);
    });
  }
  const body = [...declarations];
  if (loop.length > 0) {
    body.push(`for (let i = 0; i < events.length; i++) {`, `const ${EVENT} = events[i]!;`, ...loop, `}`);
  }
  if (matchTrigger !== undefined) body.push("if (!triggered) return null;");
  body.push(`return [${checks.map((c) => c.clause).join(", ")}];`);
  return body;
}
