import { describe, expect, it } from "vitest";
import { plural } from "../../compiler/report/plural.js";

describe("plural", () => {
  it("is the singular for exactly one, and the plural for anything else", () => {
    expect([0, 1, 2].map((n) => `${n} ${plural(n, "clause")}`)).toEqual(["0 clauses", "1 clause", "2 clauses"]);
  });

  it("takes an irregular plural", () => {
    expect(plural(1, "trajectory", "trajectories")).toBe("trajectory");
    expect(plural(3, "trajectory", "trajectories")).toBe("trajectories");
  });
});
