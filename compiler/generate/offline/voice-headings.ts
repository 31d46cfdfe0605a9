/**
 * What a Do/Don't page, a slide or a manager's e-mail puts before its colon (issue 25): a heading the rule
 * after it spells out, or the thing the rule is about. Each is folded into the voice the readers know
 * before the imperative step (voice.ts) reads the rest; spans kept (voice-spans.ts), so quotes stay the
 * spec's words.
 *
 * - "Log every release: call log_disclosure for the same release …", "Confirm each booking: run
 *   `send_receipt` …": a duty named in the page's words, then spelled out with the tool's name. The
 *   heading names the act by a word of its own ("log" for `log_disclosure`) and reads as a second duty
 *   on no event; the words after the colon are the rule.
 * - "Report a record showing `seal: broken` with report_seal …", "Flag any reading with `temp: high`
 *   using flag_reading …": the thing shown is the situation, the tool the act, as "Whenever a record
 *   shows `seal: broken`, report it with report_seal …" says it.
 * - "Firearm release (`kind: firearm`): the duty supervisor writes … first", "Refund over $50: the
 *   manager approves it in the chat first": a slide's act as its heading, and what comes first, as
 *   "Before each firearm release (`kind: firearm`), the duty supervisor writes …" says it.
 * - "No DG vehicle goes aboard without a pass: the most recent inspection … must show `result: pass`":
 *   what the pass is, after the colon, is what the vehicle goes aboard only with ("A DG vehicle goes
 *   aboard only with a pass: …"), the readers' gate on a look-up.
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";
import { imperativeVerb } from "./voice-words.js";
import { escapeRegExp } from "./shape.js";

/** A name of an action as written: in backticks or snake_case. */
const NAMED_ACT = String.raw`\`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+\`?`;
/** A character of one clause, a backticked value whole ("`kind: firearm`" holds a colon). */
const IN_CLAUSE = String.raw`(?:[^,;:\`]|\`[^\`]*\`)`;
/** Values in backticks, one or several ("`form: liquid` or `form: sludge`"). */
const SHOWN = String.raw`\`[^\`]+\`(?:\s*(?:,|or|and|,\s*or)\s*\`[^\`]+\`)*`;

export function headingSteps(agent: string, knows: (verb: string) => boolean): VoiceStep[] {
  // The agent as a registrar's voice writes it before its verb: "Registrar logs every release: Registrar calls …".
  const WHO = String.raw`(?:${escapeRegExp(agent)}|the\s+agent|the\s+assistant)`;
  return [
    {
      // "Log every release: call log_disclosure …", "Registrar logs every release: Registrar calls log_disclosure …": the
      // heading goes when the words after the colon name the act.
      name: "duty heading",
      apply: (v: Voiced) =>
        rewrite(
          v,
          new RegExp(
            String.raw`^(${WHO}\s+)?([a-z]+)\s+(?:every|each|all|any)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s*:\s+(?=(?:${WHO}\s+)?[a-z]+\s+(?:(?:the|a|an)\s+)?${NAMED_ACT})`,
            "gi",
          ),
          (m) => {
            // Bare, the imperative ("Log every …"); after the agent's name, its verb in the third person ("logs every …").
            const verb = m[2]!;
            const ok =
              m[1] === undefined ? imperativeVerb(verb, true) : /[^s]s$/i.test(verb) && imperativeVerb(verb.replace(/e?s$/i, ""), false);
            return ok ? "" : undefined;
          },
        ),
    },
    {
      // "Report a record showing `seal: broken` with report_seal …": the record shown is when, the tool the act.
      name: "thing shown",
      apply: (v: Voiced) =>
        rewrite(
          v,
          new RegExp(
            String.raw`^([a-z]+)\s+(?:a|an|any|every|each)\s+([a-z][\w-]*)\s+(?:showing|that\s+shows|which\s+shows|with)\s+(${SHOWN})\s+(?=(?:with|using|via|through|by\s+calling)\s+${NAMED_ACT})`,
            "gi",
          ),
          (m) => {
            const [verb, noun, shown] = [m[1]!, m[2]!, m[3]!];
            if (!imperativeVerb(verb, true) || !knows(verb)) return undefined;
            const article = /^[aeiou]/i.test(noun) ? "an" : "a";
            return `Whenever ${article} ${noun} shows ${shown}, ${verb.toLowerCase()} it `;
          },
        ),
    },
    {
      // "Firearm release (`kind: firearm`): the duty supervisor writes … first": the heading names the act (its last
      // word is one of the agent's acts), what follows it happens before each.
      name: "act heading, first",
      apply: (v: Voiced) => {
        const heading = new RegExp(
          String.raw`^([A-Za-z][\w-]*(?:\s+[a-z][\w-]*){0,2}(?:\s*\(\`[^\`]+\`\))?)\s*:\s+(?=${IN_CLAUSE}+?\s+(?:first|beforehand|before\s+it|before\s+that)(?:\s*[,;]|$))`,
          "g",
        );
        const m = heading.exec(v.text);
        if (m === null) return v;
        const words = m[1]!.replace(/\s*\(.*$/, "").split(/\s+/);
        const last = words[words.length - 1]!;
        // The heading is a noun phrase of an act ("Firearm release"), not a clause ("Supervisor writes") or a label ("Rule").
        if (!knows(last) || /^(?:the|a|an|each|every|any|no|rule|step|note)$/i.test(words[0]!)) return v;
        const led = rewrite(v, heading, (h) => `Before each ${h[1]!.charAt(0).toLowerCase()}${h[1]!.slice(1)}, `);
        return rewrite(led, /\s+(?:first|beforehand|before\s+it|before\s+that)(?=\s*[,;]|$)/gi, () => "");
      },
    },
    {
      // "No DG vehicle goes aboard without a pass: the most recent inspection … must show …": aboard only with it.
      name: "without, as the colon says",
      apply: (v: Voiced) =>
        rewrite(
          v,
          new RegExp(
            String.raw`^(no)\s+(${IN_CLAUSE}+?)\s+without\s+((?:a|an|the|its|their)\s+[a-z][\w-]*)(?=\s*:\s+(?:the|its|their)\s+(?:most\s+recent|latest|last)\b${IN_CLAUSE}*\b(?:must|has\s+to|needs\s+to|shows?)\b)`,
            "gi",
          ),
          (m) => {
            const [no, subject, what] = [m[1]!, m[2]!, m[3]!];
            const article = /^[aeiou]/i.test(subject) ? "an" : "a";
            return `${no === "No" ? article.charAt(0).toUpperCase() + article.slice(1) : article} ${subject} only with ${what}`;
          },
        ),
    },
  ];
}
