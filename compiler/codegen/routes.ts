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

/** What `ruleActions` says of a rule: the union of the actions its patterns name, or "every". */
export function ruleActions(rule: MetaBehavior): RuleActions {
  const patterns: Pattern[] = rule.trigger.match === undefined ? [] : [rule.trigger.match];
  for (const check of rule.checks) {
    const own = patternsOf(check);
    if (own === undefined) return "every";
    patterns.push(...own);
  }
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

/** The rules of a judge grouped by action: what `Rules.step` switches on. */
export interface Routes {
  /**
   * One entry per distinct set of rules: the actions that concern exactly
   * those rules (in order of first mention) and the rules (indexes, ascending).
   */
  readonly groups: readonly { readonly actions: readonly string[]; readonly rules: readonly number[] }[];
  /** The rules stepped at every event. */
  readonly every: readonly number[];
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
  return { groups: [...groups.values()], every };
}
