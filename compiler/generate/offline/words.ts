/**
 * Word matching between spec prose and trajectory names: "the lookup finds
 * it" against `get_order_result` with `status: found`. A light stemmer and a
 * short table of tool-verb synonyms, applied the same way to both sides, so
 * "refunds", "refunded" and `issue_refund` share the stem `refund`.
 * Deliberately small and predictable: a person confirms every mapping.
 */
import { SMALL } from "./number-words.js";

/** Irregular forms that suffix stripping cannot reach. */
const IRREGULAR: Record<string, string> = {
  found: "find",
  sent: "send",
  ran: "run",
  written: "write",
  wrote: "write",
  gave: "give",
  given: "give",
  took: "take",
  taken: "take",
  made: "make",
  paid: "pay",
  told: "tell",
  said: "say",
  began: "begin",
  begun: "begin",
  shown: "show",
  chose: "choose",
  chosen: "choose",
  left: "leave",
  kept: "keep",
  met: "meet",
  lent: "lend",
  sold: "sell",
  bought: "buy",
  drawn: "draw",
  withdrawn: "withdraw",
  brought: "bring",
  built: "build",
  spent: "spend",
  driven: "drive",
  // Nouns of a verb that suffix stripping cannot reach: "every redemption" is `redeem_chips`.
  redemption: "redeem",
  redemptions: "redeem",
  prescription: "prescribe",
  prescriptions: "prescribe",
  subscription: "subscribe",
  subscriptions: "subscribe",
  exemption: "exempt",
  exemptions: "exempt",
  // "-ment" nouns too short for the suffix rule, which keeps "comment", "element" whole: "no
  // payment to that supplier" is `pay_invoice`, "every shipment" `ship_order`.
  payment: "pay",
  payments: "pay",
  shipment: "ship",
  shipments: "ship",
  movement: "move",
  movements: "move",
};

/**
 * Verbs that name the same tool operation. Canonicalizing both the prose and
 * the action names keeps "retrieves the order" next to `get_order`.
 */
const SYNONYMS: Record<string, string> = {
  retriev: "get",
  fetch: "get",
  lookup: "get",
  load: "get",
  obtain: "get",
  writ: "add",
  record: "add",
  log: "add",
  creat: "add",
  email: "email",
  mail: "email",
  announc: "post",
  ship: "deploy",
  launch: "deploy",
  revert: "rollback",
  undo: "rollback",
  tell: "reply",
  inform: "reply",
  notify: "reply",
  respond: "reply",
  answer: "reply",
  ask: "request",
  // "We will never begin a cremation" is `start_cremation`; "recorded as complete", "finished" is the close of it.
  begin: "start",
  commenc: "start",
  complet: "close",
  finish: "close",
  // "must not book any vehicle" is `reserve_vehicle`.
  reserv: "book",
};

/**
 * Outcome words: "a successful publish" names `status: published`, "a failed
 * run" names `status: failed`, whichever word the tool happens to use.
 */
const OUTCOME_CLASSES: Record<string, "success" | "failure"> = {
  success: "success",
  successful: "success",
  successfully: "success",
  cleanly: "success",
  succeed: "success",
  succeeded: "success",
  ok: "success",
  passed: "success",
  passing: "success",
  approved: "success",
  granted: "success",
  published: "success",
  sent: "success",
  delivered: "success",
  applied: "success",
  found: "success",
  done: "success",
  complet: "success",
  completed: "success",
  accepted: "success",
  green: "success",
  healthy: "success",
  fail: "failure",
  failed: "failure",
  failing: "failure",
  failure: "failure",
  error: "failure",
  errored: "failure",
  rejected: "failure",
  declined: "failure",
  denied: "failure",
  refused: "failure",
  red: "failure",
  unhealthy: "failure",
  broken: "failure",
  timeout: "failure",
  unsuccessful: "failure",
  unsuccessfully: "failure",
};

/** "success", "failure", or undefined for a word or value that names no outcome. */
export function outcomeClass(word: string): "success" | "failure" | undefined {
  const lower = word.toLowerCase();
  return OUTCOME_CLASSES[lower] ?? OUTCOME_CLASSES[stem(lower)];
}

/** Words that carry no meaning for matching. */
export const STOPWORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "for",
  "on",
  "in",
  "at",
  "by",
  "with",
  "from",
  "into",
  "onto",
  "and",
  "or",
  "nor",
  "its",
  "it",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "has",
  "have",
  "had",
  "this",
  "that",
  "these",
  "those",
  "their",
  "them",
  "they",
  "he",
  "she",
  "his",
  "her",
  "any",
  "each",
  "every",
  "all",
  "one",
  "which",
  "who",
  "whom",
  "what",
  "when",
  "then",
  "than",
  "as",
  "so",
  "if",
  "but",
  "not",
  "no",
  "own",
  "same",
  "does",
  "do",
  "did",
  "must",
  "should",
  "may",
  "can",
  "will",
  "would",
  "could",
  "there",
  "here",
  "also",
  "only",
  "once",
  "after",
  "before",
  "afterwards",
  "later",
  "again",
  "more",
  "most",
  "least",
  "session",
  "agent",
]);

function undouble(word: string): string {
  // "posting" → "post", "shipped" → "ship"; l, s and z double legitimately ("roll", "pass"), and so does a word of
  // three letters ("added" is "add", not "ad").
  if (/([b-df-hjkmnp-rtvwxy])\1$/.test(word) && word.length > 3) return word.slice(0, -1);
  // "cancelled", "travelling", "labelled": British spelling doubles the "l" of a verb in "-el" of two syllables or more
  // ("cancel"); a verb in "-ell" of one ("spell", "smell") has a consonant cluster or nothing before its vowel.
  if (/[aeiou][^aeiou]+ell$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * Verbs whose own form ends in "-ed", no participle: "shred", "embed", "feed", "speed", "proceed", "exceed" ("-eed",
 * but not a verb in "-ee" with its "d": "agreed", "freed", "guaranteed"). Their "-ed" is no ending: "shred" stems as
 * "shredded" does, "exceed" as "exceeded".
 */
export const BASE_IN_ED = /^(?:shred|embed|wed|bed|sled|(?!(?:agr|fr|guarant|decr|refer|pedigr|disagr)eed$)[a-z]*eed)$/;

/** A light stem: plural, -ing, -ed, -ation, final e. `approves`, `approved` → `approv`. */
export function stem(raw: string): string {
  let word = raw.toLowerCase();
  const base = IRREGULAR[word];
  if (base !== undefined) return stem(base);
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(word)) word = word.slice(0, -2);
  else if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) word = undouble(word.slice(0, -3));
  else if (word.endsWith("ied") && word.length > 4) word = `${word.slice(0, -3)}y`;
  // "agreed", "guaranteed": a verb in "-ee" takes only a "d" ("agree").
  else if (word.endsWith("eed") && word.length > 4 && !BASE_IN_ED.test(word)) word = word.slice(0, -1);
  else if (word.endsWith("ed") && word.length > 4 && !BASE_IN_ED.test(word)) word = undouble(word.slice(0, -2));
  else if (word.endsWith("ation") && word.length > 7) word = word.slice(0, -3);
  else if (word.endsWith("ment") && word.length > 8) word = word.slice(0, -4);
  // Verb + "al" nouns: approval, removal, arrival, proposal, withdrawal.
  else if (/[svw]al$/.test(word) && word.length > 6) word = word.slice(0, -2);
  if (word.endsWith("e") && word.length > 3) word = word.slice(0, -1);
  return word;
}

/** The canonical form used for matching: stem, then synonym. */
export function canonical(word: string): string {
  const stemmed = stem(word);
  return SYNONYMS[stemmed] ?? stemmed;
}

/** The words of prose or of a name (`issue_refund`, `healthCheck`, `health-check`), in order. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * Canonical stems of meaningful words, plus each adjacent pair joined, so that
 * "rolled back" also yields `rollback` and "look up" yields the lookup verb.
 */
export function stemSet(text: string): Set<string> {
  const raw = words(text).map((w) => w.toLowerCase());
  const set = new Set(raw.filter((w) => !STOPWORDS.has(w)).map(canonical));
  for (let i = 0; i + 1 < raw.length; i++) {
    if (STOPWORDS.has(raw[i]!) || STOPWORDS.has(raw[i + 1]!)) continue;
    set.add(canonical(raw[i]! + raw[i + 1]!));
    set.add(canonical(stem(raw[i]!) + stem(raw[i + 1]!)));
  }
  return set;
}

/** Canonical stems of a name's parts, without stopwords. */
export function nameStems(name: string): string[] {
  return words(name)
    .map((w) => w.toLowerCase())
    .filter((w) => !STOPWORDS.has(w))
    .map(canonical);
}

/**
 * The words parseCount reads as a count: the numbers zero to twelve (number-words.ts; larger ones are
 * a voice step's, voice-numbers.ts) and the words a count is also said with ("no", "once", "a", "an",
 * "single", "twice").
 */
const NUMBER_WORDS: Record<string, number> = {
  ...Object.fromEntries(Object.entries(SMALL).filter(([word, n]) => n <= 12 && word !== "nil")),
  no: 0,
  once: 1,
  a: 1,
  an: 1,
  single: 1,
  twice: 2,
};

/** The number words parseCount reads, longest first (a regular-expression alternation takes the first that fits). */
export const NUMBER_WORD_LIST: readonly string[] = Object.keys(NUMBER_WORDS).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

/** "three" → 3, "12" → 12; undefined for anything else. */
export function parseCount(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word.toLowerCase()];
}

/** Whitespace collapsed and trimmed: quotes are compared this way. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Whether `quote` occurs in `body` verbatim, up to whitespace. */
export function quoteOccurs(quote: string, body: string): boolean {
  const q = normalizeWhitespace(quote);
  return q !== "" && normalizeWhitespace(body).includes(q);
}
