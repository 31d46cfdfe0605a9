/**
 * Someone other than the person who did an earlier act of the same thing (issue 25): "a discount
 * has to be approved by someone other than the attendant who ran that boat's most recent fill",
 * "No goods shall be removed save on the authority of an agent other than the agent who took
 * control of those goods", "Nobody who counted a box may recount it", and the other forms
 * other-than.ts reads. No look-up is read before the clause (identity.ts compares people against
 * one when there is): the relative clause "who <did it>" names the earlier act itself. For each
 * event of the act the sentence is about, the latest earlier event of that deed for the same thing
 * (with the role value the words name: "assigned as CREW CHIEF", `role: chief`) must have been
 * done by someone else: `condition` with `r.<deed's person> != event.<act's person>` (`==` for
 * "the same one"), the two keys whose sample values hold the same people.
 */
import type { Check, ConditionCheck, OrderingCheck, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { resolve, semanticFor, type ClauseOutcome } from "./clauses.js";
import { keyRef } from "./keys.js";
import { differentPeople, withIdentity } from "./identity.js";

/** The act a sentence makes conditional (latest.ts), for draft.ts beside the pass below. */
export { conditionedAct } from "./latest.js";
import { followsInSamples, sharedKeys, type Lexicon } from "./lexicon.js";
import type { SentenceShape } from "./shape.js";
import { otherThan } from "./other-than.js";
import { notDoneFirst } from "./not-done-first.js";
import { canonical, nameStems, stemSet } from "./words.js";

/** "has", "was", "had been", "most recently", "last": what tells when the deed was done, not what it was. */
const WHEN_DONE =
  /^(?:(?:has|have|had|was|were|is|are|did)\s+(?:been\s+)?)?(?:(?:most\s+recently|most\s+lately|last|lately|previously|originally|first|already|earlier)\s+)?(?:(?:has|have|had|was|were)\s+(?:been\s+)?)?/i;

/** "that boat's most recent fill", "the Keys of that Order", "those goods": the thing whose deed it is, and the deed's own words. */
function deedParts(deed: string): { thing: string; act: string } {
  const owner = /\b(?:that|this|the same|its|the)\s+([a-z]+)'s\b/i.exec(deed);
  const of = /\b(?:of|for|on|to|in)\s+(?:that|this|those|these|the same|said|the)\s+([a-z]+)\b/i.exec(deed);
  // "THAT SAME ITEM": the thing after "same", not "same" itself.
  const thatOne = /\b(?:that|this|those|these|the|said)\s+(?:same\s+)?([a-z]+)\b/i.exec(deed);
  const thing = owner?.[1] ?? of?.[1] ?? thatOne?.[1] ?? "";
  const act = deed
    .replace(WHEN_DONE, "")
    .replace(/\b(?:that|this|the same|its|the)\s+[a-z]+'s\s+/i, " ")
    .replace(/\b(?:most recent|latest|last|previous)\s+/i, " ")
    .replace(/\s+(?:of|for|on|to|in)\s+(?:that|this|those|these|the same|said|the)\s+[a-z]+\b.*$/i, "");
  return { thing, act: act.trim() };
}

const actionOf = (pattern: Pattern): string[] =>
  pattern.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));

/** The key both events carry that the thing's words name ("that Order": `order_id`), else the only one both carry. */
function tieKey(lexicon: Lexicon, act: readonly string[], deed: readonly string[], thing: string): string | undefined {
  const deedKeys = sharedKeys(lexicon, deed);
  const shared = sharedKeys(lexicon, act).filter((k) => deedKeys.includes(k));
  const said = stemSet(thing);
  const named = shared.filter((k) => nameStems(k).some((s) => s !== "id" && said.has(s)));
  if (named.length === 1) return named[0];
  const ids = shared.filter((k) => nameStems(k).includes("id"));
  return ids.length === 1 ? ids[0] : shared.length === 1 ? shared[0] : finest(lexicon, deed, ids);
}

/**
 * "who took control of those goods", with both `writ_id` and `item_id` on the two acts: the thing
 * a deed is done to is the one each deed has to itself, the only id no two of the deed's events
 * in a sample share (one item per taking; several takings per writ).
 */
function finest(lexicon: Lexicon, deed: readonly string[], ids: readonly string[]): string | undefined {
  const repeats = (key: string) =>
    lexicon.samples.some((t) => {
      const values = t.events.filter((e) => deed.includes(e.action) && e.metadata?.[key] !== undefined).map((e) => e.metadata![key]);
      return new Set(values).size < values.length;
    });
  const own = ids.filter((k) => !repeats(k));
  return own.length === 1 && own.length < ids.length ? own[0] : undefined;
}

/** "assigned as CREW CHIEF", "the chief assigned to that call": the one value of the deed's own key the words name (`role: chief`). */
function withRole(lexicon: Lexicon, did: Pattern, role: string, deed: string): Pattern {
  if (did.length !== 1 || did[0]!.metadata !== undefined) return did;
  const action = exactValue(did[0]!.action);
  const as = /\bas\s+(?:(?:a|an|the)\s+)?(.+)$/i.exec(deed)?.[1] ?? "";
  const said = stemSet(`${role} ${as}`);
  const named = new Map<string, Set<string>>();
  for (const t of lexicon.samples)
    for (const e of t.events) {
      if (e.action !== action) continue;
      for (const [k, v] of Object.entries(e.metadata ?? {})) {
        const stems = typeof v === "string" ? stemSet(v) : new Set<string>();
        if (stems.size === 0 || ![...stems].every((x) => said.has(x))) continue;
        named.set(k, (named.get(k) ?? new Set()).add(v as string));
      }
    }
  const [only] = [...named];
  return named.size === 1 && only![1].size === 1 ? [{ ...did[0]!, metadata: { [only![0]]: [...only![1]][0]! } }] : did;
}

/**
 * "every tank is to be verified", "an order is released", "the person who mixed it": the act whose
 * `<verb>_by` key names who did it (`verified_by`, `released_by`, `mixed_by`), when one agent action alone
 * carries such a key for a verb of the words. The verb says which act it is better than the nouns
 * around it: "tank" names `mix_tank` as much as "verified" names `verify_mix`.
 */
function byDoerKey(lexicon: Lexicon, words: string): Pattern | undefined {
  // "thawed", "taken"; and as a person's act is named: "the nurse releasing the bottle", "the nurse who releases it".
  const said = words.match(/[A-Za-z]+/g) ?? [];
  const verbs = new Set(
    said.filter((w, i) => /(?:ed|en|ing)$/i.test(w) || /^(?:who|that)$/i.test(said[i - 1] ?? "")).map((w) => canonical(w.toLowerCase())),
  );
  const acts = lexicon.actions.filter(
    (a) =>
      !a.isResult &&
      a.actors.includes("agent") &&
      a.metadata.some((m) => {
        const [verb, by, ...rest] = m.key.toLowerCase().split("_");
        return by === "by" && rest.length === 0 && verbs.has(canonical(verb!));
      }),
  );
  return acts.length === 1 ? [{ action: acts[0]!.name }] : undefined;
}

/**
 * "ran that boat's most recent fill": a deed no action is called by, named by the thing it makes,
 * whose id (`fill_id`) one agent action alone carries.
 */
function byItsId(lexicon: Lexicon, words: string): Pattern | undefined {
  const said = stemSet(words);
  const carriers = lexicon.actions.filter(
    (a) =>
      !a.name.endsWith("_result") &&
      a.metadata.some((m) => {
        const stems = nameStems(m.key);
        return stems.length === 2 && stems[1] === "id" && said.has(stems[0]!);
      }),
  );
  const acts = carriers.filter((a) => lexicon.samples.some((t) => t.events.some((e) => e.action === a.name && e.actor === "agent")));
  return acts.length === 1 ? [{ action: acts[0]!.name }] : undefined;
}

/** The act a continuing clause is about: the one the sentence's earlier check judges. */
function judged(check: Check): Pattern | undefined {
  if (check.type === "condition" || check.type === "pairing") return check.each;
  if (check.type === "ordering") return check.before;
  if (check.type === "forbidden" || check.type === "required") return check.after === undefined ? check.match : undefined;
  return undefined;
}

/** One clause read as "by someone other than the one who did <deed> of that thing" (other-than.ts), or undefined. */
function byOther(lexicon: Lexicon, clause: string, act: Pattern | undefined): ConditionCheck | undefined {
  const said = otherThan(clause);
  if (said === undefined) return undefined;
  const each = said.act !== "" ? (byDoerKey(lexicon, said.act) ?? resolve(lexicon, said.act, { agentOnly: true })) : act;
  if (each === undefined) return undefined;
  const { thing, act: deedWords } = deedParts(said.deed);
  const found = byDoerKey(lexicon, deedWords) ?? resolve(lexicon, deedWords, { agentOnly: true }) ?? byItsId(lexicon, deedWords);
  if (found === undefined) return undefined;
  const did = withRole(lexicon, found, said.role, deedWords);
  const [acts, deeds] = [actionOf(each), actionOf(did)];
  if (acts.length === 0 || deeds.length === 0 || acts.some((a) => deeds.includes(a))) return undefined;
  // "other than the operator who starts the cremation", the cremation coming after: an earlier act is one the samples show before.
  if (!followsInSamples(lexicon, did, each)) return undefined;
  // "those goods" is the deed's own thing; "the Keys of that Order" names it; the act's words may name it instead.
  const on = tieKey(lexicon, acts, deeds, thing === "" ? said.act : thing);
  if (on === undefined) return undefined;
  const draft: ConditionCheck = {
    type: "condition",
    quote: clause,
    each,
    with: { r: { latest: did, on: `metadata.${on}` } },
    when: "true",
  };
  // The deed's person is named by the role and the deed ("the technician who cut": `cut_by`), the act's by its verb ("approved by": `approved_by`).
  // Ids both acts carry under one name ("those goods" on `item_id`, and both under one `writ_id`) are things, unless the words name them as the people.
  const people = stemSet(`${said.role} ${said.doer}`);
  const things = sharedKeys(lexicon, [...acts, ...deeds]).filter(
    (k) => nameStems(k).includes("id") && !nameStems(k).some((x) => x !== "id" && people.has(x)),
  );
  const pair = differentPeople(lexicon, draft, `${said.role} ${deedWords}`, `${said.doer} ${said.act}`.trim(), false, things);
  if (pair === undefined || pair[2] !== undefined) return undefined;
  return { ...draft, when: `${keyRef("r", pair[0])} ${said.same ? "==" : "!="} ${keyRef("event", pair[1])}` };
}

/**
 * "A tank that has not been mixed cannot be verified", "NO DAMAGE CHECK ON KIT NOT BOOKED BACK IN FIRST" (not-done-first.ts):
 * the act needs the earlier one on the same thing, an ordering of the two on the thing's key. An earlier act no action
 * is called by is the one the rule's condition on the same act looks up ("other than the one who booked it back in").
 */
function notDone(lexicon: Lexicon, clause: string, earlier: readonly Check[]): OrderingCheck | undefined {
  const said = notDoneFirst(clause);
  if (said === undefined) return undefined;
  const before = byDoerKey(lexicon, said.act) ?? resolve(lexicon, said.act, { agentOnly: true });
  if (before === undefined) return undefined;
  const acts = actionOf(before);
  const looked = earlier.filter(
    (c): c is ConditionCheck =>
      c.type === "condition" &&
      actionOf(c.each).join() === acts.join() &&
      c.with?.r !== undefined &&
      "latest" in c.with.r &&
      typeof c.with.r.on === "string",
  );
  const lookup = looked.length > 0 ? looked[looked.length - 1]!.with!.r! : undefined;
  const first =
    byDoerKey(lexicon, said.deed) ??
    resolve(lexicon, said.deed, { agentOnly: true }) ??
    (lookup !== undefined && "latest" in lookup ? lookup.latest : undefined);
  if (first === undefined) return undefined;
  const deeds = actionOf(first);
  if (acts.length === 0 || deeds.length === 0 || acts.some((a) => deeds.includes(a)) || !followsInSamples(lexicon, first, before))
    return undefined;
  const on = tieKey(lexicon, acts, deeds, said.thing);
  if (on === undefined) return undefined;
  return { type: "ordering", quote: clause, first, before, on: `metadata.${on}` };
}

/**
 * withIdentity (identity.ts), then each clause it left without a condition that says "by someone other than the
 * <role> who <deed>" becomes a condition on the latest such deed for the same thing.
 */
export function withDeeds(
  lexicon: Lexicon,
  shape: Pick<SentenceShape, "sentence" | "clauses">,
  earlier: readonly Check[],
  outcomes: readonly ClauseOutcome[],
): ClauseOutcome[] {
  const out = withIdentity(lexicon, shape, earlier, outcomes);
  shape.clauses.forEach((clause, i) => {
    const outcome = out[i];
    // A condition stands (latest.ts read a look-up in it); any other reading of such a clause missed who did it.
    if (outcome === undefined || (outcome.kind === "check" && outcome.check.type === "condition")) return;
    const before = out.slice(0, i).flatMap((o) => (o.kind === "check" ? [o.check] : []));
    const act = before.length > 0 ? judged(before[before.length - 1]!) : undefined;
    const quote = clause.replace(/^(?:and|but)\s+/i, "").replace(/[\s.;,]+$/, "");
    if (!shape.sentence.includes(quote)) return;
    const check = byOther(lexicon, quote, act) ?? notDone(lexicon, quote, [...earlier, ...before]);
    if (check !== undefined) out[i] = { kind: "check", check };
    // "A tank that has not been mixed cannot be verified", unmapped: a ban read from it forbids the act outright, or the
    // earlier act its relative clause names ("tank", "mixed": `mix_tank`), where the sentence allows both in order.
    else if (outcome.kind === "check" && outcome.check.type === "forbidden" && notDoneFirst(quote) !== undefined)
      out[i] = semanticFor(quote, true, "the drafter could not tell which acts this orders on which thing");
  });
  return out;
}
