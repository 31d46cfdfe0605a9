/**
 * Structured editing (issue 14): a clause as a form of plain text fields that
 * both front ends fill in (the browser as inputs, the terminal one prompt per
 * field); form-snippet.ts writes the form back as a snippet for the real
 * parser (snippet.ts).
 *
 * The form holds text exactly as typed, and has a field for every form of
 * the rule language (docs/FORMATS.md §3 and §10): a matcher's action,
 * actor, contentIncludes, content and metadata; a check's `on`, `fresh`,
 * `within`, `per`, `sum`, bounds and `distinctBy`; a condition's names
 * (`with`) and expression (`when`). What a field shows for a value matcher
 * or a correlation is flow YAML (field-values.ts) that reads back as the
 * same value, so a form saved unchanged is the clause it was made from. The
 * quote is not a field: the form is always written with the clause's
 * current quote, verbatim, so an edit can never retype it.
 */
import type { CheckType } from "../../runtime/types.js";
import type { Binding, Check, Matcher, Pattern } from "../ir/types.js";
import type { InterviewClause } from "./evidence.js";
import { metadataText, onText, valueText } from "./field-values.js";

export interface MatcherFields {
  /** An exact action, or a value matcher as flow YAML (`{in: [a, b]}`). */
  action: string;
  actor: string;
  contentIncludes: string;
  /** A value matcher on the content (`{matches: "bye", flags: i}`), or an exact content. */
  content: string;
  /** A flow mapping's body as typed, e.g. `status: found, amount: {gt: 500}`. */
  metadata: string;
}

/** One name of a condition's `with`: the latest (or first) earlier event matching a pattern, optionally `on` a key. */
export interface BindingFields {
  name: string;
  /** "latest" or "first". */
  side: string;
  pattern: MatcherFields[];
  /** `metadata.<key>`, or `{each: metadata.a, latest: metadata.b}`; empty: none. */
  on: string;
}

export const CHECK_TYPES: readonly CheckType[] = ["ordering", "pairing", "required", "forbidden", "count", "condition"];

/** The pattern fields of each check type, in docs/FORMATS.md order; `after` is the optional window. */
export const PATTERN_ROLES: Readonly<Record<CheckType, readonly string[]>> = {
  ordering: ["first", "before"],
  pairing: ["each", "followedBy"],
  required: ["match"],
  forbidden: ["match"],
  count: ["match"],
  condition: ["each"],
};

/** The check types with an `after:` window. */
export function isWindowed(type: CheckType): type is "required" | "forbidden" | "count" {
  return type === "required" || type === "forbidden" || type === "count";
}

export interface CheckForm {
  kind: "check";
  type: CheckType;
  /** The type's pattern fields (PATTERN_ROLES), each a list of alternatives. */
  patterns: Record<string, MatcherFields[]>;
  /** The `after:` window (required, forbidden, count); empty: none. */
  after: MatcherFields[];
  min: string;
  max: string;
  distinctBy: string;
  /** Correlation (ordering, pairing, and the windowed checks): `metadata.<key>` or both sides as flow YAML. */
  on: string;
  /** Ordering: "true" for a fresh `first` event before every `before` event; empty: not given. */
  fresh: string;
  /** Pairing: the follower within N events. */
  within: string;
  /** Count: `metadata.<key>` whose every value is bounded on its own. */
  per: string;
  /** Count: `metadata.<key>` whose values are summed. */
  sum: string;
  /** Condition: the names bound for each `each` event, in order. */
  with: BindingFields[];
  /** Condition: the expression, as written. */
  when: string;
}

export type ClauseForm =
  | CheckForm
  | { kind: "semanticCheck"; question: string }
  | { kind: "trigger"; description: string; semantic: boolean; match: MatcherFields[] };

export function emptyMatcher(): MatcherFields {
  return { action: "", actor: "", contentIncludes: "", content: "", metadata: "" };
}

export function emptyBinding(): BindingFields {
  return { name: "", side: "latest", pattern: [emptyMatcher()], on: "" };
}

/** True when no field of the alternative holds anything. */
export function isEmptyMatcher(m: MatcherFields): boolean {
  const metadata = m.metadata.trim().replace(/^\{([\s\S]*)\}$/, "$1");
  return m.action.trim() === "" && m.actor.trim() === "" && m.contentIncludes === "" && m.content.trim() === "" && metadata.trim() === "";
}

/** True for a name slot left as it came: no name and nothing to match. */
export function isEmptyBinding(b: BindingFields): boolean {
  return b.name.trim() === "" && b.on.trim() === "" && b.pattern.every(isEmptyMatcher);
}

function matcherFields(matcher: Matcher): MatcherFields {
  return {
    action: valueText(matcher.action),
    actor: matcher.actor ?? "",
    contentIncludes: matcher.contentIncludes ?? "",
    content: valueText(matcher.content),
    metadata: metadataText(matcher.metadata),
  };
}

function patternFields(pattern: Pattern | undefined): MatcherFields[] {
  return (pattern ?? []).map(matcherFields);
}

function bindingFields(name: string, binding: Binding): BindingFields {
  const side = binding.latest === undefined ? "first" : "latest";
  return { name, side, pattern: patternFields(binding.latest ?? binding.first), on: onText(binding.on) };
}

/** The fields a check type has beyond its patterns, empty. */
function noExtras(): Omit<CheckForm, "kind" | "type" | "patterns" | "after"> {
  return { min: "", max: "", distinctBy: "", on: "", fresh: "", within: "", per: "", sum: "", with: [], when: "" };
}

function checkForm(check: Check): CheckForm {
  const data = check as unknown as Record<string, Pattern | undefined>;
  const patterns: Record<string, MatcherFields[]> = {};
  for (const role of PATTERN_ROLES[check.type]) patterns[role] = patternFields(data[role]);
  const form: CheckForm = { kind: "check", type: check.type, patterns, after: [], ...noExtras() };
  switch (check.type) {
    case "ordering":
      form.on = onText(check.on);
      form.fresh = check.fresh === undefined ? "" : String(check.fresh);
      break;
    case "pairing":
      form.on = onText(check.on);
      form.within = check.within === undefined ? "" : String(check.within);
      break;
    case "condition":
      form.with = Object.entries(check.with ?? {}).map(([name, binding]) => bindingFields(name, binding));
      form.when = check.when;
      break;
    default:
      form.after = patternFields(check.after);
      form.on = onText(check.on);
      if (check.type === "count") {
        form.min = check.min === undefined ? "" : String(check.min);
        form.max = check.max === undefined ? "" : String(check.max);
        form.distinctBy = check.distinctBy ?? "";
        form.per = check.per ?? "";
        form.sum = check.sum ?? "";
      }
  }
  return form;
}

/** The form prefilled with a clause's fields. */
export function formFromClause(clause: InterviewClause): ClauseForm {
  if (clause.kind === "semanticCheck") return { kind: "semanticCheck", question: clause.semanticCheck.question };
  if (clause.kind === "trigger") {
    const { trigger } = clause;
    return { kind: "trigger", description: trigger.description, semantic: trigger.semantic === true, match: patternFields(trigger.match) };
  }
  return checkForm(clause.check);
}

/**
 * The form as another check type: the patterns carried over by position
 * (ordering's `first` becomes pairing's `each`, or required's `match`), so
 * a change of type keeps what was typed. The other fields stay as they are;
 * only those of the new type are written.
 */
export function retype(form: CheckForm, type: CheckType): CheckForm {
  const old = PATTERN_ROLES[form.type].map((role) => form.patterns[role] ?? []);
  // And back: a window fills a two-pattern type's second pattern.
  if (old.length === 1 && form.after.length > 0) old.push(form.after);
  const patterns: Record<string, MatcherFields[]> = {};
  PATTERN_ROLES[type].forEach((role, i) => (patterns[role] = old[i] ?? [emptyMatcher()]));
  // A pattern left over from a two-pattern type becomes the window of a one-pattern one, if it has none.
  const spare = old.slice(PATTERN_ROLES[type].length).find((p) => p.length > 0);
  const after = PATTERN_ROLES[type].length === 1 && form.after.length === 0 && spare !== undefined ? spare : form.after;
  return { ...form, type, patterns, after: PATTERN_ROLES[type].length === 1 ? after : [] };
}

/** A new event check for a semantic question: the quote stays, the patterns are for the person to fill in. */
export function newCheckForm(type: CheckType = "required"): CheckForm {
  const patterns: Record<string, MatcherFields[]> = {};
  for (const role of PATTERN_ROLES[type]) patterns[role] = [emptyMatcher()];
  return { kind: "check", type, patterns, after: [], ...noExtras() };
}
