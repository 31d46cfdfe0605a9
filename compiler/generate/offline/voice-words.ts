/**
 * The small word tables of the voice layer (voice.ts): the forms of a verb it writes when it makes the
 * agent the subject ("push" → "pushes", "log" → "logged"), the words that cannot open an imperative,
 * and the ordinals of "no later than the fourth step after".
 */
import { BASE_IN_ED } from "./words.js";

/** The third person singular of a verb: "push" → "pushes", "carry" → "carries", "have" → "has". */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular: Record<string, string> = { have: "has", do: "does", go: "goes", be: "is", are: "is" };
  if (irregular[lower] !== undefined) return irregular[lower]!;
  if (/(?:s|sh|ch|x|z|o)$/i.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/i.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/**
 * Words that start a clause without being an imperative verb: articles and quantifiers, pronouns,
 * prepositions and conjunctions, question and concession words, auxiliaries and modals.
 */
export const NOT_A_VERB = new Set(
  (
    "a an the this that these those its their his her our your my each every any all both either neither no none some many much most " +
    "more less few fewer other another such same one two three four five six seven eight nine ten only also just even still not never " +
    "always nothing nobody everything everyone anything anyone someone something it they we you he she i there here what which who whom " +
    "whose how why where when whenever wherever whatever whoever however whichever if unless until once while as than because though " +
    "although so yet or nor but and then about above across after against along among around at before behind below beneath beside " +
    "besides between beyond by despite down during except for from in inside into like near of off on onto out outside over past per " +
    "since through throughout till to toward towards under unlike up upon via with within without plus including following regarding " +
    "is are was were be been being has have had do does did must may might can could shall should will would need needs ought " +
    "note notes example examples why rationale background context otherwise instead thereafter afterwards later first finally " +
    "again ever"
  ).split(" "),
);
/** What an imperative's verb is followed by: its object's determiner, a backticked name, or a snake_case action. */
export const OBJECT_START = "(?:(?:the|a|an|every|each|any|all|no|its|their|one|both|another|it|them)\\b|`|[a-z]+_[a-z0-9_]+\\b)";
/** Adverbs that may come between the subject (or none) and the verb. */
export const ADVERB = "(?:never|always|only|also|then|first|immediately|promptly|still|do not|don't|does not|doesn't)";

/** A verb that may open an imperative: a word, not a function word, not a participle or a verb already in the third person. */
export function imperativeVerb(word: string, atStart: boolean): boolean {
  const lower = word.toLowerCase();
  if (NOT_A_VERB.has(lower) || (/(?:ing|ed)$/i.test(lower) && !BASE_IN_ED.test(lower)) || (/[^s]s$/i.test(lower) && lower !== "focus"))
    return false;
  // A capital inside a sentence is a name, not a verb.
  return atStart || word === lower;
}

/**
 * Verbs that name no act of their own before a noun that does: "make no payment", "carry out any inspection", "issue
 * a refund", "perform no transfer". The noun is the act, in every voice (its stem is the action's: words.ts reads
 * "payment" as paying, "booking" as booking). A number of them counts the act as well: "make more than four
 * call-outs", "issue over 3 refunds", "carry out two inspections" (a Do/Don't page's "Don't make more than four …").
 */
const LIGHT_VERB = new RegExp(
  String.raw`^(?:make|makes|issue|issues|carry\s+out|carries\s+out|perform|performs|conduct|conducts|effect|effects|process|processes|put\s+through|puts\s+through|place|places)\s+` +
    String.raw`(?:(?:(?:no\s+)?(?:more|fewer|less)\s+than|over|above|under|up\s+to|at\s+(?:most|least)|(?:a\s+)?maximum\s+of)\s+(?:\d+|[a-z]+)|no|any|a|an|another|further|more|one|\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+` +
    String.raw`(?:(?:further|more|other|new|single|additional|fresh|separate)\s+)?([a-z]+)(?:-([a-z]+))?\b`,
  "i",
);

/** Whether the verb phrase starting `text` is a light verb whose object names an act the agent's actions are called by. */
export function actByNoun(knows: (word: string) => boolean, text: string): boolean {
  const m = LIGHT_VERB.exec(text);
  // "call-outs", "write-offs": the compound's first word is the act's ("call" of `call_out`), or the whole written as one.
  return m !== null && (knows(m[1]!) || (m[2] !== undefined && knows(m[1]! + m[2])));
}

/**
 * A sentence that opens with a condition ("When a sensor reports …, call …"), so that the words
 * after its comma may be the main clause's.
 */
export const LEADING_CONDITION =
  /^(?:before|after|once|whenever|each time|every time|if|when|where|during|as soon as|following|prior to|until)\b/i;

/** Past participles that do not add "-ed". */
const IRREGULAR_PARTICIPLES: Record<string, string> = {
  send: "sent",
  make: "made",
  pay: "paid",
  put: "put",
  give: "given",
  take: "taken",
  hold: "held",
  keep: "kept",
  tell: "told",
  show: "shown",
  run: "run",
  set: "set",
  sell: "sold",
  buy: "bought",
  bring: "brought",
  write: "written",
  read: "read",
  do: "done",
  get: "got",
  lend: "lent",
  leave: "left",
  feed: "fed",
  meet: "met",
  cut: "cut",
  shut: "shut",
  find: "found",
  build: "built",
  spend: "spent",
  see: "seen",
  issue: "issued",
};

/** The past participle of a verb: "log" → "logged", "settle" → "settled", "carry" → "carried", "send" → "sent". */
export function participle(verb: string): string {
  const irregular = IRREGULAR_PARTICIPLES[verb];
  if (irregular !== undefined) return irregular;
  if (/e$/.test(verb)) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  // One syllable ending consonant-vowel-consonant doubles its consonant: "log", "ship", "tag".
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(verb)) return `${verb}${verb.slice(-1)}ed`;
  return `${verb}ed`;
}

export const ORDINALS: Record<string, string> = {
  first: "1",
  second: "2",
  third: "3",
  fourth: "4",
  fifth: "5",
  sixth: "6",
  seventh: "7",
  eighth: "8",
  ninth: "9",
  tenth: "10",
};

/**
 * The nouns a window of steps counts in: "the second step after", "within three events of", "the second ENTRY following"
 * (a contract's defined word for an event of the session), "the third message after". Not "turns" nor "days": a turn is a
 * person's message and the agent's answer together, a day no step at all.
 */
export const STEP_NOUNS = "(?:steps?|events?|entry|entries|actions?|messages?|moves?)";
