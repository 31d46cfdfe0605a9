/**
 * A duty with its condition put last (issue 25): "The Master is to be called if any cast goes down with more
 * than 2,000 metres of wire out", "The duty vet shall be paged whenever a dose above 40 ml is drawn", "The
 * agent must notify the owner if a payment over $500 is refunded". Standing orders, minutes and "shall"
 * clauses write the duty first; the readers know the condition first (shape.ts reads a leading "If …, …"),
 * and with the condition last they read the whole as one duty with no event to hang it on. Folded here
 * into "If any cast goes down …, the Master must be called", spans kept (voice-spans.ts).
 *
 * "The Assistant must call `log_release` for that release after each release_record": a duty after each act, the same.
 *
 * Only an obligation, affirmed: "must not … if …" and "only … if …" are bans and gates the readers take as
 * written (latest.ts, leading.ts); a condition on a pronoun ("… if it is over $500") would lose what the
 * pronoun stands for once put first; and a look-up's condition ("… if the latest check shows …") is the
 * condition readers' own.
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** An obligation: the modal the voice steps before this one leave ("must"), or one they do not rewrite. */
const OBLIGED = String.raw`(?:must|shall|is\s+to|are\s+to|has\s+to|have\s+to|needs?\s+to|is\s+required\s+to|are\s+required\s+to)`;
/** A character of one clause: no comma, semicolon or colon, but the comma of a figure ("2,000"). */
const IN_CLAUSE = String.raw`(?:[^,;:]|(?<=\d),(?=\d{3}))`;
/** ", before the session ends": the end of the session the duty is due by stays last. */
const SESSION_END = String.raw`,\s+(?:before\s+the\s+(?:session|conversation|chat|call)\s+(?:ends|is\s+over|closes)|by\s+the\s+end\s+of\s+the\s+(?:session|conversation|chat|call))`;
const TRAILING = new RegExp(
  String.raw`^((?:${IN_CLAUSE}*?\s)?${OBLIGED}\s+${IN_CLAUSE}*?)\s+(if|whenever|when|each\s+time|every\s+time|after(?=\s+(?:each|every)\s))\s+((?:a|an|any|each|every|the|some)\s+${IN_CLAUSE}+?)(${SESSION_END})?$`,
  "gi",
);

/**
 * "Piste never opens anything in a zone for the rest of the session once a forecast has put that zone at level 4",
 * "No payment goes to a supplier after an audit has flagged that supplier": a ban whose condition comes last, a
 * clause of its own that points back ("that zone") at the thing the ban names ("a zone"). The readers know the
 * condition first, the thing named in it and pointed at in the ban ("Once a forecast has put a zone at level 4,
 * Piste never opens anything in that zone …"); what a colon adds after it stays last.
 */
/** A character of one clause, a value in backticks whole ("`status: allergic`" holds a colon). */
const IN_BAN = String.raw`(?:[^,;:\`]|\`[^\`]*\`|(?<=\d),(?=\d{3}))`;
const BAN_THEN_CONDITION = new RegExp(
  String.raw`^(${IN_BAN}*?\b(?:never|not|no|nothing|none|doesn't|don't|cannot|can't)\b${IN_BAN}*?)\s+(once|after|as\s+soon\s+as|from\s+the\s+moment)\s+((?:a|an|the|any|some)\s+${IN_BAN}*?\bthat\s+([a-z][\w-]*)\b${IN_BAN}*?)(?=\s*[:;,]|$)`,
  "gi",
);

export function trailingConditionSteps(): VoiceStep[] {
  return [
    {
      name: "condition after the ban",
      apply: (v: Voiced) =>
        rewrite(v, BAN_THEN_CONDITION, (m) => {
          const [main, conj, condition, noun] = [m[1]!, m[2]!, m[3]!, m[4]!];
          // The ban names the thing ("a zone", "any supplier"), once, and has no condition of its own.
          const named = new RegExp(String.raw`\b(?:a|an|any|each|every)\s+${noun}\b`, "gi");
          if ((main.match(named) ?? []).length !== 1 || /\b(?:if|when|once|after|before|unless|until|while)\b/i.test(main))
            return undefined;
          const lead = conj.charAt(0).toUpperCase() + conj.slice(1).toLowerCase();
          const first = /^(?:The|A|An|Each|Every|Any|No|Nothing|Never)\b/.test(main) ? main.charAt(0).toLowerCase() + main.slice(1) : main;
          const article = /^[aeiou]/i.test(noun) ? "an" : "a";
          return `${lead} ${condition.replace(new RegExp(String.raw`\bthat\s+${noun}\b`, "i"), `${article} ${noun}`)}, ${first.replace(named, `that ${noun}`)}`;
        }),
    },
    {
      name: "condition after the duty",
      apply: (v: Voiced) =>
        rewrite(v, TRAILING, (m) => {
          const [main, conj, condition, end] = [m[1]!, m[2]!, m[3]!, m[4] ?? ""];
          if (/\b(?:not|never|no|only|unless|until|before|after|if|when|once)\b/i.test(main)) return undefined;
          // "… after each release_record": the act named, no look-up's words, however short.
          const short = condition.split(/\s+/).length < 3 && !/^after$/i.test(conj);
          if (/\b(?:most\s+recent|latest|last)\b/i.test(condition) || short) return undefined;
          const lead = conj.charAt(0).toUpperCase() + conj.slice(1).toLowerCase();
          const first = /^(?:The|A|An|Each|Every|Any|That|This)\b/.test(main) ? main.charAt(0).toLowerCase() + main.slice(1) : main;
          return `${lead} ${condition}, ${first}${end}`;
        }),
    },
  ];
}
