import type { CountCheck } from "../ir/types.js";
import { keyOf } from "../ir/values.js";
import { code, join, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { lowerKeyedWindow } from "./lower-keyed-windows.js";
import { keyed, list, lowerWindow, metadataOf, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";

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
