/**
 * What a guard says when it refuses a call (docs/GUARDS.md): the rule, the
 * check's type and quote, what the check expected when the judge can say it,
 * and the events it cites, each described in a few words, since the model
 * that reads the refusal never saw the event ids.
 */
import type { TrajectoryEvent, Violation } from "../runtime/types.js";

/** Every refusal starts with this, so a refusal read back from a transcript is known as the guard's own. */
export const REFUSAL_MARK = "[behavior-judge guard]";

/** The longest description of one cited event. */
const EVENT_TEXT = 120;

/** The text of one event, on one line, cut to `max` characters. */
function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** `e3 (agent Bash: {"command":"git push -f"})`, or the id alone when the event is unknown. */
export function describeEvent(id: string, event: TrajectoryEvent | undefined): string {
  if (event === undefined) return id;
  const content = event.content ?? "";
  const what = `${event.actor} ${event.action}`;
  return content === "" ? `${id} (${what})` : `${id} (${what}: ${short(content, EVENT_TEXT - what.length)})`;
}

/** One violation, on one line: `rule "R" (forbidden: "quote"; expected: …) cites e3 (…), e7 (…)`. */
export function describeViolation(v: Violation, lookup: (id: string) => TrajectoryEvent | undefined): string {
  const why = v.explanation === undefined ? "" : `; ${short(v.explanation, 240)}`;
  const cites = v.eventIds.length === 0 ? "" : ` cites ${v.eventIds.map((id) => describeEvent(id, lookup(id))).join(", ")}`;
  return `rule ${JSON.stringify(v.rule)} (${v.type}: ${JSON.stringify(v.quote)}${why})${cites}`;
}

/**
 * The refusal the model reads in place of the tool's result: which call was
 * refused, each rule it would break, and that the call did not run.
 */
export function refusalMessage(
  toolName: string,
  violations: readonly Violation[],
  lookup: (id: string) => TrajectoryEvent | undefined,
): string {
  const rules = violations.map((v) => describeViolation(v, lookup));
  return `${REFUSAL_MARK} ${toolName} was not run: it would break ${rules.join("; and ")}.`;
}

/** A finished-trace report (Stop, PostToolUse): each false clause or open obligation, one per line. */
export function feedbackMessage(heading: string, items: readonly Violation[], lookup: (id: string) => TrajectoryEvent | undefined): string {
  return [`${REFUSAL_MARK} ${heading}`, ...items.map((v) => `- ${describeViolation(v, lookup)}`)].join("\n");
}
