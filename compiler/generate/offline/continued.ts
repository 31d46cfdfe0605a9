/**
 * A duty's deadline in a sentence of its own (issue 25): "The Master is to be called if any cast goes down with
 * more than 2,000 metres of wire out. The call is to be logged against that same cast no later than the second
 * step after the deployment." Standing orders, minutes and "shall" clauses state the duty with its condition,
 * then its deadline; "the deployment" of the second sentence is the one the first sentence's condition named,
 * with its bound, not every deployment. The window's event keeps that bound when an earlier check of the rule
 * demands the same act after a bounded event of the same act, and the window points back at it ("the", "that",
 * "this"): "within two steps of any deployment" says every deployment, and is read as written.
 */
import type { Check, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";

const acts = (p: Pattern) => JSON.stringify(p.map((m) => exactValue(m.action) ?? "").sort());

export function continuedSituation(
  drafted: readonly Check[] | undefined,
  anchor: string,
  each: Pattern,
  followedBy: Pattern,
): Pattern | undefined {
  if (drafted === undefined || !/^(?:the|that|this|such)\s/i.test(anchor.trim())) return undefined;
  if (each.some((m) => m.metadata !== undefined)) return undefined;
  for (const check of [...drafted].reverse()) {
    const [from, to] =
      check.type === "pairing"
        ? [check.each, check.followedBy]
        : check.type === "required"
          ? [check.after, check.match]
          : [undefined, undefined];
    if (from === undefined || to === undefined || !from.some((m) => m.metadata !== undefined)) continue;
    if (acts(from) === acts(each) && acts(to) === acts(followedBy)) return from;
  }
  return undefined;
}

/**
 * The deadline's pairing in place of the earlier sentence's check of the same duty, which it says more than
 * (each bounded event followed by the act, within the window, for the same thing), quoted over both sentences
 * when they stand side by side in the section. Undefined when the check continues no earlier one.
 */
export function continuedInto(checks: readonly Check[], check: Check, body: string): { index: number; check: Check } | undefined {
  if (check.type !== "pairing" || check.within === undefined) return undefined;
  const index = checks.findIndex(
    (c) => (c.type === "pairing" && c.within === undefined && c.each === check.each) || (c.type === "required" && c.after === check.each),
  );
  if (index < 0) return undefined;
  const quote = spanning(body, checks[index]!.quote, check.quote);
  return { index, check: { ...check, ...(quote === undefined ? {} : { quote }) } };
}

/** The section's words from the first quote to the second, when only the first's closing stop lies between them. */
function spanning(body: string, first: string, second: string): string | undefined {
  const spaced = (t: string) => t.replace(/\s+/g, " ").trim();
  const text = spaced(body);
  const [a, b] = [spaced(first), spaced(second)];
  const start = text.indexOf(a);
  const end = start < 0 ? -1 : text.indexOf(b, start + a.length);
  if (start < 0 || end < 0 || !/^[.;:!?]?\s*$/.test(text.slice(start + a.length, end))) return undefined;
  return text.slice(start, end + b.length);
}
