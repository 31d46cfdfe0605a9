import { describe, expect, it } from "vitest";
import { closestMatch, didYouMean, editDistance } from "../../compiler/ir/did-you-mean.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["quote", "quote", 0],
    ["", "abc", 3],
    ["orderng", "ordering", 1],
    ["qoute", "quote", 1], // a transposition is one edit
    ["kitten", "sitting", 3],
    ["agent", "user", 4],
  ])("%s → %s is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe("closestMatch", () => {
  const checkTypes = ["ordering", "pairing", "required", "forbidden", "count"];

  it.each([
    ["orderng", checkTypes, "ordering"],
    ["Required", checkTypes, "required"],
    ["forbid", checkTypes, "forbidden"], // a truncated word
    ["agnet", ["user", "agent", "tool"], "agent"],
    ["usr", ["user", "agent", "tool"], "user"],
    ["content_includes", ["action", "actor", "contentIncludes", "metadata"], "contentIncludes"],
    ["folowedBy", ["type", "quote", "each", "followedBy"], "followedBy"],
  ])("suggests %s → the intended word", (input, candidates, expected) => {
    expect(closestMatch(input, candidates)).toBe(expected);
  });

  it.each([
    ["sequence", checkTypes],
    ["robot", ["user", "agent", "tool"]],
    ["answer", ["quote", "question"]],
    ["x", ["action", "actor"]],
  ])("suggests nothing for %s, which is a different word", (input, candidates) => {
    expect(closestMatch(input, candidates)).toBeUndefined();
  });

  it("prefers the closest candidate, and the earlier one on a tie", () => {
    expect(closestMatch("actr", ["action", "actor"])).toBe("actor");
    expect(closestMatch("ab", ["ac", "ad"])).toBe("ac");
  });

  it("formats the hint", () => {
    expect(didYouMean("qoute", ["quote", "question"])).toBe('did you mean "quote"?');
    expect(didYouMean("zzz", ["quote"])).toBeUndefined();
  });
});
