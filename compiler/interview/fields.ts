/**
 * Structured editing (issue 14): a clause as a form of plain text fields that
 * both front ends fill in (the browser as inputs, the terminal one prompt per
 * field), and the form back to a snippet for the real parser (snippet.ts).
 *
 * The form holds text exactly as typed. Strings become quoted YAML scalars, so
 * an action is never read as a number or a flow collection; bounds and
 * metadata are written as typed (`2`, `status: found`), so what the parser
 * says about them is what `build` would say. The quote is not a field: the
 * form is always written with the clause's current quote, verbatim, so an edit
 * can never retype it.
 */
import { parse } from "yaml";
import type { CheckType } from "../../runtime/types.js";
import type { Matcher, Pattern } from "../ir/types.js";
import { exactValue } from "../ir/values.js";
import type { InterviewClause } from "./evidence.js";

export interface MatcherFields {
  action: string;
  actor: string;
  contentIncludes: string;
  /** A flow mapping's body as typed, e.g. `status: found, kind: handover`. */
  metadata: string;
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

export type ClauseForm =
  | {
      kind: "check";
      type: CheckType;
      /** The type's pattern fields (PATTERN_ROLES), each a list of alternatives. */
      patterns: Record<string, MatcherFields[]>;
      /** The `after:` window (required, forbidden, count); empty: none. */
      after: MatcherFields[];
      min: string;
      max: string;
      distinctBy: string;
    }
  | { kind: "semanticCheck"; question: string }
  | { kind: "trigger"; description: string; semantic: boolean; match: MatcherFields[] };

export function emptyMatcher(): MatcherFields {
  return { action: "", actor: "", contentIncludes: "", metadata: "" };
}

function matcherFields(matcher: Matcher): MatcherFields {
  return {
    // TODO(extended interview): operators are shown and edited as flow YAML.
    action: exactValue(matcher.action) ?? "",
    actor: matcher.actor ?? "",
    contentIncludes: matcher.contentIncludes ?? "",
    metadata: Object.entries(matcher.metadata ?? {})
      .map(([key, value]) => `${flowScalar(key)}: ${flowScalar(exactValue(value) ?? "")}`)
      .join(", "),
  };
}

/** A metadata key or value as a flow-mapping scalar: plain when YAML reads it back as the same string, quoted otherwise. */
function flowScalar(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(text) && !/^(?:true|false|yes|no|on|off|null|y|n)$/i.test(text) ? text : JSON.stringify(text);
}

function patternFields(pattern: Pattern | undefined): MatcherFields[] {
  return (pattern ?? []).map(matcherFields);
}

/** The form prefilled with a clause's fields. */
export function formFromClause(clause: InterviewClause): ClauseForm {
  if (clause.kind === "semanticCheck") return { kind: "semanticCheck", question: clause.semanticCheck.question };
  if (clause.kind === "trigger") {
    const { trigger } = clause;
    return { kind: "trigger", description: trigger.description, semantic: trigger.semantic === true, match: patternFields(trigger.match) };
  }
  const check = clause.check;
  const data = check as unknown as Record<string, Pattern | undefined>;
  const patterns: Record<string, MatcherFields[]> = {};
  for (const role of PATTERN_ROLES[check.type]) patterns[role] = patternFields(data[role]);
  return {
    kind: "check",
    type: check.type,
    patterns,
    after: check.type === "required" || check.type === "forbidden" || check.type === "count" ? patternFields(check.after) : [],
    min: check.type === "count" && check.min !== undefined ? String(check.min) : "",
    max: check.type === "count" && check.max !== undefined ? String(check.max) : "",
    distinctBy: check.type === "count" ? (check.distinctBy ?? "") : "",
  };
}

/**
 * The form as another check type: the patterns carried over by position
 * (ordering's `first` becomes pairing's `each`, or required's `match`), so
 * a change of type keeps what was typed.
 */
export function retype(form: Extract<ClauseForm, { kind: "check" }>, type: CheckType): Extract<ClauseForm, { kind: "check" }> {
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
export function newCheckForm(type: CheckType = "required"): Extract<ClauseForm, { kind: "check" }> {
  const patterns: Record<string, MatcherFields[]> = {};
  for (const role of PATTERN_ROLES[type]) patterns[role] = [emptyMatcher()];
  return { kind: "check", type, patterns, after: [], min: "", max: "", distinctBy: "" };
}

/** One line: a form field never adds lines to the snippet. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

function quoted(text: string): string {
  return JSON.stringify(text);
}

function matcherLines(m: MatcherFields): string[] {
  const lines: string[] = [];
  if (m.action.trim() !== "") lines.push(`action: ${quoted(m.action.trim())}`);
  if (m.actor.trim() !== "") lines.push(`actor: ${quoted(m.actor.trim())}`);
  // Content is matched as a substring, so its spaces are kept.
  if (m.contentIncludes !== "") lines.push(`contentIncludes: ${quoted(m.contentIncludes)}`);
  const metadata = oneLine(m.metadata).replace(/^\{([\s\S]*)\}$/, "$1");
  if (metadata !== "") lines.push(`metadata: ${metadataText(metadata)}`);
  return lines;
}

/**
 * Metadata values are strings in judge.yaml, and a person typing `code: 200`
 * means the string: read as YAML's failsafe schema (every scalar a string)
 * when that gives a flat mapping; anything else goes to the parser as typed.
 */
function metadataText(body: string): string {
  const text = `{${body}}`;
  try {
    const value: unknown = parse(text, { schema: "failsafe" });
    if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string")) {
      return JSON.stringify(value);
    }
  } catch {
    // Not YAML: the parser says what is wrong with it.
  }
  return text;
}

export function isEmptyMatcher(m: MatcherFields): boolean {
  return matcherLines(m).length === 0;
}

/** A pattern's lines under its key, one item per alternative; an empty alternative stays, for the parser to point at. */
function patternLines(key: string, matchers: readonly MatcherFields[]): string[] {
  // No alternative left: an empty pattern, which the parser refuses with its own message.
  if (matchers.length === 0) return [`${key}: []`];
  const lines = [`${key}:`];
  for (const matcher of matchers) {
    const fields = matcherLines(matcher);
    if (fields.length === 0) lines.push("  - {}");
    fields.forEach((line, i) => lines.push(`${i === 0 ? "  - " : "    "}${line}`));
  }
  return lines;
}

/**
 * The form as a block-YAML snippet of one clause for parseClauseSnippet,
 * with `quote` (the clause's current one) written verbatim.
 */
export function formSnippet(form: ClauseForm, quote: string): string {
  const lines: string[] = [];
  switch (form.kind) {
    case "semanticCheck":
      lines.push(`quote: ${quoted(quote)}`, `question: ${quoted(form.question)}`);
      break;
    case "trigger":
      lines.push(`description: ${quoted(form.description)}`);
      if (form.semantic) lines.push("semantic: true");
      else lines.push(...patternLines("match", form.match));
      break;
    case "check": {
      lines.push(`type: ${quoted(form.type)}`, `quote: ${quoted(quote)}`);
      for (const role of PATTERN_ROLES[form.type] ?? []) lines.push(...patternLines(role, form.patterns[role] ?? []));
      const windowed = form.type === "required" || form.type === "forbidden" || form.type === "count";
      if (windowed && form.after.some((m) => !isEmptyMatcher(m))) lines.push(...patternLines("after", form.after));
      if (form.type === "count") {
        // Bounds as typed: "two" or "-1" reach the parser, which says what it accepts.
        if (oneLine(form.min) !== "") lines.push(`min: ${oneLine(form.min)}`);
        if (oneLine(form.max) !== "") lines.push(`max: ${oneLine(form.max)}`);
        if (form.distinctBy.trim() !== "") lines.push(`distinctBy: ${quoted(form.distinctBy.trim())}`);
      }
      break;
    }
  }
  return `${lines.join("\n")}\n`;
}
