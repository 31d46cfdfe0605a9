/**
 * A look-up and the act it clears that name the same thing by keys of different names: "the latest
 * verify_card result for the person named as `operator_id`" is the verification whose
 * `person_id` is the lift's `operator_id`; "the latest inventory check of the hotel they are moved
 * from" is the check whose `hotel_id` is the move's `from_hotel`. The words say which key of the
 * act (in backticks, or by its words); the samples say which key of the look-up holds the same
 * values. The tie is `on: {each: metadata.<act key>, latest: metadata.<look-up key>}`.
 */
import type { Lexicon } from "./lexicon.js";
import { nameStems, stemSet } from "./words.js";

/**
 * The values each key shows on the events of the actions, numbers left out (a count is no identity):
 * what a tie across keys of different names (here) and two people who must differ (identity.ts) compare.
 */
export function valuesOf(lexicon: Lexicon, actions: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of lexicon.samples)
    for (const e of t.events) {
      if (!actions.includes(e.action)) continue;
      for (const [k, v] of Object.entries(e.metadata ?? {})) {
        if (typeof v !== "string" || /^-?\d+(?:\.\d+)?$/.test(v) || k.startsWith("@")) continue;
        const set = out.get(k) ?? new Set<string>();
        set.add(v);
        out.set(k, set);
      }
    }
  return out;
}

/** How many of a key's name stems the words say ("from_hotel" in "the hotel they are moved from": 2). */
const said = (key: string, stems: Set<string>): number => nameStems(key).filter((s) => s !== "id" && stems.has(s)).length;

/**
 * The act's key and the look-up's key that the look-up's words (`phrase`, "verify_card result for
 * the person named as `operator_id`") tie, when no key of one name does: the pair whose values the
 * samples show in common, the act's key written in backticks or named by the most words. Undefined
 * when no pair shares a value, the words name neither key, or two pairs fit alike.
 */
export function crossTie(
  lexicon: Lexicon,
  acts: readonly string[],
  looked: readonly string[],
  phrase: string,
): { each: string; latest: string } | undefined {
  const ours = valuesOf(lexicon, acts);
  const theirs = valuesOf(lexicon, looked);
  const written = [...phrase.matchAll(/`([A-Za-z_][\w.]*)`/g)].map((m) => m[1]!);
  const stems = stemSet(phrase.replace(/`/g, " "));
  const pairs: { each: string; latest: string; score: number }[] = [];
  for (const [ek, ev] of ours)
    for (const [lk, lv] of theirs) {
      if (ek === lk || theirs.has(ek) || ![...ev].some((v) => lv.has(v))) continue;
      const score = (written.includes(ek) ? 8 : 0) + (written.includes(lk) ? 8 : 0) + 2 * said(ek, stems) + said(lk, stems);
      if (score > 0) pairs.push({ each: ek, latest: lk, score });
    }
  pairs.sort((a, b) => b.score - a.score);
  const best = pairs[0];
  if (best === undefined || (pairs.length > 1 && pairs[1]!.score === best.score)) return undefined;
  return { each: `metadata.${best.each}`, latest: `metadata.${best.latest}` };
}
