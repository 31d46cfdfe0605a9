/**
 * A person's own words before an act (docs/AUTHORING.md): "before every `charge_card` the
 * applicant answers "yes" in the chat", "the owner has to agree by saying "I agree" before each
 * `send_home`", "Porter cancels a booking only when the guest has just said "yes"", "a "go ahead"
 * on the radio is needed before each open_run". The words in quotes are what a user turn says,
 * found in the samples' user turns (any case, as whole words); the act is the one the clause says
 * they come before, the one before "only", or the one an earlier sentence of the rule made
 * conditional. The clause becomes an ordering: a user turn saying the words, then the act. Words
 * that say a yes counts for one act only ("does not carry over to the next") make it fresh
 * (combined.ts withFreshness).
 */
import type { Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { resolve, type ClauseContext, type ClauseOutcome } from "./clauses.js";
import { conditionedAct } from "./latest.js";
import { amountsIn, withAmounts } from "./amounts.js";
import { PRONOUNS } from "./shape.js";

/** The quoted words: "yes", “I agree”. */
const QUOTED = /"([^"]{1,40})"|\u201c([^\u201d]{1,40})\u201d/;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words as a case-blind whole-word pattern, with any run of spaces between them. */
function wordsPattern(words: string): string {
  const parts = words.split(/\s+/).map(escape);
  return `\\b${parts.join("\\s+")}\\b`;
}

/** Verbs of saying: the words before the last of them name who says the quoted words. */
const SAYS =
  /\b(?:says?|said|saying|tells?|told|telling|answers?|answered|answering|repl(?:y|ies|ied|ying)|writes?|wrote|writing|types?|typed|typing)\b/gi;

/** Whether the agent is who says the words: "the agent tells the customer "…"", "Teller replies "…"". */
function agentSays(context: ClauseContext, lead: string): boolean {
  const verbs = [...lead.matchAll(SAYS)];
  const last = verbs[verbs.length - 1];
  if (last === undefined) return false;
  const near = lead.slice(0, last.index).trim().split(/\s+/).slice(-4);
  const said = near.findIndex((_, i) => context.grammar.agentSubject.test(near.slice(i).join(" ")));
  if (said < 0) return false;
  // "The claimant confirms every payment: before each pay_prize they say …": "they" is the person the sentence opened with.
  const pronoun = PRONOUNS.includes(near[said]!.toLowerCase());
  return !(pronoun && /^(?:the|a|an|each|every)\s+[\w-]+/i.test(lead.trim()) && !context.grammar.agentSubject.test(lead.trim()));
}

/** The agent acts a phrase names, every matcher an exact action. */
function acts(context: ClauseContext, phrase: string): Pattern | undefined {
  const found = resolve(context.lexicon, phrase, { agentOnly: true });
  return found !== undefined && found.every((m) => exactValue(m.action) !== undefined) ? found : undefined;
}

/** "before each …", "prior to every …", "for each …": words asked for each act, not once (every such hand judge is fresh). */
const EACH = /\b(?:before|prior\s+to|for|ahead\s+of)\s+(?:each|every)\b/i;

/** "for each item purchased", "before every parcel is shipped": the act another clause of the sentence says each of. */
const EACH_ACT = /\b(?:for|before)\s+(?:each|every)\s+([^:;,]+)/i;

function eachAct(context: ClauseContext, clause: string): Pattern | undefined {
  const m = EACH_ACT.exec(clause);
  return m === null ? undefined : acts(context, m[1]!);
}

/**
 * "When the dockage on a load is more than 2.0 per cent, the grower has to answer "accept" before that
 * load is dumped": the sentence's condition is an amount of the act itself, so the words are asked
 * before the acts over it only. Kept only when the act carries the amount's key (not its result).
 */
function narrowed(context: ClauseContext, act: Pattern): Pattern {
  const frame = context.shape.condition;
  if (frame === undefined || (frame.kind !== "if" && frame.kind !== "whenever") || context.index !== 0) return act;
  const amounts = amountsIn(frame.phrase);
  if (amounts.length !== 1) return act;
  const out = withAmounts(context.lexicon, act, amounts, frame.phrase);
  return out !== undefined && out.every((m, i) => m.action === act[i]!.action) ? out : act;
}

/**
 * The ordering of a user's quoted words before the act the clause names; undefined when the
 * clause quotes no words a user says in the samples, or names no act they come before.
 */
export function userWordsFrom(context: ClauseContext, written: string, quote: string): ClauseOutcome | undefined {
  // "Before every `charge_card` the applicant answers "yes", and …": the words may be all in the "before" frame.
  const frame = context.shape.condition;
  const clause =
    !QUOTED.test(written) && context.index === 0 && frame?.kind === "before" && QUOTED.test(frame.phrase)
      ? `before ${frame.phrase}`
      : written;
  const m = QUOTED.exec(clause);
  if (m === null) return undefined;
  const said = (m[1] ?? m[2]!).trim().replace(/[.!?,]+$/, "");
  if (!/\w/.test(said)) return undefined;
  const pattern = wordsPattern(said);
  const re = new RegExp(pattern, "i");
  if (!context.lexicon.userContents.some((c) => re.test(c))) return undefined;
  const lead = clause.slice(0, m.index);
  if (agentSays(context, lead)) return undefined;
  const rest = `${lead} ${clause.slice(m.index + m[0].length)}`;
  // "before every `charge_card` the applicant answers …", "… is needed before each open_run".
  const before = /\bbefore\s+(?:(?:each|every|any|a|an|the)\s+)?(.+)$/i.exec(rest);
  // "before each ship_parcel they say …": the act ends where its sayer starts speaking.
  const after =
    before === null
      ? undefined
      : before[1]!
          .replace(/\b(?:it|this|that)\s+(?:is|was|gets?)\b.*$/i, "")
          .replace(/\s+(?:they|he|she|you|we|the\s+[\w-]+)\s+(?:says?|tells?|answers?|repl(?:y|ies)|writes?|types?)\b.*$/i, "")
          .trim();
  const readings: (Pattern | undefined)[] = [
    after === undefined || after === "" ? undefined : acts(context, after),
    // "Before each `ship_parcel`, the customer says "send it"": the act of the sentence's "before" frame.
    frame?.kind === "before" && clause === written
      ? acts(context, frame.phrase.replace(/^(?:each|every|any|a|an|the)\s+/i, ""))
      : undefined,
    // "…, and a separate declaration is required for each item purchased": the act another clause names "for each".
    // Only a later clause: an earlier one that names its act is the ordering this clause's words then qualify.
    ...context.shape.clauses.slice(context.index + 1).map((c) => eachAct(context, c)),
    // "Porter cancels a booking only when the guest has just said "yes"": the act before "only".
    ...conditionedAct(context.lexicon, clause),
    ...(context.earlier ?? []),
  ];
  const found = readings.find((p) => p !== undefined);
  if (found === undefined) return undefined;
  const act = narrowed(context, found);
  const first: Pattern = [{ actor: "user", content: { matches: pattern, flags: "i" } }];
  // "before each release", "Prior to every `finalize_adoption`", "for each item": the words are said again for each act.
  const fresh = EACH.test(context.shape.sentence) ? { fresh: true } : {};
  return { kind: "check", check: { type: "ordering", quote, first, before: act, ...fresh } };
}
