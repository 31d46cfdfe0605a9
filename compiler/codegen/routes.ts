/**
 * Routing: which rules an event can change, known from its action alone.
 * A rule's stepper changes its state only on an event one of its patterns
 * matches (its trigger, each check's patterns), so when every matcher of
 * every pattern names a fixed set of actions, an event with another action
 * leaves the rule as it was, and `Rules.step` need not call it. A rule with
 * a matcher that does not name its action (no `action`, or a `not`, a regex,
 * a range) is stepped at every event, and so is a check that counts every
 * event (pairing `within`).
 */
import type { Check, MetaBehavior, Pattern, ValueMatcher } from "../ir/types.js";
import { isExtended } from "./lower-extended.js";

/** The actions a rule's patterns name, or "every" when an event of any action may change it. */
export type RuleActions = ReadonlySet<string> | "every";

/** The actions a value matcher on `action` accepts, or undefined when they are not a fixed set. */
function actionsOf(matcher: ValueMatcher | undefined): readonly string[] | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher === "string") return [matcher];
  if ("equals" in matcher) return [matcher.equals];
  if ("in" in matcher) return matcher.in;
  return undefined;
}

/** The patterns a check's step tests, or undefined when its step does something at every event. */
function patternsOf(check: Check): Pattern[] | undefined {
  switch (check.type) {
    case "ordering":
      return [check.first, check.before];
    case "pairing":
      // `within` counts the events since each `each` match: every event moves that count.
      return check.within === undefined ? [check.each, check.followedBy] : undefined;
    case "required":
    case "forbidden":
    case "count":
      return check.after === undefined ? [check.match] : [check.match, check.after];
    case "condition":
      return [check.each, ...Object.values(check.with ?? {}).map((binding) => binding.latest ?? binding.first)];
  }
}

/** The union of the actions `patterns` name, or "every" when a matcher names no fixed set. */
function actionsNamed(patterns: readonly Pattern[]): RuleActions {
  const actions = new Set<string>();
  for (const pattern of patterns) {
    for (const matcher of pattern) {
      const named = actionsOf(matcher.action);
      if (named === undefined) return "every";
      for (const action of named) actions.add(action);
    }
  }
  return actions;
}

/** What `ruleActions` says of a rule: the union of the actions its patterns name, or "every". */
export function ruleActions(rule: MetaBehavior): RuleActions {
  const patterns: Pattern[] = rule.trigger.match === undefined ? [] : [rule.trigger.match];
  for (const check of rule.checks) {
    const own = patternsOf(check);
    if (own === undefined) return "every";
    patterns.push(...own);
  }
  return actionsNamed(patterns);
}

/**
 * The patterns at whose matches a check can become certainly false while
 * running (docs/MONITOR.md), or undefined for every event: an ordering's
 * `before` (a `first` match only ever helps), a forbidden check's `match`
 * (its window opening records nothing), a count's `match` when it has a
 * `max`; a pairing or a required check never is before the end. The
 * extended forms are taken whole: every pattern they test.
 */
function reportingPatternsOf(check: Check): Pattern[] | undefined {
  if (isExtended(check)) return patternsOf(check);
  switch (check.type) {
    case "ordering":
      return [check.before];
    case "forbidden":
      return [check.match];
    case "count":
      return check.max === undefined ? [] : [check.match];
    case "pairing":
    case "required":
      return [];
    case "condition":
      return patternsOf(check);
  }
}

/**
 * The actions at which a rule's `violations` can report something new: its
 * match trigger's (a clause already false is reported when the trigger
 * fires) and its checks' reporting patterns'. A semantic trigger fires only at
 * the end, so such a rule reports nothing while running, nor does a rule whose
 * checks can all fail only at the end. A monitor's `check`
 * dry-steps only these rules: any other leaves its state as it was and would
 * report nothing, so it need not be stepped, saved nor restored.
 */
export function reportingActions(rule: MetaBehavior): RuleActions {
  if (rule.trigger.match === undefined) return new Set();
  const patterns: Pattern[] = [];
  for (const check of rule.checks) {
    const own = reportingPatternsOf(check);
    if (own === undefined) return "every";
    patterns.push(...own);
  }
  // A rule none of whose checks can be certainly false while running reports nothing, trigger or not.
  return patterns.length === 0 ? new Set() : actionsNamed([rule.trigger.match, ...patterns]);
}

/** The rules of a judge grouped by action: what `Rules.step` switches on. */
export interface Routes {
  /**
   * One entry per distinct set of rules: the actions that concern exactly
   * those rules (in order of first mention) and the rules (indexes, ascending).
   */
  readonly groups: readonly { readonly actions: readonly string[]; readonly rules: readonly number[] }[];
  /** The rules stepped at every event. */
  readonly every: readonly number[];
  /** What a monitor's `check` steps (reportingActions): the rules that may report at an event of each action. */
  readonly reporting: {
    /** Each action with rules besides those of `every`, and those rules (ascending, `every`'s included). */
    readonly actions: readonly { readonly action: string; readonly rules: readonly number[] }[];
    /** The rules that may report at an event of any action. */
    readonly every: readonly number[];
  };
}

/**
 * Groups the rules by action. A rule whose step can do nothing (a semantic
 * trigger and no deterministic check) is in no group and never stepped.
 */
export function routeRules(rules: readonly MetaBehavior[]): Routes {
  const byAction = new Map<string, number[]>();
  const every: number[] = [];
  rules.forEach((rule, r) => {
    const actions = ruleActions(rule);
    if (actions === "every") {
      every.push(r);
      return;
    }
    for (const action of actions) {
      const list = byAction.get(action);
      if (list === undefined) byAction.set(action, [r]);
      else list.push(r);
    }
  });
  const groups = new Map<string, { actions: string[]; rules: number[] }>();
  for (const [action, ruleIndexes] of byAction) {
    const key = ruleIndexes.join(",");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { actions: [action], rules: ruleIndexes });
    else group.actions.push(action);
  }
  return { groups: [...groups.values()], every, reporting: routeReports(rules) };
}

function routeReports(rules: readonly MetaBehavior[]): Routes["reporting"] {
  const byAction = new Map<string, number[]>();
  const every: number[] = [];
  rules.forEach((rule, r) => {
    const actions = reportingActions(rule);
    if (actions === "every") every.push(r);
    else {
      for (const action of actions) {
        const list = byAction.get(action);
        if (list === undefined) byAction.set(action, [r]);
        else list.push(r);
      }
    }
  });
  return {
    actions: [...byAction].map(([action, own]) => ({ action, rules: [...own, ...every].sort((a, b) => a - b) })),
    every,
  };
}
