/**
 * What a spec's introduction calls its actions where it links the words to the name (issue 25):
 * "A court is shut with `close_court`", "Texting me is text_owner", "The permit check is
 * `check_permit`", "Deposits go through take_deposit", "if one's dead, that's `report_loss`". The
 * glosses of glosses.ts were read only before "(`name`", an arrow, or a quoted defined term; a note,
 * a manual or a runbook introduces its tools in its own sentences, and its rules then speak of "a
 * court that has been shut" and "text me", never of `close_court`. The words before the link, back
 * to the clause's start, are the action's gloss candidates, filtered as every gloss is (glosses.ts:
 * only words that call one action, none another's name or a key's). No voice's wording is assumed
 * beyond the linking word itself.
 */
import { stemSet } from "./words.js";

/** A linking word or phrase between what the text calls an action and its name. */
const LINKED =
  /\b(?:is|are|was|means|with|via|using|through|that's|that is|it's|by calling|by running)\s+`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?/gi;

/** Where a clause starts, looking back from a link: a sentence's end, a comma, a colon, a semicolon, a parenthesis, a dash. */
const CLAUSE_START = [".", ",", ";", ":", "(", ")", "!", "?", "—", " - ", "\n"];

/** Where the clause that ends the text starts. */
function clauseStart(before: string): number {
  return Math.max(
    ...CLAUSE_START.map((d) => {
      const i = before.lastIndexOf(d);
      return i < 0 ? 0 : i + d.length;
    }),
  );
}

/** Verbs that carry no name of a deed ("lanes get roped off", "deposits go through"): no gloss of any action. */
const LIGHT = new Set([
  "get",
  "gets",
  "got",
  "goe",
  "goes",
  "went",
  "com",
  "come",
  "comes",
  "put",
  "puts",
  "make",
  "made",
  "take",
  "taken",
  "have",
  "has",
  "had",
  "let",
  "lets",
  "does",
  "done",
  "use",
  "used",
  "you",
  "your",
  "one",
  "thing",
  "off",
  "out",
  "down",
  "back",
  "over",
]);

/** Per action name the text links words to, the stems (three letters or more) of the clause before the link. */
export function linkedGlosses(texts: readonly string[], known: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const raw of texts) {
    const text = raw.replace(/[ \t]+/g, " ");
    for (const m of text.matchAll(LINKED)) {
      const name = m[1]!;
      if (!known.has(name) || name.endsWith("_result")) continue;
      // "If one has to be roped off, that's `close_lane`": what "that" points back to is the clause before.
      const back = /^(?:that's|that is|it's)/i.test(m[0]!);
      let before = text.slice(0, m.index);
      let clause = before.slice(clauseStart(before));
      if (back && clause.trim() === "" && /,\s*$/.test(before)) {
        before = before.replace(/,\s*$/, "");
        clause = before.slice(clauseStart(before));
      }
      clause = clause.replace(/`[^`]*`/g, " ");
      // A clause that names another action already is about that one ("… with `find_waiver`, and …").
      if (/[a-z][a-z0-9]*_[a-z0-9_]+/.test(clause)) continue;
      const stems = out.get(name) ?? new Set<string>();
      for (const s of stemSet(clause)) if (s.length >= 3 && !LIGHT.has(s)) stems.add(s);
      out.set(name, stems);
    }
  }
  return out;
}
