/**
 * Lowers one meta-behavior to a specialized single-pass scan: each check
 * contributes declarations (its state, in locals), statements for the one
 * loop over the events, and the clause built from its final state.
 * Identifiers come from the check's index (`name`), never from user text.
 */
import type { Check, CountCheck, ForbiddenCheck, MetaBehavior, OrderingCheck, PairingCheck, Pattern, RequiredCheck } from "../ir/types.js";
import { code, comment, join, lit, name, type Code } from "./code.js";
import { lowerPattern, EVENT } from "./match.js";

/** The pieces one check adds to its rule's scan function. */
export interface LoweredCheck {
  comment: string;
  declarations: Code[];
  loop: Code[];
  clause: Code;
}

/** The arguments every clause builder takes first. */
function clauseArgs(check: Check): Code {
  return code`${lit(check.quote)}, events, complete`;
}

/**
 * `after:` keeps events strictly after the first `after` match: the check
 * looks at the event before the window may open on it.
 */
function lowerWindow(j: number, after: Pattern | undefined, guarded: Code[]): { declarations: Code[]; loop: Code[]; open: Code } {
  if (after === undefined) return { declarations: [], loop: guarded, open: code`true` };
  const open = name("open", j);
  return {
    declarations: [code`let ${open} = false;`],
    loop: [code`if (${open}) {`, ...guarded, code`} else if ${lowerPattern(after)} ${open} = true;`],
    open,
  };
}

export function lowerOrdering(j: number, check: OrderingCheck): LoweredCheck {
  const first = name("first", j);
  const before = name("before", j);
  return {
    comment: "ordering",
    declarations: [code`let ${first} = -1;`, code`let ${before} = -1;`],
    // An event matching both sides sets both indexes; `first < before` then fails, as it must.
    loop: [
      code`if (${before} < 0 && ${lowerPattern(check.before)}) ${before} = i;`,
      code`if (${first} < 0 && ${lowerPattern(check.first)}) ${first} = i;`,
    ],
    clause: code`orderingClause(${clauseArgs(check)}, ${first}, ${before})`,
  };
}

export function lowerPairing(j: number, check: PairingCheck): LoweredCheck {
  const eachs = name("each", j);
  const followers = name("followers", j);
  return {
    comment: "pairing",
    declarations: [code`const ${eachs}: number[] = [];`, code`const ${followers}: number[] = [];`],
    // followers[k] is the first follower of eachs[k]; the waiting `each` matches are the
    // tail of eachs past followers.length. A follower resolves them all at once, before
    // this event may itself start waiting (a follower is strictly later). Linear, no copies.
    loop: [
      code`if (${followers}.length < ${eachs}.length && ${lowerPattern(check.followedBy)}) {`,
      code`while (${followers}.length < ${eachs}.length) ${followers}.push(i);`,
      code`}`,
      code`if ${lowerPattern(check.each)} ${eachs}.push(i);`,
    ],
    clause: code`pairingClause(${clauseArgs(check)}, ${eachs}, ${followers})`,
  };
}

export function lowerRequired(j: number, check: RequiredCheck): LoweredCheck {
  const found = name("match", j);
  const window = lowerWindow(j, check.after, [code`if (${found} < 0 && ${lowerPattern(check.match)}) ${found} = i;`]);
  return {
    comment: "required",
    declarations: [code`let ${found} = -1;`, ...window.declarations],
    loop: window.loop,
    clause: code`requiredClause(${clauseArgs(check)}, ${window.open}, ${found})`,
  };
}

export function lowerForbidden(j: number, check: ForbiddenCheck): LoweredCheck {
  const matches = name("matches", j);
  const window = lowerWindow(j, check.after, [code`if ${lowerPattern(check.match)} ${matches}.push(i);`]);
  return {
    comment: "forbidden",
    declarations: [code`const ${matches}: number[] = [];`, ...window.declarations],
    loop: window.loop,
    clause: code`forbiddenClause(${clauseArgs(check)}, ${window.open}, ${matches})`,
  };
}

/** The statement that counts event `i`, keeping only the first match per distinct value. */
function countStatement(j: number, check: CountCheck): Code[] {
  const counted = name("counted", j);
  const seen = name("seen", j);
  const match = lowerPattern(check.match);
  if (check.distinctBy === undefined) return [code`if ${match} ${counted}.push(i);`];
  const value = name("value", j);
  if (check.distinctBy === "content") {
    return [
      code`if ${match} {`,
      code`const ${value} = ${EVENT}.content ?? "";`,
      code`if (!${seen}.has(${value})) {`,
      code`${seen}.add(${value});`,
      code`${counted}.push(i);`,
      code`}`,
      code`}`,
    ];
  }
  const key = check.distinctBy.slice("metadata.".length);
  // Matches without the key are dropped; `typeof` also rejects inherited members such as `toString`.
  return [
    code`if ${match} {`,
    code`const ${value} = ${EVENT}.metadata?.[${lit(key)}];`,
    code`if (typeof ${value} === "string" && !${seen}.has(${value})) {`,
    code`${seen}.add(${value});`,
    code`${counted}.push(i);`,
    code`}`,
    code`}`,
  ];
}

export function lowerCount(j: number, check: CountCheck): LoweredCheck {
  const counted = name("counted", j);
  const window = lowerWindow(j, check.after, countStatement(j, check));
  const declarations = [code`const ${counted}: number[] = [];`];
  if (check.distinctBy !== undefined) declarations.push(code`const ${name("seen", j)} = new Set<string>();`);
  return {
    comment: "count",
    declarations: [...declarations, ...window.declarations],
    loop: window.loop,
    clause: code`countClause(${clauseArgs(check)}, ${window.open}, ${counted}, ${check.min ?? -1}, ${check.max ?? -1})`,
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
 * The body of `scan<n>(events, complete)`: state declarations, one loop over
 * the events, then the clauses (or null when a match trigger never fired).
 */
export function lowerRuleScanBody(rule: MetaBehavior, origin: RuleOrigin): Code[] {
  const checks = rule.checks.map((check, j) => lowerCheck(j, check));
  const matchTrigger = rule.trigger.match;
  const declarations: Code[] = [];
  const loop: Code[] = [];
  if (matchTrigger !== undefined) {
    declarations.push(code`let triggered = false;`);
    loop.push(code`if (!triggered && ${lowerPattern(matchTrigger)}) triggered = true;`);
  }
  checks.forEach((lowered, j) => {
    declarations.push(comment(`checks[${j}]: ${lowered.comment} (${origin.file}:${origin.checkLines[j] ?? origin.line})`), ...lowered.declarations);
    loop.push(...lowered.loop);
  });
  const body = [...declarations];
  if (loop.length > 0) {
    body.push(code`for (let i = 0; i < events.length; i++) {`, code`const ${EVENT} = events[i]!;`, ...loop, code`}`);
  }
  if (matchTrigger !== undefined) body.push(code`if (!triggered) return null;`);
  body.push(code`return [${join(checks.map((c) => c.clause))}];`);
  return body;
}
