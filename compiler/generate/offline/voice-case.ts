/**
 * Capitals read as ordinary case (issue 25): a laminated card, a notice or a shouted line writes
 * "HIRE OUT → ONLY IF THE LATEST ACCOUNT CHECK OF THAT SAME CUSTOMER SAYS ID VERIFIED = YES", and
 * the readers, written against ordinary prose, look for "only if", "the latest", "of that same" in
 * lower case, and for a sentence's start by its one capital. So before any other step of the voice
 * layer a sentence in capitals is put in sentence case: every letter outside backticks lowered but
 * the first. A name in backticks is the samples' own spelling and stays as written.
 *
 * One character for one: the folded text has the original's length, so every span the later steps
 * keep still points at the same characters of the spec's sentence, and a quote is the spec's own
 * words, in capitals (voice-spans.ts).
 *
 * Only a sentence that shouts is folded: most of its words in capitals. "Call the RSO before any
 * issue" keeps its acronym, and "NEVER" or "ONLY" stressed alone in a sentence of ordinary case is
 * lowered (a stress is no name), so "NEVER hire" reads as "never hire".
 */

/** Words of two letters or more outside backticks. */
const WORD = /`[^`]*`|[A-Za-z][A-Za-z']*[A-Za-z]/g;

/** Stressed words that are never names: lowered wherever they stand. */
const STRESS =
  /\b(?:NEVER|ONLY|MUST|NOT|NO|ALWAYS|EVERY|EACH|ALL|ANY|BEFORE|AFTER|UNLESS|SAME|OTHER|LATEST|MOST|RECENT|BOTH|NOTHING|NONE)\b/g;

/** Whether most of the sentence's words (at least two) are in capitals. */
export function shouts(sentence: string): boolean {
  let words = 0;
  let capitals = 0;
  for (const m of sentence.matchAll(WORD)) {
    if (m[0].startsWith("`")) continue;
    words++;
    if (m[0] === m[0].toUpperCase()) capitals++;
  }
  return capitals >= 2 && capitals * 5 >= words * 3;
}

/** A sentence's opening up to its first letter: markup, or a clause's number ("1.1", "3.", "(b)", "Clause 3:"). */
const OPENING =
  /^[^A-Za-z0-9£$€]*(?:(?:(?:§|rule|clause|section|article|step|item)\s*\d+(?:\.\d+)*[.):]?|\d+(?:\.\d+)+[.):]?|\d+[.):]|\([a-z0-9]{1,3}\))\s+[^A-Za-z0-9£$€]*)?[A-Za-z]/i;

/** A term in double quotes, lowered: its words' initials go back up. */
const QUOTED = /["\u201c][a-z][a-z' -]{0,40}["\u201d]/g;

/** Each character lowered when its lower case is one character (so the length, and every span, is kept). */
function lowerEach(text: string): string {
  let out = "";
  for (const c of text) {
    const lower = c.toLowerCase();
    out += lower.length === c.length ? lower : c;
  }
  return out;
}

/** `f` applied to the text outside backticks. */
function outsideBackticks(text: string, f: (part: string) => string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : f(part)))
    .join("");
}

/**
 * The sentence in ordinary case, character for character: a shouting sentence in sentence case
 * (its first letter kept), elsewhere only the stressed words of STRESS lowered. Undefined stays undefined.
 */
export function foldedCase(sentence: string): string;
export function foldedCase(sentence: string | undefined): string | undefined;
export function foldedCase(sentence: string | undefined): string | undefined {
  if (sentence === undefined) return undefined;
  if (!shouts(sentence)) return outsideBackticks(sentence, (part) => part.replace(STRESS, (w) => w.toLowerCase()));
  // A quoted term keeps its initials ("PRIOR TO EACH "HANDOVER"" names the contract's "Handover").
  const folded = outsideBackticks(sentence, (part) =>
    lowerEach(part).replace(QUOTED, (q) => q.replace(/\b[a-z]/g, (c) => c.toUpperCase())),
  );
  // The first letter stays a capital when it opens the sentence ("HIRE OUT" is "Hire out", "**BARRED" is
  // "**Barred"), or after a clause's number ("1.1 PRIOR TO" is "1.1 Prior to"); after a figure it is no
  // sentence's start ("£1,500.00 ON THE DOT" is "£1,500.00 on the dot", "2 SAWS" is "2 saws").
  const first = OPENING.exec(sentence);
  const cased = first === null ? folded : sentence.slice(0, first[0].length) + folded.slice(first[0].length);
  // "I" is a capital in any case ("IF I'M FLYING" is "If I'm flying").
  return cased.replace(/(?<![\w'`])i(?=(?:'[a-z]+)?(?![\w`]))/g, "I");
}

/** A text of many lines (a preamble, a description), each line folded on its own. */
export function foldedLines(text: string): string {
  return text
    .split("\n")
    .map((line) => foldedCase(line))
    .join("\n");
}

/**
 * The spec as the lexicon reads it: its description and preamble in ordinary case, so the agent's
 * name ("JUNIPER WORKS FOR …" is Juniper, as the folded rule sentences call it) and the words the
 * preamble calls each action by ("LOOK UP CANDIDATES (`get_candidate`)") are found as in prose. No
 * quote is cut from these.
 */
export function inOrdinaryCase<S extends { description: string; preamble: string }>(spec: S): S {
  return { ...spec, description: glossed(foldedLines(spec.description)), preamble: glossed(foldedLines(spec.preamble)) };
}

/**
 * A card's key to its tools, "ACCOUNT CHECK → `check_account` (customer_id)", "HIRE OUT → hire_out (…)",
 * written as prose introduces a tool, "account check (`check_account`)": the words before the arrow are
 * what the rules call it (glosses.ts reads the words before "(`name`").
 */
function glossed(text: string): string {
  return text.replace(/\s*(?:→|->|=>)\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?(?=[\s(,;.]|$)/g, " (`$1`)");
}
