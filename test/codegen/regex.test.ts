/** Build time for `matches`: refusals with located messages, the program as a safe literal, and the case-fold table. */
import { describe, expect, test } from "vitest";
import { lit } from "../../compiler/codegen/code.js";
import { regexLiteral } from "../../compiler/codegen/regex.js";
import { compileRegex, MAX_INSTRUCTIONS, MAX_SET_BOUNDS } from "../../compiler/ir/regex-program.js";
import { CASE_FOLD_CLASSES, CASE_FOLD_UNICODE_VERSION } from "../../compiler/ir/regex-case-fold.js";
import { regexTest, type RegexProgram } from "../../runtime/regex.js";
// @ts-expect-error: a plain JS script without types
import { caseFoldClasses } from "../../scripts/gen-regex-case-fold.js";
import { countingWork } from "../support/work.js";

function refusal(pattern: string, flags = ""): { message: string; offset?: number } {
  const result = compileRegex(pattern, flags);
  if (result.ok) throw new Error(`${pattern} compiled`);
  const { message, offset } = result;
  return offset === undefined ? { message } : { message, offset };
}

function acceptedByJs(pattern: string, flags = ""): boolean {
  try {
    new RegExp(pattern, flags + "u");
    return true;
  } catch {
    return false;
  }
}

describe("compileRegex refuses, with a message and the offset", () => {
  // Valid JS, but not linear (or not implemented): refused with "unsupported".
  test.each([
    ["(a)\\1", "unsupported: backreferences (\\1) cannot run in linear time", 3],
    ["(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "unsupported: backreferences (\\10) cannot run in linear time", 30],
    ["(?<x>a)\\k<x>", "unsupported: backreferences (\\k<x>) cannot run in linear time", 7],
    ["a(?=b)", "unsupported: lookahead (?= (?! cannot run in linear time here", 1],
    ["a(?!b)", "unsupported: lookahead (?= (?! cannot run in linear time here", 1],
    ["(?<=a)b", "unsupported: lookbehind (?<= (?<! cannot run in linear time here", 0],
    ["(?<!a)b", "unsupported: lookbehind (?<= (?<! cannot run in linear time here", 0],
    ["\\p{L}", "unsupported: Unicode property escapes (\\p{…}) are not implemented", 0],
    ["[\\P{L}]", "unsupported: Unicode property escapes (\\P{…}) are not implemented", 1],
    ["(?<\\u0061>x)", "invalid group name: (?<name> takes an identifier (letters, digits, _ or $, not first a digit)", 1],
    ["a{2000}", "repetition {2000} is above the limit of 1000", 1],
    ["a{1,2000}", "repetition {1,2000} is above the limit of 1000", 1],
    ["a{1001,}", "repetition {1001,} is above the limit of 1000", 1],
  ])("%j: %s", (pattern, message, offset) => {
    expect(acceptedByJs(pattern)).toBe(true);
    expect(refusal(pattern)).toEqual({ message, offset });
  });

  // Invalid in JS u-mode too: refused with the reason.
  test.each([
    ["[abc", "unterminated character class", 0],
    ["x[^", "unterminated character class", 1],
    ["(ab", "missing ) for this group", 0],
    ["ab)", "unmatched ) (escape it as \\) to match a parenthesis)", 2],
    ["*a", "nothing to repeat before *", 0],
    ["a|+", "nothing to repeat before +", 2],
    ["a**", "nothing to repeat before * (a quantifier cannot follow a quantifier)", 2],
    ["a{2}{3}", "nothing to repeat before { (a quantifier cannot follow a quantifier)", 4],
    ["^*", "nothing to repeat: an assertion (^) cannot take a quantifier", 1],
    ["\\b+", "nothing to repeat: an assertion (\\b) cannot take a quantifier", 2],
    ["{1}", "nothing to repeat before {", 0],
    ["a{", "incomplete quantifier: { must be {n}, {n,} or {n,m} (escape a literal { as \\{)", 1],
    ["a{,3}", "incomplete quantifier: { must be {n}, {n,} or {n,m} (escape a literal { as \\{)", 1],
    ["{", "lone { (escape it as \\{)", 0],
    ["a}", "lone } (escape it as \\})", 1],
    ["a]", "lone ] (escape it as \\])", 1],
    ["a{3,2}", "numbers out of order in {3,2}", 1],
    ["[z-a]", "range out of order in character class: z-a", 1],
    ["[\\d-z]", "invalid character class range: \\d cannot be an end of a range (escape the - as \\-)", 1],
    ["[a-\\w]", "invalid character class range: \\w cannot be an end of a range (escape the - as \\-)", 1],
    ["\\", "\\ at end of pattern", 0],
    ["\\a", "invalid escape \\a (u-mode allows escaping only syntax characters ^ $ \\ . * + ? ( ) [ ] { } | / and - inside a class)", 0],
    ["\\-", "invalid escape \\- (u-mode allows escaping only syntax characters ^ $ \\ . * + ? ( ) [ ] { } | / and - inside a class)", 0],
    ["x\\é", "invalid escape \\é (u-mode allows escaping only syntax characters ^ $ \\ . * + ? ( ) [ ] { } | / and - inside a class)", 1],
    ["\\k", "invalid escape \\k (u-mode allows it only as \\k<name>)", 0],
    ["\\00", "invalid escape: \\0 cannot be followed by a digit in u-mode (octal escapes are not allowed)", 0],
    ["[\\1]", "invalid escape \\1 inside a character class (u-mode has no octal escapes)", 1],
    ["[\\B]", "invalid escape \\B inside a character class", 1],
    ["\\c1", "invalid escape: \\c must be followed by a letter A-Z or a-z", 0],
    ["\\x4", "invalid escape: \\x must be followed by two hex digits", 0],
    ["\\u12", "invalid escape: \\u must be followed by four hex digits or {code point}", 0],
    ["\\u{110000}", "invalid escape: \\u{…} must hold hex digits of a code point up to 10FFFF", 0],
    ["\\u{}", "invalid escape: \\u{…} must hold hex digits of a code point up to 10FFFF", 0],
    ["(?<1a>x)", "invalid group name: (?<name> takes an identifier (letters, digits, _ or $, not first a digit)", 1],
    ["(?<a>x)(?<a>y)", "duplicate group name a", 8],
  ])("%j: %s", (pattern, message, offset) => {
    expect(acceptedByJs(pattern)).toBe(false);
    expect(refusal(pattern)).toEqual({ message, offset });
  });

  test("modifier groups (?i:…), which Node 20 does not know either", () => {
    expect(refusal("(?i:a)")).toEqual({ message: "invalid group: (? must be followed by :, <name>, =, !, <= or <!", offset: 0 });
  });

  test("character classes above the size limit", () => {
    // 200 distinct classes of 200 single characters each: 40,000 ranges.
    const every = Array.from({ length: 200 }, (_, j) => String.fromCodePoint(0x100 + 2 * j)).join("");
    const classes = Array.from({ length: 200 }, (_, k) => `[${every}${String.fromCodePoint(0x4e00 + k)}]`);
    expect(refusal(classes.join(""))).toEqual({
      message: `the pattern is too large: its character classes hold more than ${MAX_SET_BOUNDS / 2} ranges`,
    });
    expect(compileRegex(classes.slice(0, 100).join(""), "").ok).toBe(true);
  });

  test.each(["g", "u", "m", "iu", "ii", "I", " i"])("flags %j: only i or none", (flags) => {
    expect(refusal("a", flags)).toEqual({ message: 'flags must be "i" or absent' });
  });

  test("a program above the size limit, at once, however large the repetition would be", () => {
    // At once: the work before the refusal is that of the instructions up to the limit (counted steps of
    // the built-ins it calls, about one per instruction), not of the 10^9 the repetition would make.
    const { result, steps } = countingWork(() => refusal("((a{1000}){1000}){1000}"));
    expect(result).toEqual({
      message: `the pattern is too large: it compiles to more than ${MAX_INSTRUCTIONS} instructions (lower its repetition counts)`,
    });
    expect(steps).toBeLessThan(2 * MAX_INSTRUCTIONS);
    expect(compileRegex("[a-z]{1000}\\d{1000}", "").ok).toBe(true);
  });

  test("a long pattern under i builds quickly", () => {
    // Quickly: a few counted steps per character (about 24), in proportion to the length; widening each
    // character by a pass over every case-fold class would be thousands per character.
    compileRegex("x", "i"); // the case-fold table is built once, on first use
    const half = countingWork(() => compileRegex("Lorem ipsum dolor sit amet ".repeat(90), "i"));
    const pattern = "Lorem ipsum dolor sit amet ".repeat(180);
    const { result, steps } = countingWork(() => compileRegex(pattern, "i"));
    expect(result.ok).toBe(true);
    expect(half.result.ok).toBe(true);
    expect(steps).toBeLessThan(40 * pattern.length);
    expect(steps / half.steps).toBeLessThan(2.2);
  });

  test("deep nesting is refused, not a stack overflow", () => {
    expect(refusal("(".repeat(5000) + "a" + ")".repeat(5000)).message).toBe("groups nested more than 200 deep");
    expect(compileRegex("(".repeat(150) + "a" + ")".repeat(150), "").ok).toBe(true);
  });
});

describe("compileRegex: the program's shape", () => {
  test("a plain literal uses the fast path, with its anchors", () => {
    expect(compileRegex("a\\.b", "")).toEqual({
      ok: true,
      program: { ops: [1, 97, 1, 46, 1, 98, 0], sets: [], literal: "a.b", anchorStart: false, anchorEnd: false },
    });
    const anchored = compileRegex("^(?:ab)c$", "");
    expect(anchored.ok && [anchored.program.literal, anchored.program.anchorStart, anchored.program.anchorEnd]).toEqual([
      "abc",
      true,
      true,
    ]);
    // Under i only characters without case variants stay literal.
    const digits = compileRegex("2024-", "i");
    expect(digits.ok && digits.program.literal).toBe("2024-");
    const letters = compileRegex("ab", "i");
    expect(letters.ok && letters.program.literal).toBe(null);
  });

  test("a lone surrogate is never a literal (indexOf would find it inside a pair)", () => {
    const result = compileRegex("\\ud83d", "");
    expect(result.ok && result.program.literal).toBe(null);
  });

  test("sets are shared: [a-z] twice is one set", () => {
    const result = compileRegex("[a-z]x[a-z]", "");
    expect(result.ok && result.program.sets).toEqual([[97, 122]]);
  });
});

/** Evaluates a literal as the generated judge would, in the test only. */
function evaluate(literal: string): unknown {
  return new Function(`return (${literal});`)();
}

describe("regexLiteral", () => {
  test.each(["", "abc", "^a+$", "(a|b)*c[^x-z]\\d{2,3}", "k\\b", "😀+.", "\\u2028|\\u2029"])("%j round-trips", (pattern) => {
    for (const flags of ["", "i"]) {
      const result = compileRegex(pattern, flags);
      if (!result.ok) throw new Error(result.message);
      const literal = regexLiteral(result.program).toString();
      expect(evaluate(literal)).toEqual(result.program);
      expect(JSON.parse(JSON.stringify(evaluate(literal)))).toEqual(JSON.parse(JSON.stringify(result.program)));
    }
  });

  // [pattern, the text it spells]: escaped where u-mode needs it, so each one compiles to a literal holding the hostile text.
  const hostile: [string, string][] = [
    ['"\\); process\\.exit\\(1\\); //', '"); process.exit(1); //'],
    ["</script><script>alert\\(1\\)</script>", "</script><script>alert(1)</script>"],
    ["a\u2028b\u2029c", "a\u2028b\u2029c"],
    ["`\\$\\{process\\.exit\\(1\\)\\}`", "`${process.exit(1)}`"],
    ["\\*/ x /\\*", "*/ x /*"],
    ["\\u0022\\u0027'\"\\\\", "\"''\"\\"],
    ["\n\r", "\n\r"],
  ];
  test.each(hostile)("hostile pattern %j: the literal cannot break out", (pattern, spelled) => {
    const result = compileRegex(pattern, "");
    if (!result.ok) throw new Error(`${pattern}: ${result.message}`);
    expect(result.program.literal).toBe(spelled);
    const text = regexLiteral(result.program).toString();
    // No raw line break anywhere, no `</`; and outside the one string literal only names, numbers and punctuation.
    expect(text).not.toMatch(/[\u2028\u2029\n\r]/);
    expect(text).not.toContain("</");
    expect(text.split(lit(spelled).toString())).toHaveLength(2);
    expect(text.replace(lit(spelled).toString(), "TEXT")).toMatch(/^[\w\s{}[\],:]*$/);
    const program = evaluate(text) as RegexProgram;
    expect(program).toEqual(result.program);
    expect(regexTest(program, `<<${spelled}>>`)).toBe(true);
    expect(new RegExp(pattern, "u").test(`<<${spelled}>>`)).toBe(true);
    // The same text through the NFA (under i the letters are sets, so no literal): no break-out either.
    const nfa = compileRegex(pattern, "i");
    if (!nfa.ok) throw new Error(nfa.message);
    expect(evaluate(regexLiteral(nfa.program).toString())).toEqual(nfa.program);
  });

  test("the only strings in the literal are the literal text", () => {
    const result = compileRegex("a(b|c)", "i");
    if (!result.ok) throw new Error(result.message);
    expect(regexLiteral(result.program).toString()).not.toContain('"');
  });
});

describe("the case-fold table (regex-case-fold.ts)", () => {
  test("every class is one letter under this Node's iu", () => {
    const classes = CASE_FOLD_CLASSES.split(",").map((members) => members.split(" ").map((hex) => parseInt(hex, 16)));
    expect(classes.length).toBeGreaterThan(1400);
    for (const members of classes) {
      const pattern = new RegExp(`^\\u{${members[0]!.toString(16)}}$`, "iu");
      for (const c of members) expect(pattern.test(String.fromCodePoint(c)), `U+${c.toString(16)}`).toBe(true);
    }
  });

  test.runIf(process.versions.unicode === CASE_FOLD_UNICODE_VERSION)("is what scripts/gen-regex-case-fold.js makes from this Node", () => {
    const regenerated = (caseFoldClasses() as number[][]).map((members) => members.map((c) => c.toString(16)).join(" ")).join(",");
    expect(regenerated).toBe(CASE_FOLD_CLASSES);
  });
});
