/**
 * The thing an act is done on is no act of its own (issue 25): "once picking has been started on a
 * block", "nothing further is issued under that permit", "never hire to that customer again". Read
 * whole, such a phrase names two actions equally well, the one its verb names (`start_harvest`,
 * `issue_isotope`, `hire_out`) and the one whose name holds the thing's noun (`check_block`,
 * `check_permit`, `bar_customer`), and the tie went to the wrong one. The noun after "on a", "under
 * that", "to that same", or a passive's subject ("that permit is never issued under again"), names
 * the thing, which the act carries as a key (`block_id`): the act is
 * what the rest of the phrase names, when the words of the rest name nothing of the other action
 * and the act carries the thing's key. Otherwise the phrase is read whole, as before.
 */
import type { Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { actionKeys, type Lexicon, type ResolveOptions } from "./lexicon.js";
import { nameStems, stemSet } from "./words.js";

/** "on a block", "under that permit", "to that same customer", "for the same order": a preposition and the thing it is done on. */
const THING =
  /\s+(?:on|onto|to|under|for|against|at|from|of|in)\s+(?:that\s+same|the\s+same|that|this|a|an|the|each|every|any)\s+([a-z]+)\b/gi;

/** "that permit is never issued under again", "a block is not sprayed": the thing as the subject of a passive. */
const SUBJECT =
  /^\s*(?:that\s+same|the\s+same|that|this|a|an|the)\s+([a-z]+)(?=\s+(?:is|are|was|were|gets?|must|may|can|shall|should|will|cannot)\b)/gi;

type Resolver = (lexicon: Lexicon, phrase: string, options?: ResolveOptions) => Pattern | undefined;

function actsOf(pattern: Pattern): string[] {
  return pattern.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));
}

/** Whether the action carries an identifier the noun names ("block": `block_id`). */
function carriesThing(lexicon: Lexicon, action: string, noun: string): boolean {
  const said = stemSet(noun);
  return actionKeys(lexicon, action).some((k) => {
    const stems = nameStems(k);
    return stems.includes("id") && stems.some((s) => s !== "id" && said.has(s));
  });
}

/**
 * The phrase's act, its thing's prepositional phrase left out when the whole phrase resolved to
 * another action only through the thing's noun (the rest of the words name none of that action's
 * name) and the act the rest names carries the thing as its key.
 */
export function actedOn(lexicon: Lexicon, phrase: string, resolve: Resolver, options?: ResolveOptions): Pattern | undefined {
  const whole = resolve(lexicon, phrase, options);
  if (whole === undefined) return whole;
  const wholeActs = actsOf(whole);
  if (wholeActs.length !== 1) return whole;
  const named = lexicon.actions.find((a) => a.name === wholeActs[0]);
  if (named === undefined) return whole;
  for (const m of [...phrase.matchAll(SUBJECT), ...phrase.matchAll(THING)]) {
    const noun = m[1]!;
    const rest = `${phrase.slice(0, m.index)} ${phrase.slice(m.index + m[0].length)}`;
    // The whole phrase's action must owe its name to the thing alone: no word of the rest names it.
    const restStems = stemSet(rest);
    if (named.stems.some((s) => restStems.has(s))) continue;
    const act = resolve(lexicon, rest, options);
    const acts = act === undefined ? [] : actsOf(act);
    if (act === undefined || acts.length !== 1 || acts[0] === wholeActs[0]) continue;
    if (carriesThing(lexicon, acts[0]!, noun)) return act;
  }
  return whole;
}

/**
 * "One more: once a permit has been suspended, nothing further is issued …" where no voice step
 * put the condition first: a condition of a perfect or passive verb after a lead-in's colon (or
 * dash) that the sentence's shape did not read. Read whole, the clause's act would be the
 * condition's ("suspended": `suspend_permit`), so a ban on it would be wrong: such a clause is
 * better a question than that check.
 */
const UNREAD_CONDITION =
  /(?:[:;]|\s[—–-])\s+(?:once|after|as\s+soon\s+as|when|whenever|if)\s+[^,;:]*?\b(?:has|have|had|is|are|was|were|been)\b[^,;:]*,\s+\S/i;

export function unreadCondition(clause: string): boolean {
  return UNREAD_CONDITION.test(clause);
}
