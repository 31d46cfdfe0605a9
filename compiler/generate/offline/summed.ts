/**
 * A bound on a total the events carry, said as a number of things (counts.ts): "an owner is sent
 * home with at most 60 tablets in one session" sums the `tablets` of `send_home`, "no more than 12
 * charges are used on any one route" the `charges` of `detonate`, "a site receives at most 24 kits
 * in one session, however many shipments that takes" the one amount of the act that ships kits.
 * The noun after the number names a numeric key of an agent act, or, where the words say the
 * number of events does not matter ("however many", "summed over", "counted across"), names the
 * act itself and the act carries one amount. A sum's words with a numeric key of the counted act in
 * backticks ("the `net_tonnes` … may add up to at most 40") sum that key. With no noun ("lifts may total 100 at most"), the words
 * of a sum name the counted act's one amount. A noun that names the counted events themselves
 * ("no more than two units of platelets", counted on `issue_unit`) stays a count of events.
 */
import type { Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems, stemSet } from "./words.js";

/** Words that say the total matters, not how many events make it. */
export const TOTAL =
  /\b(?:however many|summed|counted across|across all|all (?:of )?(?:its|their|his|her) \w+ together|all [a-z]+(?: [a-z]+)? taken together|(?:added|counted|taken|put|lumped)\s+(?:together|up)(?!\s+to\b))\b/i;

/**
 * Words that make a number a bound on a sum: "total at most $800", "$800 in total", "come to at most $800", "add up to
 * 40", "add up `weight_kg`", "£2,500 in aggregate", "cumulatively exceed", "600 kg in all".
 */
export const SUM =
  /\b(?:total(?:s|led|ling|ing)?|in total|combined|altogether|all together|sum(?:s|med)? to|add(?:s|ed)? up to|add(?:s|ed)? up(?=\s+`)|(?:come|comes|came|amounts?|amounted) to|in (?:the )?aggregate|aggregated?|cumulative(?:ly)?|in all(?=\s*(?:[,.;:]|$)))\b/i;

/**
 * "Off-cycle payouts to one worker must be at most $5,000 in a session", "Withdrawals from any one account are no more
 * than £800 a day": plural acts bounded over a session (a day, a shift) are bounded in total, as "come to at most" says;
 * a bound on each one says "each", "a", "any" or "no" before its noun ("Each refund must be at most $500").
 */
const PLURAL_SUBJECT = /^(?!(?:each|every|any|a|an|no|one|the\s+(?:first|last|latest|next))\b)(?:[\w-]+\s+){0,2}?[a-z]+[^s\s]s\b/i;
const PREDICATE_BOUND =
  /\b(?:(?:is|are|be|stay|remain)\s+(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|under|below|less\s+than|at\s+least|no\s+less\s+than|not\s+less\s+than)|(?:never|not)\s+(?:go\s+)?(?:exceed|above|over)s?)\s+[$€£]?\d/i;
const OVER_TIME =
  /\b(?:(?:in|over|during|within|for)\s+(?:a|one|the|any|each|any\s+one|a\s+single)\s+|per\s+|a\s+)(?:session|day|shift|visit|conversation|week|month)\b/i;

/** Whether a clause bounds plural acts over a session, a day or a shift: a bound on their total, though no word says "total". */
export function boundsTotalOverTime(clause: string): boolean {
  return PLURAL_SUBJECT.test(clause) && PREDICATE_BOUND.test(clause) && OVER_TIME.test(clause);
}

/**
 * "Two permits in one lab are two caps", "2 customers on 1 job → 2 separate limits": a number of limits says how many
 * totals a bound makes (one per thing), not a bound of its own; its numbers are an example's, no count of events.
 */
const LIMITS_COUNTED =
  /\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many)\s+(?:(?:separate|different|distinct|independent|own|individual)\s+)?(?:limits|caps|ceilings|allowances|maximums|maxima|quotas|budgets|totals)\b/i;

/** Whether a clause counts the limits a bound makes rather than bounding anything. */
export function countsLimits(clause: string): boolean {
  return LIMITS_COUNTED.test(clause);
}

/** The numeric keys of an action the samples show, neither identifiers ("0042" is a code) nor importers' own. */
function amounts(lexicon: Lexicon, action: string): string[] {
  return (lexicon.actions.find((a) => a.name === action)?.metadata ?? [])
    .filter(
      (m) =>
        m.values.length > 0 &&
        m.values.every((v) => /^-?\d+(?:\.\d+)?$/.test(v.value.trim()) && !/^0\d/.test(v.value.trim())) &&
        !m.key.startsWith("@") &&
        !nameStems(m.key).includes("id"),
    )
    .map((m) => m.key);
}

/** Nouns of weight, and the words a key of weight is named by: "40 tonnes" of `weight_t`. */
const WEIGHT_NOUNS = new Set(["tonne", "ton", "t", "kg", "kilo", "kilogram", "gram", "g"].map(canonical));
const WEIGHT_KEYS = new Set(["weight", "mass", ...WEIGHT_NOUNS]);

/** The one key a noun of weight names by its unit ("40 tonnes max": `weight_t`). */
function byUnit(keys: readonly string[], nouns: readonly string[]): string | undefined {
  if (!nouns.some((n) => WEIGHT_NOUNS.has(n))) return undefined;
  const found = keys.filter((k) => nameStems(k).some((s) => WEIGHT_KEYS.has(s)));
  return found.length === 1 ? found[0] : undefined;
}

/** The agent's own acts, not results. */
export const agentActs = (lexicon: Lexicon): string[] =>
  lexicon.actions.filter((a) => a.actors.includes("agent") && !a.isResult).map((a) => a.name);

const stemsOf = (lexicon: Lexicon, action: string): string[] => lexicon.actions.find((a) => a.name === action)?.stems ?? [];

/** A number that is a total of an amount some acts carry, where the words do not say which act's: no count of events either. */
export const UNSURE = "unsure";

/**
 * The events and the key a count's number is a total of (UNSURE when the act is not told); undefined when the number counts
 * events. `clause` is the clause as written (its concession too: ", however many shipments that
 * takes"), `after` its words after the number, `match` the counted events as read.
 */
export function summedKey(
  lexicon: Lexicon,
  clause: string,
  after: string,
  match: Pattern,
): { match: Pattern; key: string } | typeof UNSURE | undefined {
  const nouns = (/^\s*((?:[A-Za-z-]+\s+)?[A-Za-z-]+)/.exec(after)?.[1] ?? "")
    .split(/\s+/)
    .map((w) => canonical(w.toLowerCase()))
    .filter((w) => w.length >= 3);
  const counted = match.length === 1 ? exactValue(match[0]!.action) : undefined;
  // Every word of the key's name: "60 tablets" is `tablets`, but "two doses" is no `dose_mg`.
  const names = (key: string) => nameStems(key).every((s) => nouns.includes(s));
  // The words of a sum name what is summed of the counted act: a key they write in backticks ("the `net_tonnes` …
  // may add up to at most 40"), the key the noun names, one the clause names ("Hours booked … add up to no more than
  // 12 per technician": `hours`), or with no noun its one amount ("lifts may total 100 at most").
  if (counted !== undefined && (SUM.test(clause) || TOTAL.test(clause))) {
    const keys = amounts(lexicon, counted);
    const written = [...clause.matchAll(/`([A-Za-z_][\w.-]*)`/g)].map((m) => m[1]!);
    const said = stemSet(clause);
    const key =
      keys.find((k) => written.includes(k)) ??
      keys.find(names) ??
      byUnit(keys, nouns) ??
      keys.find((k) => nameStems(k).every((s) => said.has(s))) ??
      (nouns.length === 0 && keys.length === 1 ? keys[0] : undefined);
    if (key !== undefined) return { match, key };
  }
  // "the `cab_minutes` of one operator's lifts may add up to …": a key the words write, of the one agent act carrying it.
  if (SUM.test(clause) || TOTAL.test(clause)) {
    const written = new Set([...clause.matchAll(/`([A-Za-z_][\w.-]*)`/g)].map((m) => m[1]!));
    const carriers = agentActs(lexicon).flatMap((a) =>
      amounts(lexicon, a).flatMap((key) => (written.has(key) ? [{ action: a, key }] : [])),
    );
    if (carriers.length === 1) return { match: [{ action: carriers[0]!.action }], key: carriers[0]!.key };
  }
  if (nouns.length === 0) return undefined;
  // "60 tablets": a numeric key the noun names on the counted act, or on the one agent act that carries it.
  const own = counted === undefined ? undefined : amounts(lexicon, counted).find(names);
  if (own !== undefined) return { match, key: own };
  // "two units of platelets" counted on `issue_unit`: the noun names the events themselves.
  if (counted !== undefined && stemsOf(lexicon, counted).some((s) => nouns.includes(s)) && !TOTAL.test(clause)) return undefined;
  const agents = agentActs(lexicon);
  const carriers = agents.flatMap((a) =>
    amounts(lexicon, a)
      .filter(names)
      .map((key) => ({ action: a, key })),
  );
  if (carriers.length === 1) return { match: [{ action: carriers[0]!.action }], key: carriers[0]!.key };
  // "370 MBq … issued under one permit" where both the preparing and the issuing act carry `mbq`: the one the words name.
  const said = stemSet(clause);
  const named = carriers.filter((c) => stemsOf(lexicon, c.action).some((s) => said.has(s)));
  if (named.length === 1) return { match: [{ action: named[0]!.action }], key: named[0]!.key };
  // The noun is an amount several acts carry and the words name none of them: a total, of no act the drafter can tell.
  if (carriers.length > 1) return UNSURE;
  if (!TOTAL.test(clause)) return undefined;
  // "24 kits …, however many shipments that takes": the act the noun names, with its one amount.
  const acts = agents.filter((a) => stemsOf(lexicon, a).some((s) => nouns.includes(s)) && amounts(lexicon, a).length === 1);
  const act = counted !== undefined && acts.includes(counted) ? counted : acts.length === 1 ? acts[0] : undefined;
  return act === undefined ? undefined : { match: [{ action: act }], key: amounts(lexicon, act)[0]! };
}

/**
 * "The total insured value lent to any one venue …": the words name a numeric key (every word of `insured_value`)
 * that one agent act carries, where no verb of theirs names the act ("lent" is `create_loan`): that act and key.
 */
export function summedByKeyWords(lexicon: Lexicon, clause: string): { match: Pattern; key: string } | undefined {
  const said = stemSet(clause);
  const carriers = agentActs(lexicon).flatMap((a) =>
    amounts(lexicon, a).flatMap((key) => (nameStems(key).every((s) => said.has(s)) ? [{ action: a, key }] : [])),
  );
  return carriers.length === 1 ? { match: [{ action: carriers[0]!.action }], key: carriers[0]!.key } : undefined;
}

/**
 * "the copper sprayed on any one block …, every spray of that block added together" sums `copper_kg`: "copper" names the
 * amount summed, not the sprays of a product called "copper hydroxide". A value the words named a matcher by only with
 * the summed key's own words is left out of the matcher (every spray counts, a spray of sulphur with a `copper_kg` of 0).
 */
export function withoutSummedNoun(match: Pattern, key: string, clause: string): Pattern {
  const said = stemSet(clause);
  const own = new Set(nameStems(key));
  // Only part of the value said, and that part the key's: "copper" of "copper hydroxide" ("cash" of a `kind` "cash" stays).
  const bySummedWords = (value: string) => {
    const stems = nameStems(value);
    const named = stems.filter((s) => said.has(s));
    return named.length > 0 && named.length < stems.length && named.every((s) => own.has(s));
  };
  return match.map((m) => {
    if (m.metadata === undefined) return m;
    const kept = Object.entries(m.metadata).filter(([k, v]) => {
      if (k === key) return true;
      const values = typeof v === "string" ? [v] : "equals" in v ? [v.equals] : "in" in v ? v.in : [];
      return !(values.length > 0 && values.every(bySummedWords));
    });
    if (kept.length === Object.keys(m.metadata).length) return m;
    const { metadata: _, ...rest } = m;
    return kept.length === 0 ? rest : { ...rest, metadata: Object.fromEntries(kept) };
  });
}
