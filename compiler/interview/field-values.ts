/**
 * The text of one form field (fields.ts) for the forms of the rule language
 * beyond an exact string (docs/FORMATS.md §10), both ways: what a field
 * shows for a value matcher, an `on:` correlation or a metadata mapping, and
 * what the typed text is read as before the snippet goes to the parser.
 *
 * A field holds a plain string as it is (`issue_refund`), and anything else
 * as flow YAML: `{in: [issue_refund, issue_credit]}`, `{gt: 500}`,
 * `{matches: "^R", flags: i}`, `{first: metadata.id, before: metadata.ref}`.
 * What a field shows reads back as the same value, so saving a form
 * unchanged changes nothing. Reading keeps every scalar a string (judge.yaml
 * compares strings: `code: 200` means "200") except where the language
 * wants another type: a comparison's bound (`{gt: 500}` is the number 500)
 * and `exists` (a boolean).
 */
import { parse } from "yaml";
import type { On, ValueMatcher } from "../ir/types.js";
import { RANGE_OPERATORS, VALUE_OPERATORS } from "../ir/values.js";

/**
 * A string as a double-quoted scalar, JSON's escapes (which YAML reads the
 * same), with the line and paragraph separators escaped too: JSON leaves
 * them raw, and a field is one line.
 */
export function quoted(text: string): string {
  return json(text);
}

/** Data as JSON, which is flow YAML, with the separators escaped (they can only be inside its strings). */
function json(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A metadata key or string value as a flow scalar: plain when YAML reads it back as the same string, quoted otherwise. */
export function flowScalar(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(text) && !/^(?:true|false|yes|no|on|off|null|y|n)$/i.test(text) ? text : quoted(text);
}

/** Plain data as flow YAML, strings quoted only where needed: `{in: [a, "b c"]}`. */
function flowText(value: unknown): string {
  if (typeof value === "string") return flowScalar(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(flowText).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, inner]) => `${flowScalar(key)}: ${flowText(inner)}`).join(", ")}}`;
}

/** An operator object with its operators in judge.yaml's canonical order (as the serializer writes them). */
function operatorData(matcher: ValueMatcher): unknown {
  if (typeof matcher === "string") return matcher;
  const record = matcher as Record<string, unknown>;
  return Object.fromEntries(
    VALUE_OPERATORS.filter((op) => record[op] !== undefined).map((op) => [
      op,
      op === "not" ? operatorData(record[op] as ValueMatcher) : record[op],
    ]),
  );
}

/**
 * What an `action` or `content` field shows: a string as it is, unless it
 * would read back as something else (it starts with `{` or `"`, or has
 * spaces at either end), then as a JSON string; an operator as flow YAML.
 */
export function valueText(matcher: ValueMatcher | undefined): string {
  if (matcher === undefined) return "";
  if (typeof matcher !== "string") return flowText(operatorData(matcher));
  return /^[{"]/.test(matcher) || matcher.trim() !== matcher || /[\r\n\u2028\u2029]/.test(matcher) ? quoted(matcher) : matcher;
}

/** What a metadata field shows: `status: found, amount: {gt: 500}` (the body of a flow mapping). */
export function metadataText(metadata: Readonly<Record<string, ValueMatcher>> | undefined): string {
  return Object.entries(metadata ?? {})
    .map(([key, value]) => `${flowScalar(key)}: ${typeof value === "string" ? flowScalar(value) : flowText(operatorData(value))}`)
    .join(", ");
}

/** What an `on` field shows: `metadata.order_id`, or the two sides as flow YAML. */
export function onText(on: On<string> | undefined): string {
  if (on === undefined) return "";
  return typeof on === "string" ? on : flowText(on);
}

/** One line: text written as typed never adds lines to the snippet. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * An operator object from the two readings of its text: every scalar as the
 * string it is written as (`loose`, YAML's failsafe schema), except bounds
 * and `exists`, taken as YAML types them (`typed`), and a `not` inside read
 * the same way.
 */
function operatorFrom(typed: unknown, loose: unknown): unknown {
  if (!isRecord(loose) || !isRecord(typed)) return loose;
  return Object.fromEntries(
    Object.entries(loose).map(([key, value]): [string, unknown] => {
      if ((RANGE_OPERATORS as readonly string[]).includes(key) || key === "exists") return [key, typed[key]];
      if (key === "not" && isRecord(value)) return [key, operatorFrom(typed[key], value)];
      return [key, value];
    }),
  );
}

/** Both readings of a flow text, or undefined when it is not YAML (the parser then says what is wrong, as typed). */
function readings(text: string): { typed: unknown; loose: unknown } | undefined {
  try {
    return { typed: parse(text), loose: parse(text, { schema: "failsafe" }) };
  } catch {
    return undefined;
  }
}

/**
 * A typed field as snippet text for the parser: JSON of what it means, or,
 * when it is not YAML at all, the text as typed (one line, so it cannot add
 * keys), for the parser to point at.
 */
export type SnippetValue = { json: string } | { raw: string };

export function snippetValueText(value: SnippetValue): string {
  return "json" in value ? value.json : value.raw;
}

/**
 * An `action` or `content` field: `{…}` is an operator object; a JSON
 * string (`"{literal}"`) is that string; anything else is the string as
 * typed, without the spaces around it.
 */
export function readValueField(text: string): SnippetValue {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const flat = oneLine(trimmed);
    const read = readings(flat);
    return read === undefined ? { raw: flat } : { json: json(operatorFrom(read.typed, read.loose)) };
  }
  if (trimmed.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === "string") return { json: json(value) };
    } catch {
      // Not a JSON string: a string that starts with a quote, as typed.
    }
  }
  return { json: json(trimmed) };
}

/**
 * A metadata field, the body of a flow mapping (`code: 200, amount: {gt: 500}`):
 * each value a string as written, or an operator object.
 */
export function readMetadataField(body: string): SnippetValue {
  const text = `{${body}}`;
  const read = readings(text);
  if (read === undefined || !isRecord(read.loose) || !isRecord(read.typed)) return { raw: text };
  const typed = read.typed;
  const data = Object.fromEntries(
    Object.entries(read.loose).map(([key, value]) => [key, isRecord(value) ? operatorFrom(typed[key], value) : value]),
  );
  return { json: json(data) };
}

/** An `on` field: `metadata.<key>`, or `{first: metadata.a, before: metadata.b}` (every value a string). */
export function readOnField(text: string): SnippetValue {
  const trimmed = oneLine(text);
  if (!trimmed.startsWith("{")) return { json: json(trimmed) };
  const read = readings(trimmed);
  return read === undefined ? { raw: trimmed } : { json: json(read.loose) };
}
