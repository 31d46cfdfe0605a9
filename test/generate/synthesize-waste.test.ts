/**
 * The label search does its work once (issue 25: under 2 s per rule for 50 samples, drafts
 * unchanged). A candidate's words score is worked out once per rule however many readings it is
 * part of (it was worked out again for every reading judged), and the pieces read once and shared
 * (amountsIn's patterns, statedOrder per text and pair of keys) give what a fresh read gives,
 * whatever was read before. bench/drafts-snapshot.js holds the whole change to byte-identical drafts.
 */
import { describe, expect, it, vi } from "vitest";
import type { Candidate } from "../../compiler/generate/offline/synthesize-eval.js";
import { amountsIn } from "../../compiler/generate/offline/amounts.js";
import { statedOrder } from "../../compiler/generate/offline/synthesize-arithmetic.js";

const scored: Candidate[] = [];
vi.mock("../../compiler/generate/offline/synthesize-candidates.js", async (original) => {
  const m = await original<typeof import("../../compiler/generate/offline/synthesize-candidates.js")>();
  return {
    ...m,
    // What the search (synthesize.ts) asks of a candidate's score; the ranking's own calls stay inside the module.
    score: (c: Candidate, vocab: Parameters<typeof m.score>[1]) => {
      scored.push(c);
      return m.score(c, vocab);
    },
  };
});

// The door assistant: a phrase reading the labels overturn, so the search judges thousands of readings.
const { draft, labelsFor, verdicts, truth } = await import("./verdict-fixture.js");

describe("the label search's work", () => {
  it("scores each candidate once per rule, not once per reading it is part of", () => {
    scored.length = 0;
    const labeled = draft(labelsFor(["verified-then-open", "open-unverified", "lock-only", "verified-no-open"]));
    // The search ran and found the reading the labels ask for.
    expect(verdicts(labeled.ir)).toEqual(truth);
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.length).toBe(new Set(scored).size);
  });

  it("reads amounts with its shared patterns as a first read does, whatever was read before", () => {
    const texts = [
      "A refund over $500 needs a second look, and no discount of more than 20 percent.",
      "Never load a van past 2,500 kg; a crate of 40 kg or more takes two porters.",
      "No sentence here writes a number at all.",
      "Keep (`temperature_c` above 8) out of the cold room, and (`score` 70 or above) passes.",
    ];
    const first = texts.map((t) => JSON.stringify(amountsIn(t)));
    // Interleaved and repeated, each text reads the same.
    for (const t of [...texts].reverse()) expect(JSON.stringify(amountsIn(t))).toBe(first[texts.indexOf(t)]);
    for (const t of texts) expect(JSON.stringify(amountsIn(t))).toBe(first[texts.indexOf(t)]);
    expect(amountsIn(texts[2]!)).toEqual([]);
  });

  it("reads the comparison a text states per pair of keys, not the first pair asked", () => {
    const text = "The valid-until date must be on or after the visit date. The weight may not exceed the limit.";
    expect(statedOrder(text, "valid_until", "visit_date")).toBe(">=");
    expect(statedOrder(text, "visit_date", "valid_until")).toBe("<=");
    expect(statedOrder(text, "weight_kg", "limit_kg")).toBe("<=");
    expect(statedOrder(text, "weight_kg", "crate_id")).toBeUndefined();
    expect(statedOrder(text, "valid_until", "visit_date")).toBe(">=");
  });
});
