/**
 * The values of `when` expressions and the number and date readings shared
 * with the `{gt, gte, lt, lte}` matchers (semantics.md, "Values").
 */
import { describe, expect, test } from "vitest";
import {
  countIndexed,
  instantOf,
  metadataValue,
  numberOf,
  toInstant,
  toNumber,
  valueAdd,
  valueDivide,
  valueEquals,
  valueIn,
  valueMultiply,
  valueNegate,
  valueOrder,
  valueSubtract,
  type WhenValue,
} from "../../runtime/values.js";
import type { StepEvent } from "../../runtime/stepper.js";

describe("toNumber: strict decimals", () => {
  test.each([
    ["0", 0],
    ["-12", -12],
    ["+7", 7],
    ["3.5", 3.5],
    [".5", 0.5],
    ["5.", 5],
    ["1e3", 1000],
    ["1E-2", 0.01],
    ["-2.5e+2", -250],
    ["007", 7],
    ["1e-400", 0],
  ])("%j is %d", (text, expected) => {
    expect(toNumber(text)).toBe(expected);
  });

  test("-0 reads as 0, so it prints as 0", () => {
    expect(Object.is(toNumber("-0"), 0)).toBe(true);
  });

  test.each([
    [""],
    [" 1"],
    ["1 "],
    ["0x10"],
    ["0b1"],
    ["Infinity"],
    ["-Infinity"],
    ["NaN"],
    ["1e400"],
    ["."],
    ["-"],
    ["1e"],
    ["1.2.3"],
    ["1_000"],
    ["١"],
    ["e3"],
    ["+"],
    ["1,5"],
  ])("%j is not a number", (text) => {
    expect(toNumber(text)).toBeUndefined();
  });
});

describe("toInstant: strict ISO-8601", () => {
  test.each([
    ["2024-05-14", Date.UTC(2024, 4, 14)],
    ["2024-05-14T15:00", Date.UTC(2024, 4, 14, 15, 0)],
    ["2024-05-14T15:00:00", Date.UTC(2024, 4, 14, 15)],
    ["2024-05-14T15:00:00Z", Date.UTC(2024, 4, 14, 15)],
    ["2024-05-14T15:00:00.5Z", Date.UTC(2024, 4, 14, 15, 0, 0, 500)],
    ["2024-05-14T15:00:00.123456789", Date.UTC(2024, 4, 14, 15, 0, 0, 123)],
    ["2024-05-14T15:00:00+02:00", Date.UTC(2024, 4, 14, 13)],
    ["2024-05-14T15:00:00-0530", Date.UTC(2024, 4, 14, 20, 30)],
    ["2024-05-14T00:30+01:00", Date.UTC(2024, 4, 13, 23, 30)],
    ["2024-02-29", Date.UTC(2024, 1, 29)],
    ["2000-02-29", Date.UTC(2000, 1, 29)],
    ["1969-12-31T23:59:59.999Z", -1],
    ["0001-01-01", -62135596800000],
    ["0050-06-01", new Date("0050-06-01T00:00:00Z").getTime()],
    ["9999-12-31T23:59:59Z", Date.UTC(9999, 11, 31, 23, 59, 59)],
  ])("%j", (text, expected) => {
    expect(toInstant(text)).toBe(expected);
  });

  test("years 0-99 are not read as 1900-1999 (Date.UTC's quirk)", () => {
    expect(toInstant("0050-06-01")).toBe(new Date("0050-06-01T00:00:00Z").getTime());
  });

  test.each([
    ["2023-02-29"],
    ["1900-02-29"],
    ["2024-02-30"],
    ["2024-04-31"],
    ["2024-13-01"],
    ["2024-00-10"],
    ["2024-01-00"],
    ["2024-05-14T25:00"],
    ["2024-05-14T24:00"],
    ["2024-05-14T12:60"],
    ["2024-05-14T12:00:60"],
    ["2024-05-14t15:00"],
    ["2024-05-14 15:00"],
    ["2024-05-14T15"],
    ["2024-05-14T15:00:00.Z"],
    ["2024-05-14Z"],
    ["2024-05-14T15:00+24:00"],
    ["2024-05-14T15:00+05:60"],
    ["2024-05-14T15:00+5:00"],
    ["2024-5-14"],
    ["24-05-14"],
    ["20240514"],
    [" 2024-05-14"],
    ["2024-05-14 "],
    [""],
    ["today"],
  ])("%j is not a date", (text) => {
    expect(toInstant(text)).toBeUndefined();
  });
});

describe("equality", () => {
  test.each<[WhenValue, WhenValue, boolean]>([
    [1, 1, true],
    ["1", 1, true],
    ["1.0", "1", true],
    ["1e3", "1000", true],
    ["-0", "0", true],
    ["0.1", 0.1, true],
    ["abc", "abc", true],
    ["abc", "ABC", false],
    [" 1", "1", false],
    ["2024-05-14", "2024-05-14T00:00:00Z", true],
    ["2024-05-14T02:00+02:00", "2024-05-14T00:00", true],
    ["2024-05-14", "2024-05-15", false],
    ["2024-05-14", 1715644800000, false],
    ["1", "2024-05-14", false],
    [null, null, true],
    [null, "", false],
    [null, 0, false],
    ["", "", true],
    [true, true, true],
    [true, false, false],
    [true, "true", false],
    [1, true, false],
    [0, false, false],
  ])("%j == %j is %s", (a, b, expected) => {
    expect(valueEquals(a, b)).toBe(expected);
    expect(valueEquals(b, a)).toBe(expected);
  });
});

describe("ordering", () => {
  test.each<[WhenValue, WhenValue, number]>([
    [1, 2, -1],
    ["10", "9", 1],
    ["10", 10, 0],
    ["-1.5", "-1", -1],
    ["2024-05-14", "2024-05-14T15:00:00", -1],
    ["2024-05-14T17:00+02:00", "2024-05-14T15:00Z", 0],
    ["2024-05-15", "2024-05-14T23:59:59.999Z", 1],
  ])("%j against %j is %d", (a, b, sign) => {
    expect(valueOrder(a, b)).toBe(sign);
    expect(valueOrder(b, a)).toBe(sign === 0 ? 0 : -sign);
  });

  test.each<[WhenValue, WhenValue]>([
    ["abc", "abd"],
    ["abc", 1],
    ["2024-05-14", 1],
    ["2024-05-14", "20240514"],
    [null, 1],
    [null, null],
    [true, false],
    [true, 1],
    ["", 0],
  ])("%j and %j are incomparable: every ordering is false", (a, b) => {
    const order = valueOrder(a, b);
    expect(order < 0 || order <= 0 || order > 0 || order >= 0).toBe(false);
    expect(valueOrder(b, a)).toBeNaN();
  });
});

describe("numberOf and instantOf", () => {
  test("read numbers and dates, NaN otherwise", () => {
    expect(numberOf("12")).toBe(12);
    expect(numberOf(3)).toBe(3);
    expect(numberOf(null)).toBeNaN();
    expect(numberOf(true)).toBeNaN();
    expect(numberOf("2024-05-14")).toBeNaN();
    expect(instantOf("2024-05-14")).toBe(Date.UTC(2024, 4, 14));
    expect(instantOf("12")).toBeNaN();
    expect(instantOf(12)).toBeNaN();
    expect(instantOf(null)).toBeNaN();
  });
});

describe("in", () => {
  const numbers = [500, -1];
  const instants = [Date.UTC(2024, 4, 14)];
  const strings = ["economy", "basic_economy"];
  test.each<[WhenValue, boolean]>([
    ["500", true],
    ["500.0", true],
    [500, true],
    ["-1", true],
    ["2024-05-14T00:00:00Z", true],
    ["2024-05-14", true],
    ["economy", true],
    ["Economy", false],
    ["501", false],
    [null, false],
    [true, false],
  ])("%j", (value, expected) => {
    expect(valueIn(value, numbers, instants, strings, false)).toBe(expected);
  });

  test("null is in a list holding null", () => {
    expect(valueIn(null, [], [], ["x"], true)).toBe(true);
    expect(valueIn("x", [], [], ["x"], true)).toBe(true);
  });
});

describe("arithmetic", () => {
  test.each<[(a: WhenValue, b: WhenValue) => number | null, WhenValue, WhenValue, number | null]>([
    [valueAdd, 1, 2, 3],
    [valueAdd, "1.5", "2", 3.5],
    [valueAdd, "1", "x", null],
    [valueAdd, null, 1, null],
    [valueAdd, true, 1, null],
    [valueAdd, "2024-05-14", 1, null],
    [valueSubtract, "10", 4, 6],
    [valueMultiply, "1e3", "2", 2000],
    [valueMultiply, 1e308, 10, null],
    [valueDivide, 1, 4, 0.25],
    [valueDivide, 1, 0, null],
    [valueDivide, 0, "0", null],
    [valueDivide, 1, "-0", null],
    [valueDivide, null, 2, null],
  ])("%o(%j, %j) is %j", (op, a, b, expected) => {
    expect(op(a, b)).toBe(expected);
  });

  test("negation; no -0 comes out", () => {
    expect(valueNegate("5")).toBe(-5);
    expect(valueNegate("x")).toBeNull();
    expect(Object.is(valueNegate(0), 0)).toBe(true);
    expect(Object.is(valueMultiply(-1, 0), 0)).toBe(true);
  });
});

function event(metadata: unknown): StepEvent {
  return { id: "e1", actor: "tool", action: "a", metadata: metadata as Record<string, string> };
}

describe("metadataValue", () => {
  test("own string values only", () => {
    const e = event(JSON.parse('{"cabin":"business","__proto__":"own","n":5}'));
    expect(metadataValue(e, "cabin")).toBe("business");
    expect(metadataValue(e, "__proto__")).toBe("own");
    expect(metadataValue(e, "n")).toBeNull();
    expect(metadataValue(e, "missing")).toBeNull();
  });

  test.each([["constructor"], ["__proto__"], ["toString"], ["hasOwnProperty"], ["valueOf"]])("%s on plain metadata is missing", (key) => {
    expect(metadataValue(event(JSON.parse('{"a":"1"}')), key)).toBeNull();
    expect(metadataValue(event({ a: "1" }), key)).toBeNull();
  });

  test("no metadata: missing", () => {
    expect(metadataValue({ id: "e", actor: "user", action: "x" }, "a")).toBeNull();
  });

  test("an own key shadowing hasOwnProperty is read safely", () => {
    const e = event(JSON.parse('{"hasOwnProperty":"yes","k":"v"}'));
    expect(metadataValue(e, "hasOwnProperty")).toBe("yes");
    expect(metadataValue(e, "k")).toBe("v");
  });
});

describe("countIndexed", () => {
  test("distinct indexes under the prefix", () => {
    const e = event({
      "flights.0.date": "2024-05-01",
      "flights.0.origin": "SFO",
      "flights.1.date": "2024-05-02",
      "flights.2": "x",
      "flights.x.date": "no",
      "flightsX.3": "no",
      flights: "no",
      "other.4": "no",
    });
    expect(countIndexed(e, "flights")).toBe(3);
    expect(countIndexed(e, "other")).toBe(1);
    expect(countIndexed(e, "none")).toBe(0);
  });

  test("a dotted prefix, and no metadata", () => {
    expect(countIndexed(event({ "a.b.0": "1", "a.b.1.c": "2", "a.0": "3" }), "a.b")).toBe(2);
    expect(countIndexed({ id: "e", actor: "user", action: "x" }, "a")).toBe(0);
  });

  test("prototype keys are not counted", () => {
    expect(countIndexed(event(JSON.parse('{"__proto__.0":"x"}')), "__proto__")).toBe(1);
    expect(countIndexed(event({}), "constructor")).toBe(0);
  });
});
