/**
 * "A message about another case, even to the same family, doesn't count", "A sample for another landing doesn't
 * count": a sentence that rules out the events of another thing says the rule's check is about the same one on
 * both sides. It ties the rule's last pairing or ordering by the key both sides carry for that thing, as
 * "for that same case" would, and reads nothing of its own (read alone it was a ban of the message or the sample).
 */
import type { Check } from "../../ir/types.js";
import type { ClauseOutcome } from "./clauses.js";
import { correlationOf } from "./keys.js";
import type { Lexicon } from "./lexicon.js";
import type { Voiced } from "./voice-spans.js";

/** "… for another landing …", "… of another family's case …" then "doesn't count", "never counts", "is not enough". */
const ANOTHER =
  /^(?:a|an|any)\s+[^,;:]*?\b(?:for|about|of|on|from|to|against)\s+(?:another|a\s+different|some\s+other)\s+(?:[a-z]+(?:'s|\u2019s)\s+)?([a-z]+)\b[^;:]*?\b(?:doesn't|does\s+not|won't|will\s+not|never|cannot|can't|isn't|is\s+not)\s+(?:count|counts|do|does|satisf(?:y|ies)|enough)\b/i;

/** The thing a sentence rules out the events of another one of ("case", "landing"), if it says so. */
export function anotherThing(text: string): string | undefined {
  return ANOTHER.exec(text.trim())?.[1];
}

/**
 * The sentence's outcomes once it has tied the rule's last pairing or ordering (`checks`, changed in place, its quote
 * reaching over the sentence when the section writes the two side by side), none when that check is tied already.
 * Unchanged when the sentence says nothing of another thing, or no such check has a key for it on both sides.
 */
export function tiedByAnother(lexicon: Lexicon, body: string, voiced: Voiced, checks: Check[], outcomes: ClauseOutcome[]): ClauseOutcome[] {
  const thing = anotherThing(voiced.text);
  if (thing === undefined) return outcomes;
  const k = checks.map((c) => c.type === "pairing" || c.type === "ordering").lastIndexOf(true);
  if (k < 0) return outcomes;
  const check = checks[k] as Extract<Check, { type: "pairing" | "ordering" }>;
  // Already tied ("the latest tag check of that same case … A tag check of another family's case never counts"): said again.
  if (check.on !== undefined) return outcomes.map(() => ({ kind: "skip" }));
  const tie =
    check.type === "pairing"
      ? correlationOf(lexicon, `the same ${thing}`, { each: check.each, followedBy: check.followedBy }, ["each", "followedBy"])
      : correlationOf(lexicon, `the same ${thing}`, { first: check.first, before: check.before }, ["first", "before"]);
  if (tie === undefined || !("on" in tie)) return outcomes;
  const sentence = voiced.original;
  const start = body.indexOf(check.quote);
  const at = start < 0 ? -1 : body.indexOf(sentence, start + check.quote.length);
  const joined = at >= 0 && /^[.;,!?]?\s{1,3}$/.test(body.slice(start + check.quote.length, at));
  checks[k] = { ...check, on: tie.on, ...(joined ? { quote: body.slice(start, at + sentence.length) } : {}) } as Check;
  return outcomes.map(() => ({ kind: "skip" }));
}
