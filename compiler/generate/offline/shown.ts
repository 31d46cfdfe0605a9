/**
 * What a look-up is said to show, item by item (latest.ts): "`status: open`", "`gust_kmh` under
 * 70", "fewer than 5 `kits_on_hand`", "`rooms_left` of zero or below", "an `age` from 18 to 75",
 * "a `distance_km` of no more than 10". Each item names its key in backticks; the items are joined
 * by commas and "and", and the reading stops at the first item it cannot read, so that what
 * follows stays for another clause or a notice. "Under", "below", "fewer than" and "more than"
 * exclude the number; "at most", "no more than", "or below", "or more" and "from … to …" include it.
 */
import type { RangeOperator, ValueMatcher } from "../../ir/types.js";
import { namedPairs } from "./backticks.js";
import { alternation, COMPARISONS, RANGE_WORDS } from "./comparisons.js";
import { parseCount } from "./words.js";

/** Words before a number, and the comparison each means (comparisons.ts). */
const BEFORE = (op: keyof RangeOperator) => COMPARISONS[op].before;
/** Words after a number: "zero or below", "3 or lower", "5 or more". */
const AFTER = (op: "gte" | "lte") => COMPARISONS[op].after;
/** The inclusive words first: "no more than" is `lte`, not the `gt` of "more than". */
const OPS = ["lte", "gte", "gt", "lt"] as const;
const NUM = String.raw`(-?\d[\d,]*(?:\.\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
/** A per cent sign or words after a number: "85% or higher", "14.5 per cent or less". */
const PERCENT = String.raw`(?:\s*%|\s+per\s?cent\b|\s+percent\b)?`;
const KEY = "`([A-Za-z_][A-Za-z0-9_.]*)`";
const OF = String.raw`(?:\s+(?:of|at))?\s+`;

function number(written: string): number | undefined {
  const digits = written.replace(/,/g, "");
  if (/^-?\d+(?:\.\d+)?$/.test(digits)) return Number(digits);
  return parseCount(written);
}

/** One item's key and range; undefined when the item is no comparison of one backticked key. */
function comparison(item: string): [string, ValueMatcher] | undefined {
  const range = new RegExp(
    String.raw`${KEY}${OF}(?:${alternation(RANGE_WORDS.open)})\s+${NUM}\s+(?:${alternation(RANGE_WORDS.close)})\s+${NUM}`,
    "i",
  ).exec(item);
  if (range !== null) {
    const [low, high] = [number(range[2]!), number(range[3]!)];
    if (low !== undefined && high !== undefined) return [range[1]!, { gte: Math.min(low, high), lte: Math.max(low, high) }];
  }
  for (const op of OPS) {
    const words = alternation(BEFORE(op));
    const keyFirst = new RegExp(String.raw`${KEY}${OF}(?:${words})\s+${NUM}`, "i").exec(item);
    const numberFirst = new RegExp(String.raw`\b(?:${words})\s+${NUM}\s+${KEY}`, "i").exec(item);
    const found = keyFirst ?? numberFirst;
    if (found === null) continue;
    const [key, written] = keyFirst !== null ? [found[1]!, found[2]!] : [found[2]!, found[1]!];
    const value = number(written);
    if (value !== undefined) return [key, { [op]: value }];
  }
  for (const op of ["gte", "lte"] as const) {
    const re = new RegExp(String.raw`${KEY}${OF}${NUM}${PERCENT}\s+(?:${alternation(AFTER(op))})\b`, "i").exec(item);
    const value = re === null ? undefined : number(re[2]!);
    if (re !== null && value !== undefined) return [re[1]!, { [op]: value }];
  }
  return undefined;
}

/** Whether an item is only backticked `key: value` pairs and the words joining them. */
function onlyPairs(item: string): boolean {
  return namedPairs(item).length > 0 && item.replace(/`[^`]*`/g, " ").replace(/\b(?:and|with|as)\b|[,\s]/gi, "") === "";
}

/** Where the items split: commas, "and" (not "between 18 and 75"), "with". */
const SEPARATOR = /\s*,\s*(?:and\s+|with\s+)?|\s+and\s+(?!\d)|\s+with\s+/gi;

/**
 * The values the words right after a look-up's verb say it shows, and how many characters of
 * `tail` they take: none (length 0) when the first item is neither `key: value` pairs nor a
 * comparison of a backticked key.
 */
export function shownValues(tail: string): { values: [string, ValueMatcher][]; length: number } {
  // "shows no rooms left: `rooms_left` of zero or below": a few words the colon then spells out.
  const lead = /^\s*(?:with\s+|as\s+)?(?:[^`:;,.]{1,40}:\s*)?/.exec(tail)![0];
  const gloss = lead.includes(":");
  const values: [string, ValueMatcher][] = [];
  let at = lead.length;
  let length = 0;
  const text = tail.replace(/[;.].*$/s, "");
  while (at < text.length) {
    SEPARATOR.lastIndex = at;
    const next = SEPARATOR.exec(text);
    const end = next === null ? text.length : next.index;
    const item = text.slice(at, end);
    if (onlyPairs(item)) for (const [k, v] of namedPairs(item)) values.push([k, v]);
    else if (values.length === 0 && /^\s*`[^`]+:[^`]+`\s+(?:of|to|for)\s/i.test(item)) {
      // "directs `decision: release` of that exhibit to that claimant": the pair, and the reading stops after it.
      const pair = /^\s*`[^`]+`/.exec(item)![0];
      for (const [k, v] of namedPairs(pair)) values.push([k, v]);
      length = at + pair.length;
      break;
    } else {
      const compared = comparison(item);
      if (compared === undefined) break;
      values.push(compared);
    }
    length = end;
    if (next === null) break;
    at = next.index + next[0].length;
  }
  if (values.length === 0 || (gloss && length === 0)) return { values: [], length: 0 };
  return { values, length };
}
