/**
 * The samples `warm` runs a judge's rules over (runtime/warm.ts): for every
 * matcher of every pattern of every rule, an event shaped like the ones it
 * names (its action, actor, content and metadata values where the matcher
 * gives them literally), and the metadata keys the rule correlates or counts
 * by (`on`, `distinctBy`, `per`, `sum`), which the runtime fills with values
 * of its own. They only have to reach each rule's code: a sample a matcher
 * cannot be written as (a regex, an open date bound) is left out: the runtime's
 * near and bare variants of each sample reach the branches it does not.
 */
import type { Check, JudgeIR, Matcher, MetaBehavior, On, Pattern, ValueMatcher } from "../ir/types.js";
import { code, join, lit, type Code } from "./code.js";

/** One sample, as runtime/warm.ts's `WarmSample` reads it. */
interface Sample {
  actor?: string;
  action: string;
  content?: string;
  metadata: Record<string, string>;
  keys: string[];
}

/** The action of an event no rule names by action, for matchers whose action is not a fixed one. */
const ANY_ACTION = "warm";

/** A value the matcher accepts, when one is easily written down; undefined leaves the field out. */
function valueFor(matcher: ValueMatcher | undefined): string | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher === "string") return matcher;
  if ("equals" in matcher) return matcher.equals;
  if ("in" in matcher) return matcher.in[0];
  if ("exists" in matcher) return matcher.exists ? "1" : undefined;
  if ("not" in matcher) {
    const not = matcher.not;
    // Any other value than the one(s) named; present when `not: {exists: false}`; absent otherwise.
    return typeof not === "string" || "equals" in not || "in" in not ? "~" : "exists" in not && !not.exists ? "1" : undefined;
  }
  if ("matches" in matcher) return undefined;
  const lower = matcher.gte ?? matcher.gt;
  const upper = matcher.lte ?? matcher.lt;
  if (typeof lower === "number" || typeof upper === "number") {
    // Numbers: inside the bounds (their middle, or one past an open end).
    if (typeof lower === "number" && typeof upper === "number") return String((lower + upper) / 2);
    if (typeof lower === "number") return String(lower + 1);
    return String((upper as number) - 1);
  }
  // Dates: a closed bound itself; an open one is left out.
  const closed = matcher.gte ?? matcher.lte;
  return typeof closed === "string" ? closed : undefined;
}

function patternsOf(check: Check): (Pattern | undefined)[] {
  switch (check.type) {
    case "ordering":
      return [check.first, check.before];
    case "pairing":
      return [check.each, check.followedBy];
    case "required":
    case "forbidden":
    case "count":
      return [check.match, check.after];
    case "condition":
      return [check.each, ...Object.values(check.with ?? {}).map((binding) => binding.latest ?? binding.first)];
  }
}

/** The metadata keys of a `metadata.<key>` reference, or of either side of an `on`. */
function keysOf(ref: On<string> | undefined): string[] {
  if (ref === undefined) return [];
  const refs = typeof ref === "string" ? [ref] : Object.values(ref);
  return refs.filter((r) => r.startsWith("metadata.")).map((r) => r.slice("metadata.".length));
}

function keysOfCheck(check: Check): string[] {
  switch (check.type) {
    case "ordering":
    case "pairing":
    case "required":
    case "forbidden":
      return keysOf(check.on);
    case "count":
      return [...keysOf(check.on), ...keysOf(check.distinctBy), ...keysOf(check.per), ...keysOf(check.sum)];
    case "condition":
      return Object.values(check.with ?? {}).flatMap((binding) => keysOf(binding.on));
  }
}

function sampleOf(matcher: Matcher, keys: readonly string[]): Sample {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    const written = valueFor(value);
    if (written !== undefined) metadata[key] = written;
  }
  const content = matcher.contentIncludes ?? valueFor(matcher.content);
  return {
    ...(matcher.actor === undefined ? {} : { actor: matcher.actor }),
    action: valueFor(matcher.action) ?? ANY_ACTION,
    ...(content === undefined ? {} : { content }),
    metadata,
    keys: keys.filter((key) => !(key in metadata)),
  };
}

/** Every rule's samples, in judge.yaml order, each distinct sample once. */
export function warmSamples(rules: readonly MetaBehavior[]): Sample[] {
  const seen = new Set<string>();
  const out: Sample[] = [];
  for (const rule of rules) {
    const keys = [...new Set(rule.checks.flatMap(keysOfCheck))];
    const patterns = [rule.trigger.match, ...rule.checks.flatMap(patternsOf)];
    for (const pattern of patterns) {
      for (const matcher of pattern ?? []) {
        const sample = sampleOf(matcher, keys);
        const text = JSON.stringify(sample);
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(sample);
      }
    }
  }
  return out;
}

function sampleLiteral(sample: Sample): Code {
  const fields: Code[] = [];
  if (sample.actor !== undefined) fields.push(code`actor: ${lit(sample.actor)}`);
  fields.push(code`action: ${lit(sample.action)}`);
  if (sample.content !== undefined) fields.push(code`content: ${lit(sample.content)}`);
  const metadata = Object.entries(sample.metadata);
  if (metadata.length > 0) fields.push(code`metadata: { ${join(metadata.map(([key, value]) => code`${lit(key)}: ${lit(value)}`))} }`);
  if (sample.keys.length > 0) fields.push(code`keys: [${join(sample.keys.map((key) => lit(key)))}]`);
  return code`{ ${join(fields)} }`;
}

/** The generated `warmEvents` table that `createJudge` hands `warm`. */
export function warmTable(ir: JudgeIR): Code {
  return code`/** Events shaped like those the rules' patterns name: what \`warm()\` runs each rule's code over (never a judgment's input). */
const warmEvents: readonly WarmSample[] = [${join(warmSamples(ir.metaBehaviors).map(sampleLiteral), code`,\n`)}];`;
}
