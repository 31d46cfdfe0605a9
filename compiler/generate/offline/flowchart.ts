/**
 * A procedure written as a flowchart in prose (issue 25): numbered yes/no questions whose answers send
 * the reader on ("A2. Does the latest test show a pass? If no, stop. If yes, go to A3."). The class
 * readers read statements one sentence at a time, so the flowchart's rule is lost between its parts:
 * the step's label ("A2") stands as a sentence of its own, the question states what the rule is about
 * without saying it is one, and its "If yes, stop" says it is one without saying what about. Here the
 * parts are put back together, in any voice (the voice layer folds capitals and headers before this):
 *
 * - `flowchartSentences`: a step's bare label is no sentence; a yes/no question and the answers after it
 *   that stop the procedure are one sentence, as written ("Is the total more than 480 mL? If yes, stop"),
 *   with the instruction before it that says what "the total" adds up ("Add this load to every load …"),
 *   and with the answers that only send the reader on ("If no, go to Chart C"), which are flow; a later step's
 *   "that check" is the look-up an earlier one told the reader to find ("Find the most recent check of …");
 * - `flowchartSteps`: that sentence in the readers' voice: "If yes, stop" makes the question's statement a
 *   ban ("the total must not be more than 480 mL"), "If no, stop" a duty ("the latest test must show a
 *   pass"), or, where the spec says what stopping bans (""Stop" means the crate is not shipped"), the act's
 *   condition ("no crate is shipped unless the latest test shows a pass"); "If yes, stop: nothing more is
 *   sent …" is a ban of its own under the question's condition.
 */
import type { BehaviorSpec } from "../../behavior-md/load.js";
import type { Lexicon } from "./lexicon.js";
import { rewrite, type Voiced } from "./voice-spans.js";
import type { SpecSentence } from "./sentences.js";

/**
 * ""Stop" means the bottle is not issued", "'Stop' means that the crate is not shipped": what the procedure's stop
 * is a ban of, as the readers say a ban ("no bottle is issued"). A flowchart that says it lets "If no, stop" read as
 * "no bottle is issued unless …", the act's own condition.
 */
const STOP_MEANS =
  /["“'‘]stop["”'’]\s+means\s+(?:that\s+)?(?:the|a|an|this)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(is|are)\s+not\s+([a-z]+(?:ed|en|t|wn|ne))\b/i;

/** The lexicon with what the spec says "stop" means, when it says so in its description or preamble. */
export function withStopMeaning(lexicon: Lexicon, spec: Pick<BehaviorSpec, "description" | "preamble">): Lexicon {
  const m = STOP_MEANS.exec(`${spec.description} ${spec.preamble}`.replace(/\s+/g, " "));
  return m === null ? lexicon : { ...lexicon, stopMeans: `no ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()} ${m[3]!.toLowerCase()}` };
}

/** A rule sentence, with the look-up an earlier step told the reader to find when this one points back at it ("that check"). */
export type FlowSentence = SpecSentence & { refers?: Antecedent };

/** "that check" (`pointer`, a pattern's source) stands for "most recent check of that same batch" (`phrase`). */
export interface Antecedent {
  pointer: string;
  phrase: string;
}

/** "Find the most recent check of that same batch", "Look at the latest weigh-in of the same crate": the look-up later steps point back at. */
const LOOK_UP =
  /^(?:find|look\s+(?:at|up)|take|check|open|pull\s+up|get)\s+((?:the\s+)?(?:most\s+recent|latest|last|newest)\s+([a-z][\w-]*)\s+(?:of|for|on)\s+(?:that|this|the)\s+(?:same\s+)?[a-z][\w-]*)\b/i;

/** "A1", "B12", "Q3", "Step 4", "Box 2b": a flowchart step's label, standing as a sentence only because a period follows it. */
const STEP_LABEL = /^(?:[A-Z]{1,2}\d{1,3}[a-z]?|(?:step|box|node|question|q)\s*\d{1,3}[a-z]?)$/i;

/** A yes/no question by its first word: "Is …", "Has …", "Does …". */
const YES_NO = /^(?:is|are|was|were|has|have|had|does|do|did)\s+\S/i;

/** An answer to the question before it: "If yes, …", "If no, …", "If so, …", "If not, …". */
const ANSWER = /^if\s+(?:yes|no|so|not)\b/i;

/** An answer that stops the procedure: "If yes, stop", "If no, stop and ask for it", "If yes, stop: …". */
const STOPS = /^if\s+(?:yes|no|so|not)\s*,?\s+stop\b/i;

/** "Add this load to every load …", "Add up every load …", "Total every load …": what the question's "the total" adds up. */
const ADDS =
  /^(?:add\s+(?:up\s+)?(?:this|the|that|each)\s+[\w-]+(?:\s+[\w-]+)?\s+to|add\s+up|add\s+together|total(?:\s+up)?|sum(?:\s+up)?)\s+(?:every|all|each)\b/i;

/** A question that asks about "the total" the instruction before it adds up. */
const ASKS_TOTAL = /^(?:is|are|was|were|does|do|has|have)\s+(?:the|that|this)\s+(?:total|sum|amount|combined\s+total)\b/i;

/**
 * The rule sentences with a flowchart's parts put back together: a step label dropped, a question and its
 * stopping answers joined into one sentence (with an instruction saying what its total adds up), as the
 * spec writes them, so the joined text is still a verbatim quote. Other sentences are as they were.
 */
export function flowchartSentences(sentences: readonly SpecSentence[]): FlowSentence[] {
  const kept = sentences.filter((s) => !STEP_LABEL.test(s.text));
  const out: FlowSentence[] = [];
  let found: Antecedent | undefined;
  for (let i = 0; i < kept.length; i++) {
    const s = kept[i]!;
    // "Find the most recent check of that same batch. … Does that check show …?": "that check" is the one found.
    const look = LOOK_UP.exec(s.text);
    if (look !== null)
      found = { pointer: String.raw`\b(?:that|this)\s+(?:same\s+)?${look[2]!}\b`, phrase: look[1]!.replace(/^the\s+/i, "") };
    const refers = look === null && found !== undefined && new RegExp(found.pointer, "i").test(s.text) ? { refers: found } : {};
    // Only a question whose answers stop the procedure states a rule here; one that only sends the reader on is left as it was.
    const answers: SpecSentence[] = [];
    for (let j = i + 1; j < kept.length && ANSWER.test(kept[j]!.text) && kept[j]!.paragraph === s.paragraph; j++) answers.push(kept[j]!);
    if (!YES_NO.test(s.text) || !answers.some((a) => STOPS.test(a.text))) {
      out.push({ ...s, ...refers });
      continue;
    }
    // Every answer: one that only sends the reader on ("If no, go to A4", "If no, hand it over") is flow, read with its question.
    const parts = [s, ...answers];
    // Joined by the stops the spec writes between them: "? " after the question, ". " between its answers.
    const text = `${s.text}? ${parts
      .slice(1)
      .map((a) => a.text)
      .join(". ")}`;
    const before = out[out.length - 1];
    if (before !== undefined && before.paragraph === s.paragraph && ADDS.test(before.text) && ASKS_TOTAL.test(s.text)) {
      out.pop();
      out.push({ ...before, text: `${before.text}. ${text}` });
    } else out.push({ ...s, text, ...refers });
    i += answers.length;
  }
  return out;
}

/** Words that start what an "is" question says of its subject: a comparison, a state. */
const COMPARED =
  /\s+(?=(?:more|less|fewer|greater|over|under|above|below|at\s+(?:least|most)|(?:exactly|precisely)\s|[a-z]+er\s+than|older|younger|the\s+same|still|out\s+of|not)\b)/i;
/** "the nurse releasing the bottle | the nurse who thawed the batch": a second person or thing, named by what it did. */
const NAMED_BY_DEED = /\s+(?=(?:the|a|an|any)\s+(?:same\s+)?[\w-]+\s+(?:who|that|which|whose)\b)/i;
/** "Has the batch | been quarantined", "Has the nurse | checked …": what a "has" question says starts at its participle. */
const PARTICIPLE =
  /\s+(?=(?:been|[a-z]+ed|[a-z]+en|done|made|sent|paid|told|given|kept|held|put|set|sold|shown|seen|typed|written|run|had)\b)/i;
/** Words that are no verb of a "does" question: a preposition or a determiner inside its subject ("the nurse at the hatch"). */
const NOT_VERB = /^(?:of|at|in|on|for|from|by|with|to|the|a|an|that|this|its|their|same|most|least|very)$/i;
/** What may follow a "does" question's verb: its object's first word ("show a culture", "type \"bottle matches band\"", "need 2"). */
const OBJECT = /^(?:a|an|the|that|this|these|those|any|its|their|his|her|no|some|all|every|each|["“'`]|\d)/i;

/** "Does the most recent check of that batch | show a culture …": the verb is the first word, not a preposition, before its object. */
function subjectAndVerb(rest: string): { subject: string; said: string } | undefined {
  const words = rest.split(/\s+/);
  if (!/^(?:the|that|this|these|those|a|an|any|its|their|each|every)$/i.test(words[0] ?? "")) return undefined;
  for (let i = 2; i < words.length; i++) {
    const next = words[i + 1];
    if (!NOT_VERB.test(words[i]!) && /^[a-z]+$/.test(words[i]!) && (next === undefined || OBJECT.test(next)))
      return { subject: words.slice(0, i).join(" "), said: words.slice(i).join(" ") };
  }
  return undefined;
}

/** What the question asks as a statement's two parts: its subject and what it says of it, with the verb the auxiliary governs. */
function statement(aux: string, rest: string): { subject: string; verb: "be" | "have" | "do"; said: string } | undefined {
  const a = aux.toLowerCase();
  if (/^(?:is|are|was|were)$/.test(a)) {
    const at = NAMED_BY_DEED.exec(rest) ?? COMPARED.exec(rest) ?? PARTICIPLE.exec(rest);
    if (at === null || at.index === 0) return undefined;
    return { subject: rest.slice(0, at.index), verb: "be", said: rest.slice(at.index).trim() };
  }
  if (/^(?:has|have|had)$/.test(a)) {
    const at = PARTICIPLE.exec(rest);
    if (at === null || at.index === 0) return undefined;
    return { subject: rest.slice(0, at.index), verb: "have", said: rest.slice(at.index).trim() };
  }
  const m = subjectAndVerb(rest);
  return m === undefined ? undefined : { ...m, verb: "do" };
}

/** "is" / "has" / "shows": the statement's verb in the present, for a condition ("If the batch has been …"). */
function asserted(s: { subject: string; verb: "be" | "have" | "do"; said: string }, plural: boolean): string {
  if (s.verb === "be") return `${s.subject} ${plural ? "are" : "is"} ${s.said}`;
  if (s.verb === "have") return `${s.subject} ${plural ? "have" : "has"} ${s.said}`;
  const [verb, ...tail] = s.said.split(" ");
  return `${s.subject} ${plural ? verb : thirdPersonOf(verb!)}${tail.length > 0 ? ` ${tail.join(" ")}` : ""}`;
}

const thirdPersonOf = (verb: string) =>
  /(?:s|sh|ch|x|z|o)$/i.test(verb) ? `${verb}es` : /[^aeiou]y$/i.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;

/** The statement as a duty ("must show …") or a ban ("must not be more than …"). */
function owed(s: { subject: string; verb: "be" | "have" | "do"; said: string }, ban: boolean): string {
  const modal = ban ? "must not" : "must";
  return `${s.subject} ${modal} ${s.verb === "do" ? s.said : `${s.verb} ${s.said}`}`;
}

const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * "[Add this X to every X …. ]Is|Has|Does <question>? If yes|no, stop[: <what stopping means>][. If …]":
 * the joined sentence `flowchartSentences` makes, in full.
 */
const FLOWCHART = new RegExp(
  String.raw`^(?:(?:add\s+(?:up\s+)?(?:(?:this|the|that|each)\s+[\w-]+(?:\s+[\w-]+)?\s+to\s+)?|add\s+together\s+|total(?:\s+up)?\s+|sum(?:\s+up)?\s+)((?:every|all|each)\b[^.?!]*?)\.\s+)?` +
    String.raw`(is|are|was|were|has|have|had|does|do|did)\s+([^?]+?)\?\s+(.*)$`,
  "i",
);

/** The answers' parts: which answer stops, and what the spec says stopping means after a colon or a dash. */
const STOP_ANSWER = /(?:^|\.\s+)if\s+(yes|no|so|not)\s*,?\s+stop\b(?:\s*(?:[:;—–]|\s-)\s*([^.]*))?/i;

/**
 * The voice steps of a flowchart's joined question: run first, on the sentence in ordinary case. `flow`: what the spec
 * says "stop" means (withStopMeaning), and the look-up the sentence points back at (flowchartSentences).
 */
export function flowchartSteps(flow: { stop?: string; refers?: Antecedent } = {}): { name: string; apply: (v: Voiced) => Voiced }[] {
  const { stop, refers } = flow;
  return [
    {
      // "Does that check show …" after "Find the most recent check of that same batch": the check found.
      name: "flowchart look-up",
      apply: (v) =>
        refers === undefined
          ? v
          : rewrite(v, new RegExp(refers.pointer, "gi"), (m) => `${/^T/.test(m[0]) ? "The" : "the"} ${refers.phrase}`),
    },
    {
      // "If the batch has never been checked in this session, stop": the condition of the stop's ban, when the spec says what it bans.
      name: "flowchart stop",
      apply: (v) =>
        stop === undefined
          ? v
          : rewrite(
              v,
              /^(if|when|where)\s+(?!(?:yes|no|so|not)\b)([^,?]+?),\s*stop\s*$/gi,
              (m) => `${capital(m[1]!.toLowerCase())} ${m[2]!}, ${stop}`,
            ),
    },
    {
      name: "flowchart question",
      apply: (v) =>
        rewrite(v, new RegExp(FLOWCHART.source, "gi"), (m) => {
          const [, added, aux, rest, answers] = m;
          const answer = STOP_ANSWER.exec(answers!);
          if (answer === null) return undefined;
          // "Add this load to every load …. Is the total more than …": the total is of those loads, all added together.
          const total = added === undefined ? null : /^(?:the|that|this)\s+(?:combined\s+)?(?:total|sum|amount)\s+/i.exec(rest!);
          if (added !== undefined && total === null) return undefined;
          const s =
            total === null || total === undefined
              ? statement(aux!, rest!)
              : { subject: `${added!.trim()}, added together,`, verb: "be" as const, said: rest!.slice(total[0].length) };
          if (s === undefined) return undefined;
          const plural = /^(?:are|were|have|do)$/i.test(aux!);
          const yes = /^(?:yes|so)$/i.test(answer[1]!);
          const meaning = answer[2]?.trim();
          // "If yes, stop: nothing more is sent from that crate, …": a ban of its own, under the question's condition.
          if (yes && meaning !== undefined && /^(?:no|nothing|none|never|not)\b/i.test(meaning))
            return `If ${asserted(s, plural)}, ${meaning}`;
          // "If no, stop", where the spec says what stopping bans: the act only when it is so ("no bottle is issued unless …").
          if (!yes && stop !== undefined) return `${capital(stop)} unless ${asserted(s, plural)}`;
          // "If yes, stop": what the question asks must not be so; "If no, stop": it must.
          return capital(owed(s, yes));
        }),
    },
  ];
}
