/**
 * IR → judge.yaml text, in the canonical key order of docs/FORMATS.md §3, so that
 * generated and hand-edited files diff cleanly. `parseJudgeYaml` of the
 * result deep-equals the input IR; quoting is left to the yaml library, which
 * quotes exactly the strings that would otherwise read as something else
 * (numbers, booleans, null, indicators, leading/trailing spaces, controls).
 */
import { Document, isScalar, visit } from "yaml";
import { CHECK_KEYS, MATCHER_KEYS, PATTERN_KEYS } from "./schema.js";
import type { Binding, Check, JudgeIR, Matcher, MetaBehavior, On, Pattern, SemanticCheck, Trigger, ValueMatcher } from "./types.js";
import { VALUE_OPERATORS } from "./values.js";

/** Lines of the long prose fields (quotes, sources) wrap near this width. */
const LINE_WIDTH = 100;

/** Serializes a valid IR; the output parses back to an equal IR. */
export function serializeJudgeYaml(ir: JudgeIR): string {
  const data = {
    version: ir.version,
    behavior: ir.behavior,
    metaBehaviors: ir.metaBehaviors.map(metaBehaviorData),
  };
  // Quote also what a YAML 1.1 reader (PyYAML, older tools) would misread: yes, no, on, 1:20.
  const doc = new Document(data, { compat: "yaml-1.1" });
  forceDoubleQuotesAroundInvisibles(doc);
  return doc.toString({ lineWidth: LINE_WIDTH }).replace(INVISIBLE_ALL, escapeInvisible);
}

/**
 * Line/paragraph separators, bidi overrides, zero-width and C1 characters are
 * legal raw in YAML but invisible (or misleading) in a reviewed diff. Strings
 * holding them are double-quoted, and then written as \uXXXX escapes, which
 * only double-quoted scalars understand; since every scalar that holds one is
 * double-quoted, every occurrence in the output is inside such a scalar.
 */
const INVISIBLE = /[\u0080-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "g");

function escapeInvisible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

function forceDoubleQuotesAroundInvisibles(doc: Document): void {
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === "string" && INVISIBLE.test(node.value)) {
        node.type = "QUOTE_DOUBLE";
      }
    },
  });
}

function metaBehaviorData(meta: MetaBehavior): Record<string, unknown> {
  return withoutUndefined({
    name: meta.name,
    trigger: triggerData(meta.trigger),
    checks: meta.checks.map(checkData),
    semanticChecks: meta.semanticChecks.map(semanticCheckData),
    source: meta.source,
  });
}

/*
 * The *Data functions give a part of the IR as plain data with judge.yaml's
 * keys in canonical order; the interview writes single clauses with them.
 */

export function triggerData(trigger: Trigger): Record<string, unknown> {
  return trigger.semantic === true
    ? { description: trigger.description, semantic: true }
    : { description: trigger.description, match: patternData(trigger.match) };
}

/** CHECK_KEYS lists type, quote, the pattern fields, then min, max, distinctBy: the canonical order. */
export function checkData(check: Check): Record<string, unknown> {
  const fields = check as unknown as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const key of CHECK_KEYS[check.type]) {
    const value = fields[key];
    if (value === undefined) continue;
    if ((PATTERN_KEYS as readonly string[]).includes(key)) data[key] = patternData(value as Pattern);
    else if (key === "with") data[key] = bindingsData(value as Record<string, Binding>);
    else if (key === "on") data[key] = onData(value as On<string>, check.type);
    else data[key] = value;
  }
  return data;
}

/** A condition's names in judge.yaml order, each binding as `latest`/`first`, then `on`. */
function bindingsData(bindings: Record<string, Binding>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [bindingName, binding] of Object.entries(bindings)) {
    const side = binding.latest === undefined ? "first" : "latest";
    data[bindingName] = withoutUndefined({
      [side]: patternData(binding.latest ?? binding.first!),
      on: binding.on === undefined ? undefined : sidesInOrder(binding.on, ["each", side]),
    });
  }
  return data;
}

/** The sides of each check's `on`, in the order its pattern fields come. */
const ON_SIDES: Partial<Record<Check["type"], readonly string[]>> = {
  ordering: ["first", "before"],
  pairing: ["each", "followedBy"],
  required: ["after", "match"],
  forbidden: ["after", "match"],
  count: ["after", "match"],
};

function onData(on: On<string>, type: Check["type"]): unknown {
  return sidesInOrder(on, ON_SIDES[type] ?? []);
}

function sidesInOrder(on: On<string>, sides: readonly string[]): unknown {
  if (typeof on === "string") return on;
  const record = on as Record<string, string>;
  return Object.fromEntries(
    [...sides.filter((s) => record[s] !== undefined), ...Object.keys(record).filter((s) => !sides.includes(s))].map((s) => [s, record[s]]),
  );
}

/** A value matcher with its operators in canonical order (a string stays a string). */
function valueData(matcher: ValueMatcher): unknown {
  if (typeof matcher === "string") return matcher;
  const record = matcher as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const op of VALUE_OPERATORS) {
    if (record[op] === undefined) continue;
    data[op] = op === "not" ? valueData(record[op] as ValueMatcher) : op === "in" ? [...(record[op] as string[])] : record[op];
  }
  return data;
}

export function semanticCheckData(check: SemanticCheck): Record<string, unknown> {
  return { quote: check.quote, question: check.question };
}

/** A one-matcher pattern is written as a plain mapping, the way people write it. */
export function patternData(pattern: Pattern): unknown {
  const only = pattern.length === 1 ? pattern[0] : undefined;
  return only === undefined ? pattern.map(matcherData) : matcherData(only);
}

function matcherData(matcher: Matcher): Record<string, unknown> {
  const fields = matcher as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const key of MATCHER_KEYS) {
    if (fields[key] === undefined) continue;
    if (key === "metadata") data[key] = Object.fromEntries(Object.entries(matcher.metadata ?? {}).map(([k, v]) => [k, valueData(v)]));
    else if (key === "action" || key === "content") data[key] = valueData(fields[key] as ValueMatcher);
    else data[key] = fields[key];
  }
  return data;
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
