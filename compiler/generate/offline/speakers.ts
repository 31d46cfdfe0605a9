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

/**
 * Words of a rule or of a correction: an answer's own words without any ("No. Late drives go in a new batch.") are a
 * remark after the bare answer, and the question is what it turns down.
 */
const RULE_SAID =
  /\b(?:must|shall|should|never|always|only|every|each|any|no|not|nothing|none|n't|at\s+most|at\s+least|before|after|once|until|unless|if|when|whenever|first|per|limit|max(?:imum)?|required|forbidden|correction|instead)\b/i;

/**
 * "That is exactly what we are here to prevent.", "That would be a breach of this standard.", "That's never allowed.":
 * an answer that calls what the question asks about a thing prevented or forbidden is its "No" (voice.ts reads the
 * question as the ban, context.ts keeps it a rule sentence), and says nothing of its own.
 */
const DENIAL =
  /^(?:that|this)(?:'s|\u2019s|\s+is|\s+would\s+be|\s+will\s+be)\s+(?:exactly\s+|precisely\s+|just\s+)?(?:(?:the\s+(?:one\s+)?thing\s+|what\s+)(?:we|this\s+[\w-]+)\s+(?:are\s+|is\s+)?(?:here\s+to|exists?\s+to|(?:are|is)\s+(?:meant|trying)\s+to)\s+prevent|(?:a|an)\s+(?:breach|violation)\b|(?:never|not)\s+(?:allowed|permitted|acceptable|ok|okay)\b|(?:forbidden|prohibited)\b)/i;

/** Whether `next` answers the question before it "No" by calling what it asks about prevented or forbidden. */
export function deniesAsked(next: string | undefined): boolean {
  return next !== undefined && DENIAL.test(unspoken(next).trim());
}

/** Whether a chat's answer word opens a rule said in words of its own. */
export function answersInOwnWords(next: string | undefined): boolean {
  if (next === undefined) return false;
  const said = unspoken(next);
  const answer = ANSWER_WORD.exec(said);
  return answer !== null && RULE_SAID.test(said.slice(answer[0].length));
}
