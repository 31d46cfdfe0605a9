/**
 * A drafted rule's trigger: when the rule applies. Read from the section's occurrence line, else the
 * opening sentence's condition, else the events the first check is about (what it orders, pairs,
 * windows or counts), so that a rule never applies to a session its checks have nothing to say about.
 */
import type { Check, Pattern, Trigger } from "../../ir/types.js";
import { describeValue, exactValue } from "../../ir/values.js";
import type { SpecSection } from "../../behavior-md/load.js";
import type { Lexicon } from "./lexicon.js";
import type { SpecSentence } from "./sentences.js";
import { eitherOf, resolve } from "./clauses.js";
import { capitalize, negatedCondition, type SentenceShape } from "./shape.js";

/** The trigger: the occurrence line, else the first condition, else the first check's own subject. */
export function draftTrigger(
  lexicon: Lexicon,
  section: SpecSection,
  sentences: SpecSentence[],
  shapes: SentenceShape[],
  checks: Check[],
): Trigger {
  const occurrence = sentences.find((s) => s.role === "occurrence");
  if (occurrence !== undefined) {
    const subject = occurrence.text
      .replace(/^(?:each|every)\s+/i, "")
      .replace(/\s+(?:is|counts as|are)\s+(?:one|an|a single)\s+occurrences?.*$/i, "");
    const match = resolve(lexicon, subject);
    if (match !== undefined) return { description: `${occurrence.text}.`, match };
  }
  // Only the opening sentence's condition says when the whole rule applies.
  const condition = shapes[0]?.condition;
  if (condition !== undefined) {
    // "When … and the user has not said …" describes an absence: no event can mark it.
    // "After each checkout and each renewal, …": either one applies the rule, as the pairing reads it (clauses.ts eitherOf).
    const match = negatedCondition(condition.phrase) ? undefined : resolve(lexicon, eitherOf(condition.phrase), { measured: true });
    if (match !== undefined) return { description: `${capitalize(condition.phrase)}.`, match };
    if (condition.kind === "if") return { description: `${capitalize(condition.phrase)}.`, semantic: true };
  }
  // When the opening sentence sets no frame of its own, a check windowed by a situation ("When the screen comes
  // back flagged, … must …") says when the rule applies, unless the rule opens with a bound or ban on the whole session,
  // or a condition on each act ("Nothing is recorded unless the last check …", then "once X, no landing …"): its act.
  // (A pairing first, "Every message is run through the screen", is the preliminary of the situation that follows.)
  const whole = (c?: Check) =>
    ((c?.type === "count" || c?.type === "forbidden") && !c.after) || c?.type === "condition" || c?.type === "ordering";
  const windowed =
    condition === undefined && !whole(checks[0])
      ? checks.find((c) => (c.type === "required" || c.type === "forbidden") && c.after)
      : undefined;
  const first = windowed ?? checks[0];
  const subject = first === undefined ? undefined : checkSubject(first);
  if (subject !== undefined) return { description: `${describePattern(subject)} occurs.`, match: subject };
  return { description: `The situation that "${section.heading}" is about arises in the session.`, semantic: true };
}

/** "A deploy event" / "An issue_refund or issue_store_credit event" for trigger descriptions. */
function describePattern(pattern: Pattern): string {
  const parts = pattern.map((m) => {
    const what =
      m.action === undefined ? (m.actor === undefined ? "matching" : `${m.actor}`) : (exactValue(m.action) ?? describeValue(m.action));
    const facts = Object.entries(m.metadata ?? {}).map(([k, v]) => `${k} ${exactValue(v) ?? describeValue(v)}`);
    if (m.contentIncludes !== undefined) facts.push(`mentioning "${m.contentIncludes}"`);
    return facts.length === 0 ? what : `${what} (${facts.join(", ")})`;
  });
  const text = `${parts.join(" or ")} event`;
  return `${/^[aeiou]/i.test(text) ? "An" : "A"} ${text}`;
}

/** The events a check is about: what is ordered, paired, windowed or counted. */
function checkSubject(check: Check): Pattern | undefined {
  switch (check.type) {
    case "ordering":
      return check.before;
    case "pairing":
    case "condition":
      return check.each;
    case "count":
      // A trigger on the counted event itself could never let "too few" fail: none is too few.
      return check.after ?? ((check.min ?? 0) > 0 ? [{ actor: "agent" }] : check.match);
    case "required":
      return check.after ?? [{ actor: "agent" }];
    case "forbidden":
      return check.after ?? actionsOnly(check.match) ?? [{ actor: "agent" }];
  }
}

/**
 * "Never sets the thermostat above 26 degrees", "never releases to Marlow or Eastvale": a forbidden
 * narrowed by a value is about the sessions where the action occurs at all, whatever its value.
 */
function actionsOnly(pattern: Pattern): Pattern | undefined {
  if (!pattern.some((m) => m.metadata !== undefined) || !pattern.every((m) => exactValue(m.action) !== undefined)) return undefined;
  const actions = [...new Set(pattern.map((m) => exactValue(m.action)!))];
  return actions.map((action) => ({ action }));
}
