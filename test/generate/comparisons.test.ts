/**
 * One table of comparison words (issue 25, compiler/generate/offline/comparisons.ts), read by
 * amounts.ts, shown.ts, bounds.ts and synthesize-numbers.ts: each word's operator, whether the
 * number itself is included, and the side it cuts; and each former reader still reads every word
 * it had in its own list, as it read it. Sentences of a bicycle-hire desk, not from any fixture.
 */
import { describe, expect, it } from "vitest";
import { amountsIn } from "../../compiler/generate/offline/amounts.js";
import {
  ALL_WORDS,
  COMPARISONS,
  comparisonOf,
  cutOf,
  inclusive,
  OPS,
  statesAllowed,
  type ComparisonOp,
} from "../../compiler/generate/offline/comparisons.js";
import { shownValues } from "../../compiler/generate/offline/shown.js";
import { writtenCuts } from "../../compiler/generate/offline/synthesize-numbers.js";
import type { ValueMatcher } from "../../compiler/ir/types.js";
import { valueHolds } from "../../compiler/ir/value-eval.js";

/** Where each word stands: before or after the number. */
const phrase = (words: string, position: "before" | "after", n: string) => (position === "before" ? `${words} ${n}` : `${n} ${words}`);

describe("the table of comparison words", () => {
  it("knows each word once, at one position, with one operator", () => {
    const seen = new Set<string>();
    for (const w of ALL_WORDS) {
      const key = `${w.position}:${w.words}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(comparisonOf(w.words.toUpperCase().replace(/ /g, "  "), w.position)).toEqual(w);
    }
    expect(comparisonOf("more than", "after")).toBeUndefined();
    expect(comparisonOf("about", "before")).toBeUndefined();
  });

  it("includes the number for 'at least', 'at most', 'or more', 'or less' and excludes it for 'more than', 'under'", () => {
    // Each word's reading, evaluated at the number itself and on either side of it.
    for (const w of ALL_WORDS) {
      const range = { [w.op]: 20 } as ValueMatcher;
      const at = (v: number) => valueHolds(String(v), range);
      expect(at(20), `${w.words} 20 holds for 20`).toBe(inclusive(w.op));
      expect(at(21), `${w.words}: 21`).toBe(w.op === "gt" || w.op === "gte");
      expect(at(19), `${w.words}: 19`).toBe(w.op === "lt" || w.op === "lte");
    }
    expect(comparisonOf("more than", "before")?.op).toBe("gt");
    expect(comparisonOf("at least", "before")?.op).toBe("gte");
    expect(comparisonOf("under", "before")?.op).toBe("lt");
    expect(comparisonOf("no more than", "before")?.op).toBe("lte");
    expect(comparisonOf("or more", "after")?.op).toBe("gte");
    expect(comparisonOf("or below", "after")?.op).toBe("lte");
    expect(comparisonOf("not below", "before")?.op).toBe("gte");
    expect(comparisonOf("exceeds", "before")?.op).toBe("gt");
  });

  it("cuts above the number for `>` and `<=`, below it for `>=` and `<`; a limit word states the allowed side", () => {
    expect(OPS.map(cutOf)).toEqual(["above", "below", "below", "above"]);
    expect(statesAllowed("lte", "at most")).toBe(true);
    expect(statesAllowed("gte", "no fewer than")).toBe(true);
    expect(statesAllowed("gte", "at the least")).toBe(true);
    expect(statesAllowed("gte", "or more")).toBe(false);
    expect(statesAllowed("lte", "and below")).toBe(false);
    expect(statesAllowed("gt", "more than")).toBe(false);
  });

  it("is read the same by every reader: a word's operator for an amount, a shown value and a written cut", () => {
    for (const w of ALL_WORDS) {
      const amount = amountsIn(`a hire of ${phrase(w.words, w.position, "$40")} is charged`);
      expect(
        amount.map((a) => a.range),
        `amount: ${w.words}`,
      ).toEqual([{ [w.op]: 40 }]);
      // A look-up's items split at "and" ("`a` over 3 and `b` under 5"), so "40 and above" is no item of shown.ts (nor was it before the table).
      if (!w.words.startsWith("and ")) {
        const shown = shownValues(` \`deposit\` of ${phrase(w.words, w.position, "40")}, and then`);
        expect(shown.values, `shown: ${w.words}`).toEqual([["deposit", { [w.op]: 40 }]]);
      }
      const cuts = writtenCuts(`a hire of ${phrase(w.words, w.position, "40")} bikes`);
      expect(
        cuts.map((c) => [c.op, c.cut, c.allowed]),
        `cut: ${w.words}`,
      ).toEqual([[w.op, cutOf(w.op), statesAllowed(w.op, w.words)]]);
    }
  });
});

describe("each former reader still reads the words of its own list as it did", () => {
  // The lists amounts.ts, shown.ts, bounds.ts and synthesize-numbers.ts kept before the table.
  const AMOUNTS: Record<ComparisonOp, string[]> = {
    gt: [
      "over",
      "above",
      "more than",
      "greater than",
      "higher than",
      "larger than",
      "bigger than",
      "warmer than",
      "hotter than",
      "longer than",
      "exceeding",
      "in excess of",
      "exceeds",
      "exceed",
    ],
    gte: ["at least", "no less than", "not less than", "a minimum of", "minimum of"],
    lt: ["under", "below", "less than", "lower than", "smaller than", "colder than", "cooler than", "shorter than", "beneath"],
    lte: [
      "at most",
      "no more than",
      "not more than",
      "up to",
      "a maximum of",
      "maximum of",
      "not above",
      "not exceeding",
      "capped at",
      "limited to",
    ],
  };
  const AMOUNTS_AFTER: Partial<Record<ComparisonOp, string[]>> = {
    gte: ["or more", "or above", "or higher", "and above", "and up", "or over", "at least", "at the least"],
    lte: ["or less", "or below", "or lower", "or under", "and below", "or fewer", "at most", "at the most"],
  };
  const SHOWN: Record<ComparisonOp, string[]> = {
    lte: [
      "no more than",
      "not more than",
      "at most",
      "up to",
      "a maximum of",
      "no higher than",
      "no greater than",
      "not above",
      "not over",
    ],
    gte: [
      "no less than",
      "not less than",
      "no fewer than",
      "at least",
      "a minimum of",
      "no lower than",
      "no smaller than",
      "not below",
      "not under",
    ],
    gt: ["more than", "over", "above", "greater than", "higher than", "larger than", "exceeding"],
    lt: ["fewer than", "less than", "under", "below", "lower than", "smaller than"],
  };
  const SHOWN_AFTER: Partial<Record<ComparisonOp, string[]>> = {
    gte: ["or more", "or above", "or higher", "or over", "and above", "or greater"],
    lte: ["or less", "or below", "or lower", "or under", "or fewer", "and below"],
  };
  const BOUNDS: Record<ComparisonOp, string[]> = {
    lte: ["no more than", "not more than", "at most", "up to", "a maximum of", "limited to", "capped at", "not over"],
    gt: ["more than", "over", "above", "greater than", "longer than", "in excess of"],
    gte: ["at least", "no less than", "not less than", "no fewer than", "a minimum of"],
    lt: ["fewer than", "less than", "under", "below", "shorter than"],
  };
  // synthesize-numbers.ts: the side of the cut, and which words stated the allowed side.
  const ABOVE = [
    "more than",
    "over",
    "above",
    "greater than",
    "higher than",
    "larger than",
    "exceed",
    "exceeds",
    "exceeding",
    "exceeded",
    "in excess of",
    "at most",
    "no more than",
    "not more than",
    "up to",
    "a maximum of",
    "maximum",
    "maximum of",
    "not above",
    "capped at",
    "limited to",
    "no higher than",
    "no greater than",
  ];
  const BELOW = [
    "at least",
    "no less than",
    "not less than",
    "no fewer than",
    "not fewer than",
    "a minimum of",
    "minimum",
    "minimum of",
    "under",
    "below",
    "less than",
    "fewer than",
    "lower than",
    "beneath",
    "no lower than",
  ];
  const ALLOWED = [
    "at most",
    "no more than",
    "not more than",
    "up to",
    "a maximum of",
    "maximum",
    "maximum of",
    "not above",
    "capped at",
    "limited to",
    "no higher than",
    "no greater than",
    "at least",
    "no less than",
    "not less than",
    "no fewer than",
    "not fewer than",
    "a minimum of",
    "minimum",
    "minimum of",
    "no lower than",
  ];

  const each = (lists: Partial<Record<ComparisonOp, string[]>>) =>
    Object.entries(lists).flatMap(([op, words]) => words!.map((w) => [w, op as ComparisonOp] as const));

  it("amounts.ts: '$40' with each of its words", () => {
    for (const [w, op] of each(AMOUNTS))
      expect(
        amountsIn(`a hire ${w} $40`).map((a) => a.range),
        w,
      ).toEqual([{ [op]: 40 }]);
    for (const [w, op] of each(AMOUNTS_AFTER))
      expect(
        amountsIn(`a hire of $40 ${w}`).map((a) => a.range),
        w,
      ).toEqual([{ [op]: 40 }]);
  });

  it("shown.ts: a backticked key with each of its words", () => {
    for (const [w, op] of each(SHOWN)) expect(shownValues(` \`deposit\` ${w} 40`).values, w).toEqual([["deposit", { [op]: 40 }]]);
    for (const [w, op] of each(SHOWN_AFTER))
      if (!w.startsWith("and ")) expect(shownValues(` \`deposit\` of 40 ${w}`).values, w).toEqual([["deposit", { [op]: 40 }]]);
    expect(shownValues(" an `age` from 18 to 75").values).toEqual([["age", { gte: 18, lte: 75 }]]);
    expect(shownValues(" an `age` between 18 and 75").values).toEqual([["age", { gte: 18, lte: 75 }]]);
  });

  it("bounds.ts: each of its words before a keyed number", () => {
    for (const [w, op] of each(BOUNDS)) expect(comparisonOf(w, "before")?.op, w).toBe(op);
  });

  it("synthesize-numbers.ts: each word's side, and the words that state the allowed side", () => {
    for (const w of ABOVE)
      expect(
        writtenCuts(`rides ${w} 40 bikes`).map((c) => c.cut),
        w,
      ).toEqual(["above"]);
    for (const w of BELOW)
      expect(
        writtenCuts(`rides ${w} 40 bikes`).map((c) => c.cut),
        w,
      ).toEqual(["below"]);
    for (const w of [...ABOVE, ...BELOW]) expect(writtenCuts(`rides ${w} 40 bikes`)[0]!.allowed, w).toBe(ALLOWED.includes(w));
    expect(writtenCuts("a fleet of 40 bikes or fewer")[0]).toMatchObject({ cut: "above", allowed: false, op: "lte" });
    expect(writtenCuts("a rider aged 16 or older at least")[0]).toMatchObject({ cut: "below", allowed: true });
  });

  it("a word added to the table once is known to every reader", () => {
    // Words no reader had before the table, now read everywhere from it.
    expect(COMPARISONS.gte.before).toContain("not under");
    expect(amountsIn("a deposit not under $40").map((a) => a.range)).toEqual([{ gte: 40 }]);
    expect(amountsIn("a hire that exceeded $40").map((a) => a.range)).toEqual([{ gt: 40 }]);
    expect(shownValues(" `deposit` in excess of 40").values).toEqual([["deposit", { gt: 40 }]]);
  });
});
