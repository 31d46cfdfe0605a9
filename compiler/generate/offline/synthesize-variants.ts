/**
 * Variants of the drafted checks for the search from labels (issue 25): a drafted check with one
 * of its events swapped for another action the rule's words or the samples name, everything else
 * kept (its other event, `on`, `within`, bounds, a condition's whole `when`). The phrase reading
 * often has the form right and the action wrong ("a loan is made" read as `renew_loan` where the
 * samples lend with `check_out`); no candidate the search builds from scratch has a condition's
 * `when` of two tests or a modifier it found in the words, so a variant is the one way to that
 * reading. A swapped subject (the event the check judges) comes with the trigger on the new action.
 * Bounded: per event, the dozen actions of the samples (not the user's) the words name most, in a
 * fixed order; the search tries each in place of a drafted check it still holds, once per round.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { previewRule } from "../preview.js";
import type { Vocab } from "./synthesize-vocab.js";
import type { Vector } from "./synthesize-eval.js";

/** Actions tried in place of each event of a drafted check. */
const MAX_SWAPS = 12;

export interface Variant {
  /** The drafted check it varies, by index. */
  drafted: number;
  check: Check;
  /** The action now judged, when the swapped event is the check's subject (the trigger to go with it). */
  subject: Matcher | undefined;
}

/** The events of a check that a variant may swap, the judged one (its subject) first. */
function slotsOf(check: Check): { key: string; subject: boolean }[] {
  switch (check.type) {
    case "ordering":
      return [
        { key: "before", subject: true },
        { key: "first", subject: false },
      ];
    case "pairing":
      return [
        { key: "each", subject: true },
        { key: "followedBy", subject: false },
      ];
    case "condition":
      return [{ key: "each", subject: true }];
    case "count":
      return [{ key: "match", subject: true }];
    case "required":
    case "forbidden":
      return [{ key: "match", subject: true }, ...(check.after === undefined ? [] : [{ key: "after", subject: false }])];
  }
}

/**
 * Every variant of the drafted checks, in a fixed order: per check, per event, the actions of the
 * samples the words name most first (then in the order the samples first show them).
 */
export function variantsOf(checks: readonly Check[], samples: readonly Trajectory[], vocab: Pick<Vocab, "relevanceOf">): Variant[] {
  const seen = new Set<string>();
  for (const t of samples) for (const e of t.events) if (e.actor !== "user") seen.add(e.action);
  const actions = [...seen]
    .map((action, i) => ({ m: { action } as Matcher, i, r: vocab.relevanceOf({ action }) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .slice(0, MAX_SWAPS)
    .map((x) => x.m);
  const out: Variant[] = [];
  checks.forEach((check, k) => {
    const slots = slotsOf(check);
    const actionsOf = (key: string) => new Set(((check as unknown as Record<string, Pattern>)[key] ?? []).map((m) => exactValue(m.action)));
    for (const slot of slots) {
      // Neither the event it replaces nor the check's other event.
      const taken = new Set(slots.flatMap((s) => [...actionsOf(s.key)]));
      for (const m of actions) {
        if (taken.has(m.action as string)) continue;
        out.push({ drafted: k, check: { ...check, [slot.key]: [m] } as Check, subject: slot.subject ? m : undefined });
      }
    }
  });
  return out;
}

/**
 * The variants of a rule's drafted checks with each one's verdicts (from the judge's code, ungated,
 * in one run), and the triggers a swapped subject brings: the search's matchers followed by the
 * subjects' actions it lacks (`subjectIndex`: a variant's trigger, by index in `triggerMatchers`).
 */
export function variantsFor(rule: MetaBehavior, samples: readonly Trajectory[], vocab: Pick<Vocab, "relevanceOf" | "matchers">) {
  const variants = variantsOf(rule.checks, samples, vocab);
  const anyEvent: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];
  const run = previewRule(
    { ...rule, trigger: { description: "any event", match: anyEvent }, checks: variants.map((v) => v.check) },
    samples,
  );
  const vectors = new Map<Variant, Vector>(
    variants.map((v, k) => {
      const clause = run.clauses.find((c) => c.clause.kind === "check" && c.clause.index === k)!;
      return [v, samples.map((s) => (clause.samples.pass.includes(s.id) ? "true" : clause.samples.fail.includes(s.id) ? "false" : "na"))];
    }),
  );
  const triggerMatchers = [...vocab.matchers];
  const subjectIndex = new Map<Variant, number>();
  for (const v of variants) {
    if (v.subject === undefined) continue;
    const action = v.subject.action;
    let k = triggerMatchers.findIndex((m) => m.metadata === undefined && m.actor === undefined && m.action === action);
    if (k < 0) k = triggerMatchers.push(v.subject) - 1;
    subjectIndex.set(v, k);
  }
  return { variants, vectors, triggerMatchers, subjectIndex };
}
