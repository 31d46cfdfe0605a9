/**
 * Who speaks in a chat and how an answer opens (voice-chat.ts, context.ts): a speaker's name before
 * what they say ("**Mags:**") and a bare answer word before a rule said in full ("No. A balloon only
 * launches if …"). In a module of their own, importing nothing, so that the sentence splitter's
 * reading of context (context.ts) and the voice layer share them without an import circle.
 */
/** "**Mags:**", "**Tamsin (ground crew, new):**", "**Mags**:": who speaks in a chat, no part of what they say. */
const SPEAKER = /^\s*\*\*[^*\n]{1,60}?(?::\*\*|\*\*\s*:)\s*/;

/** The sentence without its speaker's name (the words that follow it are still the spec's own). */
export function unspoken(sentence: string): string;
export function unspoken(sentence: string | undefined): string | undefined;
export function unspoken(sentence: string | undefined): string | undefined {
  return sentence?.replace(SPEAKER, "");
}

/**
 * "No. A balloon only launches if …", "Nope. Before each …": a chat's answer word the splitter kept with
 * the rule after it ("No." reads as the abbreviation of a number). The rule says itself; the question
 * before it asks nothing the rule does not.
 */
export const ANSWER_WORD = /^(?:no|nope|nah|yes|yep|yeah)[.!]\s+(?=[A-Z"`*])/i;

/** Whether a chat's answer word opens a rule said in words of its own. */
export function answersInOwnWords(next: string | undefined): boolean {
  return next !== undefined && ANSWER_WORD.test(unspoken(next));
}
