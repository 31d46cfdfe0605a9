/**
 * Lowers ordering with `on` (per key value) or `fresh` (each `before` event
 * needs its own `first`, since the previous `before`): LANGUAGE.md §2-3. The
 * clause is false for good at the first `before` event that has no `first`,
 * so the monitor can refuse it there.
 */
import type { OrderingCheck } from "../ir/types.js";
import { sidesOf } from "../ir/values.js";
import { code, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { clauseBase, keyed, list, metadataOf, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";

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
