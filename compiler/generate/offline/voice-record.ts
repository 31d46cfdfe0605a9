/**
 * The record around a rule (voice.ts, issue 25): minutes and e-mail threads put a rule after words that
 * say how it came to be, not what it is. "Agreed (proposed JV, seconded MK): no block is to be sprayed
 * …", "Agreed also, at MK's request: once picking has been started …", "It was agreed that …",
 * "Correction to my note of Monday: no isotope is issued …", "One more: once a permit has been
 * suspended, …". The lead-in goes; the rule after it is read as if written alone, its first word
 * capitalised where a reader looks for "Where", "Once", "No". In a correction, what it takes back
 * (", not 37", ", not per researcher") is the superseded draft's, not the rule's (context.ts).
 * Spans are kept (voice-spans.ts): quotes stay the spec's words.
 */
import { rewrite, type Voiced } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/** "Agreed (proposed JV, seconded MK): ", "Agreed also, at MK's request: ", "Resolved: ", "It was agreed that ". */
const DECIDED =
  /^(?:it\s+was\s+(?:agreed|resolved|decided)(?:\s*\([^)]*\))?\s+that\s+|(?:agreed|resolved|decided|carried|ruled)(?:\s+(?:also|further|unanimously|nem\.?\s*con\.?))?(?:\s*\([^)]*\))?(?:\s*,\s*[^:,;]{1,60})?\s*:\s+)/gi;
/** "Correction to my note of Monday: ", "Correction to Monday's rule 3, two changes: ", "Amended: ", "Update: ". */
const CORRECTION = /^(?:correction|amendment|revision|update|erratum)(?:\s+to\s+[^:;]{1,60}?)?(?:\s*,\s*[^:;]{1,40})?\s*:\s+/gi;
/**
 * "One more: ", "Also: ", "And another thing: ", "PS: ": a further rule in the same message; "Rule 5: an order is …": a
 * thread's number for the rule it states (voice.ts leaves a number before a capital; here the rule starts small).
 */
const FURTHER =
  /^(?:rule\s+\d+[a-z]?|one\s+more(?:\s+thing)?|also|and\s+another\s+thing|further(?:more)?|in\s+addition|p\.?\s?s\.?)\s*:\s+/gi;
/** ", not 37", ", not per researcher": the words a correction takes back. */
const TAKEN_BACK = /,\s+not\s+[^,;]+(?=,|;|$)/gi;

/** The sentence with its lead-in gone and, if it went, its new first word capitalised. */
function withoutLeadIn(v: Voiced, lead: RegExp): Voiced {
  const gone = rewrite(v, lead, () => "");
  return gone === v ? v : rewrite(gone, /^[a-z]/g, (m) => m[0].toUpperCase());
}

/** The steps of the record's voice, in order. */
export function recordSteps(): VoiceStep[] {
  return [
    {
      name: "decided",
      apply: (v) => withoutLeadIn(v, DECIDED),
    },
    {
      name: "correction",
      apply: (v) => {
        const corrected = withoutLeadIn(v, CORRECTION);
        return corrected === v ? v : rewrite(corrected, TAKEN_BACK, () => "");
      },
    },
    {
      name: "further",
      apply: (v) => withoutLeadIn(v, FURTHER),
    },
  ];
}
