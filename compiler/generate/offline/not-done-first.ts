/**
 * The grammar of "an act needs an earlier one on the same thing at all" (issue 25), the sentence that goes
 * with "by someone other than the one who did it" (other-than.ts): "A tank that has not been mixed cannot
 * be verified", "an order that nobody has prepared is not issued at all", "NO DAMAGE CHECK ON KIT NOT
 * BOOKED BACK IN FIRST", "The agent never seals a box that has not been counted". The voice layer has
 * said the earlier act one way by then ("that has not been prepared", voice-others.ts); deeds.ts maps
 * the parts onto the samples' actions and keys, as an ordering of the two acts on the thing's key.
 */

/** What one sentence says: the act, the thing it is done to, and what must have been done to that thing first. */
export interface NotDoneFirst {
  /** The act's words: "verified", "issued", "DAMAGE CHECK", "seals". */
  act: string;
  /** The thing's words: "tank", "order", "KIT". */
  thing: string;
  /** The earlier act's words: "mixed", "prepared", "BOOKED BACK IN". */
  deed: string;
}

const W = String.raw`[A-Za-z][A-Za-z'’-]*`;
/** One to `n` words, as few as fit. */
const words = (n: number) => String.raw`${W}(?:\s+${W}){0,${n - 1}}?`;

/** "that has not been mixed", "which has not yet been prepared": the thing's relative clause, the earlier act in it. */
const UNDONE = String.raw`(?:that|which)\s+(?:has|have)\s+not\s+(?:yet\s+)?been\s+(.+?)(?:\s+(?:first|beforehand|already|yet))?`;
/** "cannot be", "is not", "must never be": what denies the act. */
const DENIED = String.raw`(?:cannot|can\s+not|can't|may\s+not|must\s+not|must\s+never|will\s+not|won't|(?:is|are)\s+(?:not|never))(?:\s+be)?`;

/** "A tank that has not been mixed cannot be verified", "an order that has not been prepared is not issued at all". */
const THING_FIRST = new RegExp(
  String.raw`^(?:a|an|any|the)\s+(${words(3)})\s+${UNDONE}\s+${DENIED}\s+(${W}(?:\s+(?:out|in|back|back\s+in|over|up|off))?)(?:\s+at\s+all|\s+either|\s+by\s+anyone)?$`,
  "i",
);
/** "No cask that has not been filled may be sealed": the denial in the determiner. */
const NO_THING = new RegExp(
  String.raw`^no\s+(${words(3)})\s+${UNDONE}\s+(?:may|can|must|will|is|are)(?:\s+be)?\s+(${W}(?:\s+(?:out|in|back|back\s+in|over|up|off))?)(?:\s+at\s+all)?$`,
  "i",
);
/** "NO DAMAGE CHECK ON KIT that has not been BOOKED BACK IN": the act's noun, on the thing. */
const NO_ACT_ON = new RegExp(String.raw`^no\s+(${words(4)})\s+(?:on|of|for|to)\s+(?:(?:a|an|any|the)\s+)?(${words(3)})\s+${UNDONE}$`, "i");
/** "The agent never seals a box that has not been counted", "Kim must not release an order that …". */
const DOER_DENIED = new RegExp(
  String.raw`^.+?\s+(?:never|must\s+not|must\s+never|does\s+not|do\s+not|cannot|can\s+not|may\s+not)\s+(${W})\s+(?:a|an|any|the)\s+(${words(3)})\s+${UNDONE}$`,
  "i",
);

/** The construction one clause writes, or undefined when it writes none of them. */
export function notDoneFirst(clause: string): NotDoneFirst | undefined {
  const text = clause.replace(/[\s.;,]+$/, "").replace(/\s+/g, " ");
  const first = THING_FIRST.exec(text) ?? NO_THING.exec(text);
  if (first !== null) return { thing: first[1]!, deed: first[2]!, act: first[3]! };
  const noAct = NO_ACT_ON.exec(text) ?? DOER_DENIED.exec(text);
  if (noAct !== null) return { act: noAct[1]!, thing: noAct[2]!, deed: noAct[3]! };
  return undefined;
}
