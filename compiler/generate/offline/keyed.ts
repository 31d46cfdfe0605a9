/**
 * The act a look-up's sentence names only by the keys it writes (issue 25): "The latest
 * check_competence result for the staff member named as `pic_id` is expected to show
 * `certificate: valid`, with an `expires_at` no earlier than the possession's `ends_at`" names no
 * act by a verb, but `pic_id` and `ends_at` are keys of the act the look-up clears and of no
 * look-up: the one agent act that carries every such key is it (`grant_possession`, not
 * `extend_possession`, which carries `pic_id` only).
 */
import type { Pattern } from "../../ir/types.js";
import { actionKeys, type Lexicon } from "./lexicon.js";
import { backtickedNames } from "./backticks.js";

/** The one agent act carrying every key the clause writes in backticks that no looked-up event carries; undefined unless exactly one. */
export function actOfWrittenKeys(lexicon: Lexicon, clause: string, looked: readonly string[]): Pattern | undefined {
  const keysOf = (action: string) => actionKeys(lexicon, action);
  const lookedKeys = new Set(looked.flatMap(keysOf));
  const actions = new Set(lexicon.actions.map((a) => a.name));
  const written = [...new Set(backtickedNames(clause))].filter((k) => !actions.has(k) && !lookedKeys.has(k));
  if (written.length === 0) return undefined;
  const holders = lexicon.actions.filter(
    (a) => !a.isResult && a.actors.includes("agent") && !looked.includes(a.name) && written.every((k) => keysOf(a.name).includes(k)),
  );
  return holders.length === 1 ? [{ action: holders[0]!.name }] : undefined;
}
