/**
 * Issue 25, no labels (nolabel2): the reading from the words alone (synthesize-unlabeled.ts) ranks its
 * candidates by how many of the rule's words their matchers share, added up, and no label chooses
 * among them. Two events of one tool share every word of its name, so "the inspection came back
 * `condition: sound`" was read as a check between the inspection's call and its own result (a pairing
 * of `inspect_lot` and `inspect_lot_result`, or the result required after the call), which the tool
 * keeps on every sample and says nothing of the listing the rule is about. Now two events of one tool
 * are no reading (unlabeled-fit.ts), and the ordering of the sound result before the listing is; values
 * the words do not name, or name by one word of several, narrow no matcher from the words alone.
 * A wine auction's cataloguing desk, which no fixture uses, in several voices: plain prose, capitals,
 * "shall", a manager's note.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateMatchers } from "../../compiler/generate/offline/synthesize-vocab.js";
import { namesEveryWord } from "../../compiler/generate/offline/unlabeled-fit.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const session = sessions("w");
const cellarOf: Record<string, string> = { L1: "North Vault", L2: "South Vault", L3: "East Racks", L4: "West Racks" };
const inspect = (lot: string): Step => ["agent", "inspect_lot", { lot_id: lot, cellar: cellarOf[lot]! }];
const result = (lot: string, condition: string): Step => ["tool", "inspect_lot_result", { lot_id: lot, condition, cellar: cellarOf[lot]! }];
const list = (lot: string): Step => ["agent", "list_lot", { lot_id: lot }];
const photograph = (lot: string): Step => ["agent", "photograph_lot", { lot_id: lot }];
const samples = [
  session(inspect("L1"), result("L1", "sound"), list("L1")),
  // Listed with no inspection at all.
  session(photograph("L1"), list("L1")),
  // Listed though the inspection found it damaged.
  session(inspect("L1"), result("L1", "damaged"), list("L1")),
  session(inspect("L1"), result("L1", "sound"), photograph("L1"), list("L1")),
  session(inspect("L2"), result("L2", "sound"), list("L1")),
  session(inspect("L1"), result("L1", "sound"), list("L1"), inspect("L2"), result("L2", "sound"), list("L2")),
  session(photograph("L3"), inspect("L3"), result("L3", "sound")),
  session(inspect("L4"), result("L4", "damaged"), photograph("L4")),
];
const spec = (body: string) =>
  "---\nname: cellar\ndescription: Rules for the cellar assistant.\n---\n" +
  "The assistant runs a wine auction's cataloguing desk. It inspects a lot (`inspect_lot`, by `lot_id`), whose result " +
  "gives its `condition`, photographs it (`photograph_lot`) and lists it in the catalogue (`list_lot`).\n\n" +
  `## The rule\n\n${body}\n`;

describe("a wine auction: a lot is catalogued only on a sound inspection", () => {
  const { reading } = drafter(spec, samples);
  const sound = [{ action: "inspect_lot_result", metadata: { condition: "sound" } }];
  it.each([
    ["A lot goes into the catalogue only once the inspection of that lot has come back `condition: sound`.", true],
    ["A LOT GOES INTO THE CATALOGUE ONLY ONCE ITS INSPECTION HAS COME BACK `condition: sound`.", false],
    ["Any lot entering the catalogue shall have had its inspection return `condition: sound` beforehand.", false],
    ["Per the desk manager, lots go into the catalogue only when the inspection of that lot has come back `condition: sound`.", true],
  ] as const)("%j: the sound result comes before the listing, not after its own call", (body, sameLot) => {
    const found = reading(body);
    expect(found.checks).toEqual([
      { type: "ordering", first: sound, before: [{ action: "list_lot" }], ...(sameLot ? { on: "metadata.lot_id" } : {}) },
    ]);
    expect(found.questions).toBe(0);
    // The lot listed with no inspection and the one listed though damaged fail (and, tied by the lot, the lot listed on another's inspection).
    expect(found.fail).toEqual(sameLot ? ["w2", "w3", "w5"] : ["w2", "w3"]);
  });
});

describe("from the words alone a matcher is narrowed only by a value the words name, by every word of it", () => {
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  const rule: MetaBehavior = { name: "The rule", trigger: { description: "", semantic: true }, checks: [], semanticChecks: [] };
  // From the words, with no labels to follow (`alone`) or as the search's first guess before labels.
  const valuesOf = (text: string, alone: boolean) =>
    candidateMatchers(lexicon, rule, text, samples, () => undefined, true, alone).matchers.flatMap((m) =>
      Object.values(m.metadata ?? {}).map((v) => JSON.stringify(v)),
    );

  it("no cellar narrows a reading of words that name none; as the first guess before labels, cellars are still tried", () => {
    const text = "A lot goes into the catalogue only once the inspection of that lot has come back `condition: sound`.";
    expect(valuesOf(text, true).filter((v) => /Vault|Racks/.test(v))).toEqual([]);
    expect(valuesOf(text, false).some((v) => /Vault|Racks/.test(v))).toBe(true);
  });

  it("the North Vault is named by its words, not by the word it shares with the South Vault", () => {
    const text = "Lots from the North Vault are inspected before they are listed.";
    const values = valuesOf(text, true);
    expect(values).toContain('"North Vault"');
    expect(values).not.toContain('"South Vault"');
    expect(namesEveryWord(new Set(["north", "vault"]), "cellar", "South Vault")).toBe(false);
    expect(namesEveryWord(new Set(["north", "vault"]), "cellar", "North Vault")).toBe(true);
  });
});
