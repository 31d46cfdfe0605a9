/**
 * Judges synthesized from labels (issue 25). Given the rule verdicts a person
 * gave some samples, the drafter searches candidate readings of a rule over
 * the samples' vocabulary (every check type, with and without an `after:`
 * window, count bounds from the rule's numbers) as replacements of a drafted
 * check, additions, or removals, each with the trigger the phrase draft had or
 * the one the new check implies. It keeps the readings that agree with most
 * labels, ranks them by how well their matchers match the rule's words, then
 * by simplicity, and says where the best and the runner-up disagree on an
 * unlabeled sample: the verdict question that separates them.
 *
 * Bounded and deterministic: candidates come from a fixed order over a capped
 * set of matchers, at most a few rounds of changes, no randomness, so the
 * same input gives byte-identical drafts.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { previewRule } from "../preview.js";
import type { Lexicon } from "./lexicon.js";
import { nameStems, parseCount, stemSet } from "./words.js";

export type Verdict = "true" | "false" | "na";
/** Labels by sample id, then rule name. */
export type RuleLabels = Readonly<Record<string, Readonly<Record<string, Verdict>>>>;

/** Matchers the search may use. */
const MAX_MATCHERS = 18;
/** Rounds of changes (replace, add, drop) to the drafted rule. */
const MAX_ROUNDS = 3;
const ANY_EVENT: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];

export interface Synthesis {
  rule: MetaBehavior;
  /** Labels of this rule the result agrees with, of how many. */
  agree: number;
  total: number;
  /** Whether the search changed the phrase draft. */
  changed: boolean;
  /** Other readings that agree with as many labels, best first (at most three). */
  runnerUps: MetaBehavior[];
  /** Unlabeled samples on which the best reading and the first runner-up disagree. */
  separating: string[];
}

type Vector = Verdict[];

interface SampleIndex {
  complete: boolean;
  /** Event indexes of each matcher, ascending. */
  hits: number[][];
}

function matches(event: Trajectory["events"][number], m: Matcher): boolean {
  if (m.actor !== undefined && event.actor !== m.actor) return false;
  if (m.action !== undefined && event.action !== exactValue(m.action)) return false;
  for (const [key, value] of Object.entries(m.metadata ?? {})) {
    const want = exactValue(value);
    if (want === undefined || String(event.metadata?.[key] ?? "") !== want || event.metadata?.[key] === undefined) return false;
  }
  return true;
}

/** A check over matcher indexes, evaluated on precomputed hits (docs/FORMATS.md §4 for complete and incomplete traces). */
type Candidate =
  | { type: "ordering"; first: number; before: number }
  | { type: "pairing"; each: number; followedBy: number }
  | { type: "required" | "forbidden"; match: number; after?: number }
  | { type: "count"; match: number; min?: number; max?: number; after?: number };

function evaluate(c: Candidate, s: SampleIndex): Verdict {
  const h = s.hits;
  const na: Verdict = "na";
  switch (c.type) {
    case "ordering": {
      const b = h[c.before]![0];
      if (b === undefined) return na;
      const f = h[c.first]![0];
      return f !== undefined && f < b ? "true" : "false";
    }
    case "pairing": {
      const each = h[c.each]!;
      if (each.length === 0) return na;
      const lastFollower = h[c.followedBy]!.at(-1) ?? -1;
      if (lastFollower > each.at(-1)!) return "true";
      return s.complete ? "false" : na;
    }
    default: {
      let start = -1;
      if (c.after !== undefined) {
        const w = h[c.after]![0];
        if (w === undefined) return na;
        start = w;
      }
      const hits = h[c.match]!;
      let n = 0;
      for (let k = hits.length - 1; k >= 0 && hits[k]! > start; k--) n++;
      if (c.type === "forbidden") return n > 0 ? "false" : "true";
      if (c.type === "required") return n > 0 ? "true" : s.complete ? "false" : na;
      if (c.type !== "count") return na;
      if (c.max !== undefined && n > c.max) return "false";
      if (c.min !== undefined && n < c.min) return s.complete ? "false" : na;
      return "true";
    }
  }
}

function fold(verdicts: Verdict[]): Verdict {
  if (verdicts.includes("false")) return "false";
  return verdicts.includes("true") ? "true" : "na";
}

/** The matchers worth trying: the draft's own, then sample actions and categorical values the rule's words name. */
function candidateMatchers(lexicon: Lexicon, rule: MetaBehavior, text: string): { matchers: Matcher[]; relevance: number[] } {
  const words = stemSet(text);
  const written = new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()));
  const relevance = (m: Matcher): number => {
    const action = exactValue(m.action) ?? "";
    const stems = nameStems(action).filter((s) => s !== "result");
    let score = stems.filter((s) => words.has(s)).length / Math.max(1, stems.length);
    if (written.has(action)) score += 2;
    for (const [k, v] of Object.entries(m.metadata ?? {})) {
      const value = exactValue(v) ?? "";
      if (written.has(`${k}: ${value}`)) score += 2;
      else if (nameStems(value).some((s) => words.has(s))) score += 0.5;
      else score -= 0.25;
    }
    if (action.endsWith("_result") && !/\b(?:result|comes? back|returns?|reports?|flag|found|pass|fail|verified|approved)/i.test(text))
      score -= 0.25;
    return score;
  };
  const seen = new Map<string, Matcher>();
  const add = (m: Matcher) => {
    const key = JSON.stringify(m);
    if (!seen.has(key)) seen.set(key, m);
  };
  const own: Matcher[] = [];
  const collect = (p: Pattern | undefined) => p?.forEach((m) => own.push(m));
  collect(rule.trigger.match);
  for (const c of rule.checks) {
    if (c.type === "ordering") [c.first, c.before].forEach(collect);
    else if (c.type === "pairing") [c.each, c.followedBy].forEach(collect);
    else if (c.type !== "condition") [c.match, c.after].forEach(collect);
  }
  const pool: Matcher[] = [];
  for (const a of lexicon.actions) {
    if (a.name === "message") continue;
    pool.push({ action: a.name });
    for (const meta of a.metadata) {
      if (meta.distinct > 6 || meta.distinct < 2) continue;
      for (const v of meta.values) pool.push({ action: a.name, metadata: { [meta.key]: v.value } });
    }
  }
  const ranked = pool
    .map((m, i) => ({ m, i, r: relevance(m) }))
    // Words the rule shares first; the rest of the vocabulary fills what the cap leaves, so that
    // labels can find what the wording does not name.
    .sort((a, b) => b.r - a.r || a.i - b.i);
  // The draft's simple matchers first (single ones only: the search reasons about one matcher a side).
  for (const m of own)
    if (m.contentIncludes === undefined && Object.values(m.metadata ?? {}).every((v) => exactValue(v) !== undefined)) add(m);
  for (const { m } of ranked) {
    if (seen.size >= MAX_MATCHERS) break;
    add(m);
  }
  const matchers = [...seen.values()];
  return { matchers, relevance: matchers.map(relevance) };
}

/** Numbers the rule's words give, for count bounds ("no more than three", "twice", "once"). */
function boundsIn(text: string): number[] {
  const found = new Set<number>();
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    const n = w === "once" ? 1 : w === "twice" ? 2 : w === "thrice" ? 3 : parseCount(w);
    if (n !== undefined && n >= 0 && n <= 20) found.add(n);
  }
  return [...found].sort((a, b) => a - b);
}

function candidates(count: number, bounds: number[]): Candidate[] {
  const out: Candidate[] = [];
  for (let a = 0; a < count; a++) {
    out.push({ type: "required", match: a }, { type: "forbidden", match: a });
    for (const n of bounds) out.push({ type: "count", match: a, max: n });
    for (let b = 0; b < count; b++) {
      if (a === b) continue;
      out.push({ type: "ordering", first: a, before: b }, { type: "pairing", each: a, followedBy: b });
      out.push({ type: "required", match: a, after: b }, { type: "forbidden", match: a, after: b });
    }
  }
  return out;
}

function toCheck(c: Candidate, matchers: Matcher[], quote: string): Check {
  const p = (i: number): Pattern => [matchers[i]!];
  switch (c.type) {
    case "ordering":
      return { type: "ordering", quote, first: p(c.first), before: p(c.before) };
    case "pairing":
      return { type: "pairing", quote, each: p(c.each), followedBy: p(c.followedBy) };
    case "count":
      return {
        type: "count",
        quote,
        match: p(c.match),
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.max !== undefined ? { max: c.max } : {}),
        ...(c.after !== undefined ? { after: p(c.after) } : {}),
      };
    default:
      return { type: c.type, quote, match: p(c.match), ...(c.after !== undefined ? { after: p(c.after) } : {}) };
  }
}

/** The matcher index a candidate is about, for the trigger it implies. */
function subjectOf(c: Candidate): number | "any" {
  switch (c.type) {
    case "ordering":
      return c.before;
    case "pairing":
      return c.each;
    case "count":
      return c.after ?? c.match;
    default:
      return c.after ?? "any";
  }
}

function score(c: Candidate, relevance: number[]): number {
  const used =
    c.type === "ordering"
      ? [c.first, c.before]
      : c.type === "pairing"
        ? [c.each, c.followedBy]
        : [c.match, ...(c.after !== undefined ? [c.after] : [])];
  // Words first; each extra matcher costs a little (simplicity).
  return used.reduce((sum, i) => sum + relevance[i]!, 0) - 0.1 * used.length;
}

interface Reading {
  /** Per kept drafted check: its index; per new one: the candidate. */
  parts: ({ drafted: number } | { candidate: Candidate; quote: string })[];
  trigger: { drafted: true } | { matcher: number | "any" };
  agree: number;
  score: number;
  vector: Vector;
}

/**
 * The rule re-read so that it agrees with the labels it has, or the rule as drafted when it
 * already does (or no label speaks of it). `quotes` are the section's obligations, for the
 * quote of an added check.
 */
export function synthesizeRule(
  lexicon: Lexicon,
  rule: MetaBehavior,
  section: string,
  obligations: readonly string[],
  samples: readonly Trajectory[],
  labels: RuleLabels,
): Synthesis {
  const labeled = samples.map((s, i) => ({ i, label: labels[s.id]?.[rule.name] })).filter((x) => x.label !== undefined) as {
    i: number;
    label: Verdict;
  }[];
  const { matchers, relevance } = candidateMatchers(lexicon, rule, `${rule.name}. ${section}`);
  const index: SampleIndex[] = samples.map((s) => ({
    complete: s.complete,
    hits: matchers.map((m) => s.events.flatMap((e, j) => (matches(e, m) ? [j] : []))),
  }));
  // The drafted checks' own verdicts, ungated (the trigger is the search's to choose), from the judge's code.
  const ungated = previewRule({ ...rule, trigger: { description: "any event", match: ANY_EVENT } }, samples);
  const draftedVectors: Vector[] = rule.checks.map((_, k) => {
    const clause = ungated.clauses.find((c) => c.clause.kind === "check" && c.clause.index === k)!;
    return samples.map((s) => (clause.samples.pass.includes(s.id) ? "true" : clause.samples.fail.includes(s.id) ? "false" : "na"));
  });
  const gated = previewRule(rule, samples);
  const draftTrigger: boolean[] = samples.map((s) => gated.triggered.includes(s.id));
  const anyEvent = samples.map((s) => s.events.length > 0);
  const fired = matchers.map((_, m) => index.map((x) => x.hits[m]!.length > 0));
  const triggerVector = (t: Reading["trigger"]): boolean[] =>
    "drafted" in t ? draftTrigger : t.matcher === "any" ? anyEvent : fired[t.matcher]!;
  // Each candidate is evaluated once per sample; a reading folds the vectors of its parts.
  const cache = new Map<Candidate, Vector>();
  const partVector = (p: Reading["parts"][number]): Vector => {
    if ("drafted" in p) return draftedVectors[p.drafted]!;
    let v = cache.get(p.candidate);
    if (v === undefined) {
      const c = p.candidate;
      v = index.map((x) => evaluate(c, x));
      cache.set(c, v);
    }
    return v;
  };
  const vectorOf = (parts: Reading["parts"], trigger: Reading["trigger"]): Vector => {
    const fires = triggerVector(trigger);
    const vectors = parts.map(partVector);
    return samples.map((_, i) => (fires[i] ? fold(vectors.map((v) => v[i]!)) : "na"));
  };
  const agreement = (v: Vector) => labeled.filter((x) => v[x.i] === x.label).length;
  const readingScore = (parts: Reading["parts"]) =>
    parts.reduce((sum, p) => sum + ("drafted" in p ? 1 : score(p.candidate, relevance)), 0) - 0.05 * parts.length;
  const make = (parts: Reading["parts"], trigger: Reading["trigger"]): Reading => {
    const vector = vectorOf(parts, trigger);
    return { parts, trigger, vector, agree: agreement(vector), score: readingScore(parts) };
  };
  const drafted = make(
    rule.checks.map((_, k) => ({ drafted: k })),
    { drafted: true },
  );
  const result = (best: Reading, runnerUps: Reading[]): Synthesis => {
    const built = buildRule(rule, best, matchers);
    const runners = runnerUps.slice(0, 3).map((r) => buildRule(rule, r, matchers));
    const unlabeled = samples.map((s, i) => ({ s, i })).filter((x) => labels[x.s.id]?.[rule.name] === undefined);
    const separating =
      runnerUps.length === 0 ? [] : unlabeled.filter((x) => best.vector[x.i] !== runnerUps[0]!.vector[x.i]).map((x) => x.s.id);
    return { rule: built, agree: best.agree, total: labeled.length, changed: best !== drafted, runnerUps: runners, separating };
  };
  if (labeled.length === 0 || drafted.agree === labeled.length) return result(drafted, []);

  const all = candidates(matchers.length, boundsIn(section));
  const quoteFor = (replaced: number | undefined, c: Candidate): string => {
    if (replaced !== undefined) return rule.checks[replaced]!.quote;
    // The obligation whose words its matchers share most; the first one on a tie.
    const used = c.type === "ordering" ? [c.first, c.before] : c.type === "pairing" ? [c.each, c.followedBy] : [c.match];
    const stems = new Set(used.flatMap((i) => nameStems(exactValue(matchers[i]!.action) ?? "")));
    let best = obligations[0] ?? rule.name;
    let most = -1;
    for (const o of obligations) {
      const shared = [...stemSet(o)].filter((s) => stems.has(s)).length;
      if (shared > most) [best, most] = [o, shared];
    }
    return best;
  };
  let current = drafted;
  let pool: Reading[] = [drafted];
  for (let round = 0; round < MAX_ROUNDS && current.agree < labeled.length; round++) {
    const next: Reading[] = [];
    const triggers = (c: Candidate | undefined): Reading["trigger"][] => {
      const t: Reading["trigger"][] = [current.trigger];
      if (c !== undefined) t.push({ matcher: subjectOf(c) });
      return t;
    };
    current.parts.forEach((_, k) => {
      const without = current.parts.filter((__, j) => j !== k);
      if (without.length > 0) for (const t of triggers(undefined)) next.push(make(without, t));
    });
    for (const c of all) {
      const replacedBy = (k: number) => {
        const p = current.parts[k]!;
        return { candidate: c, quote: "drafted" in p ? quoteFor(p.drafted, c) : p.quote };
      };
      for (const t of triggers(c)) {
        current.parts.forEach((_, k) =>
          next.push(
            make(
              current.parts.map((p, j) => (j === k ? replacedBy(k) : p)),
              t,
            ),
          ),
        );
        next.push(make([...current.parts, { candidate: c, quote: quoteFor(undefined, c) }], t));
      }
    }
    next.sort(compareReadings);
    const best = next[0];
    if (best === undefined || best.agree <= current.agree) break;
    current = best;
    pool = next.filter((r) => r.agree === best.agree);
  }
  if (current === drafted) return result(drafted, []);
  // Runner-ups: other readings as good on the labels, that judge some sample differently.
  const distinct: Reading[] = [];
  for (const r of pool) {
    if (r === current || distinct.length >= 3) continue;
    if (r.vector.join() === current.vector.join() || distinct.some((d) => d.vector.join() === r.vector.join())) continue;
    distinct.push(r);
  }
  return result(current, distinct);
}

function compareReadings(a: Reading, b: Reading): number {
  return b.agree - a.agree || b.score - a.score || a.parts.length - b.parts.length;
}

function describe(pattern: Pattern): string {
  return pattern
    .map((m) => {
      const facts = Object.entries(m.metadata ?? {}).map(([k, v]) => `${k} ${exactValue(v) ?? ""}`);
      const what = exactValue(m.action) ?? m.actor ?? "matching";
      return facts.length === 0 ? what : `${what} (${facts.join(", ")})`;
    })
    .join(" or ");
}

function buildRule(rule: MetaBehavior, reading: Reading, matchers: Matcher[]): MetaBehavior {
  const checks = reading.parts.map((p) => ("drafted" in p ? rule.checks[p.drafted]! : toCheck(p.candidate, matchers, p.quote)));
  const trigger =
    "drafted" in reading.trigger
      ? rule.trigger
      : reading.trigger.matcher === "any"
        ? { description: "An event occurs.", match: ANY_EVENT }
        : { description: `A ${describe([matchers[reading.trigger.matcher]!])} event occurs.`, match: [matchers[reading.trigger.matcher]!] };
  // A semantic check whose quote a new deterministic check now carries says the same thing twice.
  const quotes = new Set(checks.map((c) => c.quote));
  return { ...rule, trigger, checks, semanticChecks: rule.semanticChecks.filter((s) => !quotes.has(s.quote)) };
}
