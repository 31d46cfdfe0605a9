/**
 * The search from labels' own evaluation of a candidate check (issue 25): a check over matcher
 * indexes, judged on each sample's precomputed hits as the judge's generated code judges it
 * (docs/FORMATS.md §4, §10), and what a candidate uses, implies and costs.
 */
import type { TrajectoryEvent } from "../../../runtime/types.js";
import type { ValueMatcher } from "../../ir/types.js";
import { metadataString, valueHolds } from "../../ir/value-eval.js";
import { crossHolds, type Cross } from "./synthesize-forms.js";

export type Verdict = "true" | "false" | "na";
/** Labels by sample id, then rule name. */
export type RuleLabels = Readonly<Record<string, Readonly<Record<string, Verdict>>>>;

export type Vector = Verdict[];

export interface SampleIndex {
  complete: boolean;
  events: readonly TrajectoryEvent[];
  /** Event indexes of each matcher, ascending. */
  hits: number[][];
}

/** A check over matcher indexes, evaluated on precomputed hits (docs/FORMATS.md §4, §10 for complete and incomplete traces). */
export type Candidate =
  | {
      type: "ordering";
      first: number;
      before: number;
      on?: string;
      fresh?: true;
      /** The later event's own key for the thing `on` names on the earlier one (`field`, then `to_field`). */
      onLater?: string;
    }
  | {
      type: "pairing";
      each: number;
      followedBy: number;
      on?: string;
      within?: number;
      /** The later event's own key for the thing `on` names on the earlier one (`baby_id`, then `patient_id`). */
      onLater?: string;
    }
  | {
      type: "required" | "forbidden";
      match: number;
      after?: number;
      on?: string;
      /** The matched event's own key for the thing `on` names on the `after` event (`flag`, then `subject`). */
      onLater?: string;
    }
  | { type: "count"; match: number; min?: number; max?: number; after?: number; per?: string; sum?: string; on?: string }
  | {
      type: "condition";
      each: number;
      bind: number;
      on?: string;
      key: string;
      test?: ValueMatcher;
      cross?: Cross;
      /** A second test on another key of the bound event, both to hold ("due diligence passed and no conflict"). */
      also?: { key: string; test: ValueMatcher };
    };

const keyValue = (s: SampleIndex, j: number, key: string | undefined): string | undefined =>
  key === undefined ? "" : metadataString(s.events[j]!, key);

function evaluateOrdering(c: Extract<Candidate, { type: "ordering" }>, s: SampleIndex): Verdict {
  const firsts = s.hits[c.first]!;
  const befores = s.hits[c.before]!;
  if (befores.length === 0) return "na";
  if (c.on === undefined && c.fresh === undefined) {
    const f = firsts[0];
    return f !== undefined && f < befores[0]! ? "true" : "false";
  }
  // Walk both in event order; at one event, it is judged as a `before` first, then may open as a `first`.
  const open = new Map<string | undefined, boolean>();
  let i = 0;
  for (const b of befores) {
    for (; i < firsts.length && firsts[i]! < b; i++) open.set(keyValue(s, firsts[i]!, c.on), true);
    const value = keyValue(s, b, c.onLater ?? c.on);
    if (value === undefined || open.get(value) !== true) return "false";
    if (c.fresh) open.set(value, false);
  }
  return "true";
}

function evaluatePairing(c: Extract<Candidate, { type: "pairing" }>, s: SampleIndex): Verdict {
  const eaches = s.hits[c.each]!;
  if (eaches.length === 0) return "na";
  const followers = s.hits[c.followedBy]!;
  if (c.on === undefined && c.within === undefined) {
    const lastFollower = followers.at(-1) ?? -1;
    if (lastFollower > eaches.at(-1)!) return "true";
    return s.complete ? "false" : "na";
  }
  const last = s.events.length - 1;
  let unsure = false;
  const laterKey = c.onLater ?? c.on;
  for (const e of eaches) {
    const value = keyValue(s, e, c.on);
    const limit = c.within === undefined ? last : e + c.within;
    const served = value !== undefined && followers.some((f) => f > e && f <= limit && keyValue(s, f, laterKey) === value);
    if (served) continue;
    if (c.within !== undefined && limit <= last) return "false";
    if (s.complete) return "false";
    unsure = true;
  }
  return unsure ? "na" : "true";
}

function evaluateWindowed(c: Extract<Candidate, { type: "required" | "forbidden" | "count" }>, s: SampleIndex): Verdict {
  const h = s.hits;
  const on = c.on;
  // A count's events carry the key under the name of the event that opens its window.
  const onMatch = c.type !== "count" ? (c.onLater ?? on) : on;
  if (on !== undefined && c.after !== undefined) {
    // Windows per key value, each opened by its first `after` event; an event is a match only in windows opened before it.
    const opened = new Map<string, number>();
    for (const a of h[c.after]!) {
      const value = keyValue(s, a, on);
      if (value !== undefined && !opened.has(value)) opened.set(value, a);
    }
    if (opened.size === 0) return "na";
    const served = new Set<string>();
    // A count's matches per window (docs/FORMATS.md §10.2: the bounds hold per opened window).
    const counted = new Map<string, number>();
    for (const m of h[c.match]!) {
      const value = keyValue(s, m, onMatch);
      const start = value === undefined ? undefined : opened.get(value);
      if (start === undefined || m <= start) continue;
      if (c.type === "forbidden") return "false";
      served.add(value!);
      counted.set(value!, (counted.get(value!) ?? 0) + 1);
    }
    if (c.type === "forbidden") return "true";
    if (c.type === "count") {
      const counts = [...opened.keys()].map((v) => counted.get(v) ?? 0);
      if (c.max !== undefined && counts.some((n) => n > c.max!)) return "false";
      if (c.min !== undefined && counts.some((n) => n < c.min!)) return s.complete ? "false" : "na";
      return "true";
    }
    return served.size === opened.size ? "true" : s.complete ? "false" : "na";
  }
  let start = -1;
  if (c.after !== undefined) {
    const w = h[c.after]![0];
    if (w === undefined) return "na";
    start = w;
  }
  const hits = h[c.match]!;
  if (c.type === "count" && (c.per !== undefined || c.sum !== undefined)) {
    // Bounds per value of the key among the matches (matches without it are not counted), on their
    // number or on the sum of a key's decimal values (a missing or non-numeric value adds 0).
    const groups = new Map<string, number>();
    for (const m of hits) {
      if (m <= start) continue;
      const value = keyValue(s, m, c.per);
      if (value === undefined) continue;
      const add = c.sum === undefined ? 1 : decimal(metadataString(s.events[m]!, c.sum));
      groups.set(value, (groups.get(value) ?? 0) + add);
    }
    if (c.max !== undefined && [...groups.values()].some((n) => n > c.max!)) return "false";
    if (c.min !== undefined && [...groups.values()].some((n) => n < c.min!)) return s.complete ? "false" : "na";
    return "true";
  }
  let n = 0;
  for (let k = hits.length - 1; k >= 0 && hits[k]! > start; k--) n++;
  if (c.type === "forbidden") return n > 0 ? "false" : "true";
  if (c.type === "required") return n > 0 ? "true" : s.complete ? "false" : "na";
  if (c.type !== "count") return "na";
  if (c.max !== undefined && n > c.max) return "false";
  if (c.min !== undefined && n < c.min) return s.complete ? "false" : "na";
  return "true";
}

function decimal(v: string | undefined): number {
  return v !== undefined && /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(v) ? Number(v) : 0;
}

function evaluateCondition(c: Extract<Candidate, { type: "condition" }>, s: SampleIndex): Verdict {
  const eaches = s.hits[c.each]!;
  if (eaches.length === 0) return "na";
  const bound = s.hits[c.bind]!;
  for (const e of eaches) {
    const value = keyValue(s, e, c.on);
    let b: number | undefined;
    for (const j of bound) {
      if (j >= e) break;
      if (value !== undefined && keyValue(s, j, c.on) === value) b = j;
    }
    if (b === undefined) return "false";
    if (c.test !== undefined && !valueHolds(metadataString(s.events[b]!, c.key), c.test)) return "false";
    if (c.also !== undefined && !valueHolds(metadataString(s.events[b]!, c.also.key), c.also.test)) return "false";
    if (c.cross !== undefined && !crossHolds(s.events[b]!, s.events[e]!, c.cross)) return "false";
  }
  return "true";
}

export function evaluate(c: Candidate, s: SampleIndex): Verdict {
  switch (c.type) {
    case "ordering":
      return evaluateOrdering(c, s);
    case "pairing":
      return evaluatePairing(c, s);
    case "condition":
      return evaluateCondition(c, s);
    default:
      return evaluateWindowed(c, s);
  }
}

export function fold(verdicts: Verdict[]): Verdict {
  if (verdicts.includes("false")) return "false";
  return verdicts.includes("true") ? "true" : "na";
}
/** The matcher index a candidate is about, for the trigger it implies. */
export function subjectOf(c: Candidate): number | "any" {
  switch (c.type) {
    case "ordering":
      return c.before;
    case "pairing":
    case "condition":
      return c.each;
    case "count":
      return c.after ?? c.match;
    default:
      return c.after ?? "any";
  }
}

export function usedMatchers(c: Candidate): number[] {
  switch (c.type) {
    case "ordering":
      return [c.first, c.before];
    case "pairing":
      return [c.each, c.followedBy];
    case "condition":
      return [c.each, c.bind];
    default:
      return [c.match, ...(c.after !== undefined ? [c.after] : [])];
  }
}

/** Each extended form costs a little more than the plain one (simplicity). */
export function extensions(c: Candidate): number {
  if (c.type === "condition") return 2 + (c.on !== undefined ? 1 : 0) + (c.also !== undefined ? 1 : 0);
  let n = 0;
  if ("on" in c && c.on !== undefined) n++;
  if (c.type === "ordering" && c.fresh) n++;
  if (c.type === "pairing" && c.within !== undefined) n++;
  if ((c.type === "pairing" || c.type === "ordering" || c.type === "required" || c.type === "forbidden") && c.onLater !== undefined) n++;
  if (c.type === "count" && c.per !== undefined) n++;
  if (c.type === "count" && c.sum !== undefined) n++;
  return n;
}
