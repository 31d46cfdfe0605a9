/**
 * A rule no phrase rule could map, read from its words over the samples' vocabulary without
 * labels (issue 25). The search from labels ranks candidate checks by how well their matchers
 * match the rule's words, then by simplicity; with no labels, the first candidate whose every
 * matcher shares words with the rule and that is plausible on the samples is kept: samples mix
 * sessions that keep a rule and sessions that break it, so the reading must apply to some, pass
 * at least as many as it fails, and fail one. The draft says it was read so, to be checked.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Matcher, MetaBehavior, Pattern, RangeOperator } from "../../ir/types.js";
import { matcherHolds } from "../../ir/value-eval.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { amountsIn } from "./amounts.js";
import type { Lexicon } from "./lexicon.js";
import { candidates, score } from "./synthesize-candidates.js";
import { toCheck } from "./synthesize-check.js";
import { boundsIn, candidateMatchers } from "./synthesize-vocab.js";
import { escapeRegExp } from "./shape.js";
import { oneToolTwice } from "./unlabeled-fit.js";
import { bansInOtherWords, formNudge, speaksOfActs } from "./spoken-acts.js";
import { actionsOf } from "./synthesize-forms.js";
import { headingWords } from "./synthesize-voiced.js";
import { withoutHeadingLabel } from "./heading-labels.js";
import { PREVENTS, sequenceNudge } from "./named-acts.js";
import { withoutReferences } from "./synthesize-references.js";
import { cutFit, writtenCuts, type RangeRole } from "./synthesize-numbers.js";
import { evaluate, subjectOf, usedMatchers, type Candidate, type SampleIndex } from "./synthesize-eval.js";

/** Candidates tried, the best-scoring first. */
const MAX_TRIED = 2000;
/** How far a reading no sample breaks must score above the best plausible one to stand instead of it. */
const UNBROKEN_MARGIN = 0.5;
/** How much of the rule's words each matcher of the reading must share (its relevance). */
const MIN_RELEVANCE = 0.5;
const ANY_EVENT: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];

/**
 * Whether the section speaks of events at all: it writes a name or a value in backticks, an
 * action or key by its name, or an amount. One that speaks only of how the agent writes ("in
 * plain language and with some warmth") is for the model, whatever words it shares with actions.
 */
function concrete(lexicon: Lexicon, section: string): boolean {
  if (/`[^`\n]+`/.test(section) || amountsIn(section).length > 0) return true;
  const names = new Set(lexicon.actions.flatMap((a) => [a.name, ...a.metadata.map((m) => m.key)]).filter((n) => n.includes("_")));
  return section.split(/[^A-Za-z0-9_]+/).some((w) => names.has(w));
}

/**
 * Whether a check can state a prohibition: a sentence that says "never" or "must not" is read as
 * a forbidden check, an upper bound, an order or a condition, never as something required.
 */
const prohibits = (c: Candidate) => c.type !== "required" && c.type !== "pairing" && !(c.type === "count" && c.min !== undefined);

/** The sample or spec actions a quote writes in backticks. */
function writtenActions(lexicon: Lexicon, quote: string): string[] {
  const names = new Set([...quote.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  return [...names].filter((n) => lexicon.actions.some((a) => a.name === n));
}

/** The written actions the quote forbids as a list: "no `a` and no `b`", "neither `a` nor `b`", "no `a` or `b`". */
function bannedList(written: readonly string[], quote: string): string[] {
  const by = (words: string) => written.filter((a) => new RegExp(`\\b(?:${words})\\s+\`${escapeRegExp(a)}\``, "i").test(quote));
  const banned = by("no|neither|nor");
  return banned.length === 0 ? [] : [...new Set([...banned, ...by("or")])];
}

/**
 * The reading's matchers with every action the quote joins in backticks: where it tests one of them
 * alone (`open_lift`) and the words join it with another it does not use ("no `open_lift` and no
 * `open_run`"), it tests both. The samples chose the form of the check, but they cannot talk the
 * words out of an action they name: one of the two forbidden would let the other pass unseen.
 */
function asWritten(c: Candidate, matchers: readonly Matcher[], written: readonly string[]): Matcher[] {
  const used = new Set(usedMatchers(c).flatMap((m) => actionsOf(matchers[m]!)));
  const out = matchers.slice();
  for (const m of usedMatchers(c)) {
    const alone = exactValue(matchers[m]!.action);
    if (alone === undefined || Object.keys(matchers[m]!).length !== 1 || !written.includes(alone)) continue;
    // A join the words write (synthesize-forms.ts unionMatchers), of actions all written and unused.
    const join = matchers.find((u) => {
      const actions = actionsOf(u);
      return (
        Object.keys(u).length === 1 &&
        actions.length > 1 &&
        actions.includes(alone) &&
        actions.every((a) => written.includes(a) && (a === alone || !used.has(a)))
      );
    });
    if (join !== undefined) out[m] = join;
  }
  return out;
}

/**
 * A reading of a call and its own result ("no `open_kiln` after an `open_kiln_result`"): the tool
 * answers every call, so the two say nothing of what the agent did in between.
 */
function callAndResult(c: Candidate, matchers: readonly Matcher[]): boolean {
  const acts = usedMatchers(c).flatMap((m) => actionsOf(matchers[m]!));
  return acts.some((a) => acts.includes(`${a}_result`));
}

/**
 * A reading of one act with nothing narrowing it ("required `open_kiln`" for "any opening of a kiln
 * waits until …"): words that name an act in passing say when it may happen, not that it must or never.
 */
function bareAct(c: Candidate, matchers: readonly Matcher[]): boolean {
  const used = usedMatchers(c);
  return used.length === 1 && matchers[used[0]!]!.metadata === undefined;
}

/** The reading's two events in time, earlier then later, nudged by the order the words write them (named-acts.ts). */
function nudge(c: Candidate, matchers: readonly Matcher[], quote: string, prohibiting: boolean): number {
  const pair =
    c.type === "ordering"
      ? [c.first, c.before]
      : c.type === "pairing"
        ? [c.each, c.followedBy]
        : c.type === "condition"
          ? [c.bind, c.each]
          : (c.type === "required" || c.type === "forbidden") && c.after !== undefined
            ? [c.after, c.match]
            : undefined;
  if (pair === undefined) return 0;
  const [earlier, later] = pair.map((m) => actionsOf(matchers[m]!));
  return sequenceNudge(quote, earlier!, later!, c.type === "forbidden", prohibiting);
}

/**
 * The rule with one check read from its words, or undefined when no candidate is plausible.
 * `forbidding`: the sentence forbids (the question it replaces asks what the agent avoided).
 */
export function readFromWords(
  lexicon: Lexicon,
  rule: MetaBehavior,
  section: string,
  quote: string,
  samples: readonly Trajectory[],
  forbidding = false,
  /**
   * The caller found the section naming an act by its words (named-acts.ts) where it writes no name
   * or amount: read it so, but only as a reading some sample breaks (no unbroken one: words that name
   * an act in passing, "a decline kindly put", are no evidence the rule is about when it happens).
   */
  namedActs = false,
  /** No labels follow: the reading is the draft, so it leans on nothing the words do not say (unlabeled-fit.ts). */
  alone = false,
): MetaBehavior | undefined {
  // With no labels, the heading without its label ("Slide 5 ·", "AC-2:"): its number is none the rule
  // states (heading-labels.ts). The search from labels keeps the heading as it was: on blind19 its
  // ranking lost 4 half-label verdicts without the label, and the labels choose the number anyway.
  const heading = headingWords(alone ? withoutHeadingLabel(rule.name) : rule.name);
  const words = `${heading}. ${section}`;
  // Or, with no labels to follow, a section that speaks of the samples' acts in its own words, by
  // their names' words or glosses (spoken-acts.ts): read as acts named in passing are.
  const spoken = !namedActs && !concrete(lexicon, section);
  if (samples.length < 3 || (spoken && !(alone && speaksOfActs(lexicon, words, quote)))) return undefined;
  const passing = namedActs || spoken;
  // Acts named in passing are read in any form the samples bear out: a reading no sample breaks is
  // none (below), nor a call and its own result, nor one act alone. (They were read only where the
  // words forbid or call the sequence a breach; "that same pool is closed within two steps" and "a
  // PIN goes out with the assignment" were left to the model: spoken-acts.ts.)
  // A rule's number ("Further to rule 4") is no value of an event's key: read in passing, a sample's
  // `load_t: "4"` would match it (synthesize-references.ts blanks such numbers for the label path).
  const vocab = candidateMatchers(lexicon, rule, passing ? withoutReferences(words) : words, samples, () => undefined, true, alone);
  const { matchers, relevance } = vocab;
  const written = writtenActions(lexicon, quote);
  const banned = bannedList(written, quote);
  // "no `open_lift` and no `open_run`" forbids both, whatever the rest of the sentence's grammar.
  // So does a ban in other words: "is not to be reopened", "out of bounds" (spoken-acts.ts).
  const prohibiting = forbidding || banned.length > 0 || bansInOtherWords(quote);
  // What such a list bans is the event the check forbids, not its trigger, and the actions are one
  // thing forbidden, not one the other's trigger (`open_run` after `open_lift`).
  const bans = (m: number) => actionsOf(matchers[m]!).some((a) => banned.includes(a));
  const inRole = (c: Candidate) => {
    if (banned.length === 0) return true;
    const role = c.type === "ordering" ? c.before : c.type === "condition" ? c.each : c.type === "pairing" ? c.followedBy : c.match;
    return bans(role) && usedMatchers(c).every((m) => m === role || !bans(m));
  };
  const index: SampleIndex[] = samples.map((s) => ({
    complete: s.complete,
    events: s.events,
    hits: matchers.map((m) => s.events.flatMap((e, j) => (matcherHolds(e, m) ? [j] : []))),
  }));
  // Every comparison a reading makes: its matchers' ranges, and a condition's test of the bound event.
  const ranges = (c: Candidate): { range: RangeOperator; role: RangeRole }[] => [
    ...usedMatchers(c).flatMap((m) =>
      Object.values(matchers[m]!.metadata ?? {}).flatMap((v) => {
        const t = valueTest(v);
        return t.op === "range"
          ? [{ range: t.range, role: c.type === "forbidden" && c.match === m ? ("forbidden" as const) : ("matcher" as const) }]
          : [];
      }),
    ),
    ...(c.type === "condition" && c.test !== undefined && valueTest(c.test).op === "range"
      ? [{ range: (valueTest(c.test) as { range: RangeOperator }).range, role: "test" as const }]
      : []),
  ];
  const bounds = (r: RangeOperator) => Object.values(r).filter((b): b is number => typeof b === "number");
  // An amount the words write is never dropped, nor a comparison they state on a key they name
  // ("danger level 4 or higher"): the reading must compare with one of the numbers.
  const stated = (r: RangeOperator) => vocab.cuts.some((c) => JSON.stringify(r) === JSON.stringify({ [c.op]: c.n }));
  const amounts = amountsIn(section).length > 0;
  // A comparison stated on a key the words name is a test of that key's value, not a count of events.
  const comparesKey = matchers.some((m) =>
    Object.values(m.metadata ?? {}).some((v) => {
      const t = valueTest(v);
      return t.op === "range" && stated(t.range);
    }),
  );
  const testsStated = (c: Candidate) => ranges(c).some(({ range }) => stated(range));
  const writesNumber = (c: Candidate) =>
    (c.type === "count" && c.max !== undefined && vocab.said.includes(c.max)) ||
    ranges(c).some(({ range }) => bounds(range).some((b) => vocab.said.includes(b)));
  // Without labels a number is the words' own: a cut between sample values (`r.valuation <= 500000`
  // for "above $250,000") only fits the samples, in a condition's test as in a matcher. A number on
  // the other side than the words put it ("no more than 12" as `< 12`) is not their reading either.
  const cuts = writtenCuts(words);
  const contradicts = (c: Candidate) =>
    ranges(c).some(({ range, role }) => bounds(range).some((b) => !vocab.said.includes(b)) || cutFit(range, cuts, role) === "contradicts");
  // Each matcher's action by its own name (a threshold the words write does not make any action the rule's).
  // A result that carries the comparison the words state is named by its call ("a forecast has put a
  // zone at danger level 4 or higher": `get_forecast_result` with `danger_level >= 4`).
  const callOf = (m: Matcher) => {
    const action = exactValue(m.action);
    const t = Object.values(m.metadata ?? {}).map((v) => valueTest(v));
    return action?.endsWith("_result") && t.length === 1 && t[0]!.op === "range" && stated(t[0]!.range) ? action.slice(0, -7) : m.action;
  };
  const named = matchers.map(
    (m, i) =>
      relevance[i]! >= MIN_RELEVANCE &&
      Math.max(vocab.relevanceOf({ action: m.action }), vocab.relevanceOf({ action: callOf(m) })) >= MIN_RELEVANCE,
  );
  const fitting = candidates(vocab, boundsIn(section))
    .map((c, i) => ({ c, i, s: score(c, vocab) }))
    .filter(
      (x) =>
        usedMatchers(x.c).every((m) => named[m]!) &&
        (!amounts || writesNumber(x.c)) &&
        (!comparesKey || testsStated(x.c)) &&
        !contradicts(x.c) &&
        (!prohibiting || prohibits(x.c)) &&
        inRole(x.c) &&
        !(passing && (callAndResult(x.c, matchers) || bareAct(x.c, matchers))) &&
        // Two events of one tool share every word of its name and outrank two acts the words name once each (unlabeled-fit.ts).
        !(alone && oneToolTwice(x.c, matchers)),
    );
  // Words that name acts only by their names' words give the reading's order no other cue (named-acts.ts).
  // And which form they ask, where nothing else tells the forms apart (spoken-acts.ts formNudge).
  if (passing)
    for (const x of fitting)
      x.s += nudge(x.c, matchers, quote, prohibiting || PREVENTS.test(quote)) + (prohibiting ? 0 : formNudge(x.c.type, quote));
  const ranked = fitting.sort((a, b) => b.s - a.s || a.i - b.i).slice(0, MAX_TRIED);
  // A reading the words favour that no sample breaks, kept while none plausible scores near it.
  let unbroken: { c: Candidate; s: number } | undefined;
  const pick = (c: Candidate): MetaBehavior => {
    const used = asWritten(c, matchers, written);
    const subject = subjectOf(c);
    const trigger: Pattern = subject === "any" ? ANY_EVENT : [used[subject]!];
    const what = subject === "any" ? "An" : `A ${exactValue(used[subject]!.action) ?? "matching"}`;
    const check = toCheck(c, used, quote);
    return {
      ...rule,
      trigger: { description: `${what} event occurs.`, match: trigger },
      checks: [check],
      semanticChecks: rule.semanticChecks.filter((s) => s.quote !== quote),
    };
  };
  for (const { c, s } of ranked) {
    const subject = subjectOf(c);
    let fired = 0;
    let pass = 0;
    let fail = 0;
    index.forEach((x) => {
      if (subject !== "any" && x.hits[subject]!.length === 0) return;
      if (x.events.length === 0) return;
      fired++;
      const v = evaluate(c, x);
      if (v === "true") pass++;
      else if (v === "false") fail++;
    });
    // Samples that keep a rule mostly break it somewhere; but a reading that applies to few of them
    // (the words narrow it: "work valued above $250,000") has few chances to meet a breach, and the
    // samples may break the rule by a part no single check states. Such a reading stands when it
    // passes wherever it applies and the plausible readings score clearly below it.
    if (!passing && unbroken === undefined && fired >= 2 && pass === fired && 2 * fired < index.length) unbroken = { c, s };
    if (fired < 2 || fail === 0 || pass < fail) continue;
    return pick(unbroken !== undefined && unbroken.s - s >= UNBROKEN_MARGIN ? unbroken.c : c);
  }
  return unbroken === undefined ? undefined : pick(unbroken.c);
}
