/**
 * A rule's `check(e, found)`: what a monitor's `check` asks (runtime/monitor.ts),
 * the violations that `step(e)` then `violations(found)` would report, found
 * without changing the state. A guard checks every tool call before it runs,
 * so this is the path its latency is measured on (docs/SPEED.md, round 12).
 *
 * For the checks of version 1 it is decided from the fields the event would
 * change, read and never written: an ordering's first `before` match, a
 * forbidden or count check's list with the event added or not. Nothing is
 * pushed, allocated or cut back, and only the few objects those fields are
 * are touched. A rule with a check in an extended form (keyed state, windows,
 * conditions) saves, steps, asks and restores itself instead, as every rule
 * once did: its state is too rich to decide from a few fields.
 */
import type { CountCheck, ForbiddenCheck, MetaBehavior, OrderingCheck } from "../ir/types.js";
import { code, comment, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { isExtended } from "./lower-extended.js";
import { self } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";
import { groupsOf, method } from "./methods.js";

/** Whether the rule's `check` decides from its fields (no `save`/`restore` needed): no check of it is extended. */
export function decidesWithoutStepping(rule: MetaBehavior): boolean {
  return rule.trigger.match === undefined || rule.checks.every((check) => !isExtended(check));
}

const reported = (j: number) => self(name("reported", j));

/**
 * The ordering's first `before` match cites itself while no `first` match came
 * before it. Once it is set, step changes neither field; while it is not, the
 * event sets it when it matches `before` (and then cannot be its own `first`).
 */
function orderingCheck(r: number, j: number, check: OrderingCheck, constants: Constants): Code[] {
  const before = self(name("before", j));
  return [
    code`if (${reported(j)} < 1 && ${self(name("first", j))} === undefined) {`,
    code`if (${before} !== undefined) found(${r}, ${j}, [${before}]);`,
    code`else if ${lowerPattern(check.before, constants)} found(${r}, ${j}, [${EVENT}.id]);`,
    code`}`,
  ];
}

/**
 * A list that step grows by the event when `grows` (a forbidden check's matches, a count's
 * counted events) cites that many: reported when `when` holds of the number and it is more than
 * was reported.
 */
function growingList(r: number, j: number, list: Code, grows: Code, when: ((cited: Code) => Code) | undefined): Code[] {
  const grew = name("grows", j);
  const cited = name("citing", j);
  const report = when === undefined ? code`${reported(j)} < ${cited}` : code`${when(cited)} && ${reported(j)} < ${cited}`;
  return [
    code`const ${grew} = ${grows};`,
    code`const ${cited} = ${list}.length + (${grew} ? 1 : 0);`,
    code`if (${report}) found(${r}, ${j}, ${grew} ? [...${list}, ${EVENT}.id] : ${list}.slice());`,
  ];
}

/** With `after:`, step records a match only once the window is open, that is, opened by an earlier event. */
function inWindow(j: number, after: unknown, test: Code): Code {
  return after === undefined ? test : code`${self(name("after", j))} !== undefined && ${test}`;
}

function forbiddenCheck(r: number, j: number, check: ForbiddenCheck, constants: Constants): Code[] {
  return growingList(r, j, self(name("matches", j)), inWindow(j, check.after, lowerPattern(check.match, constants)), undefined);
}

/** A count reports only above `max`; with `distinctBy`, the event counts only with a value not counted yet. */
function countCheck(r: number, j: number, check: CountCheck & { max: number }, constants: Constants): Code[] {
  const counted = self(name("counted", j));
  const match = inWindow(j, check.after, lowerPattern(check.match, constants));
  const over = (cited: Code) => code`${cited} > ${check.max}`;
  if (check.distinctBy === undefined) return growingList(r, j, counted, match, over);
  const distinct = name("distinct", j);
  const seen = self(name("seen", j));
  const [read, fresh] =
    check.distinctBy === "content"
      ? [code`const ${distinct} = ${EVENT}.content ?? "";`, code`!${seen}.has(${distinct})`]
      : [
          code`const ${distinct} = ${EVENT}.metadata?.[${lit(check.distinctBy.slice("metadata.".length))}];`,
          code`typeof ${distinct} === "string" && !${seen}.has(${distinct})`,
        ];
  return [read, ...growingList(r, j, counted, code`${match} && ${fresh}`, over)];
}

/**
 * The rule's `check` method, deciding from its fields (decidesWithoutStepping): the method
 * first, then its `checkPart<k>` helpers when the rule's checks are too many for one (methods.ts).
 */
export function checkWithoutStepping(rule: MetaBehavior, r: number, constants: Constants): Code[] {
  const doc = code`/** The violations step(e) then violations(found) would report, decided without changing the state. */`;
  const trigger = rule.trigger.match;
  const perCheck = rule.checks.map((check, j): Code[] => {
    switch (check.type) {
      case "ordering":
        return orderingCheck(r, j, check, constants);
      case "forbidden":
        return forbiddenCheck(r, j, check, constants);
      case "count":
        return check.max === undefined ? [] : countCheck(r, j, { ...check, max: check.max }, constants);
      default:
        // Pairing and required: owed at the end, never certainly false while running.
        return [];
    }
  });
  const none = (why: string) => [code`${doc}\ncheck(${EVENT}: StepEvent, found: Found): void {\n${comment(why)}\n}`];
  if (trigger === undefined) return none("A semantic trigger is decided at the end: nothing is reported before.");
  if (perCheck.every((statements) => statements.length === 0)) return none("No check of this rule can be certainly false before the end.");
  const [first, ...parts] = method({
    name: "check",
    params: code`${EVENT}: StepEvent, found: Found`,
    args: code`${EVENT}, found`,
    // Reports wait for the trigger, which this event may fire.
    head: [code`if (!this.triggered && !${lowerPattern(trigger, constants)}) return;`],
    perCheck,
    groups: groupsOf(rule.checks),
    tail: [],
  });
  return [code`${doc}\n${first!}`, ...parts];
}

/** The `check` of a rule with an extended check: its own state saved, stepped, asked and restored. */
export const checkBySteppingACopy = code`/** The violations step(e) then violations(found) would report: the state is saved, stepped, asked and restored. */
check(${EVENT}: StepEvent, found: Found): void {
this.save();
this.step(${EVENT});
this.violations(found);
this.restore();
}`;
