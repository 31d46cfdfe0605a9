/**
 * A rate written with "to" (issue 25): "three lifts to the hour", "two refills to a customer", "no more than
 * 5 to a batch". The readers group a count by "per hour", "per customer" (keys.ts groupingWords); "to the"
 * and "to a" after a number are the same rate in an older or a trade's voice, and read as "per".
 *
 * Not an amount moved to something ("adds 14 days to the loan", "raise it 2 degrees to a maximum"): a verb of
 * change before the number, or a "to" noun that is a bound ("a maximum", "the limit"), keeps its "to".
 */
import { rewrite } from "./voice-spans.js";
import type { VoiceStep } from "./voice-forms.js";

/**
 * A number (in digits or a small one in words: not "one", which is as often a pronoun, "your loved one to the day …"),
 * up to three words of what is counted, then "to the/a/an <noun>", and the clause ends or goes on to its next part.
 */
const TO_RATE =
  /(?<=^|[\s(])((?:(?:[£$€]\s?)?\d+(?:[.,]\d+)*%?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+dozen)\s+(?:(?!to\b)[a-z][\w-]*\s+){0,3}?)to\s+(the|a|an|any|each|every)\s+(?!(?:one|single|maximum|minimum|max|min|total|limit|cap|ceiling|sum|number|amount|value|level|rate|degree|extent|point|most|least|end|start|top|bottom|nearest|next|same|other|first|last)\b)([a-z]+)\b(?=\s*(?:$|[,.;:)]|(?:and|or|in|at|on|for|within|during|across|max|maximum|at\s+most)\b))/gi;

/** A verb of change before the number ("adds 14 days to the loan"): the "to" is what the amount changes, not a rate. */
const MOVES =
  /\b(?:add|extend|increase|raise|reduce|lower|move|push|set|round|cut|shorten|lengthen|change|adjust|convert|compare|bring|top)(?:s|ed|ing|d)?\b/i;

/** A bound before the number ("at most", "no more than", "in excess of"): the words ask for a limit, whatever follows. */
const BOUND_BEFORE =
  /\b(?:at\s+most|(?:no|not|never)\s+more\s+than|more\s+than|up\s+to|maximum(?:\s+of)?|max|fewer\s+than|less\s+than|only|in\s+excess\s+of|exceed(?:s|ing)?|over|beyond|exactly)\s+$/i;

/**
 * The units a rate is written "to the" of without a bound ("three lifts to the hour", "forty miles to the gallon");
 * without one, "to the customer" names who gets the thing ("send one reminder to the customer").
 */
const UNIT =
  /^(?:minute|hour|day|night|week|fortnight|month|year|shift|session|mile|kilometre|kilometer|gallon|litre|liter|pound|kilo|kilogram|tonne|ton|dozen|batch|load|pallet|crate|case|box|page)$/i;

export function perSteps(): VoiceStep[] {
  return [
    {
      name: "to the hour",
      apply: (v) =>
        rewrite(v, TO_RATE, (m, text) => {
          // Only a count's rate: what comes before the number moves nothing to anything.
          const before = text.slice(0, m.index);
          if (MOVES.test(before.split(/[,;:]/).pop() ?? "")) return undefined;
          // A limit's words before the number, or a unit's rate; else "one reminder to a customer" names who gets it.
          if (!BOUND_BEFORE.test(before) && !(/^the$/i.test(m[2]!) && UNIT.test(m[3]!))) return undefined;
          return `${m[1]!}per ${m[3]!}`;
        }),
    },
  ];
}
