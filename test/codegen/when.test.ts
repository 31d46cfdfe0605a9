/**
 * `when` expressions of the condition check: parsed, checked and lowered to
 * code that decides as semantics.md says, reports every build-time error at
 * its offset, survives hostile input, and type-checks against the runtime.
 */
import { describe, expect, test } from "vitest";
import { typeCheckJudgeTs } from "../../compiler/codegen/typecheck.js";
import { lowerWhen } from "../../compiler/codegen/lower-when.js";
import { code, lit } from "../../compiler/codegen/code.js";
import { parseWhen, MAX_DEPTH, MAX_WHEN_CHARACTERS } from "../../compiler/ir/when.js";
import { formatJudgeTs } from "../../compiler/codegen/format.js";
import type { StepEvent } from "../../runtime/stepper.js";
import { buildWhen, treeOf, typeCheckModule, type Bound, type BuiltWhen } from "../support/when.js";
import { countingWork } from "../support/work.js";

/** Every expression built here, type-checked together by the last test. */
const built: BuiltWhen[] = [];

function when(text: string, names?: readonly string[]): BuiltWhen {
  const b = buildWhen(text, names);
  built.push(b);
  return b;
}

const EACH: StepEvent = {
  id: "e1",
  actor: "agent",
  action: "cancel_reservation",
  metadata: { reservation_id: "R1", amount: "600", reason: "change of plan" },
};

const BOUND: Bound = {
  r: {
    id: "t1",
    actor: "tool",
    action: "get_reservation_details_result",
    content: "Reservation R1",
    metadata: {
      cabin: "economy",
      insurance: "no",
      created_at: "2024-05-14T16:00:00",
      "flights.0.date": "2024-05-20",
      "flights.0.origin": "SFO",
      "flights.1.date": "2024-05-22",
      total: "1200.50",
      "passenger count": "2",
      "@turn": "3",
    },
  },
  u: { id: "t2", actor: "tool", action: "get_user_details_result", metadata: { membership: "gold", limit: "500" } },
};

function holds(text: string): boolean {
  return when(text).test(EACH, BOUND);
}

describe("the policy of LANGUAGE.md §4", () => {
  const POLICY = 'r.cabin == "business" || r.insurance == "yes" || r.created_at >= "2024-05-14T15:00:00"';
  test("holds for a reservation made after the cutoff, whatever its cabin", () => {
    expect(holds(POLICY)).toBe(true);
  });
  test("fails for an economy reservation without insurance made before it", () => {
    const early: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { ...BOUND.r!.metadata, created_at: "2024-05-14T14:59:59.999" } } };
    expect(when(POLICY).test(EACH, early)).toBe(false);
  });
  test("holds for business and for insurance", () => {
    for (const [key, value] of [
      ["cabin", "business"],
      ["insurance", "yes"],
    ] as const) {
      const other: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { ...BOUND.r!.metadata, created_at: "2020-01-01", [key]: value } } };
      expect(when(POLICY).test(EACH, other)).toBe(true);
    }
  });
});

describe("operators and precedence", () => {
  test.each([
    ["true || false && false", true],
    ["(true || false) && false", false],
    ["!true || true", true],
    ["!false && false", false],
    ["!!true", true],
    ['!r.cabin == "economy"', false],
    ['!(r.cabin == "economy") || r.insurance == "no"', true],
    ["1 + 2 * 3 == 7", true],
    ["(1 + 2) * 3 == 9", true],
    ["10 - 4 - 3 == 3", true],
    ["12 / 3 / 2 == 2", true],
    ["-2 * 3 == -6", true],
    ["- -2 == 2", true],
    ["-(1 + 2) == -3", true],
    ["- r.total < 0", true],
    ["-r.total == -1200.5", true],
    ["1 + 2 == 3 && 2 * 2 == 4", true],
    ["(1 < 2) == true", true],
    ["(1 < 2) != (2 < 1)", true],
    ["event.amount > 500", true],
    ["event.amount >= 600 && event.amount <= 600", true],
    ["event.amount < 600", false],
    ["event.amount * 2 > u.limit", true],
    ["event.amount - u.limit == 100", true],
    ["r.total + 0.5 == 1201", true],
    ['r.total + "0.5" == 1201', true],
    ["r.total / 0 == null", true],
    ["r.total / 0 > 0", false],
    ["r.cabin + 1 == null", true],
    ["r.missing == null", true],
    ["r.missing != null", false],
    ["r.missing < 1", false],
    ["r.missing > 1", false],
    ["!(r.missing < 1)", true],
    ["u.limit < event.amount", true],
    ["u.limit == event.amount", false],
    ["u.limit != event.amount", true],
    ["count(r.flights.*) == 2", true],
    ["count(r.flights.*) > 1 && count(u.flights.*) == 0", true],
    ['count(r["flights"].*) == 2', true],
    ["count(r.flights.*) * 100 == 200", true],
    ['r.cabin in ["economy", "basic_economy"]', true],
    ['r.cabin in ["business"]', false],
    ["u.limit in [500, 600]", true],
    ['u.limit in ["500.0"]', true],
    ["u.limit in [-500]", false],
    ["r.missing in [null]", true],
    ['r.missing in ["a"]', false],
    ['r.created_at in ["2024-05-14T16:00:00Z", "x"]', true],
    ['r.created_at in ["2024-05-14T16:00:00+01:00"]', false],
    ['"a" in ["b", "a"]', true],
    ["event.amount * 1 in [600]", true],
    [String.raw`matches(r.content, "^reservation r\\d$", "i")`, true],
    [String.raw`matches(r.content, "^reservation r\\d$")`, false],
    ['matches(r.missing, "")', false],
    ['matches(u.content, "^$")', true],
    ['!matches(r.cabin, "^biz")', true],
    ['matches("abc", "b")', true],
    ['matches(event.reason, "plan$") && matches(event.action, "^cancel_")', true],
    ['r.content == "Reservation R1"', true],
    ['u.content == ""', true],
    ['r.action == "get_reservation_details_result"', true],
    ['event.action == "cancel_reservation" && event.actor == "agent" && u.actor == "tool"', true],
    ['r["passenger count"] == 2', true],
    ["r['@turn'] >= 3", true],
    ["r.flights.0.date < r.flights.1.date", true],
    ['r.flights.0.origin == "SFO"', true],
    ['r.flights.0.date == "2024-05-20T00:00:00Z"', true],
    ['r.created_at == "2024-05-14T16:00:00Z"', true],
    ['r.created_at == "2024-05-14T18:00:00+02:00"', true],
    ['r.created_at > "2024-05-14T17:00:00+02:00"', true],
    ['r.created_at >= "2024-05-14"', true],
    ['"2024-05-14" < r.created_at', true],
    ["r.created_at > 5", false],
    ["r.created_at == 0", false],
    ["r.cabin < 5", false],
    ["r.cabin != 5", true],
    ["r.created_at < r.cabin", false],
    ["r.created_at > r.cabin", false],
    ["1 == 1.0", true],
    ["r.total < 1e308 && r.total > -1e308 && r.total > 1e-300", true],
    ['r.total == "1e400"', false],
    ['"1" == 1', true],
    ['"1e3" == 1000', true],
    ['"a" == "a"', true],
    ['"a" != "a"', false],
    ['"2024-05-14" == "2024-05-14T00:00Z"', true],
    ["null == null", true],
    ["1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3", true],
    ["true", true],
    ["(1 > 2) == true", false],
    ["(1 > 2) != false", false],
    ["(1 < 2) == (2 < 3)", true],
    ['(r.cabin == "economy") != (u.limit > 100)', false],
    ["r.action == null", false],
    ["r.content != null", true],
    ["count(r.flights.*) == null", false],
    ["r.total * 2 == null", false],
    ["-r.cabin == null", true],
    ["r.a.b == r.a.b", true],
    ["r.cabin == u.cabin", false],
    ["false", false],
    ['(r.cabin == "economy") == true', true],
  ])("%s is %s", (text, expected) => {
    expect(holds(text)).toBe(expected);
  });
});

describe("reads", () => {
  test("every value read, once each, in reading order, with its value", () => {
    const b = when(
      'r.cabin == "business" || r.insurance == "yes" || count(r.flights.*) > 1 || event.amount > r.total || r.cabin == "x" || u.content == ""',
    );
    expect(b.reads(EACH, BOUND)).toEqual([
      ["r.cabin", "economy"],
      ["r.insurance", "no"],
      ["count(r.flights.*)", 2],
      ["event.amount", "600"],
      ["r.total", "1200.50"],
      ["u.content", ""],
    ]);
  });

  test("labels are canonical: bracket keys in JSON quotes, missing keys read null", () => {
    const b = when("r['a b'] == null && r.x.0.y == null && matches(r.constructor, \"\")");
    expect(b.reads(EACH, BOUND)).toEqual([
      ['r["a b"]', null],
      ["r.x.0.y", null],
      ["r.constructor", null],
    ]);
  });

  test("reads hold Code, for the caller's report", () => {
    const { reads } = lowerWhen(treeOf("r.a == 1"), { event: code`e`, bound: () => code`b0`, regex: () => code`regex0` });
    expect(reads.map((r) => [r.label, String(r.value)])).toEqual([["r.a", 'metadataValue(b0, "a")']]);
  });
});

describe("literals are read at build time", () => {
  function lowered(text: string): string {
    return String(lowerWhen(treeOf(text), { event: code`e`, bound: (n) => code`bound[${lit(n)}]`, regex: () => code`regex0` }).test);
  }
  test.each([
    ["r.a > 500", 'numberOf(metadataValue(bound["r"], "a")) > 500'],
    ['r.a > "500"', 'numberOf(metadataValue(bound["r"], "a")) > 500'],
    ["r.a > -1.5", 'numberOf(metadataValue(bound["r"], "a")) > (-1.5)'],
    ['r.a >= "2024-05-14T15:00:00"', `instantOf(metadataValue(bound["r"], "a")) >= ${Date.UTC(2024, 4, 14, 15)}`],
    ['"2024-05-14" < r.a', `${Date.UTC(2024, 4, 14)} < instantOf(metadataValue(bound["r"], "a"))`],
    ['r.a == "yes"', 'metadataValue(bound["r"], "a") === "yes"'],
    ["r.a == null", 'metadataValue(bound["r"], "a") === null'],
    ["1 + 2 * 3 == 7", "true"],
    ['"2024-05-14" == "2024-05-14T00:00Z"', "true"],
    ['"x" in ["y"]', "false"],
    ['r.a + "2" == 3', 'numberOf(valueAdd(metadataValue(bound["r"], "a"), 2)) === 3'],
    [
      'r.a in ["1", 2, "2024-05-14", "x", null]',
      `valueIn(metadataValue(bound["r"], "a"), [1, 2], [${Date.UTC(2024, 4, 14)}], ["x"], true)`,
    ],
  ])("%s", (text, expected) => {
    expect(lowered(text)).toContain(expected);
  });
});

interface Expected {
  offset: number;
  message: string | RegExp;
  hint?: string | RegExp;
}

function errorsOf(text: string, names: readonly string[] = ["r", "u"]) {
  const parsed = parseWhen(text, names);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  return parsed.errors;
}

function expectErrors(text: string, expected: Expected[], names?: readonly string[]): void {
  const errors = errorsOf(text, names);
  expect(errors.map((e) => e.offset)).toEqual(expected.map((e) => e.offset));
  errors.forEach((error, i) => {
    const want = expected[i]!;
    if (typeof want.message === "string") expect(error.message).toBe(want.message);
    else expect(error.message).toMatch(want.message);
    if (want.hint !== undefined) expect(error.hint ?? "").toMatch(want.hint);
  });
}

describe("build-time errors", () => {
  test.each<[string, Expected[]]>([
    // syntax: the first error
    ["r.cabin == ", [{ offset: 11, message: "the expression ends where a value was expected" }]],
    ["", [{ offset: 0, message: "the expression ends where a value was expected" }]],
    ['r.cabin = "x"', [{ offset: 8, message: "`=` is not an operator here", hint: "use == to compare" }]],
    ['r.cabin === "x"', [{ offset: 8, message: "`===` is not an operator here", hint: /use ==/ }]],
    ['r.a == "x" & r.b == "y"', [{ offset: 11, message: "`&` is not an operator here", hint: "use && for and" }]],
    ['r.a == "x" and r.b == "y"', [{ offset: 11, message: "unexpected `and` after the expression", hint: "use &&" }]],
    ["not r.a == 1", [{ offset: 0, message: "unexpected `not` where a value was expected", hint: "use !" }]],
    ["r.a == 1 == 2", [{ offset: 9, message: "comparisons do not chain", hint: /&&/ }]],
    ["1 < r.a < 3", [{ offset: 8, message: "comparisons do not chain" }]],
    ["(r.a == 1", [{ offset: 9, message: "expected `)` to close the `(` at offset 0, found the end of the expression" }]],
    ["r.a == 1)", [{ offset: 8, message: "unexpected `)` after the expression" }]],
    ["r.a == 1 r.b", [{ offset: 9, message: "unexpected `r` after the expression" }]],
    ['"unterminated', [{ offset: 0, message: "unterminated string", hint: 'close it with "' }]],
    ["r.a == 'two\nlines'", [{ offset: 7, message: "unterminated string" }]],
    [String.raw`r.a == "\d"`, [{ offset: 8, message: String.raw`unknown escape \d`, hint: /\\\\d/ }]],
    [String.raw`r.a == "\x4"`, [{ offset: 8, message: String.raw`bad escape: \x needs two hex digits` }]],
    [String.raw`r.a == "\u{110000}"`, [{ offset: 8, message: /bad escape: \\u/ }]],
    ["r.a == 0x10", [{ offset: 7, message: "malformed number `0x10`", hint: /decimal/ }]],
    ["r.a == 1.2.3", [{ offset: 7, message: "malformed number `1.2.3`" }]],
    ["r.a == 1e", [{ offset: 7, message: "malformed number `1e`" }]],
    ["r.a < 1e400", [{ offset: 6, message: "1e400 is too large for a number" }]],
    ["r == 1", [{ offset: 1, message: "expected . or [ after r", hint: /r\.action/ }]],
    ["r. a == 1", [{ offset: 2, message: "expected a key after `.`" }]],
    ["r.a. == 1", [{ offset: 4, message: "expected a key after `.`" }]],
    ["r[a] == 1", [{ offset: 2, message: "expected a quoted key inside [ ], found `a`" }]],
    ["r.flights.* == 1", [{ offset: 10, message: "`.*` is only for count(…)", hint: "count(r.flights.*)" }]],
    ["count(r.flights) == 1", [{ offset: 6, message: "count takes a metadata prefix ending in .*" }]],
    ["count(r.*) == 1", [{ offset: 6, message: "count needs a prefix before .*" }]],
    ["count(1) == 1", [{ offset: 6, message: "count takes x.prefix.*, found `1`" }]],
    ["matches(r.a, r.b)", [{ offset: 13, message: "matches takes its regex as a string literal, found `r`" }]],
    ["matches(r.a)", [{ offset: 11, message: "expected `,` after the value matches tests, found `)`" }]],
    ["r.a @ 1", [{ offset: 4, message: 'unexpected character "@"' }]],
    ["r.@turn > 1", [{ offset: 2, message: "expected a key after `.`", hint: 'keys with other characters are written r["@turn"]' }]],
    ["r.flights.0.@x == 1", [{ offset: 12, message: "expected a key after `.`", hint: 'r["flights.0.@x"]' }]],
    [
      'r.reservation-id == "x"',
      [{ offset: 13, message: "`-` inside a key is subtraction here", hint: 'a key with a hyphen is written r["reservation-id"]' }],
    ],
    ['match(r.a, "x")', [{ offset: 0, message: "unknown function match(…)", hint: 'did you mean "matches"?' }]],
    ['contains(r.a, "x")', [{ offset: 0, message: "unknown function contains(…)", hint: /the functions are matches/ }]],
    ["r.a == 1 \u{1F600}", [{ offset: 9, message: 'unexpected character "\u{1F600}"' }]],
    ["r.a in [1,]", [{ offset: 10, message: "unexpected `]` where a value was expected" }]],
    // names and types: every error of a tree that parses
    [
      'rr.cabin == "x"',
      [{ offset: 0, message: 'unknown name "rr": `with` binds r, u, and `event` is the each event', hint: 'did you mean "r"?' }],
    ],
    ["evnt.amount > 1", [{ offset: 0, message: /unknown name "evnt"/, hint: 'did you mean "event"?' }]],
    [
      'rr.a == "x" && uu.b == "y" || count(q.c.*) > 1',
      [
        { offset: 0, message: /unknown name "rr"/ },
        { offset: 15, message: /unknown name "uu"/ },
        { offset: 36, message: /unknown name "q"/ },
      ],
    ],
    [
      "r.cabin",
      [
        {
          offset: 0,
          message: "the when expression needs a condition (true or false), but r.cabin is a value",
          hint: 'compare it: r.cabin == "…"',
        },
      ],
    ],
    ['r.x && r.y == "a"', [{ offset: 0, message: "`&&` needs a condition (true or false), but r.x is a value" }]],
    [
      "r.x || r.y",
      [
        { offset: 0, message: /^`\|\|` needs a condition/ },
        { offset: 7, message: /^`\|\|` needs a condition/ },
      ],
    ],
    ["!r.x", [{ offset: 1, message: "`!` needs a condition (true or false), but r.x is a value" }]],
    ["1 + 2", [{ offset: 2, message: /^the when expression needs a condition/ }]],
    ['"yes"', [{ offset: 0, message: 'the when expression needs a condition (true or false), but "yes" is a string' }]],
    ['r.x in "abc"', [{ offset: 7, message: "`in` needs a list literal", hint: /in \["a", "b"\]/ }]],
    ["r.x in r.y", [{ offset: 7, message: "`in` needs a list literal" }]],
    ['["a"] == r.x', [{ offset: 0, message: "a list is allowed only after `in`" }]],
    ["r.x in []", [{ offset: 7, message: "`in []` is always false: the list is empty" }]],
    [
      "r.x in [r.y, true, 1, [2]]",
      [
        { offset: 8, message: "a list after `in` holds only literal strings, numbers and null" },
        { offset: 13, message: "a list after `in` holds only literal strings, numbers and null" },
        { offset: 22, message: "a list after `in` holds only literal strings, numbers and null" },
        { offset: 22, message: "a list is allowed only after `in`" },
      ],
    ],
    ["(1 < 2) in [1]", [{ offset: 3, message: "`in` needs a value, not a condition" }]],
    ['r.x + "abc" > 1', [{ offset: 6, message: '`+` on "abc", which is not a number', hint: /decimal/ }]],
    ['r.x * "2024-05-14" > 1', [{ offset: 6, message: '`*` on "2024-05-14", which is not a number' }]],
    ["r.x - null > 1", [{ offset: 6, message: "`-` on null is always null" }]],
    ["r.x + (1 < 2) > 1", [{ offset: 9, message: "`+` needs a value, not a condition" }]],
    ['-"abc" < 1', [{ offset: 1, message: '`-` on "abc", which is not a number' }]],
    ['r.x > "abc"', [{ offset: 6, message: '"abc" is neither a number nor a date, so `>` is always false', hint: /ISO dates/ }]],
    ['"abc" <= 5', [{ offset: 0, message: '"abc" is neither a number nor a date, so `<=` is always false' }]],
    ["r.x < null", [{ offset: 6, message: "`<` with null is always false", hint: /== null/ }]],
    ['5 < "2024-05-14"', [{ offset: 2, message: "`<` compares a date with a number, which is always false" }]],
    ['count(r.f.*) >= "2024-05-14"', [{ offset: 13, message: "`>=` compares a date with a number, which is always false" }]],
    ['count(r.f.*) == "abc"', [{ offset: 16, message: 'a number never equals "abc", which is not a number' }]],
    ['r.x + 1 != "abc"', [{ offset: 11, message: 'a number never equals "abc", which is not a number' }]],
    ['1 == "2024-05-14"', [{ offset: 2, message: "`==` compares a number with a date, which is never equal" }]],
    ["(1 < 2) < true", [{ offset: 8, message: "`<` cannot order conditions (true or false)" }]],
    ["(1 < 2) == r.x", [{ offset: 8, message: "`==` compares a condition with a value, which is never equal" }]],
    // compileRegex's offset, placed inside the literal when it is written without escapes (else its start)
    ['matches(r.x, "(")', [{ offset: 14, message: "bad regular expression: missing ) for this group" }]],
    ['matches(r.x, "x(?=a)")', [{ offset: 15, message: /^bad regular expression: unsupported: lookahead/ }]],
    ['matches(r.x, "a{2000}")', [{ offset: 15, message: "bad regular expression: repetition {2000} is above the limit of 1000" }]],
    [String.raw`matches(r.x, "a(b)\\1")`, [{ offset: 13, message: /^bad regular expression: unsupported: backreferences/ }]],
    [String.raw`matches(r.x, "\u0041(")`, [{ offset: 13, message: "bad regular expression: missing ) for this group" }]],
    ['matches(r.x, "a", "g")', [{ offset: 18, message: 'unknown regex flags "g"', hint: /"i"/ }]],
    ['matches(count(r.f.*), "1")', [{ offset: 14, message: "matches tests text: a reference (r.key, r.content) or a string" }]],
    ['matches(r.x < 1, "1")', [{ offset: 12, message: "matches needs a value, not a condition" }]],
    [
      'rr.x + "abc" > "z"',
      [
        { offset: 0, message: /unknown name "rr"/ },
        { offset: 7, message: /"abc", which is not a number/ },
        { offset: 15, message: /"z" is neither a number nor a date/ },
      ],
    ],
  ])("%j", (text, expected) => {
    expectErrors(text, expected);
  });

  test("words of the operators are names when a key follows them", () => {
    expect(
      buildWhen('and.x == "1" || or["y"] == null || not.z == null', ["and", "or", "not"]).test(EACH, {
        and: BOUND.r!,
        or: BOUND.r!,
        not: BOUND.r!,
      }),
    ).toBe(true);
    expectErrors("and.x == 1", [{ offset: 0, message: /unknown name "and"/ }]);
  });

  test("a long literal is clipped in a message", () => {
    const errors = errorsOf(`r.a > "${"x".repeat(10)}${"y".repeat(5000)}"`);
    expect(errors[0]!.message).toBe(`"${"x".repeat(10)}${"y".repeat(29)}…" is neither a number nor a date, so \`>\` is always false`);
  });

  test("with no names bound, only event is known", () => {
    expectErrors("r.a == 1", [{ offset: 0, message: 'unknown name "r": `with` binds no names, and `event` is the each event' }], []);
    expect(parseWhen("event.a == 1", []).ok).toBe(true);
  });

  test("offsets count UTF-16 units, so an editor can place them", () => {
    expectErrors('"\u{1F600}" == r.a && rr.b == 1', [{ offset: 15, message: /unknown name "rr"/ }]);
  });
});

describe("depth", () => {
  test(`${MAX_DEPTH} nested parentheses parse; one more is a located error`, () => {
    expect(parseWhen(`${"(".repeat(MAX_DEPTH)}true${")".repeat(MAX_DEPTH)}`, []).ok).toBe(true);
    expectErrors(`${"(".repeat(MAX_DEPTH + 1)}true${")".repeat(MAX_DEPTH + 1)}`, [
      { offset: MAX_DEPTH, message: `the expression nests deeper than ${MAX_DEPTH} levels` },
    ]);
  });

  test.each([
    ["10,000 parentheses", `${"(".repeat(10_000)}true${")".repeat(10_000)}`, MAX_DEPTH],
    ["10,000 unclosed parentheses", "(".repeat(10_000), MAX_DEPTH],
    ["10,000 negations", `${"!".repeat(10_000)}true`, MAX_DEPTH],
    ["10,000 minus signs", `${"-".repeat(10_000)}1 < 2`, MAX_DEPTH],
    ["10,000 brackets", `r.a in ${"[".repeat(10_000)}`, 7 + MAX_DEPTH + 1],
    ["a chain of 10,000 additions", `${"1 + ".repeat(10_000)}1 == 1`, 4 * (MAX_DEPTH - 1) + 2],
  ])("%s: a located error, not a stack overflow", (_, text, offset) => {
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.offset).toBe(offset);
    expect(errors[0]!.message).toMatch(/nests deeper than 64 levels/);
  });

  test("a long disjunction is wide, not deep: the widest that fits in the length limit parses, runs, formats and type-checks", async () => {
    const terms = Math.floor((MAX_WHEN_CHARACTERS - 'r.cabin=="economy"'.length) / "r.a==1||".length);
    const text = `${"r.a==1||".repeat(terms)}r.cabin=="economy"`;
    expect(text.length).toBeLessThanOrEqual(MAX_WHEN_CHARACTERS);
    const b = buildWhen(text);
    expect(b.test(EACH, BOUND)).toBe(true);
    // A flat chain of 1,000 `||` overflowed prettier's and the type-checker's stacks; grouped, it does not.
    await formatJudgeTs(typeCheckModule([b]));
    expect(() => typeCheckJudgeTs(typeCheckModule([b]))).not.toThrow();
  }, 120_000);

  test.each([
    ["a million parentheses", (n: number) => "(".repeat(n)],
    ["a million-letter key before a hyphen", (n: number) => `r.${"a".repeat(n)}-b == 1`],
    ["a million-letter string", (n: number) => `r.a == "${"x".repeat(n)}" "`],
    ["a 100,000-term chain", (n: number) => "true||".repeat(n / 10) + "true"],
  ])("%s: one error, in linear time, with a short message", (_, textOf) => {
    // Linear time, counted (test/support/work.ts): the steps of a tenth of the text, ten times, at most.
    const { result: errors, steps } = countingWork(() => errorsOf(textOf(1_000_000)));
    const tenth = countingWork(() => errorsOf(textOf(100_000)));
    expect(steps / tenth.steps).toBeLessThanOrEqual(11);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message.length).toBeLessThan(200);
    expect(tenth.result).toHaveLength(1);
  });

  test("a text past the length limit is refused after it is parsed", () => {
    expectErrors(`${"true||".repeat(2000)}true`, [
      { offset: MAX_WHEN_CHARACTERS, message: "a when expression is at most 10,000 characters long; this one is 12,004" },
    ]);
  });

  test("and/or chains are grouped eight to a level", () => {
    const { test: lowered } = lowerWhen(treeOf(Array.from({ length: 10 }, (_, i) => `r.a == ${i}`).join(" || ")), {
      event: code`e`,
      bound: () => code`r`,
      regex: () => code`regex0`,
    });
    expect(String(lowered)).toMatch(
      /^\(\(\(numberOf.*\) \|\| \(numberOf.*=== 7\)\) \|\| \(\(numberOf.*=== 8\) \|\| \(numberOf.*=== 9\)\)\)$/,
    );
  });
});

describe("hostile literals are data", () => {
  const HOSTILE = [
    '"); process.exit(1); //',
    "'); process.exit(1); //",
    "</script><script>alert(1)</script>",
    "a\u2028b\u2029c",
    "`${process.exit(1)}`",
    "${x}",
    "*/ process.exit(1) /*",
    "\\",
    "new\nline",
    "\0",
  ];

  /** `text` as a when string literal, escaped as a user would write it. */
  function quoted(text: string): string {
    return JSON.stringify(text);
  }

  test.each(HOSTILE)("as a compared value: %j", (text) => {
    const bound: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { hostile: text } } };
    const b = when(`r.hostile == ${quoted(text)}`);
    expect(b.test(EACH, bound)).toBe(true);
    expect(b.test(EACH, BOUND)).toBe(false);
    expect(b.source).not.toContain("</script");
    expect(b.source).not.toMatch(/[\u2028\u2029]/);
  });

  test.each(HOSTILE)("as a key: %j", (text) => {
    const bound: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { [text]: "yes" } } };
    const b = when(`r[${quoted(text)}] == "yes"`);
    expect(b.test(EACH, bound)).toBe(true);
    expect(b.test(EACH, BOUND)).toBe(false);
    expect(b.reads(EACH, bound)).toEqual([[`r[${JSON.stringify(text)}]`, "yes"]]);
  });

  test.each(HOSTILE)("in a list and as a count prefix: %j", (text) => {
    const bound: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { hostile: text, [`${text}.0`]: "x" } } };
    expect(when(`r.hostile in ["other", ${quoted(text)}] && count(r[${quoted(text)}].*) == 1`).test(EACH, bound)).toBe(true);
  });

  test("as a regex, written in single quotes too", () => {
    const bound: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { hostile: '`${x}` "); </script>' } } };
    expect(when(String.raw`matches(r.hostile, '^\x60\\$\\{x\\}\x60 "\\); <\\/script>$')`).test(EACH, bound)).toBe(true);
  });

  test("a raw U+2028 inside a string literal is kept, and escaped in the code", () => {
    const bound: Bound = { ...BOUND, r: { ...BOUND.r!, metadata: { s: "a\u2028b" } } };
    const b = when('r.s == "a\u2028b"');
    expect(b.test(EACH, bound)).toBe(true);
    expect(b.source).toContain("\\u2028");
  });

  test("nothing runs while building or evaluating", () => {
    const marker = "__when_test_pwned__";
    const text = `r.x == "\\"); globalThis.${marker} = 1; //" || r["\\"]); globalThis.${marker} = 1; //"] == "\\"\` \${globalThis.${marker} = 1}"`;
    const b = when(text);
    expect(b.test(EACH, BOUND)).toBe(false);
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
  });
});

describe("prototype names are keys like any other", () => {
  test.each([
    ["r.constructor == null", true],
    ['r["__proto__"] == null', true],
    ["r.__proto__ == null", true],
    ["r.toString == null", true],
    ["r.hasOwnProperty == null", true],
    ["count(r.constructor.*) == 0", true],
    ['matches(r.valueOf, "")', false],
  ])("%s is %s", (text, expected) => {
    expect(holds(text)).toBe(expected);
  });

  test("from JSON.parse, an own __proto__ string is read", () => {
    const own: Bound = {
      ...BOUND,
      r: { ...BOUND.r!, metadata: JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, string> },
    };
    expect(when('r["__proto__"] == "x" && r.constructor == "y"').test(EACH, own)).toBe(true);
  });
});

describe("the lowered code type-checks", () => {
  test("every expression built in this file, under strict TypeScript", () => {
    expect(built.length).toBeGreaterThan(100);
    expect(() => typeCheckJudgeTs(typeCheckModule(built))).not.toThrow();
  }, 120_000);
});
