/**
 * How close a drafted judge.yaml comes to a reference one: for each reference
 * check, whether the draft has a check of the same type with the same
 * patterns (any-of lists compared as sets) and the same count bounds, in the
 * rule of the same name. Quotes are not compared: they are prose.
 *
 * Two readings: `strict` compares matchers field for field; `lenient` also
 * accepts a matcher that leaves out an `actor` which the samples show is the
 * only actor of that action (`{actor: tool, action: get_order_result}` and
 * `{action: get_order_result}` match the same events in every sample).
 */
import type { Check, JudgeIR, Matcher, Pattern } from "../../compiler/ir/types.js";
import type { Vocabulary } from "../../compiler/generate/types.js";

export interface CheckComparison {
  rule: string;
  /** Index of the check among the reference rule's checks. */
  index: number;
  type: Check["type"];
  strict: boolean;
  lenient: boolean;
}

export interface MappingFigure {
  total: number;
  strict: number;
  lenient: number;
  checks: CheckComparison[];
}

const PATTERN_FIELDS = ["first", "before", "each", "followedBy", "match", "after"] as const;

function matcherKey(matcher: Matcher, dropActor: (m: Matcher) => boolean): string {
  const metadata = Object.keys(matcher.metadata ?? {})
    .sort()
    .map((k) => [k, matcher.metadata![k]]);
  return JSON.stringify([dropActor(matcher) ? undefined : matcher.actor, matcher.action, matcher.contentIncludes, metadata]);
}

function patternKey(pattern: Pattern | undefined, dropActor: (m: Matcher) => boolean): string {
  if (pattern === undefined) return "-";
  return [...new Set(pattern.map((m) => matcherKey(m, dropActor)))].sort().join("|");
}

function checkKey(check: Check, dropActor: (m: Matcher) => boolean): string {
  const fields = check as unknown as Record<string, unknown>;
  const patterns = PATTERN_FIELDS.map((f) => `${f}=${patternKey(fields[f] as Pattern | undefined, dropActor)}`);
  const bounds = check.type === "count" ? [check.min, check.max, check.distinctBy] : [];
  return JSON.stringify([check.type, patterns, bounds]);
}

/** An actor is redundant when the samples show that action only ever done by that actor. */
function redundantActor(vocabulary: Vocabulary | undefined): (m: Matcher) => boolean {
  return (m) => {
    if (m.actor === undefined || m.action === undefined || vocabulary === undefined) return false;
    const actors = vocabulary.actions.find((a) => a.action === m.action)?.actors;
    return actors !== undefined && actors.length === 1 && actors[0] === m.actor;
  };
}

/** Compares every check of `reference` with the checks of the same-named rule in `draft`. */
export function compareChecks(reference: JudgeIR, draft: JudgeIR, vocabulary?: Vocabulary): MappingFigure {
  const keepActor = () => false;
  const lenientActor = redundantActor(vocabulary);
  const checks: CheckComparison[] = [];
  for (const rule of reference.metaBehaviors) {
    const drafted = draft.metaBehaviors.find((r) => r.name === rule.name)?.checks ?? [];
    rule.checks.forEach((check, index) => {
      const strict = drafted.some((d) => checkKey(d, keepActor) === checkKey(check, keepActor));
      const lenient = strict || drafted.some((d) => checkKey(d, lenientActor) === checkKey(check, lenientActor));
      checks.push({ rule: rule.name, index, type: check.type, strict, lenient });
    });
  }
  return { total: checks.length, strict: checks.filter((c) => c.strict).length, lenient: checks.filter((c) => c.lenient).length, checks };
}

/**
 * The other direction, which the mapping figure alone does not show: drafted
 * checks that no reference check matches (each one a clause the draft judges
 * that the hand-written judge does not, often wrongly), and triggers that
 * match the same events (patterns as sets; a semantic trigger equals only a
 * semantic trigger).
 */
export function comparePrecision(
  reference: JudgeIR,
  draft: JudgeIR,
  vocabulary?: Vocabulary,
): { extraChecks: CheckComparison[]; triggers: number; sameTriggers: number } {
  const extraChecks = compareChecks(draft, reference, vocabulary).checks.filter((c) => !c.lenient);
  const lenientActor = redundantActor(vocabulary);
  let sameTriggers = 0;
  for (const rule of reference.metaBehaviors) {
    const drafted = draft.metaBehaviors.find((r) => r.name === rule.name)?.trigger;
    if (drafted === undefined) continue;
    const key = (t: typeof drafted) => (t.semantic === true ? "semantic" : patternKey(t.match, lenientActor));
    if (key(drafted) === key(rule.trigger)) sameTriggers++;
  }
  return { extraChecks, triggers: reference.metaBehaviors.length, sameTriggers };
}
