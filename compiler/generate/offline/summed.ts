/**
 * A bound on a total the events carry, said as a number of things (counts.ts): "an owner is sent
 * home with at most 60 tablets in one session" sums the `tablets` of `send_home`, "no more than 12
 * charges are used on any one route" the `charges` of `detonate`, "a site receives at most 24 kits
 * in one session, however many shipments that takes" the one amount of the act that ships kits.
 * The noun after the number names a numeric key of an agent act, or, where the words say the
 * number of events does not matter ("however many", "summed over", "counted across"), names the
 * act itself and the act carries one amount. A noun that names the counted events themselves
 * ("no more than two units of platelets", counted on `issue_unit`) stays a count of events.
 */
import type { Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems } from "./words.js";

/** Words that say the total matters, not how many events make it. */
export const TOTAL = /\b(?:however many|summed|counted across|across all|all (?:of )?(?:its|their|his|her) \w+ together)\b/i;

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

const stemsOf = (lexicon: Lexicon, action: string): string[] => lexicon.actions.find((a) => a.name === action)?.stems ?? [];

/**
 * The events and the key a count's number is a total of; undefined when the number counts
 * events. `clause` is the clause as written (its concession too: ", however many shipments that
 * takes"), `after` its words after the number, `match` the counted events as read.
 */
export function summedKey(lexicon: Lexicon, clause: string, after: string, match: Pattern): { match: Pattern; key: string } | undefined {
  const nouns = (/^\s*((?:[A-Za-z-]+\s+)?[A-Za-z-]+)/.exec(after)?.[1] ?? "")
    .split(/\s+/)
    .map((w) => canonical(w.toLowerCase()))
    .filter((w) => w.length >= 3);
  if (nouns.length === 0) return undefined;
  const counted = match.length === 1 ? exactValue(match[0]!.action) : undefined;
  // Every word of the key's name: "60 tablets" is `tablets`, but "two doses" is no `dose_mg`.
  const names = (key: string) => nameStems(key).every((s) => nouns.includes(s));
  // "60 tablets": a numeric key the noun names on the counted act, or on the one agent act that carries it.
  const own = counted === undefined ? undefined : amounts(lexicon, counted).find(names);
  if (own !== undefined) return { match, key: own };
  // "two units of platelets" counted on `issue_unit`: the noun names the events themselves.
  if (counted !== undefined && stemsOf(lexicon, counted).some((s) => nouns.includes(s)) && !TOTAL.test(clause)) return undefined;
  const agents = lexicon.actions.filter((a) => a.actors.includes("agent") && !a.isResult).map((a) => a.name);
  const carriers = agents.flatMap((a) =>
    amounts(lexicon, a)
      .filter(names)
      .map((key) => ({ action: a, key })),
  );
  if (carriers.length === 1) return { match: [{ action: carriers[0]!.action }], key: carriers[0]!.key };
  if (!TOTAL.test(clause)) return undefined;
  // "24 kits …, however many shipments that takes": the act the noun names, with its one amount.
  const acts = agents.filter((a) => stemsOf(lexicon, a).some((s) => nouns.includes(s)) && amounts(lexicon, a).length === 1);
  const act = counted !== undefined && acts.includes(counted) ? counted : acts.length === 1 ? acts[0] : undefined;
  return act === undefined ? undefined : { match: [{ action: act }], key: amounts(lexicon, act)[0]! };
}
