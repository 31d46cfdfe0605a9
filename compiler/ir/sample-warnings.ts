/**
 * `--samples` warnings for the extended forms (docs/FORMATS.md §10): a regex,
 * comparison or list no sample value satisfies, a comparison over values the
 * samples never write as numbers (or dates), and a condition name no sample
 * event could bind. Like the vocabulary warnings, they say the samples and
 * the judge disagree; the samples may be few, so they stay warnings.
 */
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";
import { readDecimal, readInstant } from "../../runtime/matchers.js";
import type { Diagnostic } from "../diagnostics.js";
import type { IRPositions } from "./parse.js";
import type { Check, JudgeIR, Matcher, Pattern, ValueMatcher } from "./types.js";
import { metadataString, patternHolds, rangeIsDates, valueHolds } from "./value-eval.js";
import { describeValue, keyOf, valueTest } from "./values.js";

/** The pattern fields of a check, by name, as written. */
function patternsOf(check: Check): [string, Pattern][] {
  const fields = check as unknown as Record<string, unknown>;
  const named: [string, Pattern][] = [];
  for (const key of ["first", "before", "each", "followedBy", "match", "after"]) {
    if (Array.isArray(fields[key])) named.push([key, fields[key] as Pattern]);
  }
  return named;
}

/** Whether a value matcher asks more than equality: the tests a warning is about. */
function isSelective(matcher: ValueMatcher): boolean {
  const op = valueTest(matcher).op;
  return op === "matches" || op === "range" || op === "in";
}

interface ValueSite {
  where: string;
  matcher: ValueMatcher;
  read: (event: TrajectoryEvent) => string | undefined;
  /** Which events' values count: those that carry the value at all. */
}

function valueSites(matcher: Matcher, at: string): ValueSite[] {
  const sites: ValueSite[] = [];
  if (matcher.action !== undefined && isSelective(matcher.action))
    sites.push({ where: `${at}.action`, matcher: matcher.action, read: (e) => e.action });
  if (matcher.content !== undefined && isSelective(matcher.content))
    sites.push({ where: `${at}.content`, matcher: matcher.content, read: (e) => e.content ?? "" });
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    if (isSelective(value)) sites.push({ where: `${at}.metadata.${key}`, matcher: value, read: (e) => metadataString(e, key) });
  }
  return sites;
}

function valueSiteWarnings(site: ValueSite, events: readonly TrajectoryEvent[], warn: (code: string, message: string) => void): void {
  const values = events.map(site.read).filter((v): v is string => v !== undefined);
  // A key no sample has is the vocabulary warning's to report.
  if (values.length === 0) return;
  const test = valueTest(site.matcher);
  if (test.op === "range") {
    const dates = rangeIsDates(test.range);
    const readable = values.filter((v) => (dates ? readInstant(v) : readDecimal(v)) !== undefined);
    if (readable.length === 0) {
      const example = JSON.stringify(values[0]);
      warn(
        "comparison-not-numeric",
        `${site.where} compares ${dates ? "dates" : "numbers"}, but no sample value of it is ${dates ? "an ISO-8601 date" : "a decimal number"} (e.g. ${example})`,
      );
      return;
    }
  }
  if (!values.some((v) => valueHolds(v, site.matcher))) {
    warn(
      "value-never-matches",
      `no sample value of ${site.where} is ${describeValue(site.matcher)} (${values.length} value${values.length === 1 ? "" : "s"} seen)`,
    );
  }
}

/**
 * A count's `sum` adds the decimal values of its key over the matches; a sample
 * match whose value is missing or not a decimal number counts 0 (LANGUAGE.md §3),
 * which is rarely what the rule means: `"$80"`, `"80 EUR"`.
 */
function sumWarnings(
  match: Pattern,
  key: string | undefined,
  events: readonly TrajectoryEvent[],
  warn: (code: string, message: string) => void,
): void {
  if (key === undefined) return;
  const matches = events.filter((e) => patternHolds(e, match));
  const values = matches.map((e) => metadataString(e, key));
  const missing = values.filter((v) => v === undefined).length;
  const words = values.filter((v): v is string => v !== undefined && readDecimal(v) === undefined);
  if (missing + words.length === 0) return;
  const parts = [
    ...(words.length > 0
      ? [`${words.length} ${words.length === 1 ? "is" : "are"} not a decimal number (e.g. ${JSON.stringify(words[0])})`]
      : []),
    ...(missing > 0 ? [`${missing} ${missing === 1 ? "has" : "have"} no ${key}`] : []),
  ];
  warn(
    "sum-not-numeric",
    `sum: metadata.${key}: of ${matches.length} sample match${matches.length === 1 ? "" : "es"}, ${parts.join(" and ")}; such a value counts 0`,
  );
}

export function sampleValueWarnings(
  ir: JudgeIR,
  positions: IRPositions | undefined,
  file: string,
  samples: readonly Trajectory[],
): Diagnostic[] {
  const events = samples.flatMap((t) => t.events);
  if (events.length === 0) return [];
  const warnings: Diagnostic[] = [];
  ir.metaBehaviors.forEach((rule, r) => {
    rule.checks.forEach((check, c) => {
      const line = positions?.metaBehaviors[r]?.checks[c] ?? 0;
      const path = `metaBehaviors[${r}].checks[${c}]`;
      const warn = (code: string, message: string) =>
        warnings.push({ file, line, col: line === 0 ? 0 : 1, path, severity: "warning", code, message });
      for (const [field, pattern] of patternsOf(check)) {
        pattern.forEach((matcher, m) => {
          for (const site of valueSites(matcher, pattern.length === 1 ? field : `${field}[${m}]`)) valueSiteWarnings(site, events, warn);
        });
      }
      if (check.type === "count" && check.sum !== undefined) sumWarnings(check.match, keyOf(check.sum), events, warn);
      if (check.type !== "condition") return;
      for (const [bindingName, binding] of Object.entries(check.with ?? {})) {
        const pattern = binding.latest ?? binding.first!;
        if (!events.some((e) => patternHolds(e, pattern))) {
          warn(
            "binding-never-binds",
            `the name ${bindingName} never binds on the samples: no sample event matches its ${binding.latest === undefined ? "first" : "latest"} pattern`,
          );
        }
      }
    });
  });
  return warnings;
}
