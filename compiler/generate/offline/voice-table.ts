/**
 * A table written out as sentences (voice.ts, issue 25). A funder's schedule, a tariff or a rate card
 * lists its rows one field a sentence: "Item: payments to any one supplier in a session. Limit: £7,500.00
 * in total, every payment to that supplier added together.", "Item: a single payment of at least
 * £1,000.00. Evidence required: a receipt, uploaded against that same invoice …". What a row is about
 * stands in one sentence and what is asked of it in the next; the readers read one sentence at a time,
 * and "Limit: …" alone names no act while "Item: …" alone asks nothing, so the row became two model
 * questions. The row is read as one sentence, in the voice the readers know, at the second one (its
 * quote is the spec's words of the field that states the rule; the subject's words map to none):
 * - a limit: "payments to any one supplier in a session: at most £7,500.00 …" (a bound after a colon,
 *   counts.ts and summed.ts), a minimum "…: at least …";
 * - a requirement: "each single payment of at least £1,000.00 requires evidence: a receipt …" (what
 *   each one requires afterwards, a pairing or a required check, clauses.ts);
 * - a field that asks nothing ("Evidence required: none at the time of payment"): nothing to read.
 * The row's first sentence is then read with the second one and has nothing of its own (absorbed).
 */
import { escapeRegExp } from "./shape.js";
import { absorbed, joined, rewrite, type Voiced } from "./voice-spans.js";

/** A minute's or a note's remark before the row ("Agreed (proposed R.O., seconded J.K.): Item: …"; voice-record.ts drops it later). */
const REMARK = String.raw`(?:[^:]{1,120}?:\s+)?`;

/** "Item: …", "Activity — …", "Applies to: …": the field that says what the row is about. */
const ROW_SUBJECT = new RegExp(
  String.raw`^${REMARK}(?:item|activity|transaction|category|type\s+of\s+(?:act|activity|transaction|payment)|applies\s+to|scope|situation|event)\s*(?::|\s[\u2014\u2013-])\s*(\S.*?)\s*\.?$`,
  "i",
);

/** "Limit: …", "Maximum: …", "Cap — …": the most the row's acts may come to. */
const MOST = new RegExp(String.raw`^${REMARK}(?:(?:upper\s+)?limit|maximum|max\.?|cap|ceiling)\s*(?::|\s[\u2014\u2013-])\s*`, "i");
/** "Minimum: …", "Floor: …": the least. */
const LEAST = new RegExp(String.raw`^${REMARK}(?:minimum|min\.?|floor|lower\s+limit)\s*(?::|\s[\u2014\u2013-])\s*`, "i");
/** "Evidence required: …", "Approval needed: …", "Requirement: …": what each of the row's acts needs. */
const NEEDS = new RegExp(
  String.raw`^${REMARK}(?:([a-z][a-z ]{0,30}?)\s+(?:required|needed)|requirement|required)\s*(?::|\s[\u2014\u2013-])\s*`,
  "i",
);
/** A field that asks nothing: "none at the time of payment", "n/a", "not required". */
const NOTHING = /^(?:none|nil|n\/a|no\s+(?:limit|requirement|evidence)|not\s+(?:required|needed|applicable))\b/i;
/** A value that says its bound itself: "no more than 3", "up to £500". */
const BOUNDED =
  /^(?:at\s+(?:most|least)|no\s+(?:more|fewer|less)|not\s+(?:more|fewer|less)|up\s+to|under|over|below|above|more|less|fewer|exactly)\b/i;

/** The field after a row's subject, and what it asks: undefined when the sentence is no field of a row. */
function field(sentence: string): { kind: "most" | "least" | "needs"; label: RegExpExecArray } | undefined {
  const most = MOST.exec(sentence);
  if (most !== null) return { kind: "most", label: most };
  const least = LEAST.exec(sentence);
  if (least !== null) return { kind: "least", label: least };
  const needs = NEEDS.exec(sentence);
  return needs === null ? undefined : { kind: "needs", label: needs };
}

/** Whether this sentence is a row's subject whose field, in the next sentence, reads it (voice.ts absorbs it). */
export function rowSubject(sentence: string, next: string | undefined): boolean {
  return next !== undefined && ROW_SUBJECT.test(sentence) && field(next) !== undefined;
}

/** "a single payment of at least £1,000.00" → "Each single payment of at least £1,000.00": each one of the row's acts. */
function eachOf(subject: string): string {
  const bare = subject.replace(/^(?:a|an|the|any|one|each|every)\s+/i, "");
  return `Each ${bare.charAt(0).toLowerCase()}${bare.slice(1)}`;
}

/** The field sentence of a row read with the row's subject (the sentence before), in the readers' voice. */
export function tableRow(v: Voiced, previous: string | undefined): Voiced {
  const subject = previous === undefined ? null : ROW_SUBJECT.exec(previous);
  const found = field(v.text);
  if (subject === null || found === undefined) return v;
  const value = v.text.slice(found.label[0].length);
  // "Evidence required: none at the time of payment": the row asks nothing, so there is nothing to read.
  if (NOTHING.test(value)) return absorbed(v);
  const label = new RegExp(`^${escapeRegExp(found.label[0])}`, "g");
  if (found.kind === "needs") {
    // "Evidence required: a receipt …" → "Each … requires evidence: a receipt …".
    const noun = found.label[1]?.trim().toLowerCase();
    return joined(
      rewrite(v, label, () => (noun === undefined ? "" : `${noun}: `)),
      `${eachOf(subject[1]!)} requires `,
    );
  }
  const bound = BOUNDED.test(value) ? "" : found.kind === "most" ? "at most " : "at least ";
  const text = subject[1]!;
  return joined(
    rewrite(v, label, () => bound),
    `${text.charAt(0).toUpperCase()}${text.slice(1)}: `,
  );
}
