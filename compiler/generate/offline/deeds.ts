/**
 * Someone other than the person who did an earlier act of the same thing (issue 25): "a discount
 * has to be approved by someone other than the attendant who ran that boat's most recent fill",
 * "The certificate must be signed by a person other than the operator who opened that batch",
 * "…, and only by a technician other than the technician who cut the Keys of that Order". No
 * look-up is read before the clause (identity.ts compares people against one when there is): the
 * relative clause "who <did it>" names the earlier act itself. For each event of the act the
 * sentence is about, the latest earlier event of that deed for the same thing must have been done
 * by someone else: `condition` with `r.<deed's person> != event.<act's person>`, the two keys whose
 * sample values hold the same people.
 */
import type { Check, ConditionCheck, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { resolve, type ClauseOutcome } from "./clauses.js";
import { keyRef } from "./keys.js";
import { differentPeople, withIdentity } from "./identity.js";

/** The act a sentence makes conditional (latest.ts), for draft.ts beside the pass below. */
export { conditionedAct } from "./latest.js";
import { sharedKeys, type Lexicon } from "./lexicon.js";
import type { SentenceShape } from "./shape.js";
import { nameStems, stemSet } from "./words.js";

/**
 * "<the act> must be <done> by <someone> other than the <role> who <deed>", or a later clause of the
 * act's sentence, "and only by a <role> other than the <role> who <deed>". Groups: the act's words
 * (absent in a continuing clause), the person doing it, the other person, the deed.
 */
const BY_OTHER =
  /^(?:and\s+|but\s+)?(?:(.+?)\s+(?:must|has to|have to|shall|should|needs? to|may only|can only)\s+(?:only\s+)?(?:have\s+)?(?:be|been)\s+([a-z]+(?:ed|en|wn|t))\s+|(?:only\s+|also\s+)?)(?:by|from)\s+(?:someone|somebody|a person|an?\s+([a-z]+(?:\s+[a-z]+)?))\s+other than\s+(?:the\s+)?([a-z]+(?:\s+[a-z]+)?)\s+(?:who|that)\s+(.+)$/i;

/** "that boat's most recent fill", "the Keys of that Order": the thing whose deed it is, and the deed's own words. */
function deedParts(deed: string): { thing: string; act: string } {
  const owner = /\b(?:that|this|the same|its|the)\s+([a-z]+)'s\b/i.exec(deed);
  const of = /\b(?:of|for)\s+(?:that|this|the same|the)\s+([a-z]+)\b/i.exec(deed);
  const thatOne = /\b(?:that|this)\s+([a-z]+)\b/i.exec(deed);
  const thing = owner?.[1] ?? of?.[1] ?? thatOne?.[1] ?? "";
  const act = deed
    .replace(/\b(?:that|this|the same|its|the)\s+[a-z]+'s\s+/i, " ")
    .replace(/\b(?:most recent|latest|last|previous)\s+/i, " ")
    .replace(/\s+(?:of|for)\s+(?:that|this|the same|the)\s+[a-z]+\b.*$/i, "");
  return { thing, act };
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
  return ids.length === 1 ? ids[0] : shared.length === 1 ? shared[0] : undefined;
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

/** One clause read as "by someone other than the one who did <deed> of that thing", or undefined. */
function byOther(lexicon: Lexicon, clause: string, act: Pattern | undefined): ConditionCheck | undefined {
  const text = clause.replace(/[.;]\s*$/, "");
  const m = BY_OTHER.exec(text);
  if (m === null) return undefined;
  const [, actWords, done, doer, role, deed] = m;
  const each = actWords !== undefined ? resolve(lexicon, `${actWords} ${done ?? ""}`, { agentOnly: true }) : act;
  if (each === undefined) return undefined;
  const { thing, act: deedWords } = deedParts(deed!);
  const did = resolve(lexicon, deedWords, { agentOnly: true }) ?? byItsId(lexicon, deedWords);
  if (did === undefined) return undefined;
  const [acts, deeds] = [actionOf(each), actionOf(did)];
  if (acts.length === 0 || deeds.length === 0 || acts.some((a) => deeds.includes(a))) return undefined;
  const on = tieKey(lexicon, acts, deeds, thing);
  if (on === undefined) return undefined;
  const draft: ConditionCheck = {
    type: "condition",
    quote: clause,
    each,
    with: { r: { latest: did, on: `metadata.${on}` } },
    when: "true",
  };
  // The deed's person is named by the role and the deed ("the technician who cut": `cut_by`), the act's by its verb ("approved by": `approved_by`).
  const pair = differentPeople(lexicon, draft, `${role!} ${deedWords}`, `${doer ?? ""} ${done ?? ""} ${actWords ?? ""}`.trim());
  if (pair === undefined || pair[2] !== undefined) return undefined;
  return { ...draft, when: `${keyRef("r", pair[0])} != ${keyRef("event", pair[1])}` };
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
    const check = byOther(lexicon, quote, act);
    if (check !== undefined) out[i] = { kind: "check", check };
  });
  return out;
}
