/**
 * Lowers the checks that use the extended forms of the rule language
 * (docs/FORMATS.md §10) to a share of their rule's stepper, as lower.ts does
 * for version 1's. Each event is seen once; state per key value lives in a
 * `Keyed` map (runtime/keyed.ts) sized by the distinct values seen, so a step
 * costs O(keys the event touches), never O(events so far). A check that uses
 * no extension never comes here: its code is version 1's, byte for byte.
 *
 * Statement order inside a step is part of the semantics: an event is first
 * judged against what came strictly before it (served as a follower, tested
 * as a match inside open windows, evaluated as an `each` event), and only
 * then recorded as what later events will look back to.
 */
import type { Check, ConditionCheck, CountCheck, ForbiddenCheck, OrderingCheck, PairingCheck, RequiredCheck } from "../ir/types.js";
import { keyOf, sidesOf } from "../ir/values.js";
import { parseWhen } from "../ir/when.js";
import { compileRegex } from "../ir/regex-program.js";
import { code, join, lit, name, name2, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { lowerWhen, WHEN_RUNTIME_NAMES } from "./lower-when.js";
import { clauseBase, keyed, list, lowerWindow, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";
import { regexLiteral } from "./regex.js";

/** True when the check uses a form version 1 does not have (a value matcher alone does not count: patterns lower the same way). */
export function isExtended(check: Check): boolean {
  switch (check.type) {
    case "ordering":
      return check.on !== undefined || check.fresh === true;
    case "pairing":
      return check.on !== undefined || check.within !== undefined;
    case "required":
    case "forbidden":
      return check.on !== undefined;
    case "count":
      return check.on !== undefined || check.per !== undefined || check.sum !== undefined;
    case "condition":
      return true;
  }
}

/** The event's value of metadata key `key`: `unknown`, since an inherited member may answer (`toString`). */
function metadataOf(key: string): Code {
  return code`${EVENT}.metadata?.[${lit(key)}]`;
}

export function lowerKeyedOrdering(j: number, check: OrderingCheck, constants: Constants): LoweredCheck {
  const sides = check.on === undefined ? undefined : sidesOf(check.on, "first", "before");
  const fresh = check.fresh === true;
  const pairs = self(name("pairs", j));
  const failed = self(name("failed", j));
  const failedKey = self(name("failedKey", j));
  // With on: per key, the first `first` event (or, fresh, the earliest since that key's last `before`); fresh alone: one value.
  const memo = self(name("memo", j));
  const keyBefore = name("keyBefore", j);
  const keyFirst = name("keyFirst", j);
  const found = name("found", j);
  const fields: Field[] = [list(name("pairs", j)), value(name("failed", j), code`string | undefined`, code`undefined`)];
  if (sides !== undefined)
    fields.push(value(name("failedKey", j), code`string | null`, code`null`), keyed(name("memo", j), code`string`, constants));
  else fields.push(value(name("memo", j), code`string | undefined`, code`undefined`));

  const onBefore: Code[] =
    sides === undefined
      ? [
          code`if (${memo} === undefined) ${failed} = ${EVENT}.id;`,
          code`else {`,
          code`${pairs}.push(${memo}, ${EVENT}.id);`,
          code`${memo} = undefined;`,
          code`}`,
        ]
      : [
          code`const ${keyBefore} = ${metadataOf(sides.before)};`,
          code`const ${found} = typeof ${keyBefore} === "string" ? ${memo}.get(${keyBefore}) : undefined;`,
          code`if (${found} === undefined) {`,
          code`${failed} = ${EVENT}.id;`,
          code`${failedKey} = typeof ${keyBefore} === "string" ? ${keyBefore} : null;`,
          code`} else {`,
          code`${pairs}.push(${found}, ${EVENT}.id);`,
          ...(fresh ? [code`${memo}.delete(${keyBefore} as string);`] : []),
          code`}`,
        ];
  const onFirst: Code[] =
    sides === undefined
      ? [code`if (${memo} === undefined) ${memo} = ${EVENT}.id;`]
      : [
          code`const ${keyFirst} = ${metadataOf(sides.first)};`,
          code`if (typeof ${keyFirst} === "string" && !${memo}.has(${keyFirst})) ${memo}.set(${keyFirst}, ${EVENT}.id);`,
        ];
  const keyOption = sides === undefined ? code`` : code`, failedKey: ${failedKey}, key: ${lit(sides.before)}`;
  return {
    type: "ordering",
    fields,
    // Once a `before` event lacked its `first`, the clause is false for good: nothing more to track.
    step: [
      code`if (${failed} === undefined) {`,
      code`if ${lowerPattern(check.before, constants)} {`,
      ...onBefore,
      code`} else if ${lowerPattern(check.first, constants)} {`,
      ...onFirst,
      code`}`,
      code`}`,
    ],
    clause: code`${constants.runtime("keyedOrderingClause")}({ ${clauseBase(check)}, pairs: ${pairs}, failed: ${failed}${keyOption}, fresh: ${fresh} })`,
    violation: {
      when: code`${failed} !== undefined`,
      cited: code`1`,
      ids: code`[${failed}!]`,
      explanation: code`${constants.runtime("orderingExplanation")}(${failed}!, ${sides === undefined ? code`null` : failedKey}, ${sides === undefined ? code`undefined` : lit(sides.before)}, ${fresh})`,
    },
  };
}

export function lowerExtendedPairing(j: number, check: PairingCheck, constants: Constants): LoweredCheck {
  const sides = check.on === undefined ? undefined : sidesOf(check.on, "each", "followedBy");
  const within = check.within;
  const each = self(name("each", j));
  const eachKeys = self(name("eachKeys", j));
  const eachAt = self(name("eachAt", j));
  const servedIndex = self(name("servedIndex", j));
  const servedBy = self(name("servedBy", j));
  // The `each` events still waiting, per key: the newest one's index, and from each the one before it (-1: none).
  const lastWaiting = self(name("lastWaiting", j));
  const prevWaiting = self(name("prevWaiting", j));
  const servedAhead = self(name("servedAhead", j));
  const failed = self(name("failedEach", j));
  const failedAt = self(name("failedAt", j));
  const lastFailedAt = self(name("lastFailedAt", j));
  const expireFrom = self(name("expireFrom", j));
  const position = self(name("position", j));
  const at = name("at", j);
  const keyFollower = name("keyFollower", j);
  const keyEach = name("keyEach", j);
  const waiting = name("waiting", j);
  const index = name("index", j);

  const fields: Field[] = [
    list(name("each", j)),
    list(name("servedIndex", j), code`number[]`),
    list(name("servedBy", j)),
    keyed(name("lastWaiting", j), code`number`, constants),
    list(name("prevWaiting", j), code`number[]`),
  ];
  if (sides !== undefined) fields.push(list(name("eachKeys", j), code`(string | null)[]`));
  if (within !== undefined) {
    fields.push(
      list(name("eachAt", j), code`number[]`),
      // The served `each` events the expiry has not passed yet: at most `within` of them, whatever the trajectory's length.
      keyed(name("servedAhead", j), code`true`, constants, code`number`),
      list(name("failedEach", j), code`number[]`),
      value(name("failedAt", j), code`string | undefined`, code`undefined`),
      // The event at which the newest failed one failed: what a monitor's violation explains.
      value(name("lastFailedAt", j), code`string`, code`""`),
      value(name("expireFrom", j), code`number`, code`0`),
      value(name("position", j), code`number`, code`0`),
    );
  }
  // Without on, every event has the same key: "".
  const followerKey = sides === undefined ? code`""` : metadataOf(sides.followedBy);
  const eachKey = sides === undefined ? code`""` : metadataOf(sides.each);
  // With within, an `each` event may have failed before its key's follower came: it is not served then.
  // Expiry goes in index order, so the ones below expireFrom have failed (a served one left the chain),
  // and so has every older one further down the chain.
  const serve =
    within === undefined
      ? [code`${servedIndex}.push(${waiting});`, code`${servedBy}.push(${EVENT}.id);`]
      : [
          code`if (${waiting} < ${expireFrom}) break;`,
          code`${servedAhead}.set(${waiting}, true);`,
          code`${servedIndex}.push(${waiting});`,
          code`${servedBy}.push(${EVENT}.id);`,
        ];
  const step: Code[] = [
    ...(within === undefined ? [] : [code`const ${at} = ${position};`, code`${position} = ${at} + 1;`]),
    code`if ${lowerPattern(check.followedBy, constants)} {`,
    code`const ${keyFollower} = ${followerKey};`,
    code`if (typeof ${keyFollower} === "string") {`,
    code`let ${waiting} = ${lastWaiting}.get(${keyFollower}) ?? -1;`,
    code`if (${waiting} >= 0) ${lastWaiting}.delete(${keyFollower});`,
    code`while (${waiting} >= 0) {`,
    ...serve,
    code`${waiting} = ${prevWaiting}[${waiting}]!;`,
    code`}`,
    code`}`,
    code`}`,
  ];
  if (within !== undefined) {
    // The oldest `each` events whose N-th following event this is, and that no follower served, fail here.
    const expired = name("expired", j);
    step.push(
      code`while (${expireFrom} < ${each}.length && ${eachAt}[${expireFrom}]! + ${within} <= ${at}) {`,
      code`const ${expired} = ${expireFrom};`,
      code`${expireFrom} = ${expired} + 1;`,
      code`if (${servedAhead}.has(${expired})) ${servedAhead}.delete(${expired});`,
      code`else {`,
      code`${failed}.push(${expired});`,
      code`if (${failedAt} === undefined) ${failedAt} = ${EVENT}.id;`,
      code`${lastFailedAt} = ${EVENT}.id;`,
      code`}`,
      code`}`,
    );
  }
  step.push(
    code`if ${lowerPattern(check.each, constants)} {`,
    code`const ${keyEach} = ${eachKey};`,
    code`const ${index} = ${each}.length;`,
    code`${each}.push(${EVENT}.id);`,
    ...(sides === undefined ? [] : [code`${eachKeys}.push(typeof ${keyEach} === "string" ? ${keyEach} : null);`]),
    ...(within === undefined ? [] : [code`${eachAt}.push(${at});`]),
    code`if (typeof ${keyEach} === "string") {`,
    code`${prevWaiting}.push(${lastWaiting}.get(${keyEach}) ?? -1);`,
    code`${lastWaiting}.set(${keyEach}, ${index});`,
    code`} else ${prevWaiting}.push(-1);`,
    code`}`,
  );
  const failedList = within === undefined ? code`[]` : failed;
  const options = [
    code`${clauseBase(check)}`,
    code`each: ${each}`,
    code`servedIndex: ${servedIndex}`,
    code`servedBy: ${servedBy}`,
    code`failed: ${failedList}`,
    ...(within === undefined ? [] : [code`failedAt: ${failedAt}`, code`within: ${within}`]),
    ...(sides === undefined ? [] : [code`eachKeys: ${eachKeys}`, code`key: ${lit(sides.each)}`]),
  ];
  const lowered: LoweredCheck = {
    type: "pairing",
    fields,
    step,
    clause: code`${constants.runtime("extendedPairingClause")}({ ${join(options)} })`,
    obligation: {
      when: code`${servedIndex}.length + ${failedList}.length < ${each}.length`,
      ids: code`${constants.runtime("waitingEach")}(${each}, ${servedIndex}, ${failedList})`,
    },
  };
  if (within !== undefined) {
    const newest = code`${failed}[${failed}.length - 1]!`;
    lowered.violation = {
      when: code`${failed}.length > 0`,
      cited: code`${failed}.length`,
      ids: code`${failed}.map((k) => ${each}[k]!)`,
      explanation: code`${constants.runtime("withinExplanation")}(${each}[${newest}]!, ${sides === undefined ? code`undefined` : code`${eachKeys}[${newest}]`}, ${sides === undefined ? code`undefined` : lit(sides.each)}, ${within}, ${lastFailedAt})`,
    };
  }
  return lowered;
}

/** The per-key window of `after` + `on`: opened by the first `after` event of each key value. */
interface KeyedWindow {
  fields: Field[];
  /** The match side's key value of the event, read once. */
  readKey: Code;
  /** True when the event (with its key read) lies inside its key's window. */
  inside: Code;
  keyVar: Code;
  /** Opens the event's key's window if it matches `after`; runs after the match statements. */
  open: Code[];
  openers: Code;
  openerKeys: Code;
  opened: Code;
  afterKey: string;
  matchKey: string;
}

function lowerKeyedWindow(j: number, check: RequiredCheck | ForbiddenCheck | CountCheck, constants: Constants): KeyedWindow {
  const sides = sidesOf(check.on!, "after", "match");
  const opened = self(name("opened", j));
  const openers = self(name("openers", j));
  const openerKeys = self(name("openerKeys", j));
  const keyVar = name("keyMatch", j);
  const keyAfter = name("keyAfter", j);
  return {
    fields: [keyed(name("opened", j), code`string`, constants), list(name("openers", j)), list(name("openerKeys", j))],
    readKey: code`const ${keyVar} = ${metadataOf(sides.match)};`,
    inside: code`typeof ${keyVar} === "string" && ${opened}.has(${keyVar})`,
    keyVar,
    open: [
      code`if ${lowerPattern(check.after!, constants)} {`,
      code`const ${keyAfter} = ${metadataOf(sides.after)};`,
      code`if (typeof ${keyAfter} === "string" && !${opened}.has(${keyAfter})) {`,
      code`${opened}.set(${keyAfter}, ${EVENT}.id);`,
      code`${openers}.push(${EVENT}.id);`,
      code`${openerKeys}.push(${keyAfter});`,
      code`}`,
      code`}`,
    ],
    openers,
    openerKeys,
    opened,
    afterKey: sides.after,
    matchKey: sides.match,
  };
}

export function lowerKeyedRequired(j: number, check: RequiredCheck, constants: Constants): LoweredCheck {
  const window = lowerKeyedWindow(j, check, constants);
  const matched = self(name("matched", j));
  const matchedCount = self(name("matchedCount", j));
  const k = window.keyVar;
  return {
    type: "required",
    fields: [...window.fields, keyed(name("matched", j), code`string`, constants), value(name("matchedCount", j), code`number`, code`0`)],
    step: [
      window.readKey,
      code`if (${window.inside} && !${matched}.has(${k}) && ${lowerPattern(check.match, constants)}) {`,
      code`${matched}.set(${k}, ${EVENT}.id);`,
      code`${matchedCount}++;`,
      code`}`,
      ...window.open,
    ],
    clause: code`${constants.runtime("keyedRequiredClause")}({ ${clauseBase(check)}, openers: ${window.openers}, openerKeys: ${window.openerKeys}, firstMatches: ${window.openerKeys}.map((k) => ${matched}.get(k)), key: ${lit(window.afterKey)} })`,
    obligation: {
      when: code`${matchedCount} < ${window.openers}.length`,
      ids: code`${window.openers}.filter((_, i) => !${matched}.has(${window.openerKeys}[i]!))`,
    },
  };
}

export function lowerKeyedForbidden(j: number, check: ForbiddenCheck, constants: Constants): LoweredCheck {
  const window = lowerKeyedWindow(j, check, constants);
  const matches = self(name("matches", j));
  const matchKeys = self(name("matchKeys", j));
  return {
    type: "forbidden",
    fields: [...window.fields, list(name("matches", j)), list(name("matchKeys", j))],
    step: [
      window.readKey,
      code`if (${window.inside} && ${lowerPattern(check.match, constants)}) {`,
      code`${matches}.push(${EVENT}.id);`,
      code`${matchKeys}.push(${window.keyVar} as string);`,
      code`}`,
      ...window.open,
    ],
    clause: code`${constants.runtime("keyedForbiddenClause")}({ ${clauseBase(check)}, windowOpen: ${window.openers}.length > 0, matches: ${matches}, matchKeys: ${matchKeys}, key: ${lit(window.matchKey)} })`,
    violation: { cited: code`${matches}.length`, ids: code`${matches}.slice()` },
  };
}

/**
 * Count with `per`, `sum` or keyed windows. Every counted match carries its
 * group (the window's key value, the `per` value, both, or "" for the one
 * group of a plain count) and, with `sum`, its amount; the figures per group
 * are kept running so that a group above `max` is known at the event that
 * put it there.
 */
export function lowerGroupedCount(j: number, check: CountCheck, constants: Constants): LoweredCheck {
  const counted = self(name("counted", j));
  const countedGroups = self(name("countedGroups", j));
  const countedAmounts = self(name("countedAmounts", j));
  const figures = self(name("figures", j));
  const seen = self(name("seenDistinct", j));
  const over = self(name("over", j));
  const overCited = self(name("overCited", j));
  const windowCounted = self(name("windowCounted", j));
  const perKey = keyOf(check.per);
  const sumKey = keyOf(check.sum);
  const keyedWindow = check.on === undefined ? undefined : lowerKeyedWindow(j, check, constants);
  const group = name("group", j);
  const perValue = name("perValue", j);
  const amount = name("amount", j);
  const figure = name("figure", j);
  const distinct = name("distinct", j);

  const fields: Field[] = [
    list(name("counted", j)),
    list(name("countedGroups", j)),
    keyed(name("figures", j), code`number`, constants),
    value(name("over", j), code`string | undefined`, code`undefined`),
    value(name("overCited", j), code`number`, code`0`),
  ];
  if (sumKey !== undefined) fields.push(list(name("countedAmounts", j), code`number[]`));
  if (check.distinctBy !== undefined) fields.push(keyed(name("seenDistinct", j), code`true`, constants));
  if (keyedWindow !== undefined) fields.push(...keyedWindow.fields, keyed(name("windowCounted", j), code`true`, constants));

  // The group: window key and per value; JSON keeps the two apart whatever they hold.
  const groupOf =
    keyedWindow !== undefined && perKey !== undefined
      ? code`JSON.stringify([${keyedWindow.keyVar} as string, ${perValue}])`
      : keyedWindow !== undefined
        ? code`${keyedWindow.keyVar} as string`
        : perKey !== undefined
          ? perValue
          : code`""`;
  const countIt: Code[] = [
    code`${counted}.push(${EVENT}.id);`,
    code`${countedGroups}.push(${group});`,
    ...(sumKey === undefined
      ? []
      : [
          code`const ${amount} = ${constants.runtime("readDecimal")}(${metadataOf(sumKey)}) ?? 0;`,
          code`${countedAmounts}.push(${amount});`,
        ]),
    ...(keyedWindow === undefined ? [] : [code`${windowCounted}.set(${keyedWindow.keyVar} as string, true);`]),
    code`const ${figure} = (${figures}.get(${group}) ?? 0) + ${sumKey === undefined ? code`1` : amount};`,
    code`${figures}.set(${group}, ${figure});`,
  ];
  if (check.max !== undefined) {
    countIt.push(
      code`if (${over} === ${group}) ${overCited}++;`,
      code`else if (${over} === undefined && ${figure} > ${check.max}) {`,
      code`${over} = ${group};`,
      code`${overCited} = ${countedGroups}.filter((g) => g === ${group}).length;`,
      code`}`,
    );
  }
  let counting: Code[] = countIt;
  if (check.distinctBy !== undefined) {
    const read = check.distinctBy === "content" ? code`${EVENT}.content ?? ""` : metadataOf(check.distinctBy.slice("metadata.".length));
    const dedupe = name("dedupe", j);
    counting = [
      code`const ${distinct} = ${read};`,
      code`if (typeof ${distinct} === "string") {`,
      code`const ${dedupe} = JSON.stringify([${group}, ${distinct}]);`,
      code`if (!${seen}.has(${dedupe})) {`,
      code`${seen}.set(${dedupe}, true);`,
      ...countIt,
      code`}`,
      code`}`,
    ];
  }
  const matchBody: Code[] = [
    ...(perKey === undefined ? [] : [code`const ${perValue} = ${metadataOf(perKey)};`, code`if (typeof ${perValue} === "string") {`]),
    code`const ${group} = ${groupOf};`,
    ...counting,
    ...(perKey === undefined ? [] : [code`}`]),
  ];
  let step: Code[];
  let windowOpen: Code;
  if (keyedWindow !== undefined) {
    step = [
      keyedWindow.readKey,
      code`if (${keyedWindow.inside} && ${lowerPattern(check.match, constants)}) {`,
      ...matchBody,
      code`}`,
      ...keyedWindow.open,
    ];
    windowOpen = code`${keyedWindow.openers}.length > 0`;
  } else {
    const window = lowerWindow(j, check.after, [code`if ${lowerPattern(check.match, constants)} {`, ...matchBody, code`}`], constants);
    fields.push(...window.fields);
    step = window.step;
    windowOpen = window.open ?? code`true`;
  }
  // Groups with no match: an opened window nothing was counted in, or the one group of a count without per.
  const emptyGroups =
    keyedWindow !== undefined
      ? code`${keyedWindow.openerKeys}.filter((k) => !${windowCounted}.has(k))${perKey === undefined ? code`` : code`.map((k) => JSON.stringify([k, null]))`}`
      : perKey === undefined
        ? code`[""]`
        : code`[]`;
  const names = [
    ...(perKey === undefined ? [] : [code`per: ${lit(perKey)}`]),
    ...(keyedWindow === undefined ? [] : [code`on: ${lit(keyedWindow.matchKey)}`]),
    ...(sumKey === undefined ? [] : [code`sum: ${lit(sumKey)}`]),
  ];
  const options = (complete: Code) => [
    code`quote: ${lit(check.quote)}, complete: ${complete}`,
    code`windowOpen: ${windowOpen}`,
    code`counted: ${counted}`,
    code`countedGroups: ${countedGroups}`,
    ...(sumKey === undefined ? [] : [code`countedAmounts: ${countedAmounts}`]),
    code`emptyGroups: ${emptyGroups}`,
    code`names: { ${join(names)} }`,
    ...(check.min === undefined ? [] : [code`min: ${check.min}`]),
    ...(check.max === undefined ? [] : [code`max: ${check.max}`]),
  ];
  const clauseWith = (complete: Code) => code`${constants.runtime("groupedCountClause")}({ ${join(options(complete))} })`;
  const lowered: LoweredCheck = { type: "count", fields, step, clause: clauseWith(code`complete`) };
  if (check.max !== undefined) {
    lowered.violation = {
      when: code`${over} !== undefined`,
      cited: overCited,
      ids: code`${counted}.filter((_, k) => ${countedGroups}[k] === ${over})`,
    };
  }
  if (check.min !== undefined && check.min > 0) {
    // Owed: a group below min, which fails if the trajectory ends complete now (a group above max is a violation instead).
    const ifEnded = clauseWith(code`true`);
    lowered.obligation = {
      when: code`${over} === undefined && ${ifEnded}.verdict === "false"`,
      ids: code`${ifEnded}.citations.map((c) => c.eventId)`,
    };
  }
  return lowered;
}

/**
 * The condition check: each `with` name holds the latest (or first) event
 * matching its pattern, per key value with `on`; an `each` event is judged
 * against the names as they stand before it, then may itself be bound.
 */
export function lowerCondition(j: number, check: ConditionCheck, constants: Constants): LoweredCheck {
  const bindings = Object.entries(check.with ?? {});
  const eaches = self(name("eaches", j));
  const failed = self(name("failed", j));
  const failedCitations = self(name("failedCitations", j));
  const explanation = self(name("explanation", j));
  const lastExplanation = self(name("lastExplanation", j));
  const fields: Field[] = [
    list(name("eaches", j)),
    list(name("failed", j)),
    list(name("failedCitations", j)),
    value(name("explanation", j), code`string | undefined`, code`undefined`),
    // The newest failing event's explanation: what a monitor's violation says (the clause explains the first).
    value(name("lastExplanation", j), code`string`, code`""`),
  ];
  const locals = new Map<string, Code>();
  const judgeEach: Code[] = [];
  const record: Code[] = [];
  bindings.forEach(([bindingName, binding], b) => {
    const field = self(name2("bound", j, b));
    const local = name2("b", j, b);
    locals.set(bindingName, local);
    const latest = binding.latest !== undefined;
    const pattern = binding.latest ?? binding.first!;
    const sides = binding.on === undefined ? undefined : sidesOf(binding.on, "each", latest ? "latest" : "first");
    if (sides === undefined) {
      fields.push(value(name2("bound", j, b), code`StepEvent | undefined`, code`undefined`));
      judgeEach.push(code`const ${local} = ${field};`);
      record.push(
        latest
          ? code`if ${lowerPattern(pattern, constants)} ${field} = ${EVENT};`
          : code`if (${field} === undefined && ${lowerPattern(pattern, constants)}) ${field} = ${EVENT};`,
      );
      return;
    }
    fields.push(keyed(name2("bound", j, b), code`StepEvent`, constants));
    const eachKey = name2("keyEach", j, b);
    const boundKey = name2("keyBound", j, b);
    judgeEach.push(
      code`const ${eachKey} = ${metadataOf(sides.each)};`,
      code`const ${local} = typeof ${eachKey} === "string" ? ${field}.get(${eachKey}) : undefined;`,
    );
    record.push(
      code`if ${lowerPattern(pattern, constants)} {`,
      code`const ${boundKey} = ${metadataOf(latest ? sides.latest! : sides.first!)};`,
      latest
        ? code`if (typeof ${boundKey} === "string") ${field}.set(${boundKey}, ${EVENT});`
        : code`if (typeof ${boundKey} === "string" && !${field}.has(${boundKey})) ${field}.set(${boundKey}, ${EVENT});`,
      code`}`,
    );
  });
  const parsed = parseWhen(
    check.when,
    bindings.map(([n]) => n),
  );
  if (!parsed.ok) throw new Error("internal: a when expression the schema accepted does not parse");
  const when = lowerWhen(parsed.tree, {
    event: EVENT,
    bound: (bindingName) => {
      const local = locals.get(bindingName);
      if (local === undefined) throw new Error("internal: a when expression reads a name with no binding");
      return local;
    },
    regex: (source, flags) => {
      const compiled = compileRegex(source, flags);
      if (!compiled.ok) throw new Error(`internal: a regular expression the schema accepted does not compile: ${compiled.message}`);
      constants.runtime("regexTest");
      return constants.add("regex", constants.runtime("RegexProgram"), regexLiteral(compiled.program));
    },
  });
  constants.whenRuntime(String(when.test) + when.reads.map((r) => String(r.value)).join(" "), WHEN_RUNTIME_NAMES);
  const allBound = join(
    [...locals.values()].map((local) => code`${local} !== undefined`),
    code` && `,
  );
  const bound = [...locals.values()];
  const guard = bound.length === 0 ? when.test : code`${allBound} && ${when.test}`;
  const bindingList = code`[${join(bindings.map(([bindingName], b) => code`[${lit(bindingName)}, ${bound[b]!}]`))}]`;
  const reads = code`[${join(when.reads.map((r) => code`[${lit(r.label)}, ${r.value}]`))}]`;
  const readsIfBound = bound.length === 0 ? reads : code`${allBound} ? ${reads} : undefined`;
  const step: Code[] = [
    code`if ${lowerPattern(check.each, constants)} {`,
    ...judgeEach,
    code`${eaches}.push(${EVENT}.id);`,
    code`if (!(${guard})) {`,
    code`${failed}.push(${EVENT}.id);`,
    code`${failedCitations}.push(${EVENT}.id);`,
    ...bound.map((local) => code`if (${local} !== undefined) ${failedCitations}.push(${local}.id);`),
    code`${lastExplanation} = ${constants.runtime("explainCondition")}(${EVENT}.id, ${lit(check.when)}, ${bindingList}, ${readsIfBound});`,
    code`if (${explanation} === undefined) ${explanation} = ${lastExplanation};`,
    code`}`,
    code`}`,
    ...record,
  ];
  return {
    type: "condition",
    fields,
    step,
    clause: code`${constants.runtime("conditionClause")}({ ${clauseBase(check)}, eaches: ${eaches}, failed: ${failed}, failedCitations: ${failedCitations}, explanation: ${explanation} })`,
    violation: {
      when: code`${failed}.length > 0`,
      cited: code`${failed}.length`,
      ids: code`[...new Set(${failedCitations})]`,
      explanation: lastExplanation,
    },
  };
}

/** A check that uses an extended form (isExtended), lowered. */
export function lowerExtended(j: number, check: Check, constants: Constants): LoweredCheck {
  switch (check.type) {
    case "ordering":
      return lowerKeyedOrdering(j, check, constants);
    case "pairing":
      return lowerExtendedPairing(j, check, constants);
    case "required":
      return lowerKeyedRequired(j, check, constants);
    case "forbidden":
      return lowerKeyedForbidden(j, check, constants);
    case "count":
      return lowerGroupedCount(j, check, constants);
    case "condition":
      return lowerCondition(j, check, constants);
  }
}
