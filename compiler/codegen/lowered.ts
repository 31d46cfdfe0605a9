/**
 * What lowering one check produces (a check's share of its rule's stepper)
 * and the small builders every lowering uses.
 */
import type { Check, Pattern } from "../ir/types.js";
import { code, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { EVENT, lowerPattern } from "./match.js";

/**
 * One field of a stepper. Lists and sets only grow while a trajectory is
 * stepped, so `save` keeps their size and `restore` cuts them back; a set
 * grows by one value at most per event, which its `added` field holds.
 */
export interface Field {
  name: Code;
  type: Code;
  init: Code;
  kind: "value" | "list" | "set" | "keyed";
  /** For a set: the value field holding the last value added. */
  added?: Code;
}

/** A check that can be certainly false during a run (docs/FORMATS.md §9). */
export interface Violation {
  /** When the clause is certainly false; absent: whenever it cites something. */
  when?: Code;
  /** How many events the false clause cites now. */
  cited: Code;
  /** Those events' ids. */
  ids: Code;
  /** Why, for the newest event reported: checks that can say so (ordering with on/fresh, pairing within, condition). */
  explanation?: Code;
}

/** A check that can be owed something at the end (docs/FORMATS.md §9). */
export interface Obligation {
  /** When something is owed. */
  when: Code;
  /** The ids of the events that created the obligation. */
  ids: Code;
}

/** The pieces one check adds to its rule's stepper. */
export interface LoweredCheck {
  type: Check["type"];
  fields: Field[];
  step: Code[];
  clause: Code;
  violation?: Violation;
  /** What the check still needs from the rest of the trajectory, if anything. */
  obligation?: Obligation;
  /**
   * True once no later event can change the check's state (an ordering's
   * `before` seen, a required match found); absent for a check that can
   * always change (a list that grows, a count). A rule whose checks are all
   * settled, and its match trigger fired, is stepped no more (lower.ts).
   */
  settled?: Code;
}

export const self = (field: Code): Code => code`this.${field}`;

export function value(fieldName: Code, type: Code, init: Code): Field {
  return { name: fieldName, type, init, kind: "value" };
}

export function list(fieldName: Code, type: Code = code`string[]`): Field {
  return { name: fieldName, type, init: code`[]`, kind: "list" };
}

/** The event's value of metadata key `key`: `unknown`, since an inherited member may answer (`toString`). */
export function metadataOf(key: string): Code {
  return code`${EVENT}.metadata?.[${lit(key)}]`;
}

/** The options every clause builder takes first. */
export function clauseBase(check: Check): Code {
  return code`quote: ${lit(check.quote)}, complete`;
}

/** Per-key state (runtime/keyed.ts): journaled between save and restore. */
export function keyed(fieldName: Code, valueType: Code, constants: Constants, keyType?: Code): Field {
  const keyedClass = constants.runtime("Keyed");
  const type = keyType === undefined ? code`${keyedClass}<${valueType}>` : code`${keyedClass}<${valueType}, ${keyType}>`;
  return { name: fieldName, type, init: code`new ${keyedClass}()`, kind: "keyed" };
}

/** `cond && rest`, or `rest` when there is no condition. */
export function both(cond: Code | undefined, rest: Code): Code {
  return cond === undefined ? rest : code`${cond} && ${rest}`;
}

/**
 * `after:` keeps events strictly after the first `after` match: the check
 * looks at the event before the window may open on it. The window's field
 * holds the id of the event that opened it.
 */
interface Window {
  fields: Field[];
  step: Code[];
  /** The `windowOpen` option of the clause builder (empty without `after`). */
  option: Code;
  /** An expression that is true while the window is open. */
  open: Code | undefined;
  /** The opener's id, cited by an obligation. */
  openerIds: Code;
}

export function lowerWindow(j: number, after: Pattern | undefined, guarded: Code[], constants: Constants): Window {
  if (after === undefined) return { fields: [], step: guarded, option: code``, open: undefined, openerIds: code`[]` };
  const opener = self(name("after", j));
  return {
    fields: [value(name("after", j), code`string | undefined`, code`undefined`)],
    step: [code`if (${opener} !== undefined) {`, ...guarded, code`} else if ${lowerPattern(after, constants)} ${opener} = ${EVENT}.id;`],
    option: code`, windowOpen: ${opener} !== undefined`,
    open: code`${opener} !== undefined`,
    openerIds: code`[${opener}]`,
  };
}
