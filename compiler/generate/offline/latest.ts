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
import type { Binding, Check, ConditionCheck, Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";
import { amountKey, amountsIn } from "./amounts.js";
import { resolve, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { keyRef } from "./keys.js";
import { actionKeys, type Lexicon } from "./lexicon.js";
import { backtickedNames } from "./backticks.js";
import type { SentenceShape } from "./shape.js";
import { shownValues } from "./shown.js";
import { crossTie } from "./crossed.js";
import { actOfWrittenKeys } from "./keyed.js";
import { lookedByWords, wordedValues } from "./worded.js";
import { nameStems, stemSet } from "./words.js";

/** "the latest fetch of that order must show", "whose most recent record shows", "the last check … came back". */
const LATEST =
  /\b(?:latest|most recent|newest|last)\s+((?:[^`:;]|`[A-Za-z0-9_.]+`)*?)\s*,?\s*\b(?:must|has to|have to|should|needs? to)?\s*(?:still\s+)?(?:have\s+)?(?:shows?|showed|shown|say|says|said|reads?|come back|comes back|came back|returned|returns?|directs?|has(?!\s+(?:come|came|been|to|shown|said|returned|read)\b)|places)\b/i;
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

/** The identifier key the act and the looked-up event both carry, the one the words name (else the only one). */
function sharedIds(lexicon: Lexicon, acts: readonly string[], looked: readonly string[]): string[] {
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
function tieOf(lexicon: Lexicon, acts: readonly string[], looked: readonly string[], words: string, phrase: string): string | undefined {
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
function carrierOf(lexicon: Lexicon, each: Pattern, phrase: string, looked: readonly string[], words: string): Pattern | undefined {
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
function lookedFor(lexicon: Lexicon, pairs: readonly [string, ValueMatcher][], phrase: string): string[] {
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
const LOOKUP_WORDS = /\b(?:look-?ups?|look\s+up|records?|queries|query)\b/i;
const LOOKUP_NAMES = /^(?:find|lookup|look_up|get|fetch|query|search|retrieve)_[a-z_]+?(?<!_result)$/;

/** "the latest weather check for that field", "the most recent lookup of that animal (find_animal)": the one event the words name. */
function lookedInWords(lexicon: Lexicon, phrase: string): string[] {
  const head = phrase.replace(TIE, " ").replace(/[()]/g, " ");
  const found = (resolve(lexicon, head) ?? []).flatMap((p) => (exactValue(p.action) === undefined ? [] : [exactValue(p.action)!]));
  // "the most recent lookup of that same boat": a bare look-up is the one call the samples name as one (`find_vessel`).
  const bare = found.length === 0 && LOOKUP_WORDS.test(head) ? lexicon.actions.filter((a) => LOOKUP_NAMES.test(a.name)) : [];
  const looked = lookedByWords(lexicon, found.length > 0 ? found : bare.length === 1 ? [bare[0]!.name] : []);
  return looked.length === 1 ? looked : [];
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

/** Who did it, when the words name a role: "someone", "a supervisor", "an appointed person". */
const PERSON = String.raw`(?:someone|somebody|a person|anyone|a different person|a colleague|(?:a|an)\s+((?:[a-z-]+\s+){0,2}?[a-z-]+?))`;
/** "other than", "who is not": the person written after it is the one who may not have done it. */
const OTHER = String.raw`\s+(?:other than|(?:who|that) (?:is not|isn't|was not|wasn't))\s+(?:the\s+)?`;
/** A past participle of the deed: "given", "approved", "made". */
const DONE = String.raw`(?:given|made|signed|coming|approved|issued|done|taken|drawn|performed|checked|carried out)`;

/** "the approver is not the employee being paid", "from someone other than the clerk who asked for it", "was given by a supervisor other than …". */
const NOT_SAME = new RegExp(
  String.raw`^(?:and\s+|but\s+)?(?:(?:the|that|this|its)\s+([a-z][a-z -]*?)\s+(?:is not|isn't|is never|cannot be|can't be|must not be|may not be|never is)\s+(?:the\s+(?:same\s+)?)?([a-z].*)|(?:(?:was|were|is|are|has been|have been|must have been)\s+)?(?:${DONE}\s+)?(?:by|from)\s+${PERSON}${OTHER}([a-z].*))$`,
  "i",
);

/** "the person who cleared it must be someone other than …", "the plan must have been approved by an appointed person other than …". */
const SOMEONE_ELSE = new RegExp(
  String.raw`^(?:and\s+|but\s+)?(?:(?:the|that|this|its|a|an|whoever)\s+)?(.+?)\s+(?:(?:is|must be|has to be|should be|needs to be|shall be|must come|has to come|should come|comes|must have been|has to have been|has been|was)(?:\s+${DONE})?\s+)(?:(?:by|from)\s+)?${PERSON}${OTHER}(.+)$`,
  "i",
);
/** "an archivist may not clear their own loan", "nobody approves their own request". */
const OWN =
  /^(?:and\s+|but\s+)?(?:(?:the|that|this|a|an)\s+)?(.+?)\s+((?:may|must|can|should|shall|does|do)\s+(?:not|never)\s+|cannot\s+|can't\s+|never\s+|(?:is|are) not allowed to\s+)?([a-z]+?)(?:e?s)?\s+(?:their|his|her|its)\s+own\s+(.+)$/i;

/** The values each key of an action shows in the samples. */
function valuesOf(lexicon: Lexicon, actions: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of lexicon.samples)
    for (const e of t.events) {
      if (!actions.includes(e.action)) continue;
      for (const [k, v] of Object.entries(e.metadata ?? {})) {
        if (typeof v !== "string" || /^-?\d+(?:\.\d+)?$/.test(v)) continue;
        const set = out.get(k) ?? new Set<string>();
        set.add(v);
        out.set(k, set);
      }
    }
  return out;
}

/**
 * "the person who cleared it is someone other than the archivist lending it", "the approval must
 * come from someone other than the clerk who asked", "a clerk may not approve their own request":
 * the words for the person of the look-up and for the other one. Undefined when the clause says
 * no such thing.
 */
function otherPerson(text: string): { subject: string; object: string } | undefined {
  const clause = text.replace(/[.;]\s*$/, "");
  const same = NOT_SAME.exec(clause);
  if (same !== null) return { subject: same[1] ?? `${same[3] ?? ""} approver giver`.trim(), object: same[2] ?? same[4] ?? "" };
  const someone = SOMEONE_ELSE.exec(clause);
  if (someone !== null) return { subject: `${someone[1]!} ${someone[2] ?? ""}`.trim(), object: someone[3]! };
  const own = OWN.exec(clause);
  // Only as a ban: "may not clear their own", or "nobody clears their own".
  if (own === null || (own[2] === undefined && !/^(?:nobody|no one|no-one|no\s)/i.test(own[1]!))) return undefined;
  const act = own[3]!;
  return { subject: `${act} ${act}er approver`, object: `${own[1]!} ${own[4]!} requester who asked` };
}

/** Whether a key's name is among the words: a stem of both, or one stem the other's start ("approv", "approver"). */
function names(key: string, stems: Set<string>): boolean {
  return nameStems(key).some(
    (s) => s !== "id" && [...stems].some((t) => t === s || (Math.min(s.length, t.length) >= 5 && (s.startsWith(t) || t.startsWith(s)))),
  );
}

/** The key names a phrase writes in backticks (`requested_by`). */

/**
 * The keys of the look-up and of the act that a "not the same person" clause compares: the pair
 * whose values the samples show in common (the same people), the one whose names the words
 * say first (a key the words write in backticks before any other). Undefined when no pair of keys
 * shares a value, or the words tell no pair apart. `named` asks that the words name one of the two;
 * `things` are keys that identify things, not people (the ids both acts carry).
 */
export function differentPeople(
  lexicon: Lexicon,
  check: ConditionCheck,
  subject: string,
  object: string,
  named = false,
  things: readonly string[] = [],
): [string, string, Record<string, Binding>?] | undefined {
  const latest = check.with?.r;
  if (latest === undefined || !("latest" in latest)) return undefined;
  const on = typeof latest.on === "string" ? latest.on.replace(/^metadata\./, "") : undefined;
  const lookedActs = (latest.latest ?? []).flatMap((m) => {
    const a = exactValue(m.action);
    return a !== undefined ? [a] : typeof m.action === "object" && m.action !== null && "in" in m.action ? (m.action.in as string[]) : [];
  });
  const acts = check.each.flatMap((m) => (exactValue(m.action) === undefined ? [] : [exactValue(m.action)!]));
  const theirs = valuesOf(lexicon, lookedActs);
  let ours = valuesOf(lexicon, acts);
  // "(the `examiner_id` in the latest look-up of the application)": a key the act does not carry, on another look-up of the same thing.
  const elsewhere = backtickedNames(object).filter((k) => !ours.has(k));
  const carriers = lexicon.actions.filter(
    (a) => elsewhere.length === 1 && on !== undefined && [elsewhere[0]!, on].every((k) => a.metadata.some((m) => m.key === k)),
  );
  const results = carriers.filter((a) => a.name.endsWith("_result") && !lookedActs.includes(a.name));
  const other = results.length === 1 ? results[0]!.name : undefined;
  if (other !== undefined) ours = new Map([...valuesOf(lexicon, [other])].filter(([k]) => k === elsewhere[0]));
  const subjectStems = stemSet(subject);
  const objectStems = stemSet(object);
  const [subjectKeys, objectKeys] = [backtickedNames(subject), backtickedNames(object)];
  const pairs: { pair: [string, string]; score: number }[] = [];
  for (const [rk, rv] of theirs)
    for (const [ek, ev] of ours) {
      if (rk === on || ek === on || (named && rk === ek) || things.includes(rk) || things.includes(ek)) continue;
      if (![...rv].some((v) => ev.has(v))) continue;
      const score =
        (subjectKeys.includes(rk) ? 8 : 0) +
        (objectKeys.includes(ek) ? 4 : 0) +
        (names(rk, subjectStems) ? 2 : 0) +
        (names(ek, objectStems) ? 1 : 0);
      if (!named || score > 0) pairs.push({ pair: [rk, ek], score });
    }
  pairs.sort((a, b) => b.score - a.score);
  if (pairs.length === 0 || (pairs.length > 1 && pairs[0]!.score === pairs[1]!.score)) return undefined;
  if (other === undefined) return pairs[0]!.pair;
  return [pairs[0]!.pair[0], pairs[0]!.pair[1], { a: { latest: [{ action: other }], on: `metadata.${on}` } }];
}

type Outcome = ClauseOutcome;

/** Whether an outcome is a condition on a latest look-up, which a "someone other than" clause can compare people against. */
const onLatest = (outcome: Outcome | undefined): outcome is Extract<Outcome, { kind: "check" }> & { check: ConditionCheck } =>
  outcome?.kind === "check" &&
  outcome.check.type === "condition" &&
  outcome.check.with?.r !== undefined &&
  "latest" in outcome.check.with.r;

/**
 * "…: the latest approval request for it came back `decision: approved`, and the approver is not
 * the employee being paid": the look-up's condition also asks that two keys differ, the keys whose
 * values the samples show are people on both events. The clause is read into the condition (its
 * quote reaches over it) or, when no pair of keys fits, left to stand as it was drafted. A clause
 * that says so further on, or a sentence of its own after the condition's ("The approval must
 * come from someone other than the clerk who asked", "A clerk may not approve their own upgrade"),
 * becomes a condition of its own on the same look-up, with the words of the rule naming one of
 * the keys; `earlier` are the checks the rule's earlier sentences drafted.
 */
export function withIdentity(
  lexicon: Lexicon,
  shape: Pick<SentenceShape, "sentence" | "clauses">,
  earlier: readonly Check[],
  outcomes: readonly Outcome[],
): Outcome[] {
  const { sentence, clauses } = shape;
  const out = outcomes.slice();
  out.forEach((outcome, i) => {
    if (!onLatest(outcome)) return;
    const check = outcome.check;
    const start = sentence.indexOf(check.quote);
    if (start < 0) return;
    // What the sentence says right after the condition's quote, in its own clause or the next one.
    const after = sentence
      .slice(start + check.quote.length)
      .replace(/^[\s,;:—-]+/, "")
      .replace(/^(?:and|but)\s+/i, "");
    const nextClause = clauses[i + 1];
    const own = clauses[i]!.includes(after) && after !== "" ? after : undefined;
    const text = own ?? (nextClause !== undefined && after.startsWith(nextClause.replace(/^(?:and|but)\s+/i, "")) ? nextClause : undefined);
    const said = text === undefined ? undefined : otherPerson(text);
    if (said === undefined || text === undefined || (own === undefined && out[i + 1]?.kind === "check")) return;
    const pair = differentPeople(lexicon, check, said.subject, said.object);
    if (pair === undefined) return;
    const end = sentence.indexOf(text, start) + text.length;
    const quote = sentence.slice(start, end).replace(/[\s.;,]+$/, "");
    const when = `${check.when} && ${keyRef("r", pair[0])} != ${keyRef(pair[2] === undefined ? "event" : "a", pair[1])}`;
    out[i] = { ...outcome, check: { ...check, quote, with: { ...check.with, ...pair[2] }, when } };
    if (own === undefined) out[i + 1] = { kind: "skip" };
  });
  // Further on, or in a sentence of its own: a condition of its own on the latest look-up drafted last.
  clauses.forEach((clause, i) => {
    const said = otherPerson(clause);
    if (said === undefined || out[i]?.kind === "skip" || onLatest(out[i])) return;
    const before = out.slice(0, i).filter(onLatest);
    const prior = earlier.filter((c): c is ConditionCheck => c.type === "condition" && c.with?.r !== undefined && "latest" in c.with.r);
    const target = before.length > 0 ? before[before.length - 1]!.check : prior[prior.length - 1];
    if (target === undefined) return;
    const pair = differentPeople(lexicon, target, said.subject, said.object, true);
    const quote = clause.replace(/^(?:and|but)\s+/i, "").replace(/[\s.;,]+$/, "");
    if (pair === undefined || !sentence.includes(quote)) return;
    const when = `${keyRef("r", pair[0])} != ${keyRef(pair[2] === undefined ? "event" : "a", pair[1])}`;
    out[i] = { kind: "check", check: { type: "condition", quote, each: target.each, with: { r: target.with!.r!, ...pair[2] }, when } };
  });
  return out;
}
