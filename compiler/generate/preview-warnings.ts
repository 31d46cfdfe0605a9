/**
 * The preview's warnings (see preview.ts): what a person must not miss about
 * a rule, given how its clauses judged the samples.
 */
import type { Trajectory, TrajectoryEvent, Verdict } from "../../runtime/types.js";
import { patternMatches } from "../interview/evidence.js";
import { metadataString, valueHolds } from "../ir/value-eval.js";
import { describeValue, exactValue } from "../ir/values.js";
import type { Check, MetaBehavior, Pattern, ValueMatcher } from "../ir/types.js";
import { sharesRoot } from "./offline/lexicon.js";
import { canonical, STOPWORDS, stemSet, words } from "./offline/words.js";
import type { PreviewClauseRef, PreviewWarning, RulePreview, VerdictSamples } from "./preview-types.js";

/** The events a check is about: without them it has nothing to judge. */
function subjectPatterns(check: Check): Pattern[] {
  switch (check.type) {
    case "ordering":
      return [check.before];
    case "pairing":
      return [check.each];
    case "condition":
      return [check.each];
    default:
      return [check.after ?? check.match];
  }
}

function checkPatternList(check: Check): Pattern[] {
  switch (check.type) {
    case "ordering":
      return [check.first, check.before];
    case "pairing":
      return [check.each, check.followedBy];
    case "condition":
      return [check.each, ...Object.values(check.with ?? {}).map((binding) => binding.latest ?? binding.first)];
    default:
      return check.after === undefined ? [check.match] : [check.match, check.after];
  }
}

function describeRef(ref: PreviewClauseRef): string {
  if (ref.kind === "rule") return "the rule";
  return ref.kind === "trigger" ? "the trigger" : ref.kind === "check" ? `checks[${ref.index}]` : `semanticChecks[${ref.index}]`;
}

function list(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).join(", ");
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
}

/** An action as the warnings name it: `"refund"`, or what its value matcher asks for. */
function actionText(action: ValueMatcher): string {
  const exact = exactValue(action);
  return exact === undefined ? describeValue(action) : `"${exact}"`;
}

/** Actions and metadata values the matchers ask for that no sample event has (value matchers as the judge reads them). */
function unusedNames(ref: PreviewClauseRef, patterns: readonly Pattern[], events: readonly TrajectoryEvent[]): PreviewWarning[] {
  const warnings: PreviewWarning[] = [];
  const seen = new Set<string>();
  for (const matcher of patterns.flat()) {
    const action = matcher.action;
    const actionId = `a:${JSON.stringify(action)}`;
    if (action !== undefined && !events.some((e) => valueHolds(e.action, action))) {
      if (!seen.has(actionId))
        warnings.push({
          kind: "unused-action",
          clause: ref,
          message:
            exactValue(action) === undefined
              ? `${describeRef(ref)}: no sample has an event whose action is ${describeValue(action)}`
              : `${describeRef(ref)}: no sample has an event with action ${actionText(action)}`,
        });
      seen.add(actionId);
      continue;
    }
    for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
      const holds = (e: TrajectoryEvent) =>
        (action === undefined || valueHolds(e.action, action)) && valueHolds(metadataString(e, key), value);
      const id = `m:${JSON.stringify(action ?? "")}:${key}=${JSON.stringify(value)}`;
      if (!seen.has(id) && !events.some(holds)) {
        const where = action === undefined ? "event" : `${actionText(action)} event`;
        const wanted = exactValue(value);
        warnings.push({
          kind: "unused-metadata-value",
          clause: ref,
          message: `${describeRef(ref)}: no sample ${where} has metadata ${key}${wanted === undefined ? ` ${describeValue(value)}` : `: ${wanted}`}`,
        });
      }
      seen.add(id);
    }
  }
  return warnings;
}

/** Samples two checks must both judge, with the same verdicts, before the preview calls one of them redundant. */
const MIN_AGREEING = 3;

/** Checks that only forbid (forbidden, or a count with no minimum): a prohibition holds in every session, whatever its trigger. */
function onlyProhibitions(rule: MetaBehavior): boolean {
  return rule.checks.length > 0 && rule.checks.every((c) => c.type === "forbidden" || (c.type === "count" && c.min === undefined));
}

/** How a rule's clauses judged the samples: what the warnings are about. */
export interface RuleVerdicts {
  /** Samples on which the trigger fires. */
  triggered: string[];
  rule: VerdictSamples;
  /** Per check. */
  checks: VerdictSamples[];
  /** Per check, per sample in order: the verdict after trigger gating. */
  gated: Verdict[][];
}

/** The warnings about one rule, and its trigger widened where it misses its checks' events. */
export function ruleWarnings(
  rule: MetaBehavior,
  samples: readonly Trajectory[],
  verdicts: RuleVerdicts,
): { warnings: PreviewWarning[]; widenedTrigger: Pattern | undefined } {
  const { triggered, gated, checks } = verdicts;
  const ruleSamples = verdicts.rule;
  const allEvents = samples.flatMap((s) => s.events);
  const warnings: PreviewWarning[] = [];
  const missedSubjects: Pattern[] = [];
  // The whole rule: samples mix passing and violating sessions, so a rule none of them satisfies is likely misread.
  if (triggered.length > 0 && ruleSamples.pass.length === 0 && ruleSamples.fail.length > 0) {
    const every = ruleSamples.fail.length === triggered.length;
    warnings.push({
      kind: every ? "fails-every-sample" : "passes-no-sample",
      clause: { kind: "rule" },
      message: every
        ? `the rule fails every sample it applies to (${list(ruleSamples.fail)})`
        : `the rule passes no sample: it fails ${list(ruleSamples.fail)} and is n.a. on the rest`,
    });
  }
  if (rule.trigger.match !== undefined) warnings.push(...unusedNames({ kind: "trigger" }, [rule.trigger.match], allEvents));
  rule.checks.forEach((check, index) => {
    const ref: PreviewClauseRef = { kind: "check", index };
    const s = checks[index]!;
    const judged = s.pass.length + s.fail.length;
    if (judged > 0 && s.pass.length === 0 && s.na.every((id) => !triggered.includes(id))) {
      warnings.push({
        kind: "fails-every-sample",
        clause: ref,
        message: `${describeRef(ref)} fails every sample the rule applies to (${list(s.fail)})`,
      });
    } else if (triggered.length > 0 && s.pass.length === 0) {
      const why = s.fail.length === 0 ? "it is n.a. on every sample" : `it fails ${list(s.fail)} and is n.a. on the rest`;
      warnings.push({
        kind: "passes-no-sample",
        clause: ref,
        message: `${describeRef(ref)} passes no sample: ${why}`,
      });
    } else if (s.fail.length > judged / 2) {
      // Samples are mostly sessions that went right: the more of them a check fails, the likelier it is misread.
      warnings.push({
        kind: "fails-most-samples",
        clause: ref,
        message: `${describeRef(ref)} fails ${s.fail.length} of the ${judged} samples it judges (${list(s.fail)}): if most of these sessions went right, the check asks for more than the rule does`,
      });
    }
    if (check.type !== "ordering" && check.type !== "pairing" && check.type !== "condition" && check.after !== undefined) {
      const after = check.after;
      if (!samples.some((t) => t.events.some((e) => patternMatches(e, after)))) {
        warnings.push({
          kind: "window-never-opens",
          clause: ref,
          message: `${describeRef(ref)}: its window (after:) never opens: no sample has an event it matches, so the check is n.a. everywhere`,
        });
      }
    }
    if (rule.trigger.match !== undefined) {
      const subjects = subjectPatterns(check);
      const withEvents = samples.filter((t) => t.events.some((e) => subjects.some((p) => patternMatches(e, p))));
      if (withEvents.length > 0 && !withEvents.some((t) => triggered.includes(t.id))) {
        missedSubjects.push(...subjects);
        warnings.push({
          kind: "trigger-misses-check-events",
          clause: { kind: "trigger" },
          other: ref,
          message: `the trigger never fires on the samples where ${describeRef(ref)}'s events appear (${list(withEvents.map((t) => t.id))}); the trigger gates every check of the rule, so ${describeRef(ref)} is never judged: widen the trigger`,
        });
      }
    }
    warnings.push(...unusedNames(ref, checkPatternList(check), allEvents));
    const other = quoteNamesOtherAction(check, ref, rule, allEvents);
    if (other !== undefined) warnings.push(other);
  });
  // A matcher with nothing but an actor ("an agent event occurs") fires in every session: the rule then gates nothing.
  const anyEvent = rule.trigger.match?.find(
    (m) => m.action === undefined && m.contentIncludes === undefined && m.content === undefined && m.metadata === undefined,
  );
  if (anyEvent !== undefined && triggered.length > 0 && !onlyProhibitions(rule)) {
    const what = anyEvent.actor === undefined ? "any event" : `any ${anyEvent.actor} event`;
    warnings.push({
      kind: "trigger-matches-any-event",
      clause: { kind: "trigger" },
      message: `the trigger matches ${what}, so the rule applies to ${triggered.length} of the ${samples.length} samples whatever happens in them; if the rule is about a situation (a request, a result, a deploy), make the trigger match that event`,
    });
  }
  // A trigger that fires nowhere makes the rule n.a. on every sample; said once, unless a warning above already names why.
  if (
    rule.trigger.match !== undefined &&
    samples.length > 0 &&
    triggered.length === 0 &&
    !warnings.some((w) => w.clause.kind === "trigger")
  ) {
    warnings.push({
      kind: "trigger-never-fires",
      clause: { kind: "trigger" },
      message: "the trigger fires on no sample, so the rule is n.a. on every one: its pattern matches no sample event",
    });
  }
  // Only questions for a model: without one the rule decides nothing, which hides a question the samples could answer.
  if (rule.checks.length === 0 && triggered.length > 0) {
    warnings.push({
      kind: "no-event-check",
      clause: { kind: "rule" },
      message: `the rule has no event check: without a model it is n.a. on every sample it applies to (${list(triggered)}); if the samples show what the quote asks for, make the question an event check`,
    });
  }
  // A semantic trigger fires nowhere without a model: the rule is n.a. on every sample and the preview shows nothing of it.
  if (rule.trigger.semantic === true && samples.length > 0) {
    warnings.push({
      kind: "never-judged",
      clause: { kind: "rule" },
      message:
        "the rule is n.a. on every sample: its trigger is a question for a model, so the preview cannot show how the rule judges them; if an event marks the situation, make the trigger match it",
    });
  }
  for (let a = 0; a < rule.checks.length; a++) {
    for (let b = a + 1; b < rule.checks.length; b++) {
      const x = gated[a]!;
      const y = gated[b]!;
      // Agreeing on one or two samples is chance, not redundancy.
      if (x.filter((v) => v !== "na").length >= MIN_AGREEING && x.every((v, i) => v === y[i])) {
        warnings.push({
          kind: "clauses-always-agree",
          clause: { kind: "check", index: a },
          other: { kind: "check", index: b },
          message: `checks[${a}] and checks[${b}] give the same verdict on every sample: one of them may be redundant`,
        });
      }
    }
  }
  const widenedTrigger = rule.trigger.match === undefined ? undefined : widen(rule.trigger.match, missedSubjects);
  return { warnings, widenedTrigger };
}

/** A tool's call and its result (`verify_identity`, `verify_identity_result`) are one action here. */
function callOf(action: string): string {
  return action.replace(/[_-]?result$/i, "") || action;
}

/** A name's words without stopwords, each with its canonical stem: the first says what the tool does, the rest what it acts on. */
function nameWords(name: string): { word: string; stem: string }[] {
  return words(name)
    .map((w) => w.toLowerCase())
    .filter((w) => !STOPWORDS.has(w))
    .map((word) => ({ word, stem: canonical(word) }));
}

/**
 * A check about one action whose quote names another: the action it matches shares only the
 * first word of its name (what the tool does: "check" in `check_eligibility`) with the quote,
 * while the quote has a later word of another sample action's name (what that tool acts on:
 * "identity" in `verify_identity`), a word no other action's name has and no matcher of the
 * check accounts for. "the identity check should not be run more than three times" is then
 * likelier about `verify_identity`. Orderings, pairings and windowed checks already name two
 * actions, and their quotes often mention a third in passing ("names the version"), so only
 * checks on one action are looked at. Where the trigger matches the same action, the
 * warning concerns it too: the rule then applies only where that action occurs.
 */
function quoteNamesOtherAction(
  check: Check,
  ref: PreviewClauseRef,
  rule: MetaBehavior,
  events: readonly TrajectoryEvent[],
): PreviewWarning | undefined {
  const matchers = checkPatternList(check).flat();
  const matched = [
    ...new Set(
      matchers.flatMap((m) => {
        const action = exactValue(m.action);
        return action === undefined ? [] : [callOf(action)];
      }),
    ),
  ];
  if (matched.length !== 1) return undefined;
  const action = matched[0]!;
  const quote = stemSet(check.quote);
  const inQuote = (stem: string) => quote.has(stem) || sharesRoot(stem, quote);
  const [verb, ...objects] = nameWords(action);
  if (verb === undefined || objects.length === 0 || !inQuote(verb.stem) || objects.some((o) => inQuote(o.stem))) return undefined;
  // Words a matcher already accounts for: its action's name, metadata values, content.
  const own = new Set(
    matchers.flatMap((m) =>
      [exactValue(m.action) ?? "", ...Object.values(m.metadata ?? {}).flatMap((v) => exactValue(v) ?? []), m.contentIncludes ?? ""].flatMap(
        (t) => nameWords(t).map((w) => w.stem),
      ),
    ),
  );
  const calls = [...new Set(events.map((e) => callOf(e.action)))];
  const namedBy = (stem: string) => calls.filter((c) => nameWords(c).some((w) => w.stem === stem)).length;
  for (const call of calls) {
    if (call === action) continue;
    const named = nameWords(call)
      .slice(1)
      .find((w) => inQuote(w.stem) && !own.has(w.stem) && namedBy(w.stem) === 1);
    if (named === undefined) continue;
    const trigger =
      rule.trigger.match?.some((m) => {
        const own = exactValue(m.action);
        return own !== undefined && callOf(own) === action;
      }) === true;
    return {
      kind: "quote-names-other-action",
      clause: ref,
      ...(trigger ? { other: { kind: "trigger" as const } } : {}),
      message: `${describeRef(ref)} matches ${action}, which shares only "${verb.word}" with its quote, while the quote names the "${named.word}" of ${call}, which the check does not match: if the quote is about ${call}, match it instead${trigger ? ` (the trigger matches ${action} too, so the rule applies only where it occurs)` : ""}`,
    };
  }
  return undefined;
}

/** The trigger's matchers, then each missed check's matchers it does not have yet; undefined when nothing was missed. */
function widen(trigger: Pattern, missed: readonly Pattern[]): Pattern | undefined {
  if (missed.length === 0) return undefined;
  const seen = new Set(trigger.map((m) => JSON.stringify(m)));
  const widened = [...trigger];
  for (const matcher of missed.flat()) {
    const key = JSON.stringify(matcher);
    if (seen.has(key)) continue;
    seen.add(key);
    widened.push(matcher);
  }
  return widened;
}

/**
 * A rule that applies to most samples and passes every one, while most other rules the
 * samples judge fail on some of them: the samples were chosen to show violations, and none
 * shows one of this rule, so nothing shows its checks can fail. Where most rules pass
 * everywhere (samples of sessions that went right) it says nothing. It needs the other
 * rules, so only previewJudge says it.
 */
export function failsNoSample(rule: RulePreview, samples: number, others: readonly RulePreview[]): PreviewWarning | undefined {
  if (rule.rule.fail.length > 0 || rule.rule.pass.length === 0 || rule.triggered.length <= samples / 2) return undefined;
  const judging = others.filter((o) => o.rule.pass.length + o.rule.fail.length > 0);
  const failing = judging.filter((o) => o.rule.fail.length > 0);
  if (failing.length <= judging.length / 2) return undefined;
  return {
    kind: "fails-no-sample",
    clause: { kind: "rule" },
    message: `the rule applies to ${rule.triggered.length} of the ${samples} samples and fails none, though ${failing.length} of the ${judging.length} other rules that judge them fail some: if one of these samples breaks this rule too, its checks are too lenient`,
  };
}
