/**
 * The label path reads the rule's words in the voice layer's rewrite (issue 25,
 * synthesize-voiced.ts): a numbered standing order of a hotel's lost-property office. A clause's
 * number is no part of its reading, in the heading ("2. Cash handed back") as in the sentence
 * ("2.1 …"): read as a number the words compare, "2" became a threshold the search tried on every
 * numeric key, and with six labels `cash_amount > 2` fitted them by chance on a numbered spec.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateVerdicts } from "../../compiler/generate/offline/synthesize.js";
import { headingWords, voicedParagraphs } from "../../compiler/generate/offline/synthesize-voiced.js";
import { numbersIn } from "../../compiler/generate/offline/synthesize-keys.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import type { Trajectory } from "../../runtime/types.js";

const HEADING = "2. Cash handed back";
const BODY = `2.1 Cash handed back to any one owner shall not be in excess of USD 300.00.

2.2 Prior to any hand_back, the item is to be looked up with \`find_item\`.

**Why:** in 2019 a guest's 4 wallets went to the wrong room.`;

const session = (id: string, amount: string): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [
    { id: "e0", actor: "user", action: "message" },
    { id: "e1", actor: "agent", action: "find_item", metadata: { item_id: id } },
    { id: "e2", actor: "agent", action: "hand_back", metadata: { item_id: id, cash_amount: amount } },
  ],
});
const samples = ["40", "45", "120", "310", "480", "900"].map((a, i) => session(`item-${i}`, a));
const lexicon = buildLexicon(buildVocabulary(samples), samples);
const rule: MetaBehavior = {
  name: HEADING,
  trigger: { description: "Hands an item back.", match: [{ action: "hand_back" }] },
  checks: [],
  semanticChecks: [{ quote: "Cash handed back to any one owner shall not be in excess of USD 300.00", question: "?" }],
};
/** The thresholds the search's candidate checks compare a key with. */
const thresholds = (section: string) =>
  new Set(
    candidateVerdicts(lexicon, rule, section, samples).flatMap(({ check }) =>
      [...JSON.stringify(check).matchAll(/"(?:gt|gte|lt|lte)":(-?[\d.]+)/g)].map((m) => Number(m[1])),
    ),
  );

describe("the label path reads a numbered procedure in the readers' voice", () => {
  it("rewrites each rule sentence as the no-label draft reads it, without the rationale", () => {
    const text = voicedParagraphs(BODY, lexicon, "the agent");
    expect(text).toContain("Cash handed back to any one owner must not be in excess of USD 300.00");
    expect(text).toContain("Before any hand_back, the item must be looked up with `find_item`");
    expect(text).not.toMatch(/2\.[12]/);
    expect(text).not.toContain("2019");
    expect(numbersIn(text)).toEqual([300]);
  });

  it("takes no clause number, of the heading or of a sentence, for a threshold", () => {
    const found = thresholds(voicedParagraphs(BODY, lexicon, "the agent"));
    expect(found.has(300)).toBe(true);
    expect([2, 2.1, 2.2].filter((n) => found.has(n))).toEqual([]);
    expect(headingWords(HEADING)).toBe("Cash handed back");
  });
});
