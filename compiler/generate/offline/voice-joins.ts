/**
 * Rules split across sentences by their voice (voice.ts, issue 25): an FAQ's "What if a diver surfaces
 * with `deco: missed`? Then oxygen is given …", a checklist's "Whenever a withdrawal is more than 15 g.
 * The curator writes …", "When a lookup comes back with `status: quarantine`, the curator must be told … You may not
 * withdraw seed from that accession afterwards." The class readers read one sentence at a time, so the
 * part that stands apart is read with the sentence it belongs to: a condition before its answer, the
 * condition of the sentence before in front of one that points back at it. (A "one … covers one …"
 * after the ordering it qualifies is read by combined.ts's freshAcross, whose quote reaches over both
 * sentences.) The joined words map to no words of the sentence (voice-spans.ts), so
 * quotes stay the spec's own.
 */
import { absorbed, joined, rewrite, unchanged, type Voiced } from "./voice-spans.js";
import { LEADING_CONDITION, thirdPerson } from "./voice-words.js";

/** Words after "if", "when" that make the clause a question, not a condition ("When do I need …"). */
const ASKS = "(?:do|does|did|should|can|could|must|may|might|will|would|shall|is|are|am)\\b";

/**
 * "What if a diver surfaces with `deco: missed`", "Whenever a withdrawal is more than 15 g": a condition
 * standing as a sentence of its own, with no main clause (no comma after it), the answer in the next one.
 */
const FRAGMENT = new RegExp(
  `^(?:what\\s+(?:happens\\s+)?if|and\\s+if|if|when|whenever|once)\\s+(?!${ASKS})((?:[^,;:\`]|\`[^\`]*\`)+)$`,
  "i",
);

/** "Then oxygen is given …", "A: then …", "In that case, …": the answer's own opening, before its condition is put in front. */
const ANSWER_OPENING = /^(?:A\s*\d*\s*[:.]\s*)?(?:then|in\s+that\s+case|if\s+so)\s*,?\s+/i;

/** A sentence pointing back at the situation the sentence before set up ("… from that accession afterwards"). */
const POINTS_BACK =
  /\b(?:that|this|the\s+same)\s+[a-z_]+\b[^]*\b(?:afterwards|after\s+that|from\s+then\s+on|thereafter|again|any\s*more|for\s+the\s+rest\s+of)\b/i;

/** Determiners written with a capital at a sentence's start, written small once a condition comes before them. */
const CAPITAL_DETERMINER = /^(?:The|A|An|Each|Every|Any|No|That|This|Its|Their)\b/;
const lowered = (text: string) => (CAPITAL_DETERMINER.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/**
 * "Can Tally dump a load into any bin", "Can Bollard order a pilot for a booking before it is
 * confirmed": an FAQ's question about an act, its subject, verb and object (up to what qualifies it).
 */
const ASKED = /^(?:Q\s*\d*\s*[:.]\s*)?(?:can|may|could|should)\s+((?:the\s+|a\s+|an\s+)?[\w-]+)\s+([a-z]+)\b(.*)$/i;
/** "No: the most recent check … must show …": an answer that says the rule itself, not a bare "No". */
const RULE_ANSWER = /^(?:A\s*\d*\s*[:.]\s*)?no\s*[:,;]\s*(?!never\b)(?=.*\b(?:must|has\s+to|have\s+to|needs?|only)\b)/i;
/** "Only after an `assign_berth` result …", "Yes, but only if …": the answer says when the act may be done. */
const ONLY_ANSWER = /^(?:A\s*\d*\s*[:.]\s*)?(?:yes\s*[,:;]?\s*but\s+)?only\s+(after|if|when|once)\s+/i;
/**
 * Where the question's object stops and what it asks about starts ("… a pilot for a booking before it is confirmed",
 * "… a load whatever its test says": a concession is asked about too).
 */
const QUALIFIER =
  /\s+(?:without|before|until|unless|if|when|that|which|who|whose|on|in|into|onto|to|from|for|with|at|under|while|any|whatever|regardless|irrespective|no\s+matter)\b.*$/i;

/**
 * "… a load with `form: liquid` or `form: sludge` whatever its test says": values in backticks right after the
 * object say which acts are asked about, and stay with it; what the question goes on to ask about does not.
 */
const SHOWN_VALUES = /^\s+(?:with|of|showing)\s+`[^`]+`(?:\s*(?:,|or|and|,\s*or)\s*`[^`]+`)*(?=\s|[?,]|$)/i;

/**
 * "… a tool once damage has been flagged on it", "… a booking after it has been cancelled": a condition the question
 * asks under, a clause of its own (a verb of its own), which the answer's reading keeps, put first.
 */
const ASKED_UNDER =
  /\s+((?:once|after|as\s+soon\s+as|when|whenever)\s+(?:[^,;:?`]|`[^`]*`)*?\b(?:has|have|had|is|are|was|were|been)\b(?:[^,;:?`]|`[^`]*`)*)$/i;

/** The question's act as the readers' voice says it: "Tally dumps a load". */
function askedAct(question: string, agent: string): string | undefined {
  const m = ASKED.exec(question);
  if (m === null) return undefined;
  return actOf(m, m[3]!, agent);
}

function actOf(m: RegExpExecArray, rest: string, agent: string): string {
  const who = /^(?:you|i|we)$/i.test(m[1]!) ? agent : m[1]!;
  const head = rest.replace(QUALIFIER, "");
  const shown = SHOWN_VALUES.exec(rest.slice(head.length))?.[0] ?? "";
  return `${who} ${thirdPerson(m[2]!.toLowerCase())}${head}${shown}`;
}

/**
 * The question's act with the condition it asks under put first: "Can the assistant lend a tool once damage has
 * been flagged on that tool? Yes, but only after …" is "Once damage has been flagged on that tool, the assistant
 * lends a tool only after …"; without the condition the answer would bind the act for good. Undefined when the
 * question asks under no condition.
 */
function askedUnder(question: string, agent: string): string | undefined {
  const m = ASKED.exec(question);
  const under = m === null ? null : ASKED_UNDER.exec(m[3]!.replace(/\?\s*$/, ""));
  if (m === null || under === null) return undefined;
  const act = actOf(m, m[3]!.slice(0, under.index), agent);
  return `${under[1]!.charAt(0).toUpperCase()}${under[1]!.slice(1)}, ${lowered(act)}`;
}

/** Whether this sentence is read as part of a neighbour, and so has nothing of its own to read. */
export function readWithNeighbour(sentence: string, next: string | undefined): boolean {
  if (next !== undefined && FRAGMENT.test(sentence)) return true;
  // A question whose answer says the rule in words of its own is read in that answer.
  return next !== undefined && ASKED.test(sentence) && (RULE_ANSWER.test(next) || ONLY_ANSWER.test(next));
}

/** The sentence with the words of its neighbours it needs to be read alone. */
export function withNeighbours(sentence: string, previous: string | undefined, next: string | undefined, agent: string): Voiced {
  let v = unchanged(sentence);
  const act = previous === undefined ? undefined : askedAct(previous, agent);
  if (act !== undefined && RULE_ANSWER.test(sentence)) {
    // "Can Tally dump a load into any bin? No: the most recent check_bin answer … must show …": for each such act.
    v = rewrite(v, new RegExp(RULE_ANSWER.source, "gi"), () => "");
    return lowerFirst(joined(v, `Whenever ${act}, `));
  }
  if (act !== undefined && ONLY_ANSWER.test(sentence)) {
    // "Can Bollard order a pilot for a booking before it is confirmed? Only after …": the act, only after ….
    const under = askedUnder(previous!, agent);
    if (under !== undefined)
      return joined(
        rewrite(v, new RegExp(ONLY_ANSWER.source, "gi"), (m) => `only ${m[1]!.toLowerCase()} `),
        `${under} `,
      );
    return joined(
      rewrite(v, new RegExp(ONLY_ANSWER.source, "gi"), (m) => `only ${m[1]!.toLowerCase()} `),
      `${act.charAt(0).toUpperCase()}${act.slice(1)} `,
    );
  }
  // "Whenever a withdrawal is more than 15 g. The curator writes …": a fragment the splitter left in front ("g." reads as an initial).
  v = rewrite(
    v,
    new RegExp(`^((?:if|when|whenever|once)\\s+(?!${ASKS})[^,;:.?!]+?)[.?]\\s+(?=[A-Z])(\\w+)`, "gi"),
    (m) => `${m[1]!}, ${lowered(m[2]!)}`,
  );
  const fragment = previous === undefined ? null : FRAGMENT.exec(previous);
  if (fragment !== null) {
    const word = /^(?:what|and)\b/i.test(previous!) ? "If" : previous!.split(/\s+/)[0]!;
    v = rewrite(v, new RegExp(ANSWER_OPENING.source, "gi"), () => "");
    v = joined(v, `${word.charAt(0).toUpperCase()}${word.slice(1).toLowerCase()} ${fragment[1]!}, `);
    return lowerFirst(v);
  }
  // "… afterwards": the condition of the sentence before ("When a lookup comes back with …,") in front.
  const lead = previous === undefined ? null : /^((?:if|when|whenever|once|after)\b(?:[^,;:`]|`[^`]*`)*?),\s/i.exec(previous);
  if (lead !== null && !LEADING_CONDITION.test(sentence) && POINTS_BACK.test(sentence) && !pointsWithin(sentence))
    return lowerFirst(joined(v, `${lead[1]!}, `));
  return v;
}

/**
 * "… any remains of a case once a hold has been placed on that case …": the thing pointed at is one
 * the sentence itself introduced before, or named in a condition of its own after a colon, not the
 * situation of the sentence before it.
 */
function pointsWithin(sentence: string): boolean {
  // "…: after an unplanned discharge, no weapon … to that performer again": a condition of its own after a colon.
  if (/[:;]\s+(?:once|after|if|when|whenever)\s[^,]+,\s/i.test(sentence)) return true;
  const pointer = POINTS_BACK.exec(sentence);
  const noun = pointer === null ? undefined : /^(?:that|this|the\s+same)\s+([a-z_]+)/i.exec(pointer[0])?.[1];
  if (pointer === null || noun === undefined) return false;
  const before = sentence.slice(0, pointer.index);
  return new RegExp(`\\b(?:a|an|any|each|every|one)\\s+(?:[\\w-]+\\s+){0,2}?${noun}\\b`, "i").test(before);
}

/** The sentence's own first word written small when a condition now stands before it ("…, the curator writes"). */
function lowerFirst(v: Voiced): Voiced {
  return rewrite(v, /(?<=^[^,]*,\s)(The|A|An|Each|Every|Any|No|That|This|Its|Their)\b/g, (m) => m[1]!.toLowerCase());
}

export { absorbed };
