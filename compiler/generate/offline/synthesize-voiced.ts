/**
 * The words the label path ranks by, in the voice the readers know (issue 25). The search from
 * labels (synthesize.ts) and the reading from words when no phrase rule fits
 * (synthesize-unlabeled.ts) score matchers by the rule's words, take the numbers it compares and
 * the cues it gives ("that same", "within two steps", "at most"): written as a numbered procedure
 * ("shall not … in excess of $200", "no later than the fourth step after") or a checklist, those
 * words are not the ones the tables were written for. The no-label draft reads each rule sentence
 * rewritten by the voice layer (voice.ts `voiced`); here the label path reads the same rewrite of
 * the same sentences, by the same call. Quotes are not taken from this text: the search quotes the
 * spec's own obligations and drafted checks.
 */
import type { Lexicon } from "./lexicon.js";
import { sectionSentences } from "./sentences.js";
import { actionVerbs, voiced } from "./voice.js";

/**
 * The section's own paragraphs (no rationale, as `ruleParagraphs` gives them), each rule sentence
 * replaced by its rewrite in the readers' voice, the agent called `agent`. Sentences of one
 * paragraph are joined by ". ", paragraphs by a blank line.
 */
export function voicedParagraphs(body: string, lexicon: Lexicon, agent: string): string {
  // Context (a header, a question, a report, a superseded draft: context.ts) is no more the rule's words than a rationale.
  const sentences = sectionSentences(body).filter((s) => s.role !== "rationale" && s.role !== "context");
  const rules = sentences.filter((s) => s.role === "rule");
  const knows = actionVerbs(lexicon);
  const byParagraph = new Map<number, string[]>();
  for (const s of sentences) {
    // The next and the previous rule sentence, as draftSection passes them: an FAQ's "No." answers the question before
    // it, and a table's "Limit: …" is read with the "Item: …" before it (voice-table.ts), which has nothing of its own.
    const k = rules.indexOf(s);
    const text =
      k < 0
        ? s.text
        : voiced(s.text, agent, knows, rules[k + 1]?.text, rules[k - 1]?.text, lexicon.definedTerms, undefined, s.banned === true).text;
    byParagraph.set(s.paragraph, [...(byParagraph.get(s.paragraph) ?? []), text]);
  }
  return [...byParagraph.values()].map((p) => `${p.join(". ")}.`).join("\n\n");
}

/**
 * A rule's heading as the label path reads it: its clause number left out, as the voice layer
 * leaves it out of a sentence ("2. Release against a court order"; "3.1 …"). The number of a
 * clause is no threshold: read as one, "2." grounded `cash_amount > 2`.
 */
export function headingWords(name: string): string {
  return voiced(name, "the agent", () => false).text;
}
