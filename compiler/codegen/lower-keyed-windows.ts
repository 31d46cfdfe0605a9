/**
 * Lowers `after` + `on` for required and forbidden: the window is per key
 * value, opened by the first `after` event of that value (LANGUAGE.md §2).
 * lower-grouped-count.ts uses the same window for a count.
 */
import type { CountCheck, ForbiddenCheck, RequiredCheck } from "../ir/types.js";
import { sidesOf } from "../ir/values.js";
import { code, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { clauseBase, keyed, list, metadataOf, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";

/** The per-key window of `after` + `on`: opened by the first `after` event of each key value. */
export interface KeyedWindow {
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

export function lowerKeyedWindow(j: number, check: RequiredCheck | ForbiddenCheck | CountCheck, constants: Constants): KeyedWindow {
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
