/**
 * A condition on the latest look-up, however the sentence words it (docs/FORMATS.md §10): "A
 * ticket is closed only when its latest check shows `state: resolved`", "Stock is shipped only
 * from a depot it has queried: the most recent query of that depot must have come back
 * `open: yes`", or, in a sentence of its own after the one that names the act, "The latest scan
 * of that parcel must show `sealed: yes`". For each event of the act, the latest earlier event
 * that carries the written keys (the same thing's, when both carry its id) must have the written
 * values: `condition` with `latest`. The act is the subject before "only" (or "needs"), else the
 * one an earlier sentence of the rule names that way, else the sentence's own "before …" frame.
 */
import type { ConditionCheck, Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { amountKey, amountsIn } from "./amounts.js";
import { resolve, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { keyRef } from "./keys.js";
import type { Lexicon } from "./lexicon.js";
import { shownValues } from "./shown.js";
import { crossTie } from "./crossed.js";
import { actOfWrittenKeys } from "./keyed.js";
import { carrierOf, lookedFor, lookedInWords, sharedIds, tieOf } from "./looked.js";
import { wordedValues } from "./worded.js";
import { nameStems, stemSet } from "./words.js";

/**
 * "the latest fetch of that order must show", "whose most recent record shows", "the last check … came back", "the
 * most recent look-up of that writ records …", "lists …", "comes back with …". "records" and "lists" are verbs only
 * after the look-up's own words ("the latest records show" is a noun before its verb).
 */
const LATEST =
  /\b(?:latest|most recent|newest|last)\s+((?:[^`:;]|`[A-Za-z0-9_.]+`)*?)\s*,?\s*\b(?:must|has to|have to|should|needs? to)?\s*(?:still\s+)?(?:have\s+)?(?:shows?|showed|shown|say|says|said|reads?|(?:come|comes|came)\s+back(?:\s+with\b)?|returned|returns?|directs?|has(?!\s+(?:come|came|been|to|shown|said|returned|read)\b)|places|(?<!(?:latest|recent|newest|last)\s+)(?:records|recorded|lists|listed))\b/i;
/** "… is never cancelled by Porter", "… may not be restocked": what a "whose latest … shows" subject is banned from. */
const BANNED = /\s+(?:(?:is|are)\s+(?:never|not)|(?:may|must|can|should|shall)\s+(?:never|not)\s+be|cannot\s+be|can't\s+be)\s+(.+)$/i;

/** The test that the look-up does not show all of the values: `r.k != "v"` for one. */
function notAll(tests: readonly string[]): string {
  const one = tests.length === 1 ? /^(\S+) == ("[^"]*")$/.exec(tests[0]!) : null;
  return one !== null ? `${one[1]} != ${one[2]}` : `!(${tests.join(" && ")})`;
}
/** "For each `issue_unit`, …", "At the moment of `open_lift`, …": the act a look-up's condition is about. */
const FRAME = /^\s*(?:for\s+(?:each|every|any)|at\s+the\s+(?:moment|time)\s+of|on\s+(?:each|every))\s+([^,]+?),\s/i;
/** "Only a participant who … is randomized: …": the act of a sentence that opens with "only". */
const ONLY = /^\s*only\s+([^:;]+?)\s*[:;]/i;
/** The act a sentence makes conditional: its words before "only", "needs" or "requires". */
const HEAD = /^(.*?)\s+(?:(?:may|can|must|should|will)\s+)?(?:be\s+)?(?:only\b|needs?\b|requires?\b|unless\b)/i;
/**
 * "the latest lookup of the accession being withdrawn", "for the booking_ref being loaded", "of the
 * exhibit released": the act the look-up is for, named inside the look-up's own words when the
 * sentence names it nowhere else.
 */
const FOR_ACT =
  /\b(?:being|to be|is being|are being)\s+([a-z]+(?:ed|en|wn|t)\b(?:\s+[a-z]+)?)|\b(?:the|that|this)\s+[a-z_]+\s+([a-z]+(?:ed|en|wn))\s*$/i;
/** "and less than $10.00 in unpaid fines": what a further amount of the same look-up is about. */
const AMOUNT_TAIL = /^[^,;:]*/;

/** The readings of the act a sentence makes conditional: its words before "only", then with their object ("… booked only onto a berth"). */
function actReadings(lexicon: Lexicon, sentence: string): Pattern[] {
  const head = HEAD.exec(sentence);
  if (head === null) return [];
  const short = head[1]!.replace(/\s+(?:is|are|was|were|gets?|get)$/i, "");
  // "A ship is booked only onto a berth that …": the act with its object, up to what qualifies it.
  const long = sentence
    .split(/\s*(?::|;|\s—\s|\s-\s)\s*|\s+(?:whose|that|which|who|where|when|if|unless|after|before|it has|it had)\s+/i)[0]!
    .replace(/\b(?:only|needs?|requires?)\b.*?(?=\b(?:to|on|onto|in|into|for|from|under|against|with)\b|$)/i, " ");
  // "A balloon only launches if …": the verb after "only" is the act, its subject the thing acted on.
  const verb = /^(.*?)\s+only\s+([a-z]+s\b(?:\s+[a-z]+){0,3}?)\s+(?:if|when|once|after)\b/i.exec(sentence);
  const only = verb === null ? [] : [`${verb[1]!} ${verb[2]!}`];
  return [short, long, ...only].flatMap((phrase) => {
    const found = resolve(lexicon, phrase, { agentOnly: true });
    return found === undefined ? [] : [found];
  });
}

/** The readings of the act a sentence makes conditional ("A loan is made only to …"): empty when it makes none. */
export function conditionedAct(lexicon: Lexicon, sentence: string): Pattern[] {
  return actReadings(lexicon, sentence);
}

/** The `when` test of one key of the looked-up event. */
function test(key: string, value: ValueMatcher): string | undefined {
  const ref = keyRef("r", key);
  const t = valueTest(value);
  if (t.op === "equals") return `${ref} == ${JSON.stringify(t.value)}`;
  if (t.op !== "range") return undefined;
  const symbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  const parts = (Object.keys(symbols) as (keyof typeof symbols)[]).flatMap((op) =>
    t.range[op] === undefined ? [] : [`${ref} ${symbols[op]} ${String(t.range[op])}`],
  );
  return parts.length === 0 ? undefined : parts.join(" && ");
}

/**
 * "… only …: the latest look-up of that depot must show `open: yes`": a condition on the latest
 * look-up. `earlier` is the act an earlier sentence of the rule made conditional. Undefined when
 * the clause writes no latest look-up with a `key: value`, or the samples show no event for it.
 */
export function latestFrom(
  context: ClauseContext,
  clause: string,
  quote: string,
  earlier: readonly Pattern[] = [],
): ClauseOutcome | undefined {
  const m = LATEST.exec(clause);
  if (m === null) return undefined;
  const tail = clause.slice(m.index + m[0].length);
  // "A reservation whose latest look-up shows `rate_type: non_refundable` is never cancelled": the act banned for those values.
  const banned = m.index > 0 && /\bwhose\s*$/i.test(clause.slice(0, m.index)) ? BANNED.exec(tail) : null;
  // The values the look-up shows: backticked pairs and comparisons of backticked keys right after the verb (shown.ts).
  const shown = shownValues(banned === null ? tail : tail.slice(0, banned.index));
  if (banned !== null && shown.length < tail.slice(0, banned.index).trimEnd().length) return undefined;
  const pairs = shown.values;
  // No backticked value: the look-up is the event its words name, its values said in words (worded.ts).
  const inWords = pairs.length === 0;
  if (inWords && banned !== null) return undefined;
  const looked = inWords ? lookedInWords(context.lexicon, m[1]!) : lookedFor(context.lexicon, pairs, m[1]!);
  if (looked.length === 0) return undefined;
  // The act: before "only" in this clause, else the earlier sentence's, else the sentence's "before …" frame.
  const before = clause.slice(0, m.index);
  const frame = context.shape.condition?.kind === "before" ? context.shape.condition.phrase : undefined;
  // "For each `issue_unit`, the latest …", "At the moment of `open_lift`, …", "When `issue_unit` is called, …".
  const framed =
    FRAME.exec(before)?.[1] ??
    (context.shape.condition?.kind === "if" || context.shape.condition?.kind === "whenever" ? context.shape.condition.phrase : undefined);
  const subject = before.replace(/\bwhose\s*$/i, "");
  const readings = [
    ...[banned === null ? undefined : resolve(context.lexicon, `${subject} ${banned[1]!}`, { agentOnly: true })].flatMap((p) =>
      p === undefined ? [] : [p],
    ),
    ...[framed === undefined ? undefined : resolve(context.lexicon, framed, { agentOnly: true })].flatMap((p) =>
      p === undefined ? [] : [p],
    ),
    ...actReadings(context.lexicon, before),
    // "Only a participant who has signed consent is randomized: the latest …": the act before the colon.
    ...[ONLY.exec(before)?.[1]].flatMap((p) =>
      p === undefined ? [] : [resolve(context.lexicon, p, { agentOnly: true })].flatMap((r) => (r === undefined ? [] : [r])),
    ),
    ...earlier,
    // "the latest lookup of the accession being withdrawn": the act the look-up's own words name.
    ...[FOR_ACT.exec(m[1]!)].flatMap((f) =>
      f === null ? [] : [resolve(context.lexicon, f[1] ?? f[2]!, { agentOnly: true })].flatMap((r) => (r === undefined ? [] : [r])),
    ),
    ...[frame === undefined ? undefined : resolve(context.lexicon, frame, { agentOnly: true })].flatMap((p) =>
      p === undefined ? [] : [p],
    ),
  ];
  // Not the look-up itself; of the rest, the first reading that shares an id with the look-up, else the first.
  const actsOf = (p: Pattern) => p.flatMap((x) => (exactValue(x.action) === undefined ? [] : [exactValue(x.action)!]));
  const fits = readings.filter((p) => {
    const acts = actsOf(p);
    return acts.length === p.length && !acts.some((a) => looked.includes(a) || looked.includes(`${a}_result`));
  });
  // With no act named by a verb, the one act carrying the keys the sentence writes ("named as `pic_id`", keyed.ts).
  const found =
    fits.find((p) => sharedIds(context.lexicon, actsOf(p), looked).length > 0) ??
    fits[0] ??
    actOfWrittenKeys(context.lexicon, clause, looked);
  if (found === undefined) return undefined;
  const each = carrierOf(context.lexicon, found, m[1]!, looked, framed ?? before) ?? found;
  const acts = actsOf(each);
  const tests = pairs.map(([k, v]) => test(k, v));
  const on = tieOf(context.lexicon, acts, looked, clause, m[1]!);
  const worded = inWords ? wordedValues(context.lexicon, looked, acts, tail, on) : undefined;
  if (worded !== undefined && worded.tests.length === 0) return undefined;
  tests.push(...(worded?.tests ?? []));
  // "… shows `card_status: valid` and less than $10.00 in unpaid fines": an amount on a key of the same look-up.
  let end = m.index + m[0].length + (worded?.length ?? shown.length);
  const rest = tail.slice(shown.length);
  const further = /^\s*and\s+/.exec(rest);
  if (further !== null && looked.length === 1 && !inWords) {
    const phrase = AMOUNT_TAIL.exec(rest.slice(further[0].length))![0];
    const amounts = amountsIn(phrase);
    const amount = amounts.length === 1 && amounts[0]!.start === 0 ? amounts[0]! : undefined;
    const key = amount === undefined ? undefined : amountKey(context.lexicon, looked[0]!, amount.unit, phrase);
    if (amount !== undefined && key !== undefined && stemSet(phrase).size > 0 && nameStems(key).some((s) => stemSet(phrase).has(s))) {
      tests.push(test(key, amount.range));
      end += further[0].length + phrase.length;
    }
  }
  if (tests.some((t) => t === undefined)) return undefined;
  if (banned !== null) end = clause.length;
  const across = on === undefined ? crossTie(context.lexicon, acts, looked, m[1]!) : undefined;
  const latest: Pattern = looked.length === 1 ? [{ action: looked[0]! }] : [{ action: { in: looked } }];
  // The quote stops where the reading does: what the clause says after the values stays for another clause or a notice.
  const start = quote.indexOf(clause);
  const read = start < 0 ? quote : quote.slice(0, start + end).replace(/(?:[\s,;:]|\s(?:and|or)\b)+$/, "");
  const check: ConditionCheck = {
    type: "condition",
    quote: read,
    each,
    with: { r: { latest, ...(on !== undefined ? { on: `metadata.${on}` } : across !== undefined ? { on: across } : {}) } },
    when: banned === null ? tests.join(" && ") : notAll(tests as string[]),
  };
  return { kind: "check", check };
}
