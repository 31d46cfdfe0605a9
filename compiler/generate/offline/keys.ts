/**
 * The metadata keys a rule sentence groups or ties events by
 * (docs/FORMATS.md §10.2, §10.3): "the same reservation" is `on:
 * metadata.reservation_id`, "per turn" is `per: metadata.@turn`, "per order"
 * or "to one customer" is `per:` the key that names orders or customers on
 * the counted action. A key is always one the samples show on the actions
 * concerned (the turn key, which importers give every event of a turn, is
 * taken when some sample event has it).
 */
import type { On, Pattern } from "../../ir/types.js";
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems, words } from "./words.js";

/** A condition's reference to an event's metadata key (`r.days`, `event["unit price"]`): dotted when the key is an identifier. */
export function keyRef(name: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${name}.${key}` : `${name}[${JSON.stringify(key)}]`;
}

/** The key importers number turns with. */
export const TURN_KEY = "@turn";

/** Nouns that mean one turn of the conversation. */
const TURN_WORDS = new Set(["turn", "reply", "response", "round", "step"]);
/** Nouns that mean the whole session: a count over it needs no grouping. */
const SESSION_WORDS = new Set(["session", "conversation", "chat", "trajectory", "transcript", "run", "call", "interaction"]);

/**
 * "per turn", "each turn", "in a single turn", "for each order", "to one customer", "from a single producer", "under any
 * one writ", "against the same account": the noun a count is grouped by.
 */
const PER =
  /\b(?:per|in\s+(?:a\s+single|any\s+(?:one|single)|the\s+same|a|one|any|each|every)|(?:for|to|of|on|from|under|against|with|by|within|at)\s+(?:a\s+single|any\s+(?:one|single)|the\s+same|each|every|one))\s+([a-z]+)\b/i;
/** "One crew member is called out for at most …": a subject of one names the group (the last noun of a compound). */
const ONE_SUBJECT = /^\W*one\s+(?:[a-z]+\s+)?([a-z]+)\s+(?=(?:is|are|may|can|gets?|receives?)\b)/i;
/** "No supplier's loads may add up to …", "a supplier's loads total …": the owner of what is counted, at the start, names the group. */
const OWNER_SUBJECT = /^\W*(?:no|a|an|one|any|each|every)\s+([a-z]+)(?:'s|’s|s'|s’)\s+(?=[a-z])/i;
/** "…, all of that member's calls counted together", "each bed's waterings": whose things a total adds up, said by their owner. */
const OWNER_BACK = /\b(?:that|each|every|the\s+same|any\s+one|a\s+single)\s+([a-z]+)(?:'s|’s)\s+(?=[a-z])/i;
/** "each turn" and "every turn" only name a group when the noun means one: "each refund" is what is counted. */
const EACH = /\b(?:each|every)\s+([a-z]+)\b/gi;

/** What the samples call the key's events: the actions that carry it. */
function actionKeys(lexicon: Lexicon, action: string): string[] {
  return (lexicon.actions.find((a) => a.name === action)?.metadata ?? []).map((m) => m.key);
}

function patternActions(pattern: Pattern): string[] {
  return pattern.flatMap((m) => (typeof m.action === "string" ? [m.action] : []));
}

/** Whether some sample event carries the key. */
function samplesHave(lexicon: Lexicon, key: string): boolean {
  return lexicon.samples.some((t) => t.events.some((e) => e.metadata !== undefined && Object.hasOwn(e.metadata, key)));
}

/** The key a noun names among those every action of the pattern carries ("order" → `order_id`). */
function keyForNoun(lexicon: Lexicon, pattern: Pattern, noun: string): string | undefined {
  // The noun may come canonical already ("employe", from groupingWords): canonical twice would cut it again ("employ").
  const stems = new Set([noun.toLowerCase(), canonical(noun.toLowerCase())]);
  const actions = patternActions(pattern);
  if (actions.length === 0) return undefined;
  const shared = actions.map((a) => actionKeys(lexicon, a)).reduce((a, b) => a.filter((k) => b.includes(k)));
  // Else the key the spec's introduction calls by the noun ("look a boat up (`find_vessel`, by `vessel_id`)").
  const glossed = [...stems].map((s) => lexicon.keyWords?.get(s)).find((k) => k !== undefined);
  // A key's words as written too: "session" is no stem of `session_id` (the session's words stem to nothing, words.ts).
  const named = (key: string) => nameStems(key).some((s) => stems.has(s)) || words(key).some((w) => stems.has(w.toLowerCase()));
  return shared.find(named) ?? (glossed !== undefined && shared.includes(glossed) ? glossed : undefined);
}

/** The words that group a count ("per order") and the noun they group by. */
export interface GroupingWords {
  noun: string;
  phrase: string;
}

/** "per turn", "in a single turn", "for each order", "to one customer" in a count's clause. */
export function groupingWords(clause: string): GroupingWords | undefined {
  // "to one employee … in a session": the group is the thing, not the session every count is within anyway.
  const pers = [...clause.matchAll(new RegExp(PER.source, "gi"))];
  const per =
    ONE_SUBJECT.exec(clause) ??
    OWNER_SUBJECT.exec(clause) ??
    OWNER_BACK.exec(clause) ??
    pers.find((m) => !SESSION_WORDS.has(canonical(m[1]!.toLowerCase()))) ??
    pers[0] ??
    null;
  const found = per ?? [...clause.matchAll(EACH)].find((m) => TURN_WORDS.has(canonical(m[1]!.toLowerCase())));
  return found === undefined || found === null ? undefined : { noun: canonical(found[1]!.toLowerCase()), phrase: found[0] };
}

/**
 * The key a count groups by: the turn key for a turn, none for the whole
 * session, else the key that names the noun on the counted actions;
 * `unknown` when there is none (the caller must not count over the whole
 * session instead).
 */
export function groupingKey(lexicon: Lexicon, words: GroupingWords, match: Pattern): { per: string | undefined } | { unknown: string } {
  if (SESSION_WORDS.has(words.noun)) return { per: undefined };
  if (TURN_WORDS.has(words.noun))
    return samplesHave(lexicon, TURN_KEY) || lexicon.samples.length === 0 ? { per: `metadata.${TURN_KEY}` } : { unknown: words.noun };
  const key = keyForNoun(lexicon, match, words.noun);
  return key === undefined ? { unknown: words.noun } : { per: `metadata.${key}` };
}

/** The one key every action of both patterns carries and whose sample values meet, else undefined. */
function onlySharedKey(lexicon: Lexicon, a: Pattern, b: Pattern): string | undefined {
  const actions = [...patternActions(a), ...patternActions(b)];
  if (patternActions(a).length === 0 || patternActions(b).length === 0) return undefined;
  const shared = actions.map((x) => actionKeys(lexicon, x)).reduce((p, q) => p.filter((k) => q.includes(k)));
  const keys = shared.filter((k) => !k.startsWith("@"));
  if (keys.length !== 1) return undefined;
  const key = keys[0]!;
  const values = (pattern: Pattern) =>
    new Set(
      lexicon.samples.flatMap((t) =>
        t.events.flatMap((e) =>
          patternActions(pattern).includes(e.action) && e.metadata?.[key] !== undefined ? [String(e.metadata[key])] : [],
        ),
      ),
    );
  const [va, vb] = [values(a), values(b)];
  return [...va].some((v) => vb.has(v)) ? key : undefined;
}

/**
 * Whether "the same session" (`m`, in `sentence`) names a thing with a key of its own on both sides: "the aftercare
 * text for that same session" of a studio whose events carry `session_id`. Not after "in", "during", "within" or
 * "throughout" ("later in the same session"): that is the trajectory, whatever its events carry.
 */
function ownSession(lexicon: Lexicon, sentence: string, m: RegExpMatchArray, a: Pattern, b: Pattern): boolean {
  if (/\b(?:in|during|within|throughout|across)\s+$/i.test(sentence.slice(0, m.index))) return false;
  return keyForNoun(lexicon, a, m[1]!) !== undefined && keyForNoun(lexicon, b, m[1]!) !== undefined;
}

/** Words that ask for the same thing on both events: "the same order", "that same reservation", "the matching customer" (not "the very next step", a time). */
const SAME = /\b(?:the|that|this|a)\s+(?:same|very(?!\s+(?:next|first|last|end|start)\b)|matching|identical)\s+([a-z]+)\b/i;
/** "for that order", "of that customer": a demonstrative pointing back at the other event's thing. */
const THAT = /\b(?:for|of|on|to|with|about)\s+(?:that|this)\s+([a-z]+)\b/i;
/** "must not dispense that batch", "that shipment must not be released": any demonstrative, when both sides have its key. */
const ANY_THAT = /\b(?:that|this)\s+([a-z]+)\b/gi;

/**
 * The correlation a sentence asks for between two patterns, `on:` as judge.yaml
 * writes it with the sides named `a` and `b`: one key when both carry it, each
 * side's own when they name it differently (`order_id`, `id`). Undefined when
 * the sentence asks for none (or only for "the same session"); `unknown` when
 * it says "the same X" but the samples show no key for X on both sides.
 */
export function correlationOf<A extends string, B extends string>(
  lexicon: Lexicon,
  sentence: string,
  sides: { [S in A | B]: Pattern },
  names: [A, B],
): { on: On<A | B> } | { unknown: string } | undefined {
  // "that account … in the same session": the session is no thing to tie by, the account is. But "for that same
  // session", "of that same call" name a thing of the spec's own when both sides carry a key for it (`session_id`).
  const thing = (m: RegExpMatchArray) =>
    !SESSION_WORDS.has(canonical(m[1]!.toLowerCase())) || ownSession(lexicon, sentence, m, sides[names[0]], sides[names[1]]);
  const same = [...sentence.matchAll(new RegExp(SAME.source, "gi"))].find(thing) ?? null;
  const that = same === null ? THAT.exec(sentence) : null;
  const [a, b] = names;
  // Without "same" or a preposition, a demonstrative ties the sides only through a key both carry.
  const loose =
    same === null && that === null
      ? [...sentence.matchAll(ANY_THAT)].find(
          (m) =>
            !SESSION_WORDS.has(canonical(m[1]!.toLowerCase())) &&
            keyForNoun(lexicon, sides[a], m[1]!) !== undefined &&
            keyForNoun(lexicon, sides[b], m[1]!) !== undefined,
        )
      : undefined;
  const said = same ?? that ?? loose;
  // "in the same session", "later in the same run": one trajectory is one session already.
  if (said === null || said === undefined || !thing(said)) return undefined;
  const noun = said[1]!;
  const keyA = keyForNoun(lexicon, sides[a], noun);
  const keyB = keyForNoun(lexicon, sides[b], noun);
  // "for this applicant" may mean the session's one applicant: only "the same X" insists on a key,
  // the one both sides carry when the noun names none ("that same boat", both carry only `vessel`).
  if (keyA === undefined || keyB === undefined) {
    if (same === null) return undefined;
    const only = onlySharedKey(lexicon, sides[a], sides[b]);
    return only === undefined ? { unknown: noun } : { on: `metadata.${only}` };
  }
  if (keyA === keyB) return { on: `metadata.${keyA}` };
  return { on: { [a]: `metadata.${keyA}`, [b]: `metadata.${keyB}` } as { [S in A | B]: string } };
}
