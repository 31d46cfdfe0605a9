/**
 * What a false clause found, in words (`Clause.found`): for an ordering, the
 * `before` event and the earlier events of `first`'s action that did not
 * match; for forbidden and count, the matches. A generated stepper describes
 * an event the moment it steps it (the monitor keeps no events), at most
 * EVIDENCE_SHOWN per check, with the fields the check's pattern tests, so a
 * reader sees the value that made the difference (`status "failed"` where
 * `status "verified"` was expected). Imports nothing.
 */
import type { StepEvent } from "./stepper.js";

/** Events described per check; the rest are counted. */
export const EVIDENCE_SHOWN = 3;

/** Content shown of an event, in characters. */
const CONTENT_SHOWN = 60;

/**
 * Whether JSON.stringify leaves the first `n` characters of `value` as they are: no quote,
 * backslash, control character or surrogate half (a surrogate, paired or not, takes the slow
 * path, which is always right).
 */
function plainPrefix(value: string, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const c = value.charCodeAt(k);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * The value as JSON, clipped to `max` characters with an ellipsis. Most values need no escape:
 * those are quoted without JSON.stringify, the larger part of what a description cost
 * (docs/SPEED.md, round 16); the text is the same.
 */
function quoted(value: string, max: number): string {
  const n = value.length;
  if (n > max) {
    if (plainPrefix(value, max)) return `"${value.slice(0, max)}…"`;
  } else if (plainPrefix(value, n)) return `"${value}"`;
  const flat = JSON.stringify(value);
  return flat.length > max + 2 ? `${flat.slice(0, max + 1)}…"` : flat;
}

/**
 * `verify_identity_result at e3 with actor tool, status "failed"`: the event's
 * action and id, and its value of each field named (`actor`, `content`,
 * `metadata.<key>`; `no <key>` when it has none). Made by concatenation, not a
 * list and `join`: a stepper describes up to three events per check while
 * stepping, whether or not the clause ends false.
 */
export function eventFacts(e: StepEvent, fields: readonly string[]): string {
  let facts = "";
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k]!;
    let fact: string;
    if (field === "actor") fact = `actor ${e.actor}`;
    else if (field === "content") fact = `content ${quoted(e.content ?? "", CONTENT_SHOWN)}`;
    else {
      const key = field.slice("metadata.".length);
      const metadata = e.metadata;
      const value = metadata !== undefined && Object.hasOwn(metadata, key) ? metadata[key] : undefined;
      fact = typeof value === "string" ? `${key} ${quoted(value, CONTENT_SHOWN)}` : `no ${key}`;
    }
    facts = k === 0 ? ` with ${fact}` : `${facts}, ${fact}`;
  }
  return `${e.action} at ${e.id}${facts}`;
}

/** The events described, `; ` between them, and how many more there were. */
export function factsList(described: readonly string[], total: number): string {
  const more = total - described.length;
  return `${described.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}

/**
 * Why an ordering is false: `before issue_refund at e8: verify_identity_result
 * at e3 with status "failed"`, or `before issue_refund at e1: no
 * verify_identity_result` (`actions`: those `first` names; empty when its
 * patterns name none, and nothing was looked for).
 */
export function orderingFound(before: string, nearMisses: readonly string[], missed: number, actions: readonly string[]): string {
  const seen = missed > 0 ? factsList(nearMisses, missed) : actions.length > 0 ? `no ${actions.join(" or ")}` : "no event matching `first`";
  return `before ${before}: ${seen}`;
}

/** `at most 1`, `at least 3`, `between 1 and 4`, `exactly 2`, as the expected sentence says it. */
export function boundsText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `between ${min} and ${max}`;
  return max !== undefined ? `at most ${max}` : `at least ${min ?? 0}`;
}

/** What a false count found: `3 counted, at most 1: …`, `only 1 counted, at least 3: …`, `none counted, at least 3`. */
export function countFound(counted: number, tooFew: boolean, bounds: string, described: readonly string[]): string {
  if (counted === 0) return `none counted, ${bounds}`;
  return `${tooFew ? "only " : ""}${counted} counted, ${bounds}: ${factsList(described, counted)}`;
}
