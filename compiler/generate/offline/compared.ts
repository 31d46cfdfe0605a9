/**
 * A look-up's value compared with the act's own value (docs/FORMATS.md §10 `when`): "…must show
 * `status: available`, with an `expires` time later than the unit's `issued_at`", "the unit must
 * be issued no later than that crossmatch's `valid_until` time", "the amount paid may not exceed
 * its `prize_amount`", "the payment must be made on or before the `claim_deadline`", "(the same
 * `mrn`)". Each is one more test in the `when` of the condition on the latest look-up the rule
 * drafted (latest.ts): `event.issued_at <= r.valid_until`. One side writes a key in backticks
 * that one of the two events carries; the other side is a key of the other event, written in
 * backticks too or named by its words ("the amount paid": `amount`), else the only key of that
 * event holding the same kind of value (dates with dates, numbers with numbers).
 */
import type { Check, ConditionCheck, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { ClauseOutcome } from "./clauses.js";
import { alternation, BETWEEN_KEYS, comparisonOf, OPS, wordsAt, type ComparisonOp } from "./comparisons.js";
import { keyRef } from "./keys.js";
import { sharedKeys, type Lexicon } from "./lexicon.js";
import type { SentenceShape } from "./shape.js";
import { nameStems, stemSet } from "./words.js";
import { withWordedTail } from "./worded.js";

type Op = "<" | "<=" | ">" | ">=";
const SYMBOL: Record<ComparisonOp, Op> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };
/**
 * Words between the two sides, and the comparison they make of the left side with the right: the one
 * table's words before a number, and its words between two keys (comparisons.ts).
 */
const WORDS = new Map<string, Op>([
  ...OPS.flatMap((op) => BETWEEN_KEYS[op].map((w) => [w, SYMBOL[op]] as [string, Op])),
  ...wordsAt("before").map((w) => [w, SYMBOL[comparisonOf(w, "before")!.op]] as [string, Op]),
]);
const COMPARE = new RegExp(`\\b(${alternation([...WORDS.keys()])})\\b`, "i");
/** "may not exceed", "must not be more than", "is never later than": the comparison turned round. */
const NEGATED = /\b(?:not|never|cannot|can't)\s+(?:be\s+)?$/i;
const FLIP: Record<Op, Op> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<" };
/** "(the same `mrn`)", "for the same `mrn`", "carry the same reg as the vehicle loaded": the two events hold one value. */
const SAME = /\bthe\s+same\s+`?([A-Za-z_][A-Za-z0-9_]*)`?/i;
/** "of that exhibit", "for that same crane": what the look-up is of, the act's own. */
const THAT = /^(?:of|for|to)\s+(?:that\s+same|that|the\s+same)\s+([a-z]+)$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

type Kind = "number" | "date" | "other";

/** What a key's values are on some actions' events in the samples: all numbers, all dates, or anything else. */
function kindOf(lexicon: Lexicon, actions: readonly string[], key: string): Kind | undefined {
  let kind: Kind | undefined;
  for (const t of lexicon.samples)
    for (const e of t.events) {
      if (!actions.includes(e.action)) continue;
      const v = (e.metadata as Record<string, unknown> | undefined)?.[key];
      if (v === undefined) continue;
      const k: Kind =
        typeof v === "number" || (typeof v === "string" && /^-?\d+(?:\.\d+)?$/.test(v))
          ? "number"
          : typeof v === "string" && ISO_DATE.test(v)
            ? "date"
            : "other";
      if (kind !== undefined && kind !== k) return "other";
      kind = k;
    }
  return kind;
}

const actionsOf = (pattern: Pattern): string[] =>
  pattern.flatMap((m) => {
    const a = exactValue(m.action);
    if (a !== undefined) return [a];
    return typeof m.action === "object" && m.action !== null && "in" in m.action ? (m.action.in as string[]) : [];
  });

interface Sides {
  /** The act's events (`event`) and the looked-up one (`r`, the name latest.ts binds). */
  act: string[];
  looked: string[];
  /** The key the two are tied by: no comparison of it says anything. */
  on?: string;
}

/** The key one side of a comparison names on one event: a backticked one it carries, else its words', else the only one of a kind. */
function sideKey(lexicon: Lexicon, text: string, actions: readonly string[], kind: Kind | undefined, on?: string): string | undefined {
  const keys = sharedKeys(lexicon, actions).filter((k) => k !== on);
  const written = [...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!).filter((k) => keys.includes(k));
  if (written.length > 0) return written.length === 1 ? written[0] : undefined;
  if (/`/.test(text) || kind === undefined || kind === "other") return undefined;
  const alike = keys.filter((k) => kindOf(lexicon, actions, k) === kind);
  const said = stemSet(text);
  const named = alike.filter((k) => nameStems(k).some((s) => s !== "id" && said.has(s)));
  if (named.length === 1) return named[0];
  return named.length === 0 && alike.length === 1 ? alike[0] : undefined;
}

/** One item read as a test of the look-up against the act, or undefined. */
export function comparisonTest(lexicon: Lexicon, item: string, sides: Sides): string | undefined {
  const same = SAME.exec(item);
  if (same !== null) {
    const key = same[1]!;
    const both = sharedKeys(lexicon, sides.act).includes(key) && sharedKeys(lexicon, sides.looked).includes(key);
    return both && key !== sides.on ? `${keyRef("r", key)} == ${keyRef("event", key)}` : undefined;
  }
  // "of that exhibit": the look-up is of the act's own thing, a key both carry that the words name.
  const that = THAT.exec(item);
  if (that !== null) {
    const said = stemSet(that[1]!);
    const shared = sharedKeys(lexicon, sides.act).filter((k) => k !== sides.on && sharedKeys(lexicon, sides.looked).includes(k));
    const named = shared.filter((k) => nameStems(k).some((s) => s !== "id" && said.has(s)));
    return named.length === 1 ? `${keyRef("r", named[0]!)} == ${keyRef("event", named[0]!)}` : undefined;
  }
  const m = COMPARE.exec(item);
  if (m === null) return undefined;
  const left = item.slice(0, m.index);
  const right = item.slice(m.index + m[0].length);
  const words = m[1]!.toLowerCase().replace(/\s+/g, " ");
  let op = WORDS.get(words)!;
  if (NEGATED.test(left)) op = FLIP[op];
  // The side that writes a key of the look-up (and not of the act) is the look-up's; the other is the act's.
  const lookedKeys = sharedKeys(lexicon, sides.looked);
  const actKeys = sharedKeys(lexicon, sides.act);
  const ticked = (text: string) => [...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((x) => x[1]!);
  const onLooked = (text: string) => ticked(text).some((k) => lookedKeys.includes(k) && !actKeys.includes(k));
  const onAct = (text: string) => ticked(text).some((k) => actKeys.includes(k) && !lookedKeys.includes(k));
  const lookedLeft = onLooked(left) || (onAct(right) && !onLooked(right));
  if (!lookedLeft && !onLooked(right) && !onAct(left)) return undefined;
  const [lookedText, actText] = lookedLeft ? [left, right] : [right, left];
  const writtenKey = (text: string, actions: string[]) => ticked(text).find((k) => sharedKeys(lexicon, actions).includes(k));
  const anchor = writtenKey(lookedText, sides.looked) ?? writtenKey(actText, sides.act);
  const kind =
    anchor === undefined
      ? undefined
      : writtenKey(lookedText, sides.looked) !== undefined
        ? kindOf(lexicon, sides.looked, anchor)
        : kindOf(lexicon, sides.act, anchor);
  if (kind !== "number" && kind !== "date") return undefined;
  const rKey = sideKey(lexicon, lookedText, sides.looked, kind, sides.on);
  const eKey = sideKey(lexicon, actText, sides.act, kind, sides.on);
  if (rKey === undefined || eKey === undefined) return undefined;
  if (kindOf(lexicon, sides.looked, rKey) !== kind || kindOf(lexicon, sides.act, eKey) !== kind) return undefined;
  const [a, b] = lookedLeft ? [keyRef("r", rKey), keyRef("event", eKey)] : [keyRef("event", eKey), keyRef("r", rKey)];
  return `${a} ${op} ${b}`;
}

/** Where a run of comparisons splits into items: commas, "and", "with", semicolons. */
const ITEM = /\s*(?:[,;]\s*(?:and\s+|with\s+)?|\s+and\s+|\s+with\s+)/gi;
/** "of that exhibit to that claimant": one thing after another the look-up is of, each an item. */
const THAT_ITEM = /^(?:of|for|to)\s+(?:that\s+same|that|the\s+same)\s+[a-z]+(?=\s+(?:of|for|to)\s+(?:that|the\s+same)\s)/i;

/**
 * The tests a text makes, item by item from its start, and how many characters they take; the
 * reading stops at the first item that is no comparison.
 */
function comparisons(lexicon: Lexicon, text: string, sides: Sides): { tests: string[]; length: number } {
  const tests: string[] = [];
  let at = 0;
  let length = 0;
  while (at < text.length) {
    ITEM.lastIndex = at;
    const next = ITEM.exec(text);
    const chained = THAT_ITEM.exec(text.slice(at));
    if (chained !== null && (next === null || at + chained[0].length < next.index)) {
      const test = comparisonTest(lexicon, chained[0], sides);
      if (test === undefined) break;
      tests.push(test);
      length = at + chained[0].length;
      at = length + /^\s*/.exec(text.slice(length))![0].length;
      continue;
    }
    const end = next === null ? text.length : next.index;
    const test = comparisonTest(lexicon, text.slice(at, end), sides);
    if (test === undefined) break;
    tests.push(test);
    length = end;
    if (next === null) break;
    at = next.index + next[0].length;
  }
  return { tests, length };
}

type Condition = Extract<ClauseOutcome, { kind: "check" }> & { check: ConditionCheck };

const onLatest = (outcome: ClauseOutcome | undefined): outcome is Condition =>
  outcome?.kind === "check" &&
  outcome.check.type === "condition" &&
  outcome.check.with?.r !== undefined &&
  "latest" in outcome.check.with.r;

function sidesOf(check: ConditionCheck): Sides | undefined {
  const r = check.with?.r;
  if (r === undefined || !("latest" in r) || r.latest === undefined) return undefined;
  const on = typeof r.on === "string" ? r.on.replace(/^metadata\./, "") : undefined;
  const act = actionsOf(check.each);
  const looked = actionsOf(r.latest);
  if (act.length === 0 || looked.length === 0) return undefined;
  return { act, looked, ...(on !== undefined ? { on } : {}) };
}

/**
 * The comparisons a sentence makes between a look-up and the act: right after a condition's quote
 * (its `when` and quote grow over them, and a clause they fill is read), or in a clause of their
 * own that no reading took, against the condition on the latest look-up drafted last (`earlier`
 * are the rule's checks so far): a condition of its own on the same look-up.
 */
export function withComparisons(
  lexicon: Lexicon,
  shape: Pick<SentenceShape, "sentence" | "clauses">,
  earlier: readonly Check[],
  outcomes: readonly ClauseOutcome[],
): ClauseOutcome[] {
  const { sentence, clauses } = shape;
  // Values said in words in a clause of their own first ("… and shows no permit valid for that lot", worded.ts).
  const out = withWordedTail(lexicon, shape, outcomes);
  out.forEach((outcome, i) => {
    if (!onLatest(outcome)) return;
    const sides = sidesOf(outcome.check);
    const start = sentence.indexOf(outcome.check.quote);
    if (sides === undefined || start < 0) return;
    const afterQuote = start + outcome.check.quote.length;
    const lead = /^(?:\s*[,;:]\s*|\s+)(?:(?:and|but|with)\s+)?/.exec(sentence.slice(afterQuote));
    if (lead === null) return;
    const from = afterQuote + lead[0].length;
    const found = comparisons(lexicon, sentence.slice(from), sides);
    if (found.tests.length === 0) return;
    const end = from + found.length;
    const quote = sentence.slice(start, end).replace(/[\s.;,]+$/, "");
    out[i] = { ...outcome, check: { ...outcome.check, quote, when: [outcome.check.when, ...found.tests].join(" && ") } };
    // A later clause the comparisons read whole is covered by the condition now.
    clauses.forEach((clause, j) => {
      const at = sentence.indexOf(clause, afterQuote);
      if (j > i && at >= afterQuote && at + clause.length <= end + 1) out[j] = { kind: "skip" };
    });
  });
  clauses.forEach((clause, i) => {
    if (out[i]?.kind !== "semantic") return;
    const before = out.slice(0, i).filter(onLatest);
    const prior = earlier.filter((c): c is ConditionCheck => c.type === "condition" && c.with?.r !== undefined && "latest" in c.with.r);
    const target = before.length > 0 ? before[before.length - 1]!.check : prior[prior.length - 1];
    const sides = target === undefined ? undefined : sidesOf(target);
    if (target === undefined || sides === undefined) return;
    const text = clause.replace(/^(?:and|but|also)\s+/i, "").replace(/[\s.;,]+$/, "");
    const found = comparisons(lexicon, text, sides);
    // The whole clause, or it stays the question it was.
    if (found.tests.length === 0 || text.slice(found.length).trim() !== "" || !sentence.includes(text)) return;
    out[i] = {
      kind: "check",
      check: { type: "condition", quote: text, each: target.each, with: { r: target.with!.r! }, when: found.tests.join(" && ") },
    };
  });
  return out;
}
