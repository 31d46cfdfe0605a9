/**
 * A field an act must carry, named in backticks (issue 25): "every waiver gives its `reason`", "A
 * denial names the policy clause it rests on, in the `clause` field of `deny_claim`". The act is
 * the one the sentence's subject names (or the action it writes in backticks), the field one of
 * its metadata keys; the reading is a ban on the act without it (`{exists: false}`). Read before
 * the sentence's shape, since "names its …" carries no word of obligation the other readers need.
 */
import type { Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { resolve, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { backtickedNames } from "./backticks.js";

/** "<subject> names|gives|records|states|carries|includes|quotes|lists its|the …": what each act carries. */
const CARRIES =
  /^(?:(?:every|each|any|a|an|the)\s+)?(.+?)\s+(?:must\s+|always\s+|(?:has|have|needs?)\s+to\s+)?(?:names?|gives?|records?|states?|carries|carry|includes?|quotes?|lists?)\s+(?:its|their|the|a|an)\b(.*)$/i;

const actionsOf = (p: Pattern): string[] => p.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));

export function fieldFrom(context: ClauseContext, clause: string, quote: string): ClauseOutcome | undefined {
  const m = CARRIES.exec(clause);
  if (m === null) return undefined;
  const { lexicon } = context;
  const known = new Set(lexicon.actions.map((a) => a.name));
  // Backticked names: the field (a key, not an action) and, when written, the act ("of `deny_claim`").
  const written = backtickedNames(clause);
  const acts = written.filter((w) => known.has(w));
  const keys = written.filter((w) => !known.has(w));
  if (keys.length !== 1 || acts.length > 1) return undefined;
  const key = keys[0]!;
  const act = acts.length === 1 ? [{ action: acts[0]! }] : resolve(lexicon, m[1]!, { agentOnly: true });
  if (act === undefined || act.length !== 1) return undefined;
  const action = actionsOf(act)[0];
  const carries = lexicon.actions.find((a) => a.name === action && !a.isResult)?.metadata.some((md) => md.key === key) === true;
  if (action === undefined || !carries) return undefined;
  return { kind: "check", check: { type: "forbidden", quote, match: [{ action, metadata: { [key]: { exists: false } } }] } };
}
