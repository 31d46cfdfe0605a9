/**
 * Phrase → pattern, from what the samples show. "the lookup finds it" becomes
 * `{action: get_order_result, metadata: {status: found}}` because the action's
 * name shares words with the phrase and one of its metadata values is named
 * there. Only names and values the samples contain are ever proposed.
 */
import type { Actor, Trajectory } from "../../../runtime/types.js";
import type { Matcher, Pattern } from "../../ir/types.js";
import type { ActionMetadata, Vocabulary } from "../types.js";
import { buildVocabulary } from "../vocabulary.js";
import { canonical, nameStems, outcomeClass, STOPWORDS, stemSet, words } from "./words.js";
import { freeText } from "./free-text.js";

interface LexiconAction {
  name: string;
  /** Canonical stems of the name, without "result". */
  stems: string[];
  isResult: boolean;
  /**
   * For a result: the samples log it wherever they show its call, so a value it carries can stand
   * for the call's outcome. A result the samples log only now and then would miss most calls.
   */
  resultLogged: boolean;
  actors: Actor[];
  count: number;
  metadata: ActionMetadata[];
  contents: string[];
  /** Words the spec calls the action by besides its name (glosses.ts), as stems. */
  gloss?: string[];
}

export interface Lexicon {
  actions: LexiconAction[];
  /** Contents of user turns, for "the user asks the agent to pause". */
  userContents: string[];
  /** The samples themselves: where each action occurs, and what follows it. */
  samples: readonly Trajectory[];
  /** Names the spec gives the agent besides "the agent" ("Sprout", "the dispatcher"). */
  agentNames: readonly string[];
  /** Per word stem, the key the spec's introduction calls by it ("look a boat up (`find_vessel`, by `vessel_id`)": glosses.ts). */
  keyWords?: ReadonlyMap<string, string>;
  /** A contract's defined terms and the tools they name (""Handover" is the tool `hand_over`", voice-terms.ts). */
  definedTerms?: ReadonlyMap<string, string>;
  /** What a flowchart's "stop" means, as a ban of the act it stops ("no bottle is issued": flowchart.ts). */
  stopMeans?: string;
}

/** The metadata keys the samples show on an action (none for an action they never show). */
export function actionKeys(lexicon: Lexicon, action: string): string[] {
  return (lexicon.actions.find((a) => a.name === action)?.metadata ?? []).map((m) => m.key);
}

/** The keys every one of these actions carries (none for no action). */
export function sharedKeys(lexicon: Lexicon, actions: readonly string[]): string[] {
  const all = actions.map((a) => actionKeys(lexicon, a));
  return all.length === 0 ? [] : all.reduce((a, b) => a.filter((k) => b.includes(k)));
}

/** Values that mean a flag is set: a key named in prose with such a value is a condition. */
const FLAG_VALUES = new Set(["yes", "true", "1", "y"]);
const NO_VALUES = new Set(["no", "false", "0", "n"]);
/** Keys with more distinct values than this are identifiers, not categories. */
const MAX_CATEGORY_VALUES = 6;
/** A value shared by every one of this many events of an action tells nothing about any of them. */
const CONSTANT_SUPPORT = 5;
const CONTENTS_PER_ACTION = 200;

/** Builds the lexicon; the samples supply the content texts that `contentIncludes` is chosen from. */
export function buildLexicon(vocabulary: Vocabulary, samples: readonly Trajectory[]): Lexicon {
  const perAction = vocabulary.actionMetadata ?? buildVocabulary(samples).actionMetadata ?? [];
  const contents = new Map<string, string[]>();
  const userContents: string[] = [];
  const inSamples = new Map<string, Set<number>>();
  for (const [index, trajectory] of samples.entries()) {
    for (const event of trajectory.events) {
      const seen = inSamples.get(event.action) ?? new Set<number>();
      seen.add(index);
      inSamples.set(event.action, seen);
      const text = event.content ?? "";
      if (text === "") continue;
      const list = contents.get(event.action) ?? [];
      if (list.length < CONTENTS_PER_ACTION && !list.includes(text)) list.push(text);
      contents.set(event.action, list);
      if (event.actor === "user" && userContents.length < CONTENTS_PER_ACTION) userContents.push(text);
    }
  }
  return {
    actions: vocabulary.actions.map((a) => {
      const stems = nameStems(a.action);
      const isResult = stems.at(-1) === "result" && stems.length > 1;
      const call = isResult ? inSamples.get(a.action.replace(/[_-]?result$/i, "")) : undefined;
      const logged = inSamples.get(a.action) ?? new Set<number>();
      return {
        name: a.action,
        stems: stems.filter((s) => s !== "result"),
        isResult,
        resultLogged: isResult && (call === undefined || [...call].every((i) => logged.has(i))),
        actors: a.actors,
        count: a.count,
        metadata: perAction.filter((m) => m.action === a.action),
        contents: contents.get(a.action) ?? [],
      };
    }),
    userContents,
    samples,
    agentNames: [],
  };
}

/**
 * The lexicon with the action names the spec writes in backticks that no sample shows: the
 * drafter may use them as written (backticks.ts), with a note, rather than swap in a sample
 * action with other words.
 */
export function withSpecActions(lexicon: Lexicon, names: readonly string[]): Lexicon {
  const known = new Set(lexicon.actions.map((a) => a.name));
  // A name the samples show as a metadata key or value ("the `beneficiary_id` on the wire",
  // "`system: engine_controls`") is that key or value, not an action no sample shows.
  for (const t of lexicon.samples)
    for (const e of t.events)
      for (const [key, value] of Object.entries(e.metadata ?? {})) {
        known.add(key);
        if (typeof value === "string") known.add(value);
      }
  const added: LexiconAction[] = names
    .filter((name) => !known.has(name))
    .map((name) => {
      const stems = nameStems(name);
      const isResult = stems.at(-1) === "result" && stems.length > 1;
      return {
        name,
        stems: stems.filter((s) => s !== "result"),
        isResult,
        resultLogged: false,
        actors: [isResult ? "tool" : "agent"],
        count: 0,
        metadata: [],
        contents: [],
      };
    });
  return added.length === 0 ? lexicon : { ...lexicon, actions: [...lexicon.actions, ...added] };
}

/** A matcher against one sample event, as a judge reads it: every field it sets must hold. */
function matches(event: Trajectory["events"][number], matcher: Matcher): boolean {
  if (matcher.action !== undefined && event.action !== matcher.action) return false;
  if (matcher.actor !== undefined && event.actor !== matcher.actor) return false;
  if (matcher.contentIncludes !== undefined && !(event.content ?? "").includes(matcher.contentIncludes)) return false;
  return Object.entries(matcher.metadata ?? {}).every(([key, value]) => event.metadata?.[key] === value);
}

/** Whether some sample shows an event of `later` after one of `first`: the order a pairing or an ordering reads into prose. */
export function followsInSamples(lexicon: Lexicon, first: Pattern, later: Pattern): boolean {
  return lexicon.samples.some((trajectory) => {
    const start = trajectory.events.findIndex((e) => first.some((m) => matches(e, m)));
    return start >= 0 && trajectory.events.slice(start + 1).some((e) => later.some((m) => matches(e, m)));
  });
}

/** What a phrase offers for matching: its stems and the outcomes it speaks of ("successful", "failed"). */
interface PhraseWords {
  stems: Set<string>;
  /** The words as written, lower-cased. */
  words: Set<string>;
  outcomes: Set<"success" | "failure">;
}

function phraseWords(text: string): PhraseWords {
  const outcomes = new Set<"success" | "failure">();
  for (const word of words(text)) {
    const outcome = outcomeClass(word);
    if (outcome !== undefined) outcomes.add(outcome);
  }
  return { stems: stemSet(text), words: new Set(words(text).map((w) => w.toLowerCase())), outcomes };
}

/**
 * A value the phrase names: one of its own words (not already spent on the action's name), or its outcome.
 * A result's value that is a word of the phrase as written names it even when the action's name
 * shares the stem: "has been verified" is `verify_identity_result` with `status: verified`, and
 * "a legal-hold check finds a hold" the result with `status: hold`, not the call; but only when the
 * samples log the result wherever they show the call.
 */
function namesValue(value: string, action: LexiconAction, phrase: PhraseWords): boolean {
  const stems = nameStems(value).filter((s) => s.length >= 3 && !action.stems.includes(s));
  if (stems.some((s) => phrase.stems.has(s))) return true;
  if (action.resultLogged && value.length >= 3 && phrase.words.has(value.toLowerCase())) return true;
  // Up to its root: "receipts must be validated" names `status: valid` (never `invalid`).
  if (action.resultLogged && nameStems(value).some((s) => namesByRoot(s, action, phrase))) return true;
  const outcome = outcomeClass(value);
  return outcome !== undefined && phrase.outcomes.size === 1 && phrase.outcomes.has(outcome);
}

/**
 * A value's stem the phrase names up to its root. A value that only restates
 * the action's own verb (`status: cancelled` on `cancel_reservation_result`,
 * `status: valid` on `validate_receipt_result`) is named by a participle,
 * which speaks of the result's state ("receipts must be validated"), not by
 * the verb that does it ("the agent cancels a reservation" is the call).
 */
function namesByRoot(stem: string, action: LexiconAction, phrase: PhraseWords): boolean {
  const own = new Set(action.stems);
  if (own.has(stem) || !sharesRoot(stem, phrase.stems)) return false;
  if (!sharesRoot(stem, own)) return true;
  return [...phrase.words].some((w) => /(?:ed|en)$/.test(w) && sharesRoot(stem, new Set([canonical(w)])));
}

/** Whether the phrase writes a one-word key with "un" or "non" before it ("unplanned" of `planned`). */
function negatedFlag(key: string, words: PhraseWords): boolean {
  const [only, ...more] = nameStems(key);
  if (only === undefined || more.length > 0) return false;
  return [...words.words].some((w) => /^(?:un|non-?)[a-z]{3}/.test(w) && canonical(w.replace(/^(?:un|non-?)/, "")) === only);
}

/** Metadata constraints the phrase names for this action: categorical values it mentions, and flags whose key it names. */
function metadataEvidence(action: LexiconAction, words: PhraseWords): Record<string, string> {
  const phrase = words.stems;
  const found: Record<string, string> = {};
  for (const meta of action.metadata) {
    const top = meta.values[0];
    if (top === undefined) continue;
    const isFlag = meta.distinct === 1 && FLAG_VALUES.has(top.value.toLowerCase());
    if (isFlag) {
      if (nameStems(meta.key).some((s) => phrase.has(s))) found[meta.key] = top.value;
      continue;
    }
    // A yes/no key the phrase names ("over the approval limit", "the duplicate check flags it") is its yes.
    const truthy = meta.values.find((v) => FLAG_VALUES.has(v.value.toLowerCase()));
    const yesNo = meta.distinct === 2 && truthy !== undefined && meta.values.some((v) => NO_VALUES.has(v.value.toLowerCase()));
    // "an unplanned discharge" of `planned`: the key's word with "un" or "non" before it is its no.
    const falsy = meta.values.find((v) => NO_VALUES.has(v.value.toLowerCase()));
    if (falsy !== undefined && (yesNo || meta.distinct === 1) && negatedFlag(meta.key, words)) {
      found[meta.key] = falsy.value;
      continue;
    }
    if (yesNo) {
      if (nameStems(meta.key).every((s) => phrase.has(s))) found[meta.key] = truthy.value;
      continue;
    }
    if (meta.distinct > MAX_CATEGORY_VALUES) continue;
    // A reason or a note written out names nothing by one of its words (free-text.ts).
    if (freeText(meta.values)) continue;
    // A value every one of many events carries distinguishes nothing ("channel: release" on every post).
    if (meta.distinct === 1 && meta.count === action.count && action.count >= CONSTANT_SUPPORT) continue;
    const named = meta.values.find((v) => namesValue(v.value, action, words));
    if (named !== undefined) found[meta.key] = named.value;
  }
  return found;
}

/**
 * A noun and its verb share a root the light stemmer leaves apart: "erasure" and `erase`,
 * "screening" and `screen`. One stem must start the other, the shorter of at least four
 * letters, the longer at most three letters longer.
 */
export function sharesRoot(stem: string, phrase: ReadonlySet<string>): boolean {
  if (stem.length < 4) return false;
  for (const word of phrase) {
    const [short, long] = word.length < stem.length ? [word, stem] : [stem, word];
    if (short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short)) return true;
  }
  return false;
}

/**
 * How a named value alone speaks for an action whose name the phrase does not: 0 when it does
 * not (it is only an outcome, or another action carries it too), 1 when its word also names
 * some action ("refund" in `template: refund_confirmation`, when `issue_refund` exists), 2 when
 * nothing but this value can be what the phrase means ("a user appeals" and `label: appeal`).
 */
function ownValueStrength(lexicon: Lexicon, action: LexiconAction, metadata: Record<string, string>, phrase: PhraseWords): 0 | 1 | 2 {
  let strength: 0 | 1 | 2 = 0;
  for (const [key, value] of Object.entries(metadata)) {
    const named = nameStems(value).filter((s) => s.length >= 4 && phrase.stems.has(s));
    if (named.length === 0) continue;
    if (
      lexicon.actions.some(
        (other) => other !== action && other.metadata.some((m) => m.key === key && m.values.some((v) => v.value === value)),
      )
    )
      continue;
    const namesAnAction = named.some((s) => lexicon.actions.some((a) => a.stems.includes(s)));
    strength = Math.max(strength, namesAnAction ? 1 : 2) as 0 | 1 | 2;
  }
  return strength;
}

/** A name's "re-" verb is the phrase's verb done again: `request_reroute` for "a new route", `requeue_job` for "back to the queue". */
function repeats(stem: string, phrase: Set<string>): boolean {
  return stem.startsWith("re") && stem.length >= 6 && phrase.has(stem.slice(2));
}

interface Scored {
  action: LexiconAction;
  score: number;
  coverage: number;
  metadata: Record<string, string>;
}

/**
 * Scores every action against a phrase: shared name words, the share of the
 * name covered, named metadata, and whether the phrase speaks of a result.
 */
function scoreActions(lexicon: Lexicon, text: string, filter?: (a: LexiconAction) => boolean): Scored[] {
  const words = phraseWords(text);
  const phrase = words.stems;
  const scored: Scored[] = [];
  for (const action of lexicon.actions) {
    if (action.stems.length === 0 || (filter !== undefined && !filter(action))) continue;
    const named = action.stems.filter((s) => phrase.has(s) || sharesRoot(s, phrase) || repeats(s, phrase)).length;
    // A word the spec calls the action by ("every fill": `dispense`) counts as half a word of its
    // name, once: less than any word of another action's name.
    // A gloss of one word is what the spec calls the action outright ("pay (`issue_payment`)"): a whole name.
    // So does a one-word gloss that is also a word of the name ("pay (`issue_payment`)", both `pay` once "payment" is).
    const glossWord = (action.gloss ?? []).some((s) => phrase.has(s) || sharesRoot(s, phrase));
    const glossHit = named === 0 && glossWord;
    const outright = glossWord && action.gloss!.length === 1;
    const glossed = glossHit ? (outright ? 1 : 0.5) : 0;
    const matched = named + glossed;
    const metadata = metadataEvidence(action, words);
    const evidence = Object.keys(metadata).length > 0;
    // No word of the name, but a category value only this action carries: "a user appeals" is `label: appeal`.
    const ownValue = matched === 0 && evidence ? ownValueStrength(lexicon, action, metadata, words) : 0;
    if (matched === 0 && ownValue === 0) continue;
    const coverage = outright ? 1 : glossed > 0 ? 0.5 : matched / action.stems.length;
    if (coverage < 0.5 && !evidence) continue;
    const resultBonus = action.isResult ? (phrase.has("result") ? 1 : -0.5) : 0;
    // A value alone whose word also names an action is the weakest evidence: that action comes first.
    // One whose word names nothing else outweighs a name half covered by a by-word ("user" in `ban_user`).
    // A value every event of the action carries tells it apart from no other event of it: weak
    // evidence, unless it is a flag the phrase names by its key ("an official source": `official: yes`).
    const telling = Object.entries(metadata).some(
      ([k, v]) => (action.metadata.find((m) => m.key === k)?.distinct ?? 0) > 1 || FLAG_VALUES.has(v.toLowerCase()),
    );
    const bonus = evidence ? (telling ? 2 : 0.5) : 0;
    const score = matched === 0 ? (ownValue === 2 ? 2.5 + resultBonus : 0.5) : matched + coverage + bonus + resultBonus;
    scored.push({ action, score, coverage, metadata });
  }
  return scored.sort((a, b) => b.score - a.score || b.coverage - a.coverage || (a.action.name < b.action.name ? -1 : 1));
}

/** The single best action for a phrase, with the metadata it names. */
export function bestAction(
  lexicon: Lexicon,
  phrase: string,
  filter?: (a: LexiconAction) => boolean,
): { action: string; actors: Actor[]; metadata: Record<string, string> } | undefined {
  const best = scoreActions(lexicon, phrase, filter)[0];
  return best === undefined ? undefined : { action: best.action.name, actors: best.action.actors, metadata: best.metadata };
}

/** "saying the build was rolled back" → the reported words, and the phrase without them. */
export function splitReportedSpeech(phrase: string): { rest: string; speech?: string } {
  const match =
    /\b(?:saying|stating|announcing|which says|that says|to say|(?:tells?|telling|informs?|informing|reminds?|reminding)\s+(?:the\s+)?\w+\s+that)\s+(.+)$/i.exec(
      phrase,
    );
  if (match === null) return { rest: phrase };
  return { rest: phrase.slice(0, match.index).trim(), speech: match[1]! };
}

function hasMeaningfulWord(text: string): boolean {
  return words(text).some((w) => w.length >= 4 && !STOPWORDS.has(w.toLowerCase()));
}

/**
 * The longest run of the speech's words, within one comma-free segment, that
 * occurs verbatim in some sample content. Punctuation varies between
 * messages, so a run never spans it. Among runs of the same length the rarer
 * one wins: "paused" tells a pause notice apart, "rollout" is in every post.
 */
export function contentFragment(speech: string, contents: readonly string[]): string | undefined {
  if (contents.length === 0) return undefined;
  let best: { text: string; words: number; hits: number } | undefined;
  for (const segment of speech.split(/[,;:()\u2014\u2013"]|\s-\s/)) {
    const tokens = segment
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/^[^\w$]+|[^\w%]+$/g, ""))
      .filter((t) => t !== "");
    for (let length = tokens.length; length >= 1; length--) {
      if (best !== undefined && length < best.words) break;
      for (let start = 0; start + length <= tokens.length; start++) {
        const text = tokens.slice(start, start + length).join(" ");
        if (!hasMeaningfulWord(text)) continue;
        const hits = contents.filter((c) => c.includes(text)).length;
        if (hits === 0) continue;
        if (best === undefined || length > best.words || (length === best.words && hits < best.hits)) best = { text, words: length, hits };
      }
    }
  }
  return best?.text;
}

/** Splits "either a rollback or another health-check result" into its alternatives. */
function alternatives(phrase: string): string[] {
  const stripped = phrase.replace(/\beither\s+/i, "");
  const parts = stripped
    .split(/\s*,?\s+or\s+/i)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return parts.length > 1 ? parts : [phrase];
}

/** Nouns that stand for the agent, not for the person it talks to. */
const AGENT_WORDS = new Set(["agent", "assistant", "bot", "model", "it", "they"]);

/**
 * "every message a student types", "once a student has submitted an answer": someone other than
 * the agent does it, and the samples show the user doing this action, so the user is the actor.
 * The subject is a noun with an article, none of the action's own words and not the agent.
 */
function userActs(lexicon: Lexicon, phrase: string, found: { action: string; actors: Actor[] }): boolean {
  if (!found.actors.includes("user")) return false;
  const subject = /\b(?:a|an|the|each|every|any)\s+([a-z]+)\s+(?:(?:has|have|had)\s+)?[a-z]+(?:s|ed)\b/i.exec(phrase);
  if (subject === null) return false;
  const noun = subject[1]!.toLowerCase();
  const names = lexicon.agentNames.flatMap((n) => words(n).map((w) => w.toLowerCase()));
  if (AGENT_WORDS.has(noun) || names.includes(noun) || STOPWORDS.has(noun)) return false;
  return !nameStems(found.action).includes(canonical(noun));
}

/** "the on-call engineer asks the agent to pause" → a user turn that contains "pause". */
function userRequest(lexicon: Lexicon, phrase: string): Matcher | undefined {
  const match = /^(.*?)\b(?:asks?|tells?|requests?|instructs?|wants?)\s+(?:the agent|it|them|the assistant)\s+to\s+(.+)$/i.exec(phrase);
  if (match === null || /\b(?:agent|it)\b/i.test(match[1]!)) return undefined;
  const fragment = contentFragment(match[2]!, lexicon.userContents);
  return fragment === undefined ? undefined : { actor: "user", contentIncludes: fragment };
}

export interface ResolveOptions {
  /** Only actions some agent performed: what the agent is required or forbidden to do. */
  agentOnly?: boolean;
  /** Words to ignore when choosing the action (e.g. the unit of "different orders"). */
  ignore?: string;
  /** Only the actions this accepts: what a sum adds up carries an amount. */
  only?: (action: string) => boolean;
  /** The phrase names a class of events ("When a hive with more than 20 frames is inspected"): its keyed bounds are on each (measured.ts). */
  measured?: boolean;
}

/**
 * A pattern for a phrase, or undefined when the samples show nothing it could
 * mean. Alternatives ("a refund or store credit") give an any-of list.
 */
export function resolvePattern(lexicon: Lexicon, phrase: string, options: ResolveOptions = {}): Pattern | undefined {
  const request = userRequest(lexicon, phrase);
  if (request !== undefined) return options.agentOnly === true ? undefined : [request];
  const { rest, speech } = splitReportedSpeech(phrase);
  const { agentOnly, only } = options;
  const filter =
    agentOnly === true || only !== undefined
      ? (a: LexiconAction) => (agentOnly !== true || a.actors.includes("agent")) && (only === undefined || only(a.name))
      : undefined;
  const matchers: Matcher[] = [];
  for (const alternative of alternatives(rest)) {
    const withoutIgnored = options.ignore === undefined ? alternative : alternative.replace(options.ignore, " ");
    const found = bestAction(lexicon, withoutIgnored, filter) ?? bestAction(lexicon, alternative, filter);
    if (found === undefined || matchers.some((m) => m.action === found.action && sameMetadata(m.metadata, found.metadata))) continue;
    const matcher: Matcher = userActs(lexicon, alternative, found) ? { actor: "user", action: found.action } : { action: found.action };
    if (Object.keys(found.metadata).length > 0) matcher.metadata = found.metadata;
    if (speech !== undefined) {
      const fragment = contentFragment(speech, lexicon.actions.find((a) => a.name === found.action)?.contents ?? []);
      if (fragment !== undefined) matcher.contentIncludes = fragment;
    }
    matchers.push(matcher);
  }
  return matchers.length > 0 ? matchers : undefined;
}

function sameMetadata(a: Readonly<Record<string, unknown>> | undefined, b: Record<string, string>): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b);
}

/** The metadata key of `action` that a noun names ("orders" → `order_id`), for `distinctBy`. */
export function keyNamedBy(lexicon: Lexicon, actions: readonly string[], noun: string): string | undefined {
  const stems = stemSet(noun);
  for (const name of actions) {
    const action = lexicon.actions.find((a) => a.name === name);
    const key = action?.metadata.find((m) => nameStems(m.key).some((s) => stems.has(s)));
    if (key !== undefined) return key.key;
  }
  return undefined;
}

/** Whether some agent action's name is what the phrase starts by talking about ("the final answer names …"). */
export function namesAgentAction(lexicon: Lexicon, phrase: string): boolean {
  const head = words(phrase).slice(0, 4).join(" ");
  const best = scoreActions(lexicon, head, (a) => a.actors.includes("agent"))[0];
  return best !== undefined && best.coverage === 1;
}

export { canonical };
