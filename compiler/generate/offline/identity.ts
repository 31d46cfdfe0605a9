/**
 * People on a latest look-up and on the act (latest.ts): "the approver is not the employee being
 * paid", "the approval must come from someone other than the clerk who asked", "a clerk may not
 * approve their own upgrade". The condition on the look-up also asks that the two keys the samples
 * show as the same people differ.
 */
import type { Binding, Check, ConditionCheck } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { ClauseOutcome } from "./clauses.js";
import { keyRef } from "./keys.js";
import type { Lexicon } from "./lexicon.js";
import { backtickedNames } from "./backticks.js";
import { valuesOf } from "./crossed.js";
import type { SentenceShape } from "./shape.js";
import { nameStems, stemSet } from "./words.js";

/** Who did it, when the words name a role: "someone", "a supervisor", "an appointed person". */
const PERSON = String.raw`(?:someone|somebody|a person|anyone|a different person|a colleague|(?:a|an)\s+((?:[a-z-]+\s+){0,2}?[a-z-]+?))`;
/** "other than", "who is not": the person written after it is the one who may not have done it. */
const OTHER = String.raw`\s+(?:other than|(?:who|that) (?:is not|isn't|was not|wasn't))\s+(?:the\s+)?`;
/** A past participle of the deed: "given", "approved", "made". */
const DONE = String.raw`(?:given|made|signed|coming|approved|issued|done|taken|drawn|performed|checked|carried out)`;

/** "the approver is not the employee being paid", "from someone other than the clerk who asked for it", "was given by a supervisor other than …". */
const NOT_SAME = new RegExp(
  String.raw`^(?:and\s+|but\s+)?(?:(?:the|that|this|its)\s+([a-z][a-z -]*?)\s+(?:is not|isn't|is never|cannot be|can't be|must not be|may not be|never is)\s+(?:the\s+(?:same\s+)?)?([a-z].*)|(?:(?:was|were|is|are|has been|have been|must have been)\s+)?(?:${DONE}\s+)?(?:by|from)\s+${PERSON}${OTHER}([a-z].*))$`,
  "i",
);

/** "the person who cleared it must be someone other than …", "the plan must have been approved by an appointed person other than …". */
const SOMEONE_ELSE = new RegExp(
  String.raw`^(?:and\s+|but\s+)?(?:(?:the|that|this|its|a|an|whoever)\s+)?(.+?)\s+(?:(?:is|must be|has to be|should be|needs to be|shall be|must come|has to come|should come|comes|must have been|has to have been|has been|was)(?:\s+${DONE})?\s+)(?:(?:by|from)\s+)?${PERSON}${OTHER}(.+)$`,
  "i",
);
/** "an archivist may not clear their own loan", "nobody approves their own request". */
const OWN =
  /^(?:and\s+|but\s+)?(?:(?:the|that|this|a|an)\s+)?(.+?)\s+((?:may|must|can|should|shall|does|do)\s+(?:not|never)\s+|cannot\s+|can't\s+|never\s+|(?:is|are) not allowed to\s+)?([a-z]+?)(?:e?s)?\s+(?:their|his|her|its)\s+own\s+(.+)$/i;

/**
 * "the person who cleared it is someone other than the archivist lending it", "the approval must
 * come from someone other than the clerk who asked", "a clerk may not approve their own request":
 * the words for the person of the look-up and for the other one. Undefined when the clause says
 * no such thing.
 */
function otherPerson(text: string): { subject: string; object: string } | undefined {
  const clause = text.replace(/[.;]\s*$/, "");
  const same = NOT_SAME.exec(clause);
  if (same !== null) return { subject: same[1] ?? `${same[3] ?? ""} approver giver`.trim(), object: same[2] ?? same[4] ?? "" };
  const someone = SOMEONE_ELSE.exec(clause);
  if (someone !== null) return { subject: `${someone[1]!} ${someone[2] ?? ""}`.trim(), object: someone[3]! };
  const own = OWN.exec(clause);
  // Only as a ban: "may not clear their own", or "nobody clears their own".
  if (own === null || (own[2] === undefined && !/^(?:nobody|no one|no-one|no\s)/i.test(own[1]!))) return undefined;
  const act = own[3]!;
  return { subject: `${act} ${act}er approver`, object: `${own[1]!} ${own[4]!} requester who asked` };
}

/** Whether a key's name is among the words: a stem of both, or one stem the other's start ("approv", "approver"). */
function names(key: string, stems: Set<string>): boolean {
  return nameStems(key).some(
    (s) => s !== "id" && [...stems].some((t) => t === s || (Math.min(s.length, t.length) >= 5 && (s.startsWith(t) || t.startsWith(s)))),
  );
}

/**
 * The keys of the look-up and of the act that a "not the same person" clause compares: the pair
 * whose values the samples show in common (the same people), the one whose names the words
 * say first (a key the words write in backticks before any other). Undefined when no pair of keys
 * shares a value, or the words tell no pair apart. `named` asks that the words name one of the two;
 * `things` are keys that identify things, not people (the ids both acts carry).
 */
export function differentPeople(
  lexicon: Lexicon,
  check: ConditionCheck,
  subject: string,
  object: string,
  named = false,
  things: readonly string[] = [],
): [string, string, Record<string, Binding>?] | undefined {
  const latest = check.with?.r;
  if (latest === undefined || !("latest" in latest)) return undefined;
  const on = typeof latest.on === "string" ? latest.on.replace(/^metadata\./, "") : undefined;
  const lookedActs = (latest.latest ?? []).flatMap((m) => {
    const a = exactValue(m.action);
    return a !== undefined ? [a] : typeof m.action === "object" && m.action !== null && "in" in m.action ? (m.action.in as string[]) : [];
  });
  const acts = check.each.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));
  const theirs = valuesOf(lexicon, lookedActs);
  let ours = valuesOf(lexicon, acts);
  // "(the `examiner_id` in the latest look-up of the application)": a key the act does not carry, on another look-up of the same thing.
  const elsewhere = backtickedNames(object).filter((k) => !ours.has(k));
  const carriers = lexicon.actions.filter(
    (a) => elsewhere.length === 1 && on !== undefined && [elsewhere[0]!, on].every((k) => a.metadata.some((m) => m.key === k)),
  );
  const results = carriers.filter((a) => a.name.endsWith("_result") && !lookedActs.includes(a.name));
  const other = results.length === 1 ? results[0]!.name : undefined;
  if (other !== undefined) ours = new Map([...valuesOf(lexicon, [other])].filter(([k]) => k === elsewhere[0]));
  const subjectStems = stemSet(subject);
  const objectStems = stemSet(object);
  const [subjectKeys, objectKeys] = [backtickedNames(subject), backtickedNames(object)];
  const pairs: { pair: [string, string]; score: number }[] = [];
  for (const [rk, rv] of theirs)
    for (const [ek, ev] of ours) {
      if (rk === on || ek === on || (named && rk === ek) || things.includes(rk) || things.includes(ek)) continue;
      if (![...rv].some((v) => ev.has(v))) continue;
      const score =
        (subjectKeys.includes(rk) ? 8 : 0) +
        (objectKeys.includes(ek) ? 4 : 0) +
        (names(rk, subjectStems) ? 2 : 0) +
        (names(ek, objectStems) ? 1 : 0);
      if (!named || score > 0) pairs.push({ pair: [rk, ek], score });
    }
  pairs.sort((a, b) => b.score - a.score);
  if (pairs.length === 0 || (pairs.length > 1 && pairs[0]!.score === pairs[1]!.score)) return undefined;
  if (other === undefined) return pairs[0]!.pair;
  return [pairs[0]!.pair[0], pairs[0]!.pair[1], { a: { latest: [{ action: other }], on: `metadata.${on}` } }];
}

type Outcome = ClauseOutcome;

/** Whether an outcome is a condition on a latest look-up, which a "someone other than" clause can compare people against. */
const onLatest = (outcome: Outcome | undefined): outcome is Extract<Outcome, { kind: "check" }> & { check: ConditionCheck } =>
  outcome?.kind === "check" &&
  outcome.check.type === "condition" &&
  outcome.check.with?.r !== undefined &&
  "latest" in outcome.check.with.r;

/**
 * "…: the latest approval request for it came back `decision: approved`, and the approver is not
 * the employee being paid": the look-up's condition also asks that two keys differ, the keys whose
 * values the samples show are people on both events. The clause is read into the condition (its
 * quote reaches over it) or, when no pair of keys fits, left to stand as it was drafted. A clause
 * that says so further on, or a sentence of its own after the condition's ("The approval must
 * come from someone other than the clerk who asked", "A clerk may not approve their own upgrade"),
 * becomes a condition of its own on the same look-up, with the words of the rule naming one of
 * the keys; `earlier` are the checks the rule's earlier sentences drafted.
 */
export function withIdentity(
  lexicon: Lexicon,
  shape: Pick<SentenceShape, "sentence" | "clauses">,
  earlier: readonly Check[],
  outcomes: readonly Outcome[],
): Outcome[] {
  const { sentence, clauses } = shape;
  const out = outcomes.slice();
  out.forEach((outcome, i) => {
    if (!onLatest(outcome)) return;
    const check = outcome.check;
    const start = sentence.indexOf(check.quote);
    if (start < 0) return;
    // What the sentence says right after the condition's quote, in its own clause or the next one.
    const after = sentence
      .slice(start + check.quote.length)
      .replace(/^[\s,;:—-]+/, "")
      .replace(/^(?:and|but)\s+/i, "");
    const nextClause = clauses[i + 1];
    const own = clauses[i]!.includes(after) && after !== "" ? after : undefined;
    const text = own ?? (nextClause !== undefined && after.startsWith(nextClause.replace(/^(?:and|but)\s+/i, "")) ? nextClause : undefined);
    const said = text === undefined ? undefined : otherPerson(text);
    if (said === undefined || text === undefined || (own === undefined && out[i + 1]?.kind === "check")) return;
    const pair = differentPeople(lexicon, check, said.subject, said.object);
    if (pair === undefined) return;
    const end = sentence.indexOf(text, start) + text.length;
    const quote = sentence.slice(start, end).replace(/[\s.;,]+$/, "");
    const when = `${check.when} && ${keyRef("r", pair[0])} != ${keyRef(pair[2] === undefined ? "event" : "a", pair[1])}`;
    out[i] = { ...outcome, check: { ...check, quote, with: { ...check.with, ...pair[2] }, when } };
    if (own === undefined) out[i + 1] = { kind: "skip" };
  });
  // Further on, or in a sentence of its own: a condition of its own on the latest look-up drafted last.
  clauses.forEach((clause, i) => {
    const said = otherPerson(clause);
    if (said === undefined || out[i]?.kind === "skip" || onLatest(out[i])) return;
    const before = out.slice(0, i).filter(onLatest);
    const prior = earlier.filter((c): c is ConditionCheck => c.type === "condition" && c.with?.r !== undefined && "latest" in c.with.r);
    const target = before.length > 0 ? before[before.length - 1]!.check : prior[prior.length - 1];
    if (target === undefined) return;
    const pair = differentPeople(lexicon, target, said.subject, said.object, true);
    const quote = clause.replace(/^(?:and|but)\s+/i, "").replace(/[\s.;,]+$/, "");
    if (pair === undefined || !sentence.includes(quote)) return;
    const when = `${keyRef("r", pair[0])} != ${keyRef(pair[2] === undefined ? "event" : "a", pair[1])}`;
    out[i] = { kind: "check", check: { type: "condition", quote, each: target.each, with: { r: target.with!.r!, ...pair[2] }, when } };
  });
  return out;
}
