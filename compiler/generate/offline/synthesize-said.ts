/**
 * Words a person says, as matchers of the search from labels (issue 25). A rule often waits for a
 * phrase in the chat: "Any fill of more than 200 litres waits until the words "go ahead" have come
 * in over the chat", "Prior to each Handover, the words "approved for handover" shall have been
 * written by the Client". When no phrase reading maps the sentence, the draft leaves it to the model,
 * and the search over the samples' actions and values has no event that says the words: six
 * labels that are all "followed" then fit a check that cannot fail (a fill followed by its own
 * result), and every held-out fill without the words passes. So the words the rule writes in
 * quotes that some user turn of the samples says (any case, as whole words) are matchers of the
 * search too, a user turn saying them, ranked as the rule's own words (a name written in backticks
 * ranks so). The search builds its orderings over them as over any other event.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Matcher } from "../../ir/types.js";
import type { Vocab } from "./synthesize-vocab.js";
import type { Candidate } from "./synthesize-eval.js";

/** The quoted words: "go ahead", “approved”. At most 40 characters: a phrase, not a sentence. */
const QUOTED = /"([^"\n]{1,40})"|\u201c([^\u201d\n]{1,40})\u201d/g;

/** Relevance of a phrase the rule quotes: as a name it writes in backticks (synthesize-vocab.ts). */
const SAID_RELEVANCE = 2;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words as a whole-word pattern, any run of white space between them. */
const wordsPattern = (words: string): string => `\\b${words.trim().split(/\s+/).map(escape).join("\\s+")}\\b`;

/** A user turn saying the words: case-blind, whole words, any run of white space between them. */
function saidMatcher(words: string): Matcher {
  return { actor: "user", content: { matches: wordsPattern(words), flags: "i" } };
}

/** The phrases the text quotes that some turn of `actor` in the samples says, each once, in the text's order. */
export function saidPhrases(text: string, samples: readonly Trajectory[], actor: "user" | "agent" = "user"): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const words = (m[1] ?? m[2]!).trim();
    // Words only: a quoted number or sign is no phrase a person says.
    if (!/[a-z]/i.test(words) || found.some((f) => f.toLowerCase() === words.toLowerCase())) continue;
    if (saidIn(samples, actor, wordsPattern(words))) found.push(words);
  }
  return found;
}

/** Whether some turn of `actor` in the samples matches the pattern (any case). */
function saidIn(samples: readonly Trajectory[], actor: "user" | "agent", pattern: string): boolean {
  const re = new RegExp(pattern, "i");
  return samples.some((s) => s.events.some((e) => e.actor === actor && re.test(e.content ?? "")));
}

/**
 * A duty on what is said: a modal or a negation before a verb of saying ("crew must not tell a
 * parent …", "the bot should never promise …", "do not say …", "always answer …"). A rule binds the
 * agent, so the words such a sentence quotes are the agent's to say or not; the words a sentence
 * quotes otherwise ("until the words "go ahead" have come in", "written by the Client") come from
 * the person.
 */
const SAYING_DUTY =
  /\b(?:must|shall|should|may|can|will|do|does|never|always|(?:is|are)(?:\s+not)?\s+to)\b(?:\s+(?:not|never|ever|n't|always|only|be\s+allowed\s+to|\w+ly))*\s+(?:tell|say|promise|claim|assure|guarantee|state|suggest|imply|describe|call|reply|answer|respond|write|mention|use\s+the\s+words?)\b/i;

/**
 * The rule's sentences that quote words the agent is bound to say or not to say (SAYING_DUTY before
 * the first quote), with their phrases (words only).
 */
function agentSayings(text: string): string[][] {
  const out: string[][] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z"\u201c])/)) {
    const first = sentence.search(/["\u201c]/);
    if (first < 0 || !SAYING_DUTY.test(sentence.slice(0, first))) continue;
    const phrases = [...sentence.matchAll(QUOTED)].map((m) => (m[1] ?? m[2]!).trim()).filter((w) => /[a-z]/i.test(w));
    if (phrases.length > 0) out.push(phrases);
  }
  return out;
}

/** An agent turn saying any of the phrases: case-blind, whole words. */
function agentSaid(phrases: readonly string[]): Matcher {
  const alternatives = phrases.map((p) => p.trim().split(/\s+/).map(escape).join("\\s+"));
  const matches = alternatives.length === 1 ? `\\b${alternatives[0]}\\b` : `\\b(?:${alternatives.join("|")})\\b`;
  return { actor: "agent", content: { matches, flags: "i" } };
}

/**
 * The matchers of phrases the agent is bound to say or not to: the sentence's phrases as one
 * ("must not tell a parent the child is "fine", "OK" or "not hurt"" bans any of them), then each
 * phrase alone, those that some agent turn of the samples says. The phrases themselves, as a
 * user's words, are not matchers then: the sentence says who speaks them.
 */
function agentSaidMatchers(text: string, samples: readonly Trajectory[]): { matchers: Matcher[]; phrases: Set<string> } {
  const matchers: Matcher[] = [];
  const phrases = new Set<string>();
  for (const sentence of agentSayings(text)) {
    for (const p of sentence) phrases.add(p.toLowerCase());
    const all = agentSaid(sentence);
    const used = sentence.filter((p) => saidIn(samples, "agent", wordsPattern(p)));
    if (used.length === 0) continue;
    if (sentence.length > 1) matchers.push(all);
    for (const p of used) matchers.push(agentSaid([p]));
  }
  return { matchers, phrases };
}

/**
 * The vocabulary with a matcher for each phrase the rule quotes that a user turn says, and for the
 * phrases the agent is bound to say or not to that an agent turn says, ranked as the words' own.
 */
export function withSaid(vocab: Vocab, text: string, samples: readonly Trajectory[]): Vocab {
  const agent = agentSaidMatchers(text, samples);
  const said = [
    ...agent.matchers,
    ...saidPhrases(text, samples)
      .filter((p) => !agent.phrases.has(p.toLowerCase()))
      .map(saidMatcher),
  ];
  const known = new Set(vocab.matchers.map((m) => JSON.stringify(m)));
  const added = said.filter(
    (m, k) => !known.has(JSON.stringify(m)) && said.findIndex((x) => JSON.stringify(x) === JSON.stringify(m)) === k,
  );
  if (added.length === 0) return vocab;
  const ids = new Set(added.map((m) => JSON.stringify(m)));
  const relevanceOf = (m: Matcher) => (ids.has(JSON.stringify(m)) ? SAID_RELEVANCE : vocab.relevanceOf(m));
  return {
    ...vocab,
    matchers: [...vocab.matchers, ...added],
    relevance: [...vocab.relevance, ...added.map(() => SAID_RELEVANCE)],
    relevanceOf,
  };
}

/**
 * What a candidate's use of a said phrase adds to its score: the words are a go-ahead, so they come
 * first, before the act (an ordering; consent.ts reads the words' own sentences so), and a go-ahead
 * the words say is spent by one act ("says it again", "each time") is fresh. Another form over the
 * phrase ("every go-ahead is followed by a fill", "a fill requires a go-ahead afterwards") scores as
 * any other.
 */
export function saidBonus(c: Candidate, vocab: Pick<Vocab, "matchers" | "cues" | "text">): number {
  if (c.type !== "ordering" || !isSaid(vocab.matchers[c.first]!)) return 0;
  // The fresh form costs an extension (synthesize-candidates.ts score); the words that ask for it pay it back.
  return ORDERING_BONUS + (c.fresh && spent(vocab) ? FRESH_BONUS : 0);
}

const ORDERING_BONUS = 0.3;
const FRESH_BONUS = 0.2;

/** Words that say a go-ahead counts for one act: "again", "each time", "is spent by", "covers one", "does not extend to any other". */
const SPENT =
  /\b(?:fresh|each time|every time|again|anew|spent|covers one|(?:does not|doesn't) (?:extend|carry over|count) (?:to|for)|(?:no|any) other)\b/i;

const spent = (vocab: Pick<Vocab, "cues" | "text">): boolean => vocab.cues.fresh || SPENT.test(vocab.text);

/**
 * A go-ahead ordering that is fresh, searched with the plain forms: freshness is what a go-ahead
 * usually means, and the plain search (synthesize.ts) would otherwise settle on the ordering that
 * lets one "go ahead" cover every later act.
 */
export function saidFresh(c: Candidate, vocab: Pick<Vocab, "matchers">): boolean {
  return c.type === "ordering" && c.fresh === true && c.on === undefined && isSaid(vocab.matchers[c.first]!);
}

function isSaid(m: Matcher): boolean {
  return m.actor === "user" && m.action === undefined && m.content !== undefined;
}

/**
 * The quote of a check over a said phrase: the first of the rule's sentences (its obligations, then
 * the sentences its draft left to the model) that writes the phrase; undefined when the check says
 * no phrase or none writes it. Its action names share no stems with the words, so the quote by
 * shared stems would fall back on the rule's first obligation, or its name.
 */
export function saidQuote(used: readonly Matcher[], sentences: readonly string[]): string | undefined {
  for (const m of used) {
    if (!isSaid(m) && !(m.actor === "agent" && m.action === undefined && m.content !== undefined)) continue;
    const pattern = new RegExp((m.content as { matches: string }).matches, "i");
    const found = sentences.find((s) => pattern.test(s));
    if (found !== undefined) return found;
  }
  return undefined;
}
