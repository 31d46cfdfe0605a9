/**
 * Counts the words ask at least of (issue 25), for the search from labels: "its core temperature is
 * taken at least twice", "every claim gets two or more signatures", "a minimum of 3 readings per
 * tank", "inspect it twice". The search tried counts only with a `max` (what the words forbid
 * beyond), so a rule that asks for repeats was read as some pairing of other acts that happened to
 * fit six labels ("probe it twice" as a start followed by a hold). Here: the counts the words ask
 * for as a minimum, and the count checks with a `min` the search tries for them, over all the
 * matches, or per window of a key opened by an earlier event ("once a batch has been started, its
 * temperature is taken at least twice": per `batch`, after its start; docs/FORMATS.md §10.2).
 */
import { parseCount } from "./words.js";

/** A count as written: a digit or a number word, "once", "twice", "thrice". */
const COUNT = String.raw`(\d+|[a-z]+)`;
const AT_LEAST = String.raw`(?:at\s+least|no\s+fewer\s+than|not\s+fewer\s+than|no\s+less\s+than|not\s+less\s+than|a\s+minimum\s+of|minimum\s+of)`;
/** Words that make a count a ceiling or a ban, a few words before it: "at most twice", "never refund twice", "not … more than three times". */
const CEILING =
  /\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|only|more\s+than|never|not|no|maximum\s+of|max)\b[^.;:!?]{0,25}$/i;

const countOf = (word: string): number | undefined => {
  const w = word.toLowerCase();
  return w === "once" ? 1 : w === "twice" ? 2 : w === "thrice" ? 3 : parseCount(w);
};

/**
 * The counts of two or more the words ask at least of: "at least two", "at least twice", "two or
 * more times", "a minimum of 3", and a bare "twice"/"three times" that no ceiling word comes
 * before ("probe it twice"; not "at most twice", "never twice"). One is no repeat: "at least once"
 * is a required check's, which the search has.
 */
export function leastCounts(text: string): number[] {
  const out = new Set<number>();
  const add = (word: string | undefined) => {
    const n = word === undefined ? undefined : countOf(word);
    if (n !== undefined && n >= 2 && n <= 12) out.add(n);
  };
  for (const m of text.matchAll(new RegExp(String.raw`\b${AT_LEAST}\s+${COUNT}\b`, "gi"))) add(m[1]);
  for (const m of text.matchAll(new RegExp(String.raw`\b${COUNT}\s+(?:or|and)\s+more\b`, "gi"))) add(m[1]);
  for (const m of text.matchAll(/\b(twice|thrice|[a-z]+\s+times)\b/gi)) {
    const before = text.slice(Math.max(0, m.index! - 40), m.index!);
    if (CEILING.test(before) && !new RegExp(String.raw`${AT_LEAST}\s+$`, "i").test(before)) continue;
    add(m[1]!.split(/\s+/)[0]);
  }
  return [...out].sort((a, b) => a - b);
}
