/**
 * What the spec writes in backticks is used as written (issue 25): an action
 * name (`send_email`) is that action, whether or not a sample shows it, and is
 * never swapped for a sample action with other words; a `key: value` is a
 * metadata matcher on the event the phrase is about: the action that carries
 * the key in the samples, or its `_result` when the phrase speaks of an
 * outcome ("the verification comes back `status: verified`"). Names no sample
 * shows are kept, and the draft says so (`not-in-samples`).
 */
import type { BehaviorSpec } from "../../behavior-md/load.js";
import type { Matcher, MetaBehavior, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { ClauseRef, DraftNote, Vocabulary } from "../types.js";
import type { Lexicon } from "./lexicon.js";

const ACTION_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const PAIR = /^([A-Za-z_][A-Za-z0-9_.-]*):\s+"?([^"\s][^"]*?)"?$/;
/** Words that make a phrase speak of what came back, not of the call. */
const OUTCOME =
  /\b(?:comes?|came|coming)\s+back\b|\breturns?\b|\breports?\b|\bresults?\b|\bresponds?\b|\breplies\b|\bsays?\b|\banswers?\b/i;

function spans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
}

/** Backticked items joined as a list: "`nonprofit`, `hardship` or `city_project`". */
const LISTED = /`[^`\n]+`(?:\s*(?:,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)`[^`\n]+`)+/g;

/**
 * The names a list of values holds: where one item of a backticked list is a plain word
 * ("one of three reasons, `nonprofit`, `hardship` or `city_project`"), the list names values of a
 * key, and its snake_case items are values too, not actions.
 */
function listedValues(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(LISTED)) {
    const items = spans(m[0]);
    if (items.some((i) => /^[a-z][a-z0-9-]*$/.test(i))) for (const i of items) out.add(i);
  }
  return out;
}

/** Every action name the spec writes in backticks (description, preamble, sections), in order of first mention. */
export function specActionNames(spec: Pick<BehaviorSpec, "description" | "preamble" | "sections">): string[] {
  const texts = [spec.description, spec.preamble, ...spec.sections.map((s) => s.body)];
  const values = new Set(texts.flatMap((t) => [...listedValues(t)]));
  return [...new Set(texts.flatMap(spans).filter((s) => ACTION_NAME.test(s) && !values.has(s)))];
}

/** The single names a phrase writes in backticks (`send_email`, `patron_id`): actions and keys alike, in order. */
export function backtickedNames(phrase: string): string[] {
  return [...phrase.matchAll(/`([a-z][a-z0-9_]*)`/gi)].map((m) => m[1]!);
}

/** The backticked action names of a phrase that the lexicon knows (from the samples or the spec). */
export function namedActions(lexicon: Lexicon, phrase: string): string[] {
  const known = new Set(lexicon.actions.map((a) => a.name));
  return [...new Set(spans(phrase).filter((s) => ACTION_NAME.test(s) && known.has(s)))];
}

/** The backticked `key: value` pairs of a phrase. */
export function namedPairs(phrase: string): [string, string][] {
  return spans(phrase).flatMap((s) => {
    const pair = PAIR.exec(s);
    return pair === null ? [] : [[pair[1]!, pair[2]!] as [string, string]];
  });
}

function carries(lexicon: Lexicon, action: string, key: string): boolean {
  return lexicon.actions.some((a) => a.name === action && a.metadata.some((m) => m.key === key));
}

/** The result event of a call, as the samples (or the convention) name it. */
function resultOf(lexicon: Lexicon, action: string): string | undefined {
  const name = `${action}_result`;
  return lexicon.actions.some((a) => a.name === name) ? name : undefined;
}

/**
 * The matcher with the phrase's `key: value` pairs on the event the phrase is about: the
 * matched action when it carries the key, its result when that does (or when the phrase speaks
 * of an outcome), else the matcher as the phrase writes it.
 */
function withPair(lexicon: Lexicon, matcher: Matcher, key: string, value: string, outcome: boolean): Matcher {
  const action = exactValue(matcher.action);
  if (action === undefined) return { ...matcher, metadata: { ...matcher.metadata, [key]: value } };
  const result = action.endsWith("_result") ? undefined : resultOf(lexicon, action);
  const onCall = carries(lexicon, action, key);
  const onResult = result !== undefined && carries(lexicon, result, key);
  if (result !== undefined && (onResult || outcome) && !(onCall && !outcome)) {
    const { actor: _actor, ...rest } = matcher;
    return { ...rest, action: result, metadata: { ...matcher.metadata, [key]: value } };
  }
  return { ...matcher, metadata: { ...matcher.metadata, [key]: value } };
}

/** The pattern as the phrase's backticks ask: named actions as written, then every `key: value` on its event. */
export function asWritten(lexicon: Lexicon, phrase: string, pattern: Pattern | undefined): Pattern | undefined {
  const named = namedActions(lexicon, phrase);
  let out: Pattern | undefined = pattern;
  if (named.length > 0) {
    // A resolved matcher of a named action keeps what it found (metadata, actor); any other is a swap.
    const kept = (pattern ?? []).filter((m) => named.includes(exactValue(m.action) ?? ""));
    out = named.map((name) => kept.find((m) => m.action === name) ?? { action: name });
  }
  const pairs = namedPairs(phrase);
  if (out === undefined || pairs.length === 0) return out;
  const outcome = OUTCOME.test(phrase);
  return out.map((m) => pairs.reduce((acc, [key, value]) => withPair(lexicon, acc, key, value, outcome), m));
}

/**
 * Whether a clause only states an outcome of something the sentence's other clause names:
 * "the run has to come back `status: passed`", "the verification comes back `status: verified`".
 */
export function isOutcomeClause(clause: string): boolean {
  return namedPairs(clause).length > 0 && OUTCOME.test(clause) && !/\b(?:never|not|no)\b/i.test(clause);
}

/**
 * The check's matcher that the outcome is about, moved to its result with the pairs: the one
 * whose action (or its result) carries the key, else the first whose call has a result at all.
 */
export function applyOutcome(lexicon: Lexicon, pattern: Pattern, clause: string): Pattern | undefined {
  const pairs = namedPairs(clause);
  const keys = pairs.map(([k]) => k);
  const index =
    pattern.findIndex((m) => {
      const action = exactValue(m.action);
      if (action === undefined) return false;
      const result = resultOf(lexicon, action);
      return keys.some((k) => carries(lexicon, action, k) || (result !== undefined && carries(lexicon, result, k)));
    }) ?? -1;
  const at =
    index >= 0
      ? index
      : pattern.findIndex((m) => exactValue(m.action) !== undefined && resultOf(lexicon, exactValue(m.action)!) !== undefined);
  if (at < 0) return undefined;
  const moved = pairs.reduce((acc, [key, value]) => withPair(lexicon, acc, key, value, true), pattern[at]!);
  return pattern.map((m, i) => (i === at ? moved : m));
}

/** Notes for every action, metadata key or value in a rule that no sample shows: used as the spec writes it. */
export function notInSamplesNotes(rule: MetaBehavior, vocabulary: Vocabulary): Omit<DraftNote, "rule">[] {
  if (vocabulary.guessed === true) return [];
  const actions = new Set(vocabulary.actions.map((a) => a.action));
  const values = new Map(vocabulary.metadataKeys.map((k) => [k.key, new Set(k.values)]));
  const notes: Omit<DraftNote, "rule">[] = [];
  const check = (pattern: Pattern | undefined, clause: ClauseRef) => {
    for (const m of pattern ?? []) {
      const action = exactValue(m.action);
      if (action !== undefined && !actions.has(action))
        notes.push({ clause, kind: "not-in-samples", message: `\`${action}\` is used as the spec writes it, though no sample shows it` });
      for (const [key, value] of Object.entries(m.metadata ?? {})) {
        const exact = exactValue(value);
        if (!values.has(key))
          notes.push({
            clause,
            kind: "not-in-samples",
            message: `the key \`${key}\` is used as the spec writes it, though no sample shows it`,
          });
        else if (exact !== undefined && values.get(key)!.size < 5 && !values.get(key)!.has(exact))
          notes.push({
            clause,
            kind: "not-in-samples",
            message: `\`${key}: ${exact}\` is used as the spec writes it, though no sample shows that value`,
          });
      }
    }
  };
  if (rule.trigger.match !== undefined) check(rule.trigger.match, { kind: "trigger" });
  rule.checks.forEach((c, index) => {
    const clause = { kind: "check" as const, index };
    const patterns: (Pattern | undefined)[] =
      c.type === "ordering"
        ? [c.first, c.before]
        : c.type === "pairing"
          ? [c.each, c.followedBy]
          : c.type === "condition"
            ? [c.each]
            : [c.match, c.after];
    for (const p of patterns) check(p, clause);
  });
  // One note per message and clause.
  return notes.filter(
    (n, i) => notes.findIndex((o) => o.message === n.message && JSON.stringify(o.clause) === JSON.stringify(n.clause)) === i,
  );
}
