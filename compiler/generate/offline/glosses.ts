/**
 * What the spec calls its actions (issue 25). A spec introduces its tools in prose with the name
 * in parentheses: "send a fill to the dispensing robot (`dispense`)", "phone the customer back
 * (`callback_customer`)". Its rules then speak of "every fill" and "a call-back", not of the
 * name. The words of the clause before "(`name`" are that action's gloss: the words only it is
 * called by (none that names another action, none that glosses another too) let a phrase find it.
 * Only the description and the preamble introduce tools so. A contract's definitions do the same
 * the other way round: "The "Register Lookup" is the tool lookup_key_system", ""Handover" is the
 * tool `hand_over`": the quoted term is what its clauses call the tool ("Prior to each Handover").
 */
import type { BehaviorSpec } from "../../behavior-md/load.js";
import type { Lexicon } from "./lexicon.js";
import { nameStems, stemSet } from "./words.js";
import { linkedGlosses } from "./linked-glosses.js";

/** ""Term" is (the tool) `name`" or ""Term" means …": a defined term and the action it stands for. */
const DEFINED =
  /["“]([A-Z][A-Za-z' -]{1,40})["”]\s+(?:is|means)\s+(?:the\s+)?(?:tool\s+|action\s+|call\s+)?`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?/g;

/** Per action name, the stems of the words the spec calls it by, in a fixed order. */
export function specGlosses(spec: Pick<BehaviorSpec, "description" | "preamble">, lexicon: Lexicon): Map<string, string[]> {
  const known = new Set(lexicon.actions.map((a) => a.name));
  // Where the spec introduces its tools; a rule's own "(`name`)" follows a whole obligation.
  const texts = [spec.description, spec.preamble].map((t) => t.replace(/\s+/g, " "));
  const raw = new Map<string, Set<string>>();
  for (const text of texts)
    for (const m of text.matchAll(/\(`([a-z][a-z0-9_]*)`/g)) {
      const name = m[1]!;
      if (!known.has(name)) continue;
      // The clause before the parenthesis: back to the sentence's start, a comma, a colon or a parenthesis.
      const before = text.slice(0, m.index);
      const start = Math.max(...[".", ",", ";", ":", "(", ")", "!", "?"].map((d) => before.lastIndexOf(d))) + 1;
      const clause = before.slice(start).replace(/`[^`]*`/g, " ");
      const stems = raw.get(name) ?? new Set<string>();
      for (const s of stemSet(clause)) if (s.length >= 3) stems.add(s);
      raw.set(name, stems);
    }
  // A card's line: "- BOOK BACK IN → `return_item` (item_id, value £)", "Hire out -> hire_out (…)": the words before the
  // arrow, on that line, are what the rules call the action ("KIT … BOOKED BACK IN → …").
  for (const text of [spec.description, spec.preamble])
    for (const line of text.split("\n"))
      for (const m of line.matchAll(/(?:→|->|=>)\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?/g)) {
        const name = m[1]!;
        if (!known.has(name)) continue;
        const before = line.slice(0, m.index).replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "");
        const start = Math.max(...[".", ",", ";", ":", "(", ")", "!", "?", "→", "->", "=>"].map((d) => before.lastIndexOf(d))) + 1;
        const stems = raw.get(name) ?? new Set<string>();
        for (const s of stemSet(before.slice(start).replace(/`[^`]*`/g, " "))) if (s.length >= 3) stems.add(s);
        raw.set(name, stems);
      }
  // A defined term: ""Handover" is the tool `hand_over`", ""Cutting" means the tool cut_keys".
  for (const text of texts)
    for (const m of text.matchAll(DEFINED)) {
      const name = m[2]!;
      if (!known.has(name)) continue;
      const stems = raw.get(name) ?? new Set<string>();
      for (const s of stemSet(m[1]!)) if (s.length >= 3) stems.add(s);
      raw.set(name, stems);
    }
  // "A court is shut with `close_court`", "Texting me is text_owner": words linked to a name (linked-glosses.ts).
  for (const [name, linked] of linkedGlosses([spec.description, spec.preamble], known)) {
    const stems = raw.get(name) ?? new Set<string>();
    for (const s of linked) stems.add(s);
    raw.set(name, stems);
  }
  // Only the words that call one action: none another action's name has, none another's gloss has.
  const nameStemsOf = new Map(lexicon.actions.map((a) => [a.name.replace(/_result$/, ""), new Set(a.stems)]));
  // Nor a word that names a key the samples carry ("write to the claimant": `claimant_id`): it says
  // whom the action is for, and other actions carry the key too.
  const keyStems = new Set(lexicon.actions.flatMap((a) => a.metadata.flatMap((m) => nameStems(m.key))));
  const count = new Map<string, number>();
  for (const stems of raw.values()) for (const s of stems) count.set(s, (count.get(s) ?? 0) + 1);
  const out = new Map<string, string[]>();
  for (const [name, stems] of [...raw].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const own = [...stems].filter(
      (s) =>
        count.get(s) === 1 &&
        !keyStems.has(s) &&
        ![...nameStemsOf].some(([other, names]) => other !== name.replace(/_result$/, "") && names.has(s)),
    );
    if (own.length > 0) out.set(name, own);
  }
  return out;
}

/** The lexicon with each action's gloss (its result shares the call's). */
export function withGlosses(lexicon: Lexicon, glosses: ReadonlyMap<string, readonly string[]>): Lexicon {
  if (glosses.size === 0) return lexicon;
  return {
    ...lexicon,
    actions: lexicon.actions.map((a) => {
      const gloss = glosses.get(a.name) ?? glosses.get(a.name.replace(/_result$/, ""));
      return gloss === undefined ? a : { ...a, gloss: [...gloss] };
    }),
  };
}

/**
 * The keys the spec's own introduction names its things by: "look a boat up (`find_vessel`, by
 * `vessel_id`)" calls a vessel_id a boat; ""Key System" means a restricted master-key system …,
 * identified by its `system_id`" calls it a Key System (and ""MEMBER" means an employee …, identified by the
 * crew number (`crew_id`)" a MEMBER); "Readers are identified by their card
 * (`patron_id`)" calls a patron_id a reader (and a card). Per stem of those words (at least three
 * letters, none of the tool's own name), the one key; a stem two keys share names neither.
 */
export function specKeyWords(spec: Pick<BehaviorSpec, "description" | "preamble">): Map<string, string> {
  const found = new Map<string, Set<string>>();
  const add = (words: string, key: string, not: readonly string[] = []) => {
    const own = new Set(not.flatMap((n) => nameStems(n)));
    for (const s of stemSet(words)) if (s.length >= 3 && !own.has(s)) found.set(s, (found.get(s) ?? new Set()).add(key));
  };
  for (const raw of [spec.description, spec.preamble]) {
    const text = raw.replace(/\s+/g, " ");
    for (const m of text.matchAll(/(?:^|[.,;:(])\s*([^.,;:()`]{3,60}?)\s*\(`?([a-z][a-z0-9_]*)`?,?\s+by\s+`([a-z][a-z0-9_]*)`/g))
      add(m[1]!.replace(/^(?:and|or)\s+/i, ""), m[3]!, [m[2]!]);
    for (const m of text.matchAll(
      /["“]([A-Z][A-Za-z' -]{1,40})["”]\s+(?:means|is)\b[^.]*?\bidentified by (?:its|their|the)\s+(?:[a-z][a-z -]{0,30}?\s*\(\s*)?`([a-z][a-z0-9_]*)`/g,
    ))
      add(m[1]!, m[2]!);
    // "Readers are identified by their card (`patron_id`), books by their shelfmark (`item_id`)".
    for (const m of text.matchAll(
      /(?:^|[.,;:])\s*([^.,;:()`]{3,60}?)\s+by\s+(?:their|its|his|her|the)\s+([a-z][a-z -]{1,30}?)\s*\(`([a-z][a-z0-9_]*)`\)/gi,
    ))
      add(`${m[1]!} ${m[2]!}`, m[3]!);
    // "… with chart_feed, which names the baby as `patient_id`", "the till calls the customer `client_ref`": a tool's own
    // word for a thing the rules call by the noun ("that same baby"), when it is not the key's own name.
    for (const m of text.matchAll(
      /\b(?:names|calls|records|identifies|gives|logs|writes|refers\s+to)\s+(?:the|a|an|each|its)\s+([a-z][a-z-]{1,30})\s+(?:as\s+|by\s+)?`([a-z][a-z0-9_]*)`/gi,
    ))
      add(m[1]!, m[2]!);
  }
  const out = new Map<string, string>();
  for (const [stem, keys] of [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (keys.size === 1) out.set(stem, [...keys][0]!);
  return out;
}

/** The lexicon with the spec's glosses of its actions (specGlosses) and of its keys (specKeyWords). */
export function withSpecWords(spec: Pick<BehaviorSpec, "description" | "preamble">, lexicon: Lexicon): Lexicon {
  const keyWords = specKeyWords(spec);
  const glossed = withGlosses(lexicon, specGlosses(spec, lexicon));
  return keyWords.size === 0 ? glossed : { ...glossed, keyWords };
}
