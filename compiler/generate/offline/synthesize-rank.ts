/**
 * How the search from labels picks among the readings it judged (issue 25), so that labels refine
 * the phrase reading rather than replace it. A reading's rank is a log-posterior, in units of one
 * field changed:
 *
 *     rank = − MISS · (labels it disagrees with) − Σ over changed fields (1 − GROUND · grounding)
 *
 * - Fit. A label the reading disagrees with costs MISS: a hand label may be wrong, or speak of
 *   what no check sees (the semantic half of a rule), so a reading that fits all labels but one
 *   is not ruled out; it is outweighed by one that fits them all at a small price.
 * - Minimal edits (the prior). The phrase reading is what the words say; the labels move it only
 *   as far as they must. Every field a reading changes costs: a check's type, its earlier and its
 *   later event (whatever the check type calls them: `first`/`before`, `each`/`followedBy`,
 *   `after`/`match`, the bound event/`each`), each modifier (`on`, `fresh`, `within`, bounds,
 *   `per`, `sum`, a condition's test), a check added (all its fields) or dropped (one), a new
 *   trigger. A check that keeps its two events but turns their order around ("sign off, then
 *   inspect" for "inspect, then sign off") costs REVERSAL more: it contradicts the words most.
 *   A matcher is the same whatever order its list of values is written in (`{in: [a, b]}` is
 *   `{in: [b, a]}`): a written list that restates the phrase reading's own changes nothing.
 * - Grounding. A field changed to what the rule's words name costs less: a matcher by its
 *   relevance to the words (synthesize-vocab.ts: a backticked name, a `key: value` the
 *   section writes, shared stems with the rule and the preamble, a threshold it writes), clipped
 *   to 0..1; `on`/`per`/`sum` when the words say "that same…", "per…", "in total" or name the
 *   key; `within` on the count of steps the words give ("within two steps"; "immediately": one); `fresh` on "each time", "again". An event the check
 *   had, moved to its other side, is no new word. Constants the words do not write (a cut
 *   between sample values, a set of values, a value of an unnamed key) ground nothing and cost
 *   a whole field: simpler readings from the words' own vocabulary first (Occam).
 *
 * The phrase reading anchors this prior only while it is credible: when it fits all labels but a
 * tolerated few (one in six, at least one). A phrase reading that misses more says little the
 * search can trust, and the search's best fit stands (labels first, then words, simplicity and
 * agreement with the phrase reading on the unlabeled samples). With the default weights a
 * credible phrase reading that misses one label is kept unless a reading that fits every label
 * changes less than 2.5 ungrounded fields (or up to ten the words name); among readings that fit
 * alike, the one that changes least wins. Tuned on the development sets only (docs/AUTHORING.md).
 */
import type { Check, Matcher, Pattern } from "../../ir/types.js";
import type { Vocab } from "./synthesize-vocab.js";
import { nameStems } from "./words.js";

/** What a label the reading disagrees with costs, in fields changed. */
export const MISS = 2.5;
/** What each field changed from the phrase reading costs (the unit). */
export const EDIT = 1;
/** What a check that turns its events' order around costs on top of its other changes. */
export const REVERSAL = 1;

/** A check as the relation it states between an earlier and a later event, and its modifiers. */
interface Shape {
  type: string;
  earlier: string | undefined;
  later: string;
  mods: Record<string, string>;
}

/** A pattern as text, a list of values in one order whatever order it was written in: `{in: [a, b]}` is `{in: [b, a]}`. */
const unordered = (key: string, value: unknown): unknown =>
  key === "in" && Array.isArray(value) ? [...(value as unknown[])].map(String).sort() : value;
const pattern = (p: Pattern | undefined): string | undefined => (p === undefined ? undefined : JSON.stringify(p, unordered));

const shapes = new WeakMap<Check, Shape>();
function shapeOf(check: Check): Shape {
  let s = shapes.get(check);
  if (s === undefined) shapes.set(check, (s = shapeOfCheck(check)));
  return s;
}

function shapeOfCheck(check: Check): Shape {
  const mods: Record<string, string> = {};
  const mod = (name: string, value: unknown) => {
    if (value !== undefined) mods[name] = JSON.stringify(value);
  };
  switch (check.type) {
    case "ordering":
      mod("on", check.on);
      mod("fresh", check.fresh);
      return { type: check.type, earlier: pattern(check.first), later: pattern(check.before)!, mods };
    case "pairing":
      mod("on", check.on);
      mod("within", check.within);
      return { type: check.type, earlier: pattern(check.each), later: pattern(check.followedBy)!, mods };
    case "condition": {
      const bindings = Object.values(check.with ?? {});
      for (const b of bindings) mod("on", b.on);
      mod("when", check.when);
      const bound = bindings.map((b) => b.latest ?? b.first).flat();
      return { type: check.type, earlier: bound.length === 0 ? undefined : pattern(bound), later: pattern(check.each)!, mods };
    }
    case "count":
      for (const k of ["min", "max", "per", "sum", "distinctBy", "on"] as const) mod(k, check[k]);
      return { type: check.type, earlier: pattern(check.after), later: pattern(check.match)!, mods };
    default:
      mod("on", check.on);
      return { type: check.type, earlier: pattern(check.after), later: pattern(check.match)!, mods };
  }
}

/** The words a reading is judged against: matchers' relevance, the forms the words hint at, the words' stems. */
export type Words = Pick<Vocab, "relevanceOf" | "cues" | "words">;

/** How much of a field's change the words account for, 0..1: a matcher they name, a modifier they hint at. */
const groundings = new WeakMap<Words, Map<string, number>>();
function grounding(field: string, value: string | undefined, vocab: Words): number {
  if (value === undefined) return 0;
  let known = groundings.get(vocab);
  if (known === undefined) groundings.set(vocab, (known = new Map()));
  const key = `${field}\u0000${value}`;
  let g = known.get(key);
  if (g === undefined) known.set(key, (g = groundingOf(field, value, vocab)));
  return g;
}

/**
 * A matcher's relevance to the words, clipped to 0..1; none when it tests a value the words do not
 * write (a sample's `temp_c: "4.5"`, a cut between sample values): such a constant only fits.
 */
function matcherGrounding(m: Matcher, vocab: Words): number {
  const r = vocab.relevanceOf(m);
  if (m.metadata !== undefined && r <= vocab.relevanceOf({ ...m, metadata: undefined })) return 0;
  return Math.max(0, Math.min(1, r));
}

function groundingOf(field: string, value: string, vocab: Words): number {
  if (field === "earlier" || field === "later") {
    const p = JSON.parse(value) as Matcher[];
    return p.reduce((t, m) => t + matcherGrounding(m, vocab), 0) / Math.max(1, p.length);
  }
  const named = (key: string) =>
    nameStems(key.replace(/^"?metadata\./, "").replace(/"$/, "")).some((s) => s !== "id" && vocab.words.has(s));
  const { cues } = vocab;
  if (field === "on") return cues.same || named(value) ? 1 : 0;
  // A count of steps the words write ("within two steps"; "immediately" is one), not any value on "within".
  if (field === "within") return cues.within.includes(Number(value)) ? 1 : 0;
  if (field === "fresh") return cues.fresh ? 1 : 0;
  if (field === "per") return cues.per || named(value) ? 1 : 0;
  if (field === "sum") return cues.sum || named(value) ? 1 : 0;
  // A comparison with the judged event's own value where the words say the two differ ("a driver
  // other than the one who deployed it"): what they ask for, where a constant only fits.
  if (field === "when") return cues.different === true && /!=\s*event\./.test(value) ? 1 : 0;
  return 0;
}

/** An edit: fields changed, and how much of that the words account for (each field 0..1). */
export interface Edit {
  fields: number;
  grounded: number;
}

/** Fields changed to turn one check into another (none for the same check; quotes do not count), and their grounding. */
export function editDistance(from: Check, to: Check, vocab: Words): Edit {
  const a = shapeOf(from);
  const b = shapeOf(to);
  const e: Edit = { fields: a.type === b.type ? 0 : 1, grounded: 0 };
  const change = (field: string, value: string | undefined) => {
    e.fields++;
    e.grounded += grounding(field, value, vocab);
  };
  // An event the check had, moved to the other side, is no new word of the rule's.
  const had = (p: string | undefined) => p !== undefined && (p === a.earlier || p === a.later);
  if (a.earlier !== b.earlier) change("earlier", had(b.earlier) ? undefined : b.earlier);
  if (a.later !== b.later) change("later", had(b.later) ? undefined : b.later);
  // Both events kept, their order turned around.
  if (a.earlier !== undefined && a.earlier !== a.later && a.earlier === b.later && a.later === b.earlier) e.fields += REVERSAL;
  for (const k of new Set([...Object.keys(a.mods), ...Object.keys(b.mods)])) if (a.mods[k] !== b.mods[k]) change(k, b.mods[k]);
  return e;
}

/** Fields of a check put in where there was none (an added check), and their grounding. */
export function addedFields(check: Check, vocab: Words): Edit {
  const s = shapeOf(check);
  const e: Edit = { fields: 1, grounded: 0 };
  const change = (field: string, value: string | undefined) => {
    e.fields++;
    e.grounded += grounding(field, value, vocab);
  };
  if (s.earlier !== undefined) change("earlier", s.earlier);
  change("later", s.later);
  for (const [k, v] of Object.entries(s.mods)) change(k, v);
  return e;
}

/** How much of a changed field the words' grounding takes off its cost. */
export const GROUND = 0.75;

export function editCost(e: Edit): number {
  return EDIT * (e.fields - GROUND * e.grounded);
}

/** Labels the phrase reading may disagree with and still anchor the pick: one in six, at least one. */
export function tolerated(labels: number): number {
  return Math.max(1, Math.floor(labels / 6));
}

/** A reading's rank: its log-posterior up to a constant, in units of one field changed. */
export function rank(misses: number, edit: Edit): number {
  return -MISS * misses - editCost(edit);
}

/**
 * What a reading changes from the phrase reading: given the drafted checks it keeps (by index),
 * the new checks, and its trigger (undefined: the drafted one), the cheapest way to get there:
 * each new check edits one drafted check not kept or is added, the drafted checks left are
 * dropped (one field each), a trigger unlike the drafted one is one field. Cached per check.
 */
export function editCounter(drafted: readonly Check[], draftTrigger: Pattern | undefined, vocab: Words) {
  const draftKey = pattern(draftTrigger);
  const triggers = new WeakMap<Pattern, boolean>();
  const edited = new WeakMap<Check, Edit[]>();
  const added = new WeakMap<Check, Edit>();
  const editOf = (c: Check, k: number): Edit => {
    let row = edited.get(c);
    if (row === undefined) edited.set(c, (row = drafted.map((d) => editDistance(d, c, vocab))));
    return row[k]!;
  };
  const addOf = (c: Check): Edit => {
    let e = added.get(c);
    if (e === undefined) added.set(c, (e = addedFields(c, vocab)));
    return e;
  };
  const cheapest = (news: readonly Check[], free: readonly number[]): Edit => {
    if (news.length === 0) return { fields: free.length, grounded: 0 };
    const [first, ...rest] = news;
    const plus = (a: Edit, b: Edit): Edit => ({ fields: a.fields + b.fields, grounded: a.grounded + b.grounded });
    let best = plus(addOf(first!), cheapest(rest, free));
    for (const k of free) {
      const e = plus(
        editOf(first!, k),
        cheapest(
          rest,
          free.filter((j) => j !== k),
        ),
      );
      if (editCost(e) < editCost(best)) best = e;
    }
    return best;
  };
  return (kept: readonly number[], news: readonly Check[], trigger: Pattern | undefined): Edit => {
    const e = cheapest(
      news,
      drafted.flatMap((_, k) => (kept.includes(k) ? [] : [k])),
    );
    if (trigger === undefined) return e;
    let same = triggers.get(trigger);
    if (same === undefined) triggers.set(trigger, (same = pattern(trigger) === draftKey));
    return same ? e : { fields: e.fields + 1, grounded: e.grounded };
  };
}
