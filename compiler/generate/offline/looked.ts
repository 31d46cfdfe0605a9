/**
 * Which event a latest look-up is (latest.ts) and what ties it to the act: the call whose result
 * carries the written keys, or the one its words name ("the most recent lookup of that animal"),
 * and the key both carry that the words name as the thing looked up ("for that lift", "of that same
 * writ"), else the identifier both carry.
 */
import type { Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { resolve } from "./clauses.js";
import { actionKeys, type Lexicon } from "./lexicon.js";
import { backtickedNames } from "./backticks.js";
import { lookedByWords } from "./worded.js";
import { nameStems, stemSet } from "./words.js";

/** The identifier key the act and the looked-up event both carry, the one the words name (else the only one). */
export function sharedIds(lexicon: Lexicon, acts: readonly string[], looked: readonly string[]): string[] {
  const all = [...acts, ...looked].map((a) => actionKeys(lexicon, a));
  return all.reduce((a, b) => a.filter((k) => b.includes(k))).filter((k) => nameStems(k).includes("id"));
}

function sharedId(lexicon: Lexicon, acts: readonly string[], looked: readonly string[], words: string): string | undefined {
  const shared = sharedIds(lexicon, acts, looked);
  const said = stemSet(words);
  return shared.find((k) => nameStems(k).some((s) => s !== "id" && said.has(s))) ?? (shared.length === 1 ? shared[0] : undefined);
}

/** "for that lift", "of the same section", "for that `rx_id`": the thing a look-up is of (a bare "the" points at nothing said before). */
const TIE = /\b(?:for|of|on)\s+(?:that\s+same|that|the\s+same|this)\s+((?:`[A-Za-z0-9_]+`|[a-z]+)(?:'s\s+[a-z]+|\s+[a-z]+)?)/i;

/**
 * What ties the act to the look-up: a key both carry that the look-up's own words name as the
 * thing it is of ("the latest wind reading for that lift": `lift`, an id or not), else the shared
 * id of sharedId.
 */
export function tieOf(
  lexicon: Lexicon,
  acts: readonly string[],
  looked: readonly string[],
  words: string,
  phrase: string,
): string | undefined {
  const tie = TIE.exec(phrase)?.[1];
  if (tie !== undefined) {
    const said = stemSet(tie.replace(/`/g, ""));
    const all = [...acts, ...looked].map((a) => actionKeys(lexicon, a));
    const shared = all.reduce((a, b) => a.filter((k) => b.includes(k)));
    const named = shared.filter((k) => tie.includes(`\`${k}\``) || nameStems(k).some((s) => s !== "id" && said.has(s)));
    if (named.length === 1) return named[0];
  }
  // "the latest `find_booking` result for the booking_ref being loaded": a key both carry, written by its own name.
  const all = [...acts, ...looked].map((a) => actionKeys(lexicon, a));
  const written = all
    .reduce((a, b) => a.filter((k) => b.includes(k)))
    .filter((k) => k.includes("_") && new RegExp(String.raw`(?<![\w])\x60?${k}\x60?(?![\w])`).test(phrase));
  if (written.length === 1) return written[0];
  // "verified under the order number quoted on the release": an identifier both carry, said in words (`order_no`).
  const said = all
    .reduce((a, b) => a.filter((k) => b.includes(k)))
    .filter((k) => {
      const base = /^([a-z]+(?:_[a-z]+)*?)_(?:id|no|num|number|ref|code)$/.exec(k)?.[1];
      return (
        base !== undefined &&
        new RegExp(String.raw`\b${base.replace(/_/g, "\\s+")}\s+(?:number|no\.?|id|ref|reference|code)\b`, "i").test(phrase)
      );
    });
  if (said.length === 1) return said[0];
  // "for that same field": the words say the two are of one thing; the only key both carry is it, an id or not.
  const shared = all.reduce((a, b) => a.filter((k) => b.includes(k)));
  return sharedId(lexicon, acts, looked, words) ?? (tie !== undefined && shared.length === 1 ? shared[0] : undefined);
}

/**
 * "For every lift, the latest verify_card result for the person named as `operator_id`": a key
 * the look-up's words write in backticks that the act read from the words does not carry names
 * the act that does (`make_lift`, not `log_lift`), when the same words resolve to it.
 */
export function carrierOf(lexicon: Lexicon, each: Pattern, phrase: string, looked: readonly string[], words: string): Pattern | undefined {
  const acts = each.flatMap((x) => (exactValue(x.action) === undefined ? [] : [exactValue(x.action)!]));
  const lookedKeys = new Set(looked.flatMap((a) => actionKeys(lexicon, a)));
  const wanted = backtickedNames(phrase).filter((k) => !lookedKeys.has(k) && !acts.some((a) => actionKeys(lexicon, a).includes(k)));
  if (wanted.length === 0) return undefined;
  const holders = lexicon.actions
    .filter((a) => !a.isResult && wanted.every((k) => a.metadata.some((md) => md.key === k)))
    .map((a) => a.name);
  return holders.length === 0 ? undefined : resolve(lexicon, words, { agentOnly: true, only: (a) => holders.includes(a) });
}

/** The looked-up event of written `key: value`s: the actions that carry every key, results first, narrowed by the look-up's words. */
export function lookedFor(lexicon: Lexicon, pairs: readonly [string, ValueMatcher][], phrase: string): string[] {
  const keys = pairs.map(([k]) => k);
  const carriers = lexicon.actions.filter((a) => keys.every((k) => a.metadata.some((md) => md.key === k))).map((a) => a.name);
  if (carriers.length === 0) return [];
  const results = carriers.filter((a) => a.endsWith("_result"));
  const pool = results.length > 0 ? results : carriers;
  if (pool.length === 1) return pool;
  // A call written in backticks ("the latest `find_booking` result") is its result when only the result carries the keys.
  return (resolve(lexicon, phrase, { only: (a) => pool.includes(a) }) ?? []).flatMap((p) => {
    const a = exactValue(p.action);
    return a === undefined ? [] : pool.includes(a) ? [a] : pool.includes(`${a}_result`) ? [`${a}_result`] : [];
  });
}

/** A look-up named by no more than its kind, and the calls that are one by their names. */
const LOOKUP_WORDS = /\b(?:look-?ups?|look\s+up|records?|queries|query|checks?|scans?|searches|search)\b/i;
const LOOKUP_NAMES = /^(?:find|lookup|look_up|get|fetch|query|search|retrieve)_[a-z_]+?(?<!_result)$/;
/** Calls that are a look-up by their names too, though they may also be the act's own test ("check_sheen"): second choice. */
const CHECK_NAMES = /^(?:check|verify|scan|inspect)_[a-z_]+?(?<!_result)$/;

/** "the latest weather check for that field", "the most recent lookup of that animal (find_animal)": the one event the words name. */
export function lookedInWords(lexicon: Lexicon, phrase: string): string[] {
  const head = phrase.replace(TIE, " ").replace(/[()]/g, " ");
  const found = (resolve(lexicon, head) ?? []).flatMap((p) => (exactValue(p.action) === undefined ? [] : [exactValue(p.action)!]));
  // "the most recent lookup of that same boat": a bare look-up is the one call the samples name as one (`find_vessel`, else
  // `check_writ`); of several, the one of the thing the words tie it to ("of that same writ": the call carrying `writ_id`).
  const tie = TIE.exec(phrase)?.[1];
  const namedAs = (names: RegExp) => {
    const calls = lexicon.actions.filter((a) => names.test(a.name));
    const tied = calls.filter(
      (a) => tie !== undefined && a.metadata.some((m) => nameStems(m.key).some((s) => s !== "id" && stemSet(tie).has(s))),
    );
    return calls.length > 1 && tied.length === 1 ? tied : calls;
  };
  const byName = namedAs(LOOKUP_NAMES);
  const bare = found.length > 0 || !LOOKUP_WORDS.test(head) ? [] : byName.length > 0 ? byName : namedAs(CHECK_NAMES);
  const looked = lookedByWords(lexicon, found.length > 0 ? found : bare.length === 1 ? [bare[0]!.name] : []);
  return looked.length === 1 ? looked : [];
}
