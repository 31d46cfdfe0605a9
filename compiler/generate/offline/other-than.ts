/**
 * The grammar of "someone other than the one who did an earlier act" (issue 25), apart from what
 * the samples call things: the act and who does it, the earlier doer and what they did, and
 * whether the two must differ. deeds.ts maps the parts onto the samples' actions and keys.
 *
 * The forms, each with any noun phrase for a person ("someone", "a MEMBER", "a member of staff",
 * "an enforcement agent") and the earlier act as a relative clause in any tense ("who took control
 * of those goods", "most recently assigned as CREW CHIEF of that CALL", "that last serviced it"):
 * - passive, by a person: "X must be signed by a member of staff other than the artist who started
 *   that session", "… by a different clerk from the one who recounted it", and its negative with an
 *   exception ("No goods shall be removed save on the authority of an agent other than the agent
 *   who took control of those goods");
 * - passive, by the earlier doer under a negative: "X may not be approved by the clerk who opened it";
 * - the person first: "Only a journalist other than the reporter who filed a story may check it",
 *   "Nobody who counted a box may recount that box", "The reporter who filed a story must not check it";
 * - the act's person as the subject: "The person who seals a box must not be the same clerk who
 *   recounted it", "The signer of the sheet must be someone other than the artist who started it".
 */

/** What one sentence says about the act's person and the earlier act's. */
export interface OtherThan {
  /** The act's words, "" in a continuing clause ("…, and only by a fitter other than …"). */
  act: string;
  /** Words that name the act's person and how they act: "a member of staff signed", "an agent authority". */
  doer: string;
  /** The earlier person's words: "artist", "MEMBER", "one". */
  role: string;
  /** The earlier act, as the relative clause says it: "took control of those goods". */
  deed: string;
  /** The act's person must be the earlier one (`==`), rather than another (`!=`). */
  same: boolean;
}

const W = String.raw`[A-Za-z][A-Za-z'’-]*`;
/** One to `n` words, as few as fit. */
const words = (n: number) => String.raw`${W}(?:\s+${W}){0,${n - 1}}?`;

/** How the act's person does it: "by", "from", "on the authority of", "with the approval of". */
const BY = String.raw`(?:by|from|(?:on|upon|with|under)\s+the\s+(?:authority|authorisation|authorization|say-so|approval|instruction|instructions|signature|sign-off|word)\s+of|with\s+the\s+(?:approval|consent|agreement)\s+of|at\s+the\s+(?:direction|request)\s+of)`;
/** Someone: a pronoun, a noun phrase of one to five words, or a bare plural or mass noun of a card or a rota ("BY STAFF", "by crew members"). */
const PERSON = String.raw`(someone|somebody|anyone|anybody|(?:a|an|another|any|some)\s+(?:other\s+)?${words(5)}|(?!(?:the|that|this|those|these|whoever)\s)${words(3)})`;
/** "a different clerk from", "someone different from": the same, said the other way. */
const DIFFERENT = String.raw`((?:someone|somebody)\s+different|(?:a|an|some)\s+different\s+${words(5)})\s+(?:from|than|to)`;
/** "other than", "besides", "who is not". */
const OTHER = String.raw`(?:other\s+than|besides|apart\s+from|≠|(?:who|that)\s+(?:is|was)\s+not)`;
/** The earlier act's clause: "who took control of …", "most recently assigned as …", "assigned as …". */
const ADVERB = String.raw`(?:most\s+recently|most\s+lately|last|lately|previously|originally|first|already|earlier)`;
const REL = String.raw`(?:(?:who|that|which|whom)\s+|(?=${ADVERB}\s)|(?=[a-z]+ed\s+(?:as|to|on|onto|for|with|in|at|over)\s))(.+)`;
/** The earlier person: "the agent who …", "the same MEMBER most recently …", "the one who …", "whoever …". */
const TARGET = String.raw`(?:whoever\s+(.+)|(?:(?:the|that|whichever)\s+(?:same\s+)?)?(?:(${words(4)})\s+)?${REL})`;
/** A modal before the act, in a sentence that puts the person first. */
const MODAL = String.raw`(?:may|must|shall|should|can|will|is\s+to|are\s+to|has\s+to|have\s+to|needs?\s+to|is\s+allowed\s+to|are\s+allowed\s+to|is\s+permitted\s+to)`;
const NEG_MODAL = String.raw`(?:(?:may|must|shall|should|can|will|is|are)\s+(?:not|never)|cannot|can't|mustn't|shan't|won't)(?:\s+be\s+allowed\s+to|\s+be\s+permitted\s+to)?`;

/** Passive with "by a person other than …" (or "by a different one from …"). */
const BY_OTHER = new RegExp(String.raw`^(?:(.*?)\s+)?(${BY})\s+(?:${PERSON}\s+${OTHER}|${DIFFERENT})\s+${TARGET}$`, "i");
/** Passive with "by the same one who …", "by whoever …", "by anyone who …". */
const BY_SAME = new RegExp(
  String.raw`^(?:(.*?)\s+)?(${BY})\s+(?:whoever\s+(.+)|(?:(the\s+same|the|any|anyone|anybody|someone|somebody)\s+)(?:(${words(4)})\s+)??${REL})$`,
  "i",
);
/** "Only a journalist other than the reporter who filed a story may check that story." */
const FIRST_OTHER = new RegExp(
  String.raw`^(?:only\s+)?(?:${PERSON}\s+${OTHER}|${DIFFERENT})\s+(?:(?:the|that|whichever)\s+(?:same\s+)?)?(?:(${words(4)})\s+)??(?:who|that)\s+(.+?)\s+(${MODAL})\s+(?:only\s+)?(.+)$`,
  "i",
);
/** "Nobody who counted a box may recount it", "The reporter who filed a story must not check it", "No agent who … shall …". */
const FIRST_SAME = new RegExp(
  String.raw`^(?:(nobody|no\s+one|no-one|none)|(no|the|a|an|any)\s+(${words(4)}))\s+(?:who|that)\s+(.+?)\s+(${NEG_MODAL}|${MODAL})\s+(?:only\s+)?(.+)$`,
  "i",
);
/** "The person who seals a box must not be the same clerk who …", "The signer of X must be someone other than …". */
const SUBJECT = new RegExp(
  String.raw`^(?:(?:the|a|an|any)\s+)?((?:whoever\s+)?.+?)\s+(?:(${NEG_MODAL})\s+be|${MODAL}\s+be|(?:is|are)(?:\s+(not|never))?)\s+(?:${PERSON}\s+${OTHER}|${DIFFERENT}|(?=(?:the\s+)?same\s)|(?=the\s))\s*${TARGET}$`,
  "i",
);

/** Whether the act's words deny it ("No goods shall be removed", "may not be approved"). */
const NEGATED = /^(?:no|nothing|none|never)\b|\b(?:not|never|cannot|can't|mustn't|shan't|won't)\b/i;
/** "… save", "… except", "… unless": what the person after it does is the one way the act is allowed. */
const EXCEPT = /\s*,?\s*\b(?:save|except|excepting|unless|other\s+than|but|only)\s*$/i;

/** A modal that makes the act an obligation or a permission. */
const OBLIGED = /\b(?:must|shall|should|may|can|cannot|will|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to|only)\b/i;

/** The words of the act before "by": its exception word taken off, and whether it is denied. */
function actPart(words: string | undefined): { act: string; negated: boolean; excepted: boolean } | undefined {
  // "…: the latest check must show a match, and it must have been done": the act is in the last part.
  const last = (words ?? "").split(/\s*[:;]\s+|,\s+(?:and|but)\s+/).pop()!;
  // "5 markers were approved by the same host who …": what happened, not what must.
  if (/\b(?:was|were)\b/i.test(last) && !OBLIGED.test(last)) return undefined;
  const raw = last.replace(/^(?:and|but|or)\s+/i, "").replace(/^(?:only|also)\s+/i, "");
  const excepted = EXCEPT.test(raw);
  const act = raw.replace(EXCEPT, "").replace(/,\s*$/, "").trim();
  return { act: act.replace(/^(?:only|also)$/i, ""), negated: NEGATED.test(act), excepted };
}

/**
 * The earlier act's own words, without what the sentence goes on to say after them: a rider on which one counts
 * ("who mixed it, the tank's most recent mix being the one that counts, since …"), a card's aside in brackets
 * ("WHO BOOKED THAT SAME ITEM BACK IN (ITS LATEST RETURN)"), a dash's afterthought.
 */
const deedOnly = (deed: string) => deed.split(/\s*(?:[,;(]|\s[—–-]\s)/)[0]!.trim();

/** The earlier person's and act's words, whichever of TARGET's groups holds them. */
function target(groups: (string | undefined)[], person?: string): { role: string; deed: string } | undefined {
  const [whoever, role, deed] = groups;
  if (whoever !== undefined) return { role: "", deed: deedOnly(whoever) };
  return deed === undefined ? undefined : { role: standsFor(role ?? "", person), deed: deedOnly(deed) };
}

/**
 * "a winch driver other than the one who deployed it", "a different nurse from the one who …": "one" stands for the
 * person the sentence named, by the noun at the head of its words ("driver", not the "winch" before it, nor the
 * "staff" of "a member of staff"). Read as "one", the earlier person named no key, and a compound noun before
 * it named two ("winch", "driver") that the two events share alike.
 */
function standsFor(role: string, person: string | undefined): string {
  if (!/^(?:one|ones)$/i.test(role.trim()) || person === undefined) return role;
  const head = person
    .replace(/^(?:a|an|another|any|some)\s+(?:(?:other|different)\s+)?/i, "")
    .split(/\s+(?:of|from|in|at|on|for|with)\s+/i)[0]!
    .trim()
    .split(/\s+/)
    .pop();
  return head === undefined || /^(?:someone|somebody|anyone|anybody|one|person|different)$/i.test(head) ? role : head;
}

/** "X must be signed by a member of staff other than the artist who …", and its negative with "save". */
function byOther(text: string): OtherThan | undefined {
  const other = BY_OTHER.exec(text);
  if (other === null) return undefined;
  const [, actWords, by, person, different, ...rest] = other;
  const tail = target(rest, person ?? different?.replace(/\s+different\b/i, ""));
  const part = actPart(actWords);
  if (tail === undefined || part === undefined) return undefined;
  const { act, negated, excepted } = part;
  if (negated && !excepted && act === "") return undefined;
  // "No goods shall be removed save by an agent other than …": the exception is the rule; "may not be approved by anyone other than …": the same one.
  return { act, doer: `${person ?? different ?? ""} ${by!}`.trim(), ...tail, same: negated && !excepted };
}

/** "X may not be approved by the clerk who opened it"; "X must be closed by the same agent who opened it". */
function bySame(text: string): OtherThan | undefined {
  const same = BY_SAME.exec(text);
  if (same === null) return undefined;
  const [, actWords, by, whoever, det, role, deed] = same;
  const part = actPart(actWords);
  if (part === undefined) return undefined;
  const { act, negated, excepted } = part;
  const samePerson = /same/i.test(det ?? "") ? !negated || excepted : negated && !excepted ? false : undefined;
  if (samePerson === undefined || act === "") return undefined;
  return { act, doer: by!, role: role ?? "", deed: deedOnly((whoever ?? deed)!), same: samePerson };
}

/** "Only a journalist other than the reporter who filed a story may check it." */
function personFirst(text: string): OtherThan | undefined {
  const first = FIRST_OTHER.exec(text);
  if (first === null) return undefined;
  const [, person, different, role, deed, , actWords] = first;
  // "… may not be charged": the person first is the act's object, not who does it.
  if (NEGATED.test(actWords!) || /^be\b/i.test(actWords!)) return undefined;
  const who = person ?? different?.replace(/\s+different\b/i, "");
  return {
    act: actWords!,
    doer: `${person ?? different ?? ""} ${actWords!}`.trim(),
    role: standsFor(role ?? "", who),
    deed: deed!,
    same: false,
  };
}

/** "Nobody who counted a box may recount it", "The reporter who filed a story must not check it". */
function doerDenied(text: string): OtherThan | undefined {
  const first = FIRST_SAME.exec(text);
  if (first === null) return undefined;
  const [, nobody, det, role, deed, modal, actWords] = first;
  const denied = nobody !== undefined || /^no$/i.test(det ?? "") ? !NEGATED.test(modal!) : NEGATED.test(modal!);
  if (!denied || /^be\b/i.test(actWords!) || /\b(?:their|his|her|its)\s+own\b/i.test(actWords!)) return undefined;
  // "a cask that has not been filled is not sealed": what was not done to a thing (not-done-first.ts), not who did it.
  if (NEGATED.test(deed!)) return undefined;
  return { act: actWords!, doer: actWords!, role: role ?? "", deed: deed!, same: false };
}

/** "The person who seals a box must not be the same clerk who …", "The signer of X must be someone other than …". */
function doerAsSubject(text: string): OtherThan | undefined {
  const subject = SUBJECT.exec(text);
  if (subject === null) return undefined;
  const [, who, negModal, notIs, person, different, ...rest] = subject;
  const tail = target(rest, person ?? different?.replace(/\s+different\b/i, ""));
  const negated = negModal !== undefined || notIs !== undefined;
  // "must not be the artist who …" and "must be someone other than the artist who …" say the same; "is the artist who …" does not.
  if (tail === undefined || negated === (person !== undefined || different !== undefined)) return undefined;
  const act = who!.replace(/^(?:whoever|(?:person|one|member of staff|staff member)\s+(?:who|that))\s+/i, "");
  return { act, doer: who!, ...tail, same: false };
}

/** The construction one clause writes, or undefined when it writes none of them. */
export function otherThan(clause: string): OtherThan | undefined {
  const text = clause.replace(/[\s.;,]+$/, "").replace(/\s+/g, " ");
  for (const read of [byOther, bySame, personFirst, doerDenied, doerAsSubject]) {
    const found = read(text);
    if (found !== undefined) return found;
  }
  return undefined;
}
