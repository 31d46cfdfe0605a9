/**
 * What a latest look-up is said to show in plain words, without a backticked `key: value`
 * (latest.ts): "the most recent lookup of that animal shows it as available" (`r.status ==
 * "available"`), "came back as a pass", "has the wind at 8 knots or under" (`r.wind_kt <= 8`),
 * "shows no permit valid for that lot" (`r.permit != "valid"`), and a value of the look-up tied to
 * one of the act: "places the vehicle in the lot named on the dispatch" (`r.lot == event.lot`), "a
 * fuel type matching the grade going into it" (`r.fuel == event.grade`), "names the person
 * requesting the keys as its signatory" (`r.signatory == event.requested_by`). The values are the
 * samples' own: a word the look-up's events show as a key's value, a number with the one key that
 * holds numbers, two keys whose sample values meet, a yes-or-no key by its name ("the patron as not
 * excluded": `r.excluded == "no"`), an amount against the act's ("at least as much quota left as what
 * goes on the scale": `r.quota_left_kg >= event.weight_kg`). The reading stops at the first item it cannot
 * read, so what follows stays for another clause ("… and was done by somebody other than …").
 */
import type { ValueMatcher } from "../../ir/types.js";
import type { ClauseOutcome } from "./clauses.js";
import { valueTest } from "../../ir/values.js";
import { amountKey, amountsIn } from "./amounts.js";
import { alternation, COMPARISONS } from "./comparisons.js";
import { keyRef } from "./keys.js";
import type { Lexicon } from "./lexicon.js";
import { canonical, nameStems, stemSet, words } from "./words.js";

/** Keys with more distinct values than this are identifiers or names, not states a look-up shows. */
const STATE_VALUES = 6;
/** A value the item says is not there: "shows no permit valid", "is not cleared". */
const NEGATED = /\b(?:no|not|never|without|isn't|wasn't)\b/i;
/** Words that set a value of the look-up beside one of the act. */
const TIED = /\b(?:match(?:es|ing)?|named|names|same|given|written|shown|stated|recorded|as\s+(?:its|the))\b/i;
/** Where the items split: commas and "and". */
const SEPARATOR = /\s*,\s*(?:and\s+)?|\s+and\s+/gi;

function metadataOf(lexicon: Lexicon, action: string) {
  return lexicon.actions.find((a) => a.name === action)?.metadata ?? [];
}

const numeric = (v: string): boolean => /^-?\d+(?:\.\d+)?$/.test(v.trim());

/** The `when` test of a key of the look-up against a range or value. */
function test(key: string, value: ValueMatcher, negated = false): string | undefined {
  const ref = keyRef("r", key);
  const t = valueTest(value);
  if (t.op === "equals") return `${ref} ${negated ? "!=" : "=="} ${JSON.stringify(t.value)}`;
  if (t.op !== "range" || negated) return undefined;
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  const parts = (Object.keys(symbols) as (keyof typeof symbols)[]).flatMap((op) =>
    t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`],
  );
  return parts.length === 0 ? undefined : parts.join(" && ");
}

/** "as a pass", "it as available", "no permit valid": the one state value of the look-up the item writes. */
function stateTest(lexicon: Lexicon, looked: string, item: string): string | undefined {
  const said = words(item).map((w) => w.toLowerCase());
  const text = ` ${said.join(" ")} `;
  const found: { key: string; value: string; at: number }[] = [];
  for (const m of metadataOf(lexicon, looked)) {
    if (m.distinct > STATE_VALUES || m.key.startsWith("@")) continue;
    for (const { value } of m.values) {
      if (numeric(value)) continue;
      const written = words(value.replace(/_/g, " "))
        .map((w) => w.toLowerCase())
        .join(" ");
      const at = written === "" ? -1 : text.indexOf(` ${written} `);
      if (at >= 0) found.push({ key: m.key, value, at });
    }
  }
  // The longest value wins where one holds another ("on hold" over "hold"); two keys said at once tell nothing, unless
  // the words name one of them ("the belay cert as valid" where `id_check` may be valid too), or name none and one is
  // the thing's own state ("the member as active": `status`, not `wall_pass`).
  const stems = stemSet(item);
  const among = (keep: (key: string) => boolean) => new Set(found.filter((f) => keep(f.key)).map((f) => f.key));
  const namedKeys = among((k) => named(k, stems));
  const states = among((k) => /^(?:status|state|standing|condition)$/i.test(k));
  const chosen = namedKeys.size === 1 ? namedKeys : namedKeys.size === 0 && states.size === 1 ? states : undefined;
  if (chosen !== undefined) found.splice(0, found.length, ...found.filter((f) => chosen.has(f.key)));
  const keys = new Set(found.map((f) => f.key));
  if (keys.size !== 1) return undefined;
  const best = found.sort((a, b) => b.value.length - a.value.length)[0]!;
  // "available or on hold": two values of the key said apart are a list, not this reading.
  if (found.some((f) => !best.value.includes(f.value))) return undefined;
  const negated = NEGATED.test(text.slice(0, best.at + 1));
  return test(best.key, best.value, negated);
}

/** The two values of a yes-or-no key, as the samples may write them. */
const FLAG_VALUES: readonly [string, string][] = [
  ["yes", "no"],
  ["true", "false"],
  ["y", "n"],
];

/**
 * "the patron as not excluded" where `excluded` holds yes or no: a key of the look-up named by the
 * item's words, whose values say yes or no, tested for the one the words say ("not" before the
 * name: the no; "as excluded": the yes).
 */
function flagTest(lexicon: Lexicon, looked: string, item: string): string | undefined {
  const said = words(item).map((w) => w.toLowerCase());
  const found = metadataOf(lexicon, looked).flatMap((m) => {
    const values = m.values.map((v) => v.value.toLowerCase());
    const pair = FLAG_VALUES.find(([yes, no]) => values.length > 0 && values.every((v) => v === yes || v === no));
    const stems = nameStems(m.key);
    // Every word of the key's name at one place of the item, in either order: "a valid ID" names `id_valid`.
    const sorted = [...stems].sort().join(" ");
    const at = said.findIndex(
      (_, i) =>
        stems.length > 0 &&
        said
          .slice(i, i + stems.length)
          .map(canonical)
          .sort()
          .join(" ") === sorted,
    );
    return pair === undefined || at < 0 || m.key.startsWith("@") ? [] : [{ key: m.key, pair, at, seen: values }];
  });
  if (found.length !== 1) return undefined;
  const { key, pair, at, seen } = found[0]!;
  const negated = NEGATED.test(said.slice(0, at).join(" "));
  const wanted = negated ? pair[1] : pair[0];
  // The value as the samples write it; one they never show is tested by its opposite.
  const written = metadataOf(lexicon, looked)
    .find((m) => m.key === key)!
    .values.find((v) => v.value.toLowerCase() === wanted)?.value;
  if (written !== undefined) return `${keyRef("r", key)} == ${JSON.stringify(written)}`;
  const other = metadataOf(lexicon, looked)
    .find((m) => m.key === key)!
    .values.find((v) => v.value.toLowerCase() !== wanted)?.value;
  return other === undefined || seen.length === 0 ? undefined : `${keyRef("r", key)} != ${JSON.stringify(other)}`;
}

/** "status: active", "the belay cert: valid": a key of the look-up by its name's words, and the value written after the colon. */
const PAIR = /^\s*(?:(?:the|its|a|an)\s+)?([a-z][a-z_ -]*?)\s*:\s*([\w.-]+)\s*$/i;

function pairTest(lexicon: Lexicon, looked: string, item: string): string | undefined {
  const m = PAIR.exec(item);
  if (m === null) return undefined;
  const said = [...stemSet(m[1]!)].sort().join(" ");
  const keys = metadataOf(lexicon, looked).filter((md) => !md.key.startsWith("@") && [...nameStems(md.key)].sort().join(" ") === said);
  if (keys.length !== 1) return undefined;
  // The value as the samples write it, whatever its case; one they never show, as written.
  const value = keys[0]!.values.find((v) => v.value.toLowerCase() === m[2]!.toLowerCase())?.value ?? m[2]!;
  return test(keys[0]!.key, value);
}

/** Whether a key's name is among the item's words. */
function named(key: string, stems: Set<string>): boolean {
  return nameStems(key).some(
    (s) => s !== "id" && [...stems].some((t) => t === s || (Math.min(s.length, t.length) >= 5 && (s.startsWith(t) || t.startsWith(s)))),
  );
}

/** The string values each key shows on an action's events. */
function valuesOf(lexicon: Lexicon, action: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of lexicon.samples)
    for (const e of t.events) {
      if (e.action !== action) continue;
      for (const [k, v] of Object.entries(e.metadata ?? {})) {
        if (typeof v !== "string" || numeric(v) || k.startsWith("@")) continue;
        out.set(k, (out.get(k) ?? new Set<string>()).add(v));
      }
    }
  return out;
}

/** "in the lot named on the dispatch", "a fuel type matching the grade": a key of the look-up equal to one of the act. */
function tiedTest(lexicon: Lexicon, looked: string, acts: readonly string[], item: string, on: string | undefined): string | undefined {
  if (!TIED.test(item) || acts.length !== 1) return undefined;
  const stems = stemSet(item);
  const theirs = valuesOf(lexicon, looked);
  const ours = valuesOf(lexicon, acts[0]!);
  const pairs: { pair: [string, string]; score: number }[] = [];
  for (const [rk, rv] of theirs)
    for (const [ek, ev] of ours) {
      if (rk === on || ek === on || ![...rv].some((v) => ev.has(v))) continue;
      const score = (named(rk, stems) ? 1 : 0) + (named(ek, stems) ? 1 : 0);
      if (score > 0) pairs.push({ pair: [rk, ek], score });
    }
  pairs.sort((a, b) => b.score - a.score);
  if (pairs.length === 0 || (pairs.length > 1 && pairs[1]!.score === pairs[0]!.score)) return undefined;
  const [rk, ek] = pairs[0]!.pair;
  return `${keyRef("r", rk)} == ${keyRef("event", ek)}`;
}

/** "at least as much quota left as what goes on the scale", "no more seats than …": an amount of the look-up against one of the act. */
const MEASURED =
  /^(?:(?:shows?|says?|has|have|with|gives?)\s+)?(at\s+least\s+as\s+(?:much|many)|at\s+most\s+as\s+(?:much|many)|as\s+(?:much|many)|no\s+(?:more|less|fewer)|not\s+(?:more|less|fewer)|more|less|fewer)\s+(.+?)\s+(?:as|than)\s+(.+)$/i;
/** The comparison each of MEASURED's words makes of the look-up's amount with the act's. */
function measuredOp(words: string): string {
  const w = words.toLowerCase().replace(/\s+/g, " ");
  if (/^(?:at least as|as) (?:much|many)$/.test(w) || /^not? (?:less|fewer)$/.test(w)) return ">=";
  if (/^at most as (?:much|many)$/.test(w) || /^not? more$/.test(w)) return "<=";
  return w === "more" ? ">" : "<";
}

/** The numeric keys of an action the samples show, no identifiers and not the key the two are tied by. */
function numericKeys(lexicon: Lexicon, action: string, on: string | undefined): string[] {
  return metadataOf(lexicon, action)
    .filter((m) => m.key !== on && m.values.length > 0 && m.values.every((v) => numeric(v.value)) && !nameStems(m.key).includes("id"))
    .map((m) => m.key);
}

/** The numeric key the words name among `keys`, else the only one. */
function namedAmong(keys: readonly string[], text: string): string | undefined {
  const stems = stemSet(text);
  const found = keys.filter((k) => named(k, stems));
  return found.length === 1 ? found[0] : found.length === 0 && keys.length === 1 ? keys[0] : undefined;
}

/**
 * "shows at least as much quota left as what's going on the scale for that landing": the look-up's
 * amount the words name (`quota_left_kg`) against the act's (the one its words name, else its only
 * number: `weight_kg`), `r.quota_left_kg >= event.weight_kg`.
 */
function measuredTest(lexicon: Lexicon, looked: string, acts: readonly string[], item: string, on: string | undefined): string | undefined {
  const m = MEASURED.exec(item.trim());
  if (m === null || acts.length !== 1) return undefined;
  const op = measuredOp(m[1]!);
  const rKey = namedAmong(numericKeys(lexicon, looked, on), m[2]!);
  // The act's amount the words name, else the only one, else the only one in the look-up's unit (`allowance_kg`, `weight_kg`).
  const actKeys = numericKeys(lexicon, acts[0]!, on);
  const unit = rKey === undefined ? undefined : nameStems(rKey).at(-1);
  const inUnit = actKeys.filter(
    (k) => unit !== undefined && nameStems(rKey!).length > 1 && nameStems(k).length > 1 && nameStems(k).at(-1) === unit,
  );
  const eKey = namedAmong(actKeys, m[3]!) ?? (inUnit.length === 1 ? inUnit[0] : undefined);
  if (rKey === undefined || eKey === undefined) return undefined;
  return `${keyRef("r", rKey)} ${op} ${keyRef("event", eKey)}`;
}

/** "8 knots or under", "under 9", "no more than 12.5 units": a number with the comparison words of the one table, in any unit. */
function bareRange(item: string): ValueMatcher | undefined {
  for (const op of ["lte", "gte", "gt", "lt"] as const) {
    const before = new RegExp(String.raw`\b(?:${alternation(COMPARISONS[op].before)})\s+(\d+(?:\.\d+)?)\b`, "i").exec(item);
    const after =
      COMPARISONS[op].after.length === 0
        ? null
        : // "15 km/h or less", "8 knots or under", "30 m/s or more": a unit of a word or a rate after the number.
          new RegExp(String.raw`\b(\d+(?:\.\d+)?)(?:\s*[a-z]+(?:\/[a-z]+)?)?\s+(?:${alternation(COMPARISONS[op].after)})\b`, "i").exec(
            item,
          );
    const found = before ?? after;
    if (found !== null) return { [op]: Number(found[1]!) };
  }
  return undefined;
}

/** "£0.00 owed", "0 faults", "$12.50 due": one figure and no comparison word, the value the words say the key holds. */
const FIGURE = /^\s*(?:(?:a|an|the|of|at|with)\s+)?[$€£]?\s?(\d[\d,]*(?:\.\d+)?)\b(?![.,]\d)/i;

/** "the wind at 8 knots or under": one amount, on the look-up's key for it (the one it names, else its only number). */
function amountTest(lexicon: Lexicon, looked: string, item: string): string | undefined {
  const amounts = amountsIn(item);
  if (amounts.length > 1) return undefined;
  if (amounts.length === 1) {
    const key = amountKey(lexicon, looked, amounts[0]!.unit, item);
    return key === undefined ? undefined : test(key, amounts[0]!.range);
  }
  const keys = metadataOf(lexicon, looked)
    .filter((m) => m.values.length > 0 && m.values.every((v) => numeric(v.value)) && !nameStems(m.key).includes("id"))
    .map((m) => m.key);
  const stems = stemSet(item);
  const range = bareRange(item);
  if (range === undefined) {
    // "and £0.00 owed": a figure alone is the value itself, on the one numeric key the words name (never a guessed key).
    const figure = FIGURE.exec(item);
    const namedKeys = keys.filter((k) => named(k, stems));
    if (figure === null || (item.match(/\d[\d,.]*/g) ?? []).length !== 1 || namedKeys.length !== 1) return undefined;
    return `${keyRef("r", namedKeys[0]!)} == ${String(Number(figure[1]!.replace(/,/g, "")))}`;
  }
  const key = keys.find((k) => named(k, stems)) ?? (keys.length === 1 ? keys[0] : undefined);
  return key === undefined ? undefined : test(key, range);
}

/**
 * The tests the words right after a look-up's verb say, and how many characters of `tail` they
 * take: none when the first item reads as no value of the look-up. `on` is the key that ties the
 * look-up to the act, never one of the values compared.
 */
export function wordedValues(
  lexicon: Lexicon,
  looked: readonly string[],
  acts: readonly string[],
  tail: string,
  on: string | undefined,
): { tests: string[]; length: number } {
  if (looked.length !== 1) return { tests: [], length: 0 };
  // The values end at a sentence's stop or a colon that opens a list, not at "status: active" nor at "2.5".
  const text = tail.replace(/(?:;|\.(?!\d)|:(?!\s*[\w-]+\s*(?:,|\band\b|$))).*$/s, "");
  const tests: string[] = [];
  let at = 0;
  let length = 0;
  while (at < text.length) {
    SEPARATOR.lastIndex = at;
    const next = SEPARATOR.exec(text);
    const end = next === null ? text.length : next.index;
    const item = text.slice(at, end);
    // What a spec writes in backticks is read as written, by the readers of backticks (shown.ts, lists.ts).
    if (item.includes("`")) break;
    const read =
      pairTest(lexicon, looked[0]!, item) ??
      tiedTest(lexicon, looked[0]!, acts, item, on) ??
      measuredTest(lexicon, looked[0]!, acts, item, on) ??
      amountTest(lexicon, looked[0]!, item) ??
      stateTest(lexicon, looked[0]!, item) ??
      flagTest(lexicon, looked[0]!, item);
    if (read === undefined) break;
    tests.push(read);
    length = end;
    if (next === null) break;
    at = next.index + next[0].length;
  }
  return { tests, length };
}

/** The looked-up event the look-up's words name ("the latest weather check"): its result when the samples log one. */
export function lookedByWords(lexicon: Lexicon, found: readonly string[]): string[] {
  const names = new Set(lexicon.actions.map((a) => a.name));
  return [...new Set(found.map((a) => (a.endsWith("_result") || !names.has(`${a}_result`) ? a : `${a}_result`)))];
}

/** "… and shows no permit valid for that lot": a further clause of the same look-up's verb, after its condition's quote. */
const FURTHER =
  /^(?:\s*[,;]\s*|\s+)(?:and\s+)?(?:it\s+)?(?:shows?|says?|has(?!\s+(?:to|been|come)\b)|came back|comes back|reads?|returns?|returned|names)\s+/i;

/**
 * A latest look-up's condition whose values the sentence goes on to say in words, in a clause of
 * its own ("… places the vehicle in the lot named on the dispatch and shows no permit valid for
 * that lot"): the further values join the condition's test and its quote reaches over them; the
 * clause they fill is covered by it.
 */
export function withWordedTail(
  lexicon: Lexicon,
  shape: { sentence: string; clauses: readonly string[] },
  outcomes: readonly ClauseOutcome[],
): ClauseOutcome[] {
  const { sentence, clauses } = shape;
  const out = outcomes.slice();
  out.forEach((outcome, i) => {
    if (outcome.kind !== "check" || outcome.check.type !== "condition") return;
    const check = outcome.check;
    const r = check.with?.r;
    if (r === undefined || !("latest" in r) || check.each.length !== 1) return;
    const looked = (r.latest ?? []).flatMap((m) => (typeof m.action === "string" ? [m.action] : []));
    const act = typeof check.each[0]!.action === "string" ? check.each[0]!.action : undefined;
    const start = sentence.indexOf(check.quote);
    if (looked.length !== 1 || act === undefined || start < 0) return;
    const afterQuote = start + check.quote.length;
    const lead = FURTHER.exec(sentence.slice(afterQuote));
    if (lead === null) return;
    const from = afterQuote + lead[0].length;
    const on = typeof r.on === "string" ? r.on.replace(/^metadata\./, "") : undefined;
    const found = wordedValues(lexicon, looked, [act], sentence.slice(from), on);
    if (found.tests.length === 0) return;
    const end = from + found.length;
    const quote = sentence.slice(start, end).replace(/[\s.;,]+$/, "");
    out[i] = { ...outcome, check: { ...check, quote, when: [check.when, ...found.tests].join(" && ") } };
    clauses.forEach((clause, j) => {
      const at = sentence.indexOf(clause, afterQuote);
      if (j > i && at >= afterQuote && at + clause.length <= end + 1) out[j] = { kind: "skip" };
    });
  });
  return out;
}
