/**
 * Which obligations of a section no clause of its rule covers. An obligation
 * is a sentence that states one (a modal, "never", "every", "only", a count
 * bound…), and each of its sub-clauses joined by "and" or "; " counts on its
 * own: "the door is unlocked only after X and the verification comes back
 * `status: verified`" is two. A sub-clause is covered when some check's or
 * semantic check's quote overlaps it in the section text. What is left is
 * said, never dropped silently: by the offline drafter (a note), the
 * interview ("not covered") and `lint` (`uncovered-sentence`).
 */
import type { MetaBehavior } from "../ir/types.js";
import type { DraftNote } from "./types.js";
import { sectionSentences, splitSentences, tableCells } from "./offline/sentences.js";
import { CONTEXT_KINDS } from "./offline/context.js";
import { forbidsByPassive } from "./offline/shape.js";
import { normalizeWhitespace } from "./offline/words.js";

/** Words that make a sentence state an obligation rather than describe or explain. */
const OBLIGATION =
  /\b(?:must|mustn't|never|always|every|each|whenever|only|should|shouldn't|shall|cannot|can't|may not|required|requires?|needs?|forbidden|not allowed|(?:has|have) to|at most|at least|no more than|no fewer than|fewer than|more than|capped at|no further|is followed by|are followed by)\b/i;
/**
 * "a commit that was never pushed", "a customer who still can't get through": a cue word that
 * describes a state or sits in a relative clause forbids nothing.
 */
const NOT_A_CUE =
  /\b(?:was|were|is|are|been|has|have|had)\s+never\b|\b(?:who|that|which)\s+(?:\w+\s+){0,2}?(?:never|can't|cannot|must|should|only)\b/gi;
/**
 * "Don't mix theatre linen with ward linen", "No pool opens until it is tested", "Do not reopen
 * it": an imperative or a determiner that forbids at the head of the sentence, with no modal.
 */
const FORBIDS_AT_HEAD = /^\W*(?:please\s+)?(?:don't|do not|no\s+[a-z])/i;
/**
 * A table column whose header makes each of its cells an obligation, cue word or not: a "Do /
 * Don't" list's "| Don't | Mix theatre linen with ward linen |", a risk table's "Controls".
 */
const OBLIGATION_COLUMN =
  /^(?:do|dos|do's|don't|don'ts|do not|must|must not|mustn't|never|always|required|forbidden|not allowed|shall|shall not|rules?|controls?|control measures?)$/i;
/** A new sub-clause: after "; ", ", and ", or " and " followed by a subject or a modal. */
const SUB_CLAUSE =
  /;\s+|,\s+and\s+|\s+and\s+(?=(?:the|a|an|it|its|they|their|every|each|no|never|must|should|shall|has to|have to|then)\s)/i;
/** Sub-clauses shorter than this many words are a list's items, not obligations. */
const MIN_WORDS = 3;

/** One obligation: the sub-clause's text and where it sits in the section's whitespace-normalized body. */
export interface Obligation {
  text: string;
  /** The whole sentence it is part of (without its final stop). */
  sentence: string;
  start: number;
  end: number;
}

/** Whether a sentence states an obligation. */
export function statesObligation(sentence: string): boolean {
  // "the loan is not renewed again", "no kit is dispensed to them": a negated passive forbids (offline/shape.ts).
  return OBLIGATION.test(sentence.replace(NOT_A_CUE, " ")) || FORBIDS_AT_HEAD.test(sentence) || forbidsByPassive(sentence);
}

/**
 * The obligations of a section body's paragraphs and list items, in order: what the readers read.
 * Of its tables, only the cells the readers read (sentences.ts ruleCells); every cell that states
 * one is in tableObligations.
 */
export function obligations(body: string): Obligation[] {
  const normalized = normalizeWhitespace(body);
  const out: Obligation[] = [];
  let from = 0;
  for (const sentence of sectionSentences(body)) {
    const at = normalized.indexOf(sentence.text, from);
    if (at < 0) continue;
    from = at + sentence.text.length;
    // A bare act its place bans ("| Don't | Mix … |", an item under "Never:") is an obligation by its place.
    if (sentence.role !== "rule" || !(sentence.banned === true || statesObligation(sentence.text))) continue;
    out.push(...subClauses(sentence.text, at));
  }
  return out;
}

/** The obligations written in a section body's table cells, in order (a cell's column can make it one). */
export function tableObligations(body: string): Obligation[] {
  const normalized = normalizeWhitespace(body);
  const out: Obligation[] = [];
  let from = 0;
  for (const cell of tableCells(body)) {
    const at = normalized.indexOf(cell.text, from);
    if (at < 0) continue;
    from = at + cell.text.length;
    const column = OBLIGATION_COLUMN.test(cell.column.replace(/[*_`:.!]/g, "").trim());
    let offset = 0;
    for (const sentence of splitSentences(cell.text)) {
      offset = cell.text.indexOf(sentence, offset);
      if (offset < 0) break;
      if (column || statesObligation(sentence)) out.push(...subClauses(sentence, at + offset));
      offset += sentence.length;
    }
  }
  return out;
}

/** A sentence's sub-clauses of at least MIN_WORDS words, each an obligation; `at` is where the sentence sits. */
function subClauses(sentence: string, at: number): Obligation[] {
  const out: Obligation[] = [];
  let offset = 0;
  for (const part of splitKeepingOffsets(sentence)) {
    offset = sentence.indexOf(part, offset);
    const words = part.split(/\s+/).filter((w) => /\w/.test(w)).length;
    if (words >= MIN_WORDS) out.push({ text: part, sentence, start: at + offset, end: at + offset + part.length });
    offset += part.length;
  }
  return out;
}

function splitKeepingOffsets(sentence: string): string[] {
  return sentence
    .split(SUB_CLAUSE)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/** Every place a quote occurs in the normalized body. */
function spans(quote: string, normalized: string): [number, number][] {
  const q = normalizeWhitespace(quote);
  const out: [number, number][] = [];
  if (q === "") return out;
  for (let at = normalized.indexOf(q); at >= 0; at = normalized.indexOf(q, at + 1)) out.push([at, at + q.length]);
  return out;
}

/** The rule's quotes: every check's and semantic check's. */
export function ruleQuotes(rule: Pick<MetaBehavior, "checks" | "semanticChecks">): string[] {
  return [...rule.checks.map((c) => c.quote), ...rule.semanticChecks.map((c) => c.quote)];
}

/** The section's obligations that none of the quotes overlaps (by at least one word character). */
export function uncoveredObligations(body: string, quotes: readonly string[]): Obligation[] {
  const normalized = normalizeWhitespace(body);
  const covered = quotes.flatMap((q) => spans(q, normalized));
  // A cell the readers read (a "Do" column's) is among the paragraphs' obligations already.
  const read = obligations(body);
  const at = new Set(read.map((o) => `${o.start}:${o.end}`));
  const all = [...read, ...tableObligations(body).filter((o) => !at.has(`${o.start}:${o.end}`))].sort((a, b) => a.start - b.start);
  return all.filter(
    (o) =>
      !covered.some(([start, end]) => {
        const from = Math.max(start, o.start);
        const to = Math.min(end, o.end);
        return to > from && /\w/.test(normalized.slice(from, to));
      }),
  );
}

/**
 * The section's sentences read as context, not as rules (offline/context.ts), that a reader could take
 * for one: those with an obligation's words, and every draft a later message corrects. They are owed no
 * "not covered" notice, but the interview names them with what they were taken for, so that none of
 * the spec's rule-like words is passed over without a word.
 */
export function contextSentences(body: string): { text: string; kind: string }[] {
  return sectionSentences(body)
    .filter((s) => s.role === "context" && s.context !== undefined && s.context !== "header")
    .filter((s) => s.context === "superseded" || statesObligation(s.text))
    .map((s) => ({ text: s.text, kind: CONTEXT_KINDS[s.context!] }));
}

/** The note the drafter, the interview and lint give for an uncovered obligation. */
export function uncoveredMessage(obligation: Obligation): string {
  return `not covered: no clause quotes ${JSON.stringify(obligation.text)}; add a check or a semantic question for it, or leave it out knowingly`;
}

/** The drafter's notes for a rule's uncovered obligations (no clause: they are about the rule). */
export function coverageNotes(rule: Pick<MetaBehavior, "checks" | "semanticChecks">, body: string): Omit<DraftNote, "rule">[] {
  return uncoveredObligations(body, ruleQuotes(rule)).map((o) => ({ kind: "uncovered-sentence" as const, message: uncoveredMessage(o) }));
}
