/**
 * Events named by their measure alone (issue 25): "if any cast goes down with more than 2,000 metres of wire
 * out", "whenever a load of over 40 tonnes comes in", "a batch held above 8 °C". The words name no act
 * ("cast", "load", "batch" are things; "goes down" half names `stand_down`, which carries no length), but
 * the amount does: the one act whose number the words name (`wire_m` for "metres of wire"), else the one
 * whose number the unit names (`weight_t` for tonnes). With no such act, or several, the phrase stays
 * unread, as before.
 */
import type { Pattern } from "../../ir/types.js";
import { amountKey, type Amount } from "./amounts.js";
import type { Lexicon } from "./lexicon.js";
import { nameStems, stemSet } from "./words.js";

export function carrierOf(lexicon: Lexicon, phrase: string, amounts: readonly Amount[], agentOnly: boolean): Pattern | undefined {
  if (amounts.length === 0) return undefined;
  const keyed = lexicon.actions.flatMap((a) => {
    if ((agentOnly && !a.actors.includes("agent")) || a.count === 0) return [];
    const keys = amounts.map((amount) => amountKey(lexicon, a.name, amount.unit, phrase, true));
    return keys.every((k) => k !== undefined) ? [{ action: a.name, keys: keys as string[] }] : [];
  });
  // "metres of wire": the act whose key the words name (`wire_m`) before one whose key only the unit does (`swell_m`).
  const said = stemSet(phrase);
  const byWords = keyed.filter((c) => c.keys.every((k) => nameStems(k).some((s) => s.length >= 3 && s !== "id" && said.has(s))));
  const [only] = byWords.length === 1 ? byWords : keyed.length === 1 ? keyed : [];
  return only === undefined ? undefined : [{ action: only.action }];
}
