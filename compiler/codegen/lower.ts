/**
 * Lowers one meta-behavior to a resumable stepper: a class whose fields are
 * the rule's state (the ids of the events that matter), `step(e)` specialized
 * to its patterns, `finish(complete)` building its clauses, and what a
 * monitor needs besides (`violations`, `obligations`, `save`, `restore`).
 * Each check contributes fields and the code of each method; identifiers
 * come from the check's index (`name`), never from user text.
 */
import type { Check, CountCheck, ForbiddenCheck, MetaBehavior, OrderingCheck, PairingCheck, Pattern, RequiredCheck } from "../ir/types.js";
import { code, comment, join, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { checkBySteppingACopy, checkWithoutStepping, decidesWithoutStepping } from "./lower-check.js";
import { isExtended, lowerExtended } from "./lower-extended.js";
import { both, clauseBase, list, lowerWindow, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";
import { groupsOf, method } from "./methods.js";
import { EVIDENCE_SHOWN } from "../../runtime/evidence.js";

export type { Field, LoweredCheck } from "./lowered.js";
export { STEP_CONDITIONS } from "./methods.js";

/**
 * The fields a pattern tests besides the action, as runtime/evidence.ts names
 * them (`actor`, `content`, `metadata.<key>`): what an event's description
 * shows, so a near miss or a match shows the value that decided.
 */
function testedFields(pattern: Pattern): string[] {
  const fields = new Set<string>();
  for (const m of pattern) if (m.actor !== undefined) fields.add("actor");
  for (const m of pattern) if (m.content !== undefined || m.contentIncludes !== undefined) fields.add("content");
  for (const m of pattern) for (const key of Object.keys(m.metadata ?? {})) fields.add(`metadata.${key}`);
  return [...fields];
}

/** The action names a pattern's matchers state literally (a string, `equals`, `in`): what a near miss shares. */
function statedActions(pattern: Pattern): string[] {
  const actions = new Set<string>();
  for (const { action } of pattern) {
    if (typeof action === "string") actions.add(action);
    else if (action !== undefined && "equals" in action) actions.add(action.equals);
    else if (action !== undefined && "in" in action) for (const a of action.in) actions.add(a);
  }
  return [...actions];
}

/** `eventFacts(e, ["actor", "metadata.status"])`: the event described (runtime/evidence.ts). */
function describeEvent(fields: readonly string[], constants: Constants): Code {
  return code`${constants.runtime("eventFacts")}(${EVENT}, [${join(fields.map((f) => lit(f)))}])`;
}

/** Describes the event into `facts` while it holds fewer than EVIDENCE_SHOWN (with `also`: a count's `distinctBy`). */
function noteFacts(facts: Code, pattern: Pattern, constants: Constants, also?: string): Code {
  const fields = testedFields(pattern);
  if (also !== undefined && !fields.includes(also)) fields.push(also);
  return code`if (${facts}.length < ${EVIDENCE_SHOWN}) ${facts}.push(${describeEvent(fields, constants)});`;
}

export function lowerOrdering(j: number, check: OrderingCheck, constants: Constants): LoweredCheck {
  const first = self(name("first", j));
  const before = self(name("before", j));
  const beforeFacts = self(name("beforeFacts", j));
  const nearMisses = self(name("nearMisses", j));
  const missed = self(name("missed", j));
  const actions = statedActions(check.first);
  // A near miss: an event of `first`'s action that is not a `first` match, before the `before` match.
  const nearMiss =
    actions.length === 0
      ? []
      : [
          code`else if (${first} === undefined && ${lowerPattern([{ action: actions.length === 1 ? actions[0]! : { in: actions } }], constants)}) {`,
          code`${missed}++;`,
          noteFacts(nearMisses, check.first, constants),
          code`}`,
        ];
  return {
    type: "ordering",
    fields: [
      value(name("first", j), code`string | undefined`, code`undefined`),
      value(name("before", j), code`string | undefined`, code`undefined`),
      value(name("beforeFacts", j), code`string | undefined`, code`undefined`),
      list(name("nearMisses", j)),
      value(name("missed", j), code`number`, code`0`),
    ],
    // Only the first `before` match matters, and a `first` match only before it
    // (an event matching both is not its own earlier `first`).
    step: [
      code`if (${before} === undefined) {`,
      code`if ${lowerPattern(check.before, constants)} {`,
      code`${before} = ${EVENT}.id;`,
      code`${beforeFacts} = ${describeEvent([], constants)};`,
      code`} else if (${first} === undefined && ${lowerPattern(check.first, constants)}) ${first} = ${EVENT}.id;`,
      ...nearMiss,
      code`}`,
    ],
    clause: code`orderingClause({ ${clauseBase(check)}, first: ${first}, before: ${before}, beforeFacts: ${beforeFacts}, nearMisses: ${nearMisses}, missed: ${missed}, nearActions: [${join(actions.map((a) => lit(a)))}] })`,
    violation: {
      when: code`${before} !== undefined && ${first} === undefined`,
      cited: code`1`,
      ids: code`${constants.runtime("reportId")}(${before})`,
    },
    // The whole step waits for the first `before` match.
    settled: code`${before} !== undefined`,
  };
}

export function lowerPairing(j: number, check: PairingCheck, constants: Constants): LoweredCheck {
  const cited = self(name("cited", j));
  const waiting = self(name("waiting", j));
  const carried = self(name("carried", j));
  // Tested once, before the follower's test narrows the event's type (TS2367 on a disjoint action).
  const each = name("each", j);
  return {
    type: "pairing",
    fields: [
      { ...list(name("cited", j), constants.runtime("CitationList")), init: code`new ${constants.runtime("CitationList")}()` },
      value(name("waiting", j), code`number`, code`0`),
      list(name("carried", j)),
    ],
    // The citations of a true clause, made as the events come; the `each` matches waiting are
    // the last `waiting` of them. A follower answers them all at once, cited once, before this
    // event may itself start waiting (a follower is strictly later): then it is carried.
    step: [
      code`const ${each} = ${lowerPattern(check.each, constants)};`,
      code`if (${waiting} > 0 && ${lowerPattern(check.followedBy, constants)}) {`,
      code`${cited}.pushFollower(${EVENT}.id, ${waiting});`,
      code`${waiting} = 0;`,
      code`if (${each}) {`,
      code`${carried}.push(${EVENT}.id);`,
      code`${waiting} = 1;`,
      code`}`,
      code`} else if (${each}) {`,
      code`${cited}.push(${constants.runtime("pairedEach")}(${EVENT}.id));`,
      code`${waiting}++;`,
      code`}`,
    ],
    clause: code`pairingClause({ ${clauseBase(check)}, cited: ${cited}, waiting: ${waiting}, carried: ${carried} })`,
    obligation: { when: code`${waiting} > 0`, ids: code`${constants.runtime("waitingIds")}(${cited}, ${waiting})` },
  };
}

export function lowerRequired(j: number, check: RequiredCheck, constants: Constants): LoweredCheck {
  const match = self(name("match", j));
  const window = lowerWindow(
    j,
    check.after,
    [code`if (${match} === undefined && ${lowerPattern(check.match, constants)}) ${match} = ${EVENT}.id;`],
    constants,
  );
  return {
    type: "required",
    fields: [value(name("match", j), code`string | undefined`, code`undefined`), ...window.fields],
    step: window.step,
    clause: code`requiredClause({ ${clauseBase(check)}${window.option}, match: ${match} })`,
    obligation: { when: both(window.open, code`${match} === undefined`), ids: window.openerIds },
    // Only the first match is kept (and it is found only once the window is open).
    settled: code`${match} !== undefined`,
  };
}

export function lowerForbidden(j: number, check: ForbiddenCheck, constants: Constants): LoweredCheck {
  const matches = self(name("matches", j));
  const facts = self(name("facts", j));
  const window = lowerWindow(
    j,
    check.after,
    [
      code`if ${lowerPattern(check.match, constants)} {`,
      code`${matches}.push(${EVENT}.id);`,
      noteFacts(facts, check.match, constants),
      code`}`,
    ],
    constants,
  );
  return {
    type: "forbidden",
    fields: [list(name("matches", j)), list(name("facts", j)), ...window.fields],
    step: window.step,
    clause: code`forbiddenClause({ ${clauseBase(check)}${window.option}, matches: ${matches}, facts: ${facts} })`,
    // Matches are only ever recorded inside the window: any one makes the clause false.
    violation: { cited: code`${matches}.length`, ids: code`${constants.runtime("reportIds")}(${matches})` },
  };
}

/** The statements that count the event, keeping only the first match per distinct value. */
function countStatements(j: number, check: CountCheck, constants: Constants): Code[] {
  const counted = self(name("counted", j));
  const seen = self(name("seen", j));
  const added = self(name("added", j));
  const match = lowerPattern(check.match, constants);
  const facts = noteFacts(self(name("facts", j)), check.match, constants, check.distinctBy);
  if (check.distinctBy === undefined) return [code`if ${match} {`, code`${counted}.push(${EVENT}.id);`, facts, code`}`];
  const distinct = name("distinct", j);
  // Matches without the key are dropped; `typeof` also rejects inherited members such as `toString`.
  const [read, fresh] =
    check.distinctBy === "content"
      ? [code`const ${distinct} = ${EVENT}.content ?? "";`, code`!${seen}.has(${distinct})`]
      : [
          code`const ${distinct} = ${EVENT}.metadata?.[${lit(check.distinctBy.slice("metadata.".length))}];`,
          code`typeof ${distinct} === "string" && !${seen}.has(${distinct})`,
        ];
  return [
    code`if ${match} {`,
    read,
    code`if (${fresh}) {`,
    code`${seen}.add(${distinct});`,
    code`${added} = ${distinct};`,
    code`${counted}.push(${EVENT}.id);`,
    facts,
    code`}`,
    code`}`,
  ];
}

export function lowerCount(j: number, check: CountCheck, constants: Constants): LoweredCheck {
  const counted = self(name("counted", j));
  const window = lowerWindow(j, check.after, countStatements(j, check, constants), constants);
  const fields = [list(name("counted", j)), list(name("facts", j))];
  if (check.distinctBy !== undefined) {
    fields.push({ name: name("seen", j), type: code`Set<string>`, init: code`new Set()`, kind: "set", added: name("added", j) });
    fields.push(value(name("added", j), code`string`, code`""`));
  }
  const bounds = [
    check.min === undefined ? code`` : code`, min: ${check.min}`,
    check.max === undefined ? code`` : code`, max: ${check.max}`,
  ];
  const lowered: LoweredCheck = {
    type: "count",
    fields: [...fields, ...window.fields],
    step: window.step,
    clause: code`countClause({ ${clauseBase(check)}${window.option}, counted: ${counted}${join(bounds, code``)}, facts: ${self(name("facts", j))} })`,
  };
  // Counted matches are only ever inside the window, so more than `max` is false for good.
  if (check.max !== undefined)
    lowered.violation = {
      when: code`${counted}.length > ${check.max}`,
      cited: code`${counted}.length`,
      ids: code`${constants.runtime("reportIds")}(${counted})`,
    };
  if (check.min !== undefined && check.min > 0) {
    lowered.obligation = {
      when: both(window.open, code`${counted}.length < ${check.min}`),
      ids: code`${constants.runtime("reportIds")}(${counted})`,
    };
  }
  return lowered;
}

/** Check `j` of rule `r`: the indexes name its fields and its reports. */
export function lowerCheck(j: number, check: Check, constants: Constants): LoweredCheck {
  // A check that uses none of the extended forms is lowered as it always was: same code, same bytes.
  if (isExtended(check)) return lowerExtended(j, check, constants);
  switch (check.type) {
    case "ordering":
      return lowerOrdering(j, check, constants);
    case "pairing":
      return lowerPairing(j, check, constants);
    case "required":
      return lowerRequired(j, check, constants);
    case "forbidden":
      return lowerForbidden(j, check, constants);
    case "count":
      return lowerCount(j, check, constants);
    case "condition":
      return lowerExtended(j, check, constants);
  }
}

/** Where each piece of a rule came from in judge.yaml, for the line comments. */
export interface RuleOrigin {
  file: string;
  line: number | undefined;
  checkLines: readonly (number | undefined)[];
}

function where(origin: RuleOrigin, line: number | undefined): string {
  return line === undefined ? origin.file : `${origin.file}:${line}`;
}

/**
 * The class `Rule<index>`: one rule's stepper (runtime/stepper.ts). A match
 * trigger is a field too (`triggered`); a semantic one is decided by a model
 * at the end, so its rule reports nothing while running.
 */
export function lowerRule(rule: MetaBehavior, index: number, origin: RuleOrigin, constants: Constants): LoweredRule {
  // Lowered twice: first to count the pattern tests `step` makes, then with
  // each test made more than once (a trigger that is also a check's pattern,
  // two checks on the same events) evaluated once, at the top of `step`. Not
  // when `step` is split into parts, whose bodies would not see the locals.
  const split = groupsOf(rule.checks).length > 1;
  // A monitor's check: written before the patterns are counted, so it neither adds to `step`'s
  // shared tests nor uses `step`'s locals.
  const check = decidesWithoutStepping(rule) ? checkWithoutStepping(rule, index, constants) : undefined;
  constants.countPatterns();
  if (!split) lowerRuleOnce(rule, index, origin, constants, [], check);
  const shared = split ? [] : constants.sharePatterns();
  const lowered = lowerRuleOnce(rule, index, origin, constants, shared, check);
  constants.endPatterns();
  return lowered;
}

/** A rule's stepper class, and whether it has a `settled` field (`Rules.step` then reads it first). */
export interface LoweredRule {
  code: Code;
  settles: boolean;
}

/**
 * When no later event can change the rule's state: its match trigger fired
 * and every check settled (LoweredCheck.settled). Undefined when some check
 * never settles, or when the rule has no state at all.
 */
function settledWhen(checks: readonly LoweredCheck[], matchTrigger: Pattern | undefined): Code | undefined {
  if (checks.some((lowered) => lowered.settled === undefined)) return undefined;
  const conditions = [...(matchTrigger === undefined ? [] : [code`this.triggered`]), ...checks.map((lowered) => lowered.settled!)];
  return conditions.length === 0 ? undefined : join(conditions, code` && `);
}

function lowerRuleOnce(
  rule: MetaBehavior,
  index: number,
  origin: RuleOrigin,
  constants: Constants,
  shared: readonly { test: Code; local: Code }[],
  check: Code[] | undefined,
): LoweredRule {
  const checks = rule.checks.map((check, j) => lowerCheck(j, check, constants));
  const groups = groupsOf(rule.checks);
  const matchTrigger = rule.trigger.match;
  const settled = settledWhen(checks, matchTrigger);
  const ruleFields: Field[] = matchTrigger === undefined ? [] : [value(code`triggered`, code`boolean`, code`false`)];
  const reported = (j: number) => self(name("reported", j));
  // What was reported is kept only where something can be: a check that can be certainly false, in a rule with a match trigger.
  const fieldsOf = (lowered: LoweredCheck, j: number): Field[] =>
    lowered.violation === undefined || matchTrigger === undefined
      ? lowered.fields
      : [...lowered.fields, value(name("reported", j), code`number`, code`0`)];
  // Set by the step that settles the rule; a field, not a method, so that `Rules.step` reads it
  // without a call (a judge of 100 rules calling 100 `settled()` methods was slower than before).
  const settledFields: Field[] = settled === undefined ? [] : [value(code`settled`, code`boolean`, code`false`)];
  const allFields = [...ruleFields, ...checks.flatMap(fieldsOf), ...settledFields];
  // save() keeps each field (a list or set by its size) in the module's `saved` list, at its
  // place among the fields that are not keyed (a keyed map journals its own changes).
  const savedAt = new Map(allFields.filter((field) => field.kind !== "keyed").map((field, k) => [String(field.name), k]));
  const saved = (field: Field) => code`saved[${savedAt.get(String(field.name))!}]`;

  // The fields are declared for TypeScript and set by the constructor: assignments in a
  // constructor make a stepper faster than class field initializers do, which a large judge
  // pays for each rule a session touches. The comments say which fields are whose.
  const declarations: Code[] = [];
  const inits: Code[] = [];
  const owners: Code[] = [];
  const declare = (field: Field) => {
    declarations.push(code`declare ${field.name}: ${field.type};`);
    inits.push(code`this.${field.name} = ${field.init};`);
  };
  ruleFields.forEach(declare);
  checks.forEach((lowered, j) => {
    const own = fieldsOf(lowered, j);
    const names = own.length === 0 ? "no state" : own.map((field) => String(field.name)).join(", ");
    owners.push(comment(`checks[${j}]: ${lowered.type} (${where(origin, origin.checkLines[j])}): ${names}`));
    own.forEach(declare);
  });
  if (settled !== undefined) owners.push(comment("settled: no later event can change this rule's state, so Rules.step steps it no more"));
  settledFields.forEach(declare);
  const constructor = code`constructor() {\n${join(inits, code`\n`)}\n}`;

  const step = method({
    name: "step",
    params: code`${EVENT}: StepEvent`,
    args: EVENT,
    head: [
      ...(shared.length === 0 ? [] : [comment("Patterns this step tests more than once, each tested once per event.")]),
      ...shared.map(({ test, local }) => code`const ${local} = ${test};`),
      ...(matchTrigger === undefined
        ? []
        : [code`if (!this.triggered && ${lowerPattern(matchTrigger, constants)}) this.triggered = true;`]),
    ],
    perCheck: checks.map((lowered) => lowered.step),
    groups,
    tail: settled === undefined ? [] : [code`if (${settled}) this.settled = true;`],
  });
  const finish = code`finish(complete: boolean): Clause[] | null {
${matchTrigger === undefined ? code`` : code`if (!this.triggered) return null;`}
return [${join(checks.map((c) => c.clause))}];
}`;
  // Reports wait for the trigger; a semantic trigger fires only at the end, when a model decides it.
  const reports = (methodName: "violations" | "obligations", perCheck: Code[][]) =>
    method({
      name: methodName,
      params: code`found: Found`,
      args: code`found`,
      head:
        matchTrigger === undefined
          ? [comment("A semantic trigger is decided at the end: nothing is reported before.")]
          : perCheck.every((statements) => statements.length === 0)
            ? [
                comment(
                  `No check of this rule ${methodName === "violations" ? "can be certainly false before the end" : "can be owed anything"}.`,
                ),
              ]
            : [code`if (!this.triggered) return;`],
      perCheck: matchTrigger === undefined ? [] : perCheck,
      groups,
      tail: [],
    });
  const violations = reports(
    "violations",
    checks.map((lowered, j) => {
      const v = lowered.violation;
      if (v === undefined) return [];
      return [
        code`if (${both(v.when, code`${reported(j)} < ${v.cited}`)}) {`,
        code`${reported(j)} = ${v.cited};`,
        v.explanation === undefined ? code`found(${index}, ${j}, ${v.ids});` : code`found(${index}, ${j}, ${v.ids}, ${v.explanation});`,
        code`}`,
      ];
    }),
  );
  const obligations = reports(
    "obligations",
    checks.map((lowered, j) => {
      const o = lowered.obligation;
      return o === undefined ? [] : [code`if (${o.when}) found(${index}, ${j}, ${o.ids});`];
    }),
  );
  const save = code`/** Keeps the state in \`saved\` for restore(): values as they are, lists and sets by their size. */
save(): void {
${join(
  allFields.map((field) =>
    field.kind === "keyed"
      ? code`this.${field.name}.save();`
      : code`${saved(field)} = this.${field.name}${field.kind === "value" ? code`` : field.kind === "list" ? code`.length` : code`.size`};`,
  ),
  code`\n`,
)}
}`;
  // Sets first: undoing an add reads the `added` value before it is restored.
  const undo = (field: Field): Code[] => {
    if (field.kind === "keyed") return [code`${self(field.name)}.restore();`];
    const f = self(field.name);
    const s = saved(field);
    if (field.kind === "list") return [code`if (${f}.length !== ${s}) ${f}.length = ${s} as number;`];
    if (field.kind === "set") return [code`if (${f}.size !== ${s}) ${f}.delete(${self(field.added!)});`];
    return [];
  };
  const restore = method({
    name: "restore",
    params: code``,
    args: code``,
    head: [],
    perCheck: checks.map((lowered, j) => fieldsOf(lowered, j).flatMap(undo)),
    groups,
    tail: allFields.filter((f) => f.kind === "value").map((field) => code`${self(field.name)} = ${saved(field)} as ${field.type};`),
  });

  const body = [
    join(declarations, code`\n`),
    code`${join(owners, code`\n`)}\n${constructor}`,
    step[0]!,
    finish,
    violations[0]!,
    obligations[0]!,
    // A rule whose check decides from its fields needs no save() nor restore().
    ...(check === undefined ? [checkBySteppingACopy, save, restore[0]!] : [check[0]!]),
    ...step.slice(1),
    ...violations.slice(1),
    ...obligations.slice(1),
    ...(check === undefined ? restore.slice(1) : check.slice(1)),
  ];
  return {
    code: code`${comment(`${rule.name} (${where(origin, origin.line)})`)}
class ${name("Rule", index)} implements RuleStepper {
${join(body, code`\n\n`)}
}`,
    settles: settled !== undefined,
  };
}
