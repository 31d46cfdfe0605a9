/**
 * Sentences of a section that state no obligation, whatever voice the spec is written in (issue 25).
 * Specs come as minutes, e-mail threads and notes, and much of what they write is the record around a
 * rule, not the rule: a message's header ("**Helen Marsh · Tue 9 Mar, 13:02**"), a question in a reply
 * ("Two things: what about …?"), a report or observation ("It was noted that …", "JV reported that
 * …"), a minute's action item ("Action: TB to set the assistant up accordingly"), a meeting's closing
 * ("There being no other business, the meeting closed at 10:40"), and a draft a later message
 * corrects ("Rule 2 as drafted: 37 MBq per researcher" before "Correction …: the figure is 370 MBq,
 * not 37"). Read as rules they gave checks on the wrong numbers and model questions on stories; they
 * are context: the drafters do not read them, and no "not covered" notice is owed for them
 * (coverage.ts lists the ones that carry an obligation's words, so nothing goes unsaid).
 */
import { answersInOwnWords, deniesAsked, unspoken } from "./speakers.js";
import { readWithNeighbour } from "./voice-joins.js";

export type ContextKind = "header" | "question" | "report" | "edge" | "action" | "closing" | "superseded";

/** What each kind is, as the interview and the docs say it. */
export const CONTEXT_KINDS: Record<ContextKind, string> = {
  header: "a message header",
  question: "a question",
  report: "a report or observation",
  edge: "an answer settling a bound's edge",
  action: "an action item",
  closing: "the meeting's closing",
  superseded: "a draft a later message corrects",
};

/** "It was noted that …", "JV reported that …", "Tom asked whether …", "Discussion of the near miss …": a record of what was said or seen. */
const REPORT = new RegExp(
  String.raw`^(?:[Ii]t\s+was\s+(?:noted|reported|observed|mentioned|pointed\s+out|remarked|explained|recalled|said)\b` +
    String.raw`|(?:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}|[Tt]he\s+[a-z]+(?:\s+[a-z]+)?)(?:\s+\([^)]*\))?\s+(?<!\b(?:is|are|was|were|be|been|being|gets?|got)\s+)(?:noted|reported|explained|said|added|mentioned|observed|remarked|recalled|reminded|complained|described|told|asked|wondered|pointed\s+out|raised)\b` +
    String.raw`|[Dd]iscussion\s+(?:of|on|about)\b)`,
);
/**
 * "Exactly at the cap is within it", "Two thousand on the dot is fine", "Two permits in one lab are two caps": an answer
 * that says which side of a bound its edge falls on, or that two things have a bound each. The rule it answers states the
 * bound ("at most 370 MBq" is inclusive, "per permit" is one cap each); read on its own it became a count of 2 or a question.
 */
const EDGE =
  /^(?:exactly\s+(?:at\s+|on\s+)?(?:the\s+)?[\w£$€.,]+(?:\s+[\w.]+)?|[\w£$€.,]+(?:\s+[\w.]+)?\s+on\s+the\s+dot)\s+(?:is|are|→|=)\s+(?:within(?:\s+it)?|inside(?:\s+it)?|fine|ok|okay|allowed|permitted|acceptable|all\s+right)$|^(?:two|2)\s+[\w-]+(?:\s+[\w-]+){0,4}?\s*(?:are|=|→|,)\s*(?:two|2)\s+(?:separate\s+)?(?:caps|limits|ceilings|totals|allowances|budgets|maximums|maxima)$/i;
/** "…; it was agreed it could not": a report that goes on to record a decision is the decision's sentence. */
const DECIDED = /\b(?:agreed|decided|resolved|ruled|confirmed)\b/i;
/** "Action: TB to set the assistant up accordingly", "Actions: MK and JV to brief both drivers". */
const ACTION =
  /^(?:\*\*|__)?(?:actions?|action\s+(?:items?|points?)|to\s+do)(?:\*\*|__)?\s*[:\u2014\u2013-]\s*(?:\*\*|__)?(?:[A-Z][\w.'-]*|all)(?:\s*(?:,|and|&|\/)\s*[A-Z][\w.'-]*)*\s+to\s+[a-z]/i;
/** "There being no other business, …", "The meeting closed at 10:40", "Next meeting: 1 April 2027", a letter's sign-off. */
const CLOSING =
  /^(?:there\s+being\s+no\s+(?:other|further)\s+business\b|the\s+meeting\s+(?:closed|ended|was\s+closed|adjourned)\b|meeting\s+(?:closed|ended|adjourned)\b|(?:date\s+of\s+(?:the\s+)?)?next\s+meeting\b|(?:many\s+)?thanks(?:\s+all)?\s*,?\s*[A-Z]?\w*$|(?:kind\s+|best\s+)?regards\b|best\s*,?\s*[A-Z]\w*$|cheers\b)/i;

/**
 * A later sentence that corrects an earlier one: "Correction to my note of Monday: …", "This replaces
 * …", "… instead of …", "… no longer …", "Amended: …".
 */
const CORRECTS =
  /^(?:correction|corrected|amended|amendment|revised|update[d]?|erratum)\b|\b(?:correction\s+to|replaces?|supersedes?|instead\s+of|no\s+longer|scratch\s+that|ignore\s+my)\b/i;
/** "Rule 2 as drafted: …", "as first proposed", "Draft: …", "Originally: …": a sentence saying it is a draft. */
const DRAFT = /\bas\s+(?:first\s+|originally\s+)?(?:drafted|proposed|written|circulated)\b|^(?:draft|original(?:ly)?|first\s+draft)\s*:/i;
/** "the figure is 370 MBq, not 37", "per permit, not per researcher": what the correction takes back. */
const TAKEN_BACK = /,\s+not\s+((?:per\s+|by\s+|the\s+)?[\w.£$€-]+)/gi;

/** A sentence as the section's context reading sees it: its words, and whether it was asked. */
export interface Said {
  text: string;
  asked: boolean;
  /** A message's header (header.ts): context whatever it says. */
  header?: boolean;
}

/**
 * Which sentences of a section are context, and of what kind (undefined: the sentence may state a
 * rule). `sentences` are the section's non-rationale sentences in order.
 */
export function contextKinds(sentences: readonly Said[]): (ContextKind | undefined)[] {
  const texts = sentences.map((s) => unspoken(s.text));
  // A question's answer is the next sentence said, past the header of the message it is in.
  const said = (i: number) => texts.slice(i + 1).find((_, k) => sentences[i + 1 + k]!.header !== true);
  return sentences.map((s, i) => {
    if (s.header === true) return "header";
    const text = asProse(texts[i]!);
    const next = said(i);
    if (s.asked && !answered(text, next)) return "question";
    if (REPORT.test(text) && !DECIDED.test(text.replace(REPORT, ""))) return "report";
    if (EDGE.test(text)) return "edge";
    if (ACTION.test(text)) return "action";
    if (CLOSING.test(text)) return "closing";
    if (superseded(text, texts.slice(i + 1))) return "superseded";
    return undefined;
  });
}

/**
 * Whether a question is one an FAQ's answer reads: a bare "No."/"Yes." after it, or an answer that says
 * the rule with it (voice-joins.ts). An answer that goes on in words of its own ("Once per visit? — No.
 * Correction to Monday: before each issue, …") says the rule itself: the question is what it turns down.
 * A flowchart's question is answered too: "Is the batch older than 24 hours? If yes, …" states the
 * condition its branches act on, so the question is part of the rule, not a remark.
 */
function answered(question: string, next: string | undefined): boolean {
  if (next === undefined || answersInOwnWords(next)) return false;
  // "… ? That is exactly what we are here to prevent.": the answer is a "No" (speakers.ts deniesAsked).
  if (deniesAsked(next)) return true;
  return readWithNeighbour(question, next) || /^(?:A\s*\d*[.:]\s*)?(?:no|yes)\b|^if\s+(?:yes|no|so|not)\b/i.test(next);
}

/**
 * Whether a later sentence corrects this one: it calls itself a draft and a correction follows, or a
 * correction takes back words it writes ("…, not 37" of "37 MBq per researcher").
 */
function superseded(text: string, later: readonly string[]): boolean {
  const corrections = later.filter((t) => CORRECTS.test(t));
  if (corrections.length === 0 || CORRECTS.test(text)) return false;
  if (DRAFT.test(text)) return true;
  return corrections.some((c) =>
    [...c.matchAll(TAKEN_BACK)].some((m) => new RegExp(`(?<![\\w.])${escape(m[1]!)}(?![\\w.]*\\w)`, "i").test(text)),
  );
}

/** "JV REPORTED THAT …" read as "Jv reported that …": a card in capitals says what prose does (the name test wants a capital only first). */
const asProse = (text: string) => (/[a-z]/.test(text) ? text : text.toLowerCase().replace(/^[^a-z]*[a-z]/, (c) => c.toUpperCase()));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
