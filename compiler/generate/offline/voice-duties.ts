/**
 * Passive duties after an act (voice.ts, issue 25): a contract's, a court order's or a release note's
 * way of saying that something is done for the same thing a few steps after an act. "Where a MEMBER is
 * assigned to a CALL of more than five (5) hours, the Employer shall ensure that a meal break is entered
 * for that same CALL no later than the second ENTRY following that assignment", "a notice of seizure shall
 * be served …, save that goods valued at less than £250.00 need no notice under this paragraph", "the
 * aftercare text for that same session is now sent …". The pairing reader (clauses.ts pairingFrom,
 * combined.ts withWithin) knows "X must be V-ed … within N steps of Y"; these steps fold the other
 * voices into it. They run last, on the sentence the other steps left ("shall" is "must" by then, the
 * window "within N steps of", a contract's "save that" is "unless").
 */
import { PARTICIPLE } from "./shape.js";
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** Who is made to see to it: "the Employer", "the company", "staff", "the Respondent's agents", "we" (at most four words). */
const WHO = "(?:we|staff|(?:the\\s+)?[A-Za-z][\\w'\u2019-]*(?:\\s+[A-Za-z][\\w'\u2019-]*){0,3}?)";

/**
 * What is done, the thing first: "a meal break", "the aftercare text for that same session" (not "no MEMBER", a ban),
 * with no relative clause of its own ("a load that is weighed"); "that" after a preposition points back, and may.
 */
const NOT_RELATIVE = "(?!(?<!\\b(?:for|of|on|to|about|with|under|against|from)\\s)(?:that|which|who|whose|where|when)\\b)";
const THING = `(?:a|an|the|each|every|its|their)\\s+(?:${NOT_RELATIVE}[^,;:\\s]+\\s+){0,8}?${NOT_RELATIVE}[^,;:\\s]+`;

/** Verbs that say a thing is exempt from the duty: "need no notice", "does not attract a meal break", "get no text". */
const EXEMPT =
  "(?:(?:need|needs|require|requires|get|gets|receive|receives|attract|attracts)\\s+no|(?:do|does|need)\\s+not\\s+(?:need|require|get|receive|attract))";

export function dutySteps(): VoiceStep[] {
  return [
    {
      // "…, the Employer must ensure that a meal break is entered …": what is to be seen to is the duty, in the passive
      // the pairing reader knows ("a meal break must be entered"). A ban ("ensure that no MEMBER is assigned …
      // unless …") is the ordering and condition readers' as written, and stays.
      name: "ensure that passive",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(
            `(^|,\\s+)${WHO}\\s+must\\s+(?:ensure|make\\s+sure|see\\s+to\\s+it|see)\\s+that\\s+(${THING})\\s+(?:is|are)\\s+(?:(?:then|also|always)\\s+)?(?=${PARTICIPLE}\\b)`,
            "gi",
          ),
          (m) => (/^(?:no|none)\b/i.test(m[2]!) ? undefined : `${m[1]}${m[2]} must be `),
        ),
    },
    {
      // "…, the Employer shall cause a meal break to be entered …": the same duty, said with "cause … to be".
      name: "cause to be",
      apply: (v) =>
        rewrite(
          v,
          new RegExp(`(^|,\\s+)${WHO}\\s+must\\s+cause\\s+(${THING})\\s+to\\s+be\\s+(?=${PARTICIPLE}\\b)`, "gi"),
          (m) => `${m[1]}${m[2]} must be `,
        ),
    },
    {
      // "Staff shall ensure that, where a hive is inspected …, a treatment is recorded …": the condition the rewrite of
      // "ensure that" left first is the procedure's "if", as a sentence's own "Where …," is (voice.ts).
      name: "where left first",
      apply: (v) => rewrite(v, /^where\b(?=[^,]+,)/g, () => "If"),
    },
    {
      // "Every hive inspected … is to have a treatment recorded for that same hive …": what each such event is to have
      // done is what it gets, as "Any load over 12 kg gets a glaze check …" says.
      name: "is to have done",
      apply: (v) =>
        rewrite(
          v,
          /^((?:each|every|any)\s+[^,;:]+?\s+)(?:must|has\s+to|needs?\s+to|should)\s+have\s+(?=(?:a|an|the|its|their)\s+[^,;:]+?\s+\w+(?:ed|en)\b)/gi,
          (m) => `${m[1]}gets `,
        ),
    },
    {
      // "the aftercare text … is now sent within 2 steps of …", "the invoice gets sent …": a release note's or a
      // manager's present tense is the duty, when a window of steps says when.
      name: "is now done",
      apply: (v) =>
        /\bwithin\s+\w+\s+steps\s+of\b/i.test(v.text)
          ? rewrite(
              v,
              new RegExp(
                `^((?:if|when|whenever|where)\\b.*?,\\s+)?(${THING})\\s+(?:is|are|gets?)\\s+(?:now\\s+)?(?=${PARTICIPLE}\\b)`,
                "gi",
              ),
              (m) => `${m[1] ?? ""}${m[2]} must be `,
            )
          : v,
    },
    {
      // "…, save that goods valued at less than £250.00 need no notice under this paragraph": an exemption of the
      // events outside the act's bound, which the bound on the act says already; read as "unless", it was the
      // condition of an ordering.
      name: "exempt unless",
      apply: (v) => rewrite(v, new RegExp(`,?\\s+unless\\s+[^,;:]*?\\s${EXEMPT}\\b[^;:]*$`, "gi"), () => ""),
    },
  ];
}
