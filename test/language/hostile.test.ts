/**
 * Hostile input against the extended rule language (docs/FORMATS.md §10):
 * every place user text reaches generated code in the new forms (operator
 * operands, metadata keys, `on`/`per`/`sum` keys, regex sources, `when`
 * literals and bracket keys, binding names) fed with code-breaking text. Each
 * judge.yaml is either refused with located errors, or builds, loads as the
 * bundled judge.mjs from a folder without node_modules, and judges exactly as
 * written — with no side effect on the process (process.exit never called, a
 * global canary untouched). Then ReDoS patterns on a megabyte of content,
 * 10,000-key metadata, deep expressions, and prototype names as keys and
 * values, which must not change a verdict.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import { parseJudgeYaml, type Diagnostic } from "../../compiler/ir/index.js";
import type { BuiltJudge } from "../../compiler/run/load.js";
import { importBundled } from "../support/judges.js";
import { compileRegex } from "../../compiler/ir/regex-program.js";
import { countingCodePointReads, regexWork, workGrowth } from "../support/work.js";

const CANARY = "__bjHostileCanary";
const globals = globalThis as Record<string, unknown>;
const SET_CANARY = `globalThis.${CANARY} = "pwned"`;

/** Text that would run code if it were spliced into judge.ts/judge.mjs unquoted, in each way it could be. */
const PAYLOADS = [
  '"); process.exit(1); //',
  `"); ${SET_CANARY}; //`,
  `'); ${SET_CANARY}; //`,
  `\\"); ${SET_CANARY}; //`,
  `\`; ${SET_CANARY}; \``,
  `\${${SET_CANARY}}`,
  `*/ ${SET_CANARY}; /*`,
  `\n${SET_CANARY}; //`,
  `\r\n${SET_CANARY}; //`,
  `\u2028${SET_CANARY}; //\u2029`,
  `</script><script>${SET_CANARY}</script>`,
  `]); ${SET_CANARY}; ([`,
  `}; ${SET_CANARY}; {`,
];

/** A payload's near miss: a value that must not match where the payload does. */
const miss = (p: string) => `${p}~`;

type Built = { ok: true; judge: BuiltJudge; mjs: string } | { ok: false; diagnostics: Diagnostic[] };

/**
 * judge.yaml as JSON (YAML's subset), so any text fits; U+2028/U+2029 written
 * as escapes, which YAML's double-quoted strings read back.
 */
function yamlOf(doc: unknown): string {
  return JSON.stringify(doc, null, 1)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

async function build(doc: unknown): Promise<Built> {
  const text = yamlOf(doc);
  const parsed = parseJudgeYaml(text, { file: "judge.yaml" });
  if (!parsed.ok) {
    expectLocated(parsed.diagnostics);
    return { ok: false, diagnostics: parsed.diagnostics };
  }
  const compiled = await compileIR(parsed.ir, text, { file: "judge.yaml", positions: parsed.positions });
  // Text a page or a line-based reader would break on never appears raw in the artifact.
  expect(compiled.judgeMjs).not.toMatch(/<\/script/i);
  expect(compiled.judgeMjs).not.toMatch(/[\u2028\u2029]/);
  expect(compiled.judgeMjs).not.toMatch(/\bimport\b[^(]*\bfrom\b/);
  return { ok: true, judge: (await importBundled(compiled)) as BuiltJudge, mjs: compiled.judgeMjs };
}

/** Every diagnostic is an error at a place in judge.yaml, with a path. */
function expectLocated(diagnostics: readonly Diagnostic[]): void {
  expect(diagnostics.length).toBeGreaterThan(0);
  for (const d of diagnostics) {
    expect(d.severity).toBe("error");
    expect(d.line).toBeGreaterThan(0);
    expect(d.col).toBeGreaterThan(0);
  }
}

async function mustBuild(doc: unknown): Promise<BuiltJudge> {
  const built = await build(doc);
  if (!built.ok)
    throw new Error(`expected a build: ${built.diagnostics.map((d) => `${d.line}:${d.col} ${d.path}: ${d.message}`).join("; ")}`);
  return built.judge;
}

type Event = { id: string; actor: string; action: string; content?: string; metadata?: Record<string, string> };

/** A trajectory as a host receives it: parsed from JSON text, so `__proto__` is an own key like any other. */
function trajectory(events: Event[], id = "t"): unknown {
  return JSON.parse(JSON.stringify({ id, complete: true, events }));
}

/** The verdict of each clause, rule by rule, with the ids it cites. */
async function verdicts(judge: BuiltJudge, t: unknown): Promise<string[][]> {
  const j = await judge.judgeTrajectory(t as Parameters<BuiltJudge["judgeTrajectory"]>[0]);
  return j.metaBehaviors.map((m) =>
    m.clauses.map((c) => `${c.verdict}${c.naReason ? `(${c.naReason})` : ""} [${c.citations.map((x) => x.eventId).join(",")}]`),
  );
}

const judgeDoc = (checks: unknown[], trigger: unknown = { actor: "agent" }) => ({
  version: 1,
  behavior: "hostile",
  metaBehaviors: [{ name: "hostile", trigger: { description: "any agent event", match: trigger }, checks }],
});

/** Regex source that matches exactly `s` (every syntax character escaped, as the u flag allows). */
const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** A `when` string literal holding `s`. */
const literal = (s: string) => JSON.stringify(s);

let exit: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  globals[CANARY] = "untouched";
  exit = vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
    throw new Error(`process.exit(${code}) called`);
  }) as never);
});
afterEach(() => {
  expect(globals[CANARY]).toBe("untouched");
  expect(exit).not.toHaveBeenCalled();
  exit.mockRestore();
});

describe("injection through the extended forms", () => {
  for (const p of PAYLOADS) {
    const name = JSON.stringify(p);

    test(`value operands and metadata keys: ${name}`, async () => {
      const judge = await mustBuild(
        judgeDoc([
          { type: "forbidden", quote: "in", match: { action: { in: [p, "other"] } } },
          { type: "forbidden", quote: "equals", match: { metadata: { k: { equals: p } } } },
          { type: "forbidden", quote: "exists", match: { metadata: { [p]: { exists: true } } } },
          { type: "forbidden", quote: "gt", match: { metadata: { [p]: { gt: 5 } } } },
          { type: "forbidden", quote: "not", match: { action: "probe", metadata: { [p]: { not: { equals: "7" } } } } },
          { type: "forbidden", quote: "content", match: { content: { equals: p } } },
          { type: "forbidden", quote: "not in", match: { action: { not: { in: [p] } } } },
        ]),
      );
      const hit = trajectory([{ id: "e1", actor: "agent", action: p, content: p, metadata: { k: p, [p]: "7" } }]);
      const probe = trajectory([{ id: "e1", actor: "agent", action: "probe", content: "", metadata: { k: "", [miss(p)]: "7" } }]);
      expect(await verdicts(judge, hit)).toEqual([
        ["false [e1]", "false [e1]", "false [e1]", "false [e1]", "true []", "false [e1]", "true []"],
      ]);
      // The near miss: no key p, no value p; `not` holds for the missing key.
      expect(await verdicts(judge, probe)).toEqual([["true []", "true []", "true []", "true []", "false [e1]", "true []", "false [e1]"]]);
    });

    test(`on, per and sum keys and key values: ${name}`, async () => {
      const key = `metadata.${p}`;
      const built = await build(
        judgeDoc([
          { type: "ordering", quote: "on", first: { action: "look" }, before: { action: "act" }, on: key },
          { type: "count", quote: "per", match: { action: "act" }, per: key, max: 1 },
          { type: "count", quote: "sum", match: { action: "pay" }, sum: key, max: 10 },
          { type: "required", quote: "after on", after: { action: "look" }, match: { action: "ack" }, on: key },
        ]),
      );
      if (!built.ok) {
        // A key no event could carry through the importers (a line break) may be refused; it is then located.
        expect(p).toMatch(/[\n\r\u2028\u2029]/);
        return;
      }
      const judge = built.judge;
      const t = (actKey: string, amount: string) =>
        trajectory([
          { id: "e1", actor: "agent", action: "look", metadata: { [p]: p } },
          { id: "e2", actor: "agent", action: "act", metadata: { [p]: actKey } },
          { id: "e3", actor: "agent", action: "pay", metadata: { [p]: amount } },
          { id: "e4", actor: "agent", action: "pay", metadata: { [p]: amount } },
          { id: "e5", actor: "agent", action: "ack", metadata: { [p]: actKey } },
        ]);
      expect(await verdicts(judge, t(p, "6"))).toEqual([["true [e1,e2]", "true [e2]", "false [e3,e4]", "true [e5]"]]);
      expect(await verdicts(judge, t(miss(p), "5"))).toEqual([["false [e2]", "true [e2]", "true [e3,e4]", "false [e1]"]]);
    });

    test(`regex sources: ${name}`, async () => {
      // Escaped, the payload is a literal pattern: it builds and matches exactly itself.
      const exact = `^${escapeRegex(p)}$`;
      const judge = await mustBuild(
        judgeDoc([
          { type: "forbidden", quote: "matches", match: { content: { matches: exact } } },
          { type: "forbidden", quote: "matches i", match: { metadata: { k: { matches: exact, flags: "i" } } } },
          {
            type: "condition",
            quote: "when matches",
            each: { action: "act" },
            with: { r: { latest: { action: "look" } } },
            when: `!matches(r.k, ${literal(exact)}) && !matches(event.content, ${literal(escapeRegex(p))})`,
          },
        ]),
      );
      const t = (s: string) =>
        trajectory([
          { id: "e1", actor: "agent", action: "look", content: s, metadata: { k: s.toUpperCase() } },
          { id: "e2", actor: "agent", action: "act", content: `<${s}>`, metadata: {} },
        ]);
      expect(await verdicts(judge, t(p))).toEqual([["false [e1]", "false [e1]", "false [e2,e1]"]]);
      expect(await verdicts(judge, t(miss(p)))).toEqual([["true []", "true []", "false [e2,e1]"]]);
      expect(await verdicts(judge, t("plain"))).toEqual([["true []", "true []", "true [e2]"]]);

      // Raw, the payload is a refused pattern (located) or one that judges as RegExp with the u flag does.
      const raw = await build(judgeDoc([{ type: "forbidden", quote: "raw", match: { content: { matches: p } } }]));
      if (raw.ok) {
        for (const content of [p, miss(p), "", SET_CANARY]) {
          const expected = new RegExp(p, "u").test(content) ? "false [e1]" : "true []";
          expect(await verdicts(raw.judge, trajectory([{ id: "e1", actor: "agent", action: "x", content }]))).toEqual([[expected]]);
        }
      }
    });

    test(`when literals, bracket keys and the expression's text: ${name}`, async () => {
      const judge = await mustBuild(
        judgeDoc([
          {
            type: "condition",
            quote: `quote ${p}`,
            each: { action: "act" },
            with: { r: { latest: { action: "look" } } },
            when: `r.k == ${literal(p)} && r[${literal(p)}] == ${literal(p)} && r[${literal(p)}] in [${literal(p)}, "x"] && event[${literal(p)}] != ${literal(p)}`,
          },
        ]),
      );
      const t = (v: string) =>
        trajectory([
          { id: "e1", actor: "agent", action: "look", metadata: { k: v, [p]: v } },
          { id: "e2", actor: "agent", action: "act", metadata: { [p]: miss(v) } },
        ]);
      expect(await verdicts(judge, t(p))).toEqual([["true [e2]"]]);
      expect(await verdicts(judge, t(miss(p)))).toEqual([["false [e2,e1]"]]);
      // The expression's own text reaches the report intact.
      const j = await judge.judgeTrajectory(t(miss(p)) as never);
      expect(j.metaBehaviors[0]!.clauses[0]!.explanation).toContain(`r.k == ${literal(p)}`);

      // Payloads outside a string literal are syntax errors, located in the expression.
      for (const when of [`r.k == "a" ${p}`, `r.k == "a" // ${p}`, `r.k == "a" /* ${p} */`, `r[${p}] == "a"`, `${p}`]) {
        const built = await build(
          judgeDoc([{ type: "condition", quote: "q", each: { action: "act" }, with: { r: { latest: { action: "look" } } }, when }]),
        );
        expect(built.ok).toBe(false);
      }
    });

    test(`binding names: ${name}`, async () => {
      const built = await build(
        judgeDoc([{ type: "condition", quote: "q", each: { action: "act" }, with: { [p]: { latest: { action: "look" } } }, when: "true" }]),
      );
      expect(built.ok).toBe(false);
      if (!built.ok) expect(built.diagnostics.some((d) => d.path.includes("with"))).toBe(true);
    });
  }
});

describe("ReDoS patterns on a megabyte of hostile content", () => {
  /** Each pattern, the unit its hostile content repeats, and what comes before (eleven a's: one short of a match). */
  const PATTERNS: [pattern: string, unit: string, prefix?: string][] = [
    ["(a+)+$", "a"],
    ["^(a|a)*b", "a"],
    ["(a*)*b", "a"],
    ["^(\\w+\\s?)*$", "aa "],
    ["(x+x+)+y", "x"],
    ["(.*a){12}", "b", "a".repeat(11)],
    ["^(([a-z])+.)+[A-Z]([a-z])+$", "ab"],
  ];
  /** A count's growth from 100 KB to 1 MB that is still linear: 10, with room for a fixed start-up cost. */
  const LINEAR_GROWTH = 11;

  /** Hostile content of `size` characters: the prefix, the unit repeated, and "!" (so that anchored patterns fail). */
  const contentOf = (unit: string, size: number, prefix = "") =>
    `${prefix}${unit.repeat(Math.ceil(size / unit.length)).slice(0, size - 1 - prefix.length)}!`;

  /** Judges the look-then-act trajectory over `content`, counting the code points read meanwhile. */
  async function judgeCounting(judge: BuiltJudge, content: string): Promise<number> {
    const t = trajectory([
      { id: "e1", actor: "agent", action: "look", content },
      { id: "e2", actor: "agent", action: "act", content },
    ]);
    const { result, reads } = await countingCodePointReads(() => judge.judgeTrajectory(t as never));
    expect(result.metaBehaviors).toHaveLength(1);
    return reads;
  }

  for (const [pattern, unit, prefix] of PATTERNS) {
    test(`${pattern} as a matches value and inside when is linear`, async () => {
      const judge = await mustBuild(
        judgeDoc([
          { type: "forbidden", quote: "value", match: { content: { matches: pattern } } },
          {
            type: "condition",
            quote: "when",
            each: { action: "act" },
            with: { r: { latest: { action: "look" } } },
            when: `!matches(r.content, ${literal(pattern)}, "i") || matches(event.content, ${literal(pattern)})`,
          },
        ]),
      );
      // The matcher's work, counted (no clock): linear, 1 MB costs about 10 times what 100 KB does in
      // each count; a quadratic matcher's counts grow about 100 times (see the control below).
      for (const flags of ["", "i"]) {
        const compiled = compileRegex(pattern, flags);
        if (!compiled.ok) throw new Error(compiled.message);
        const small = regexWork(compiled.program, contentOf(unit, 100_000, prefix));
        const large = regexWork(compiled.program, contentOf(unit, 1_000_000, prefix));
        expect(large.matched).toBe(small.matched);
        expect(workGrowth(small, large)).toBeLessThanOrEqual(LINEAR_GROWTH);
      }
      // The judge completes on a megabyte (no time bound), and what it reads grows as the content does:
      // it runs the linear matcher (a backtracking RegExp would read nothing through codePointAt).
      const smallReads = await judgeCounting(judge, contentOf(unit, 100_000, prefix));
      const largeReads = await judgeCounting(judge, contentOf(unit, 1_000_000, prefix));
      expect(smallReads).toBeGreaterThan(0);
      expect(largeReads / smallReads).toBeLessThanOrEqual(LINEAR_GROWTH);
      // And the verdicts are RegExp's on the same content, short enough for RegExp to answer at once (20 units
      // of "ab" cost it 4 s, 30 s on a busy machine, on the last pattern).
      for (const units of [10, 12]) {
        const content = `${prefix ?? ""}${unit.repeat(units)}!`;
        const expected = new RegExp(pattern, "u").test(content);
        const v = await verdicts(
          judge,
          trajectory([
            { id: "e1", actor: "agent", action: "look", content },
            { id: "e2", actor: "agent", action: "act", content },
          ]),
        );
        expect(v[0]![0]!.startsWith(expected ? "false" : "true")).toBe(true);
      }
    });
  }

  test("control: the same counts on a matcher that restarts at every position exceed the bound", () => {
    // The naive way to search: try the anchored pattern at each start. Its counts grow with the
    // square of the length (about 100 times for 10 times the text), so the bound above refuses it.
    const anchored = compileRegex("^(?:(a+)+$)", "");
    if (!anchored.ok) throw new Error(anchored.message);
    const restarting = (text: string) => {
      const total = { matched: false, reads: 0, lookups: 0, setReads: 0 };
      for (let start = 0; start < text.length && !total.matched; start++) {
        const w = regexWork(anchored.program, text.slice(start));
        total.matched = w.matched;
        total.reads += w.reads;
        total.lookups += w.lookups;
        total.setReads += w.setReads;
      }
      return total;
    };
    const growth = workGrowth(restarting(contentOf("a", 300)), restarting(contentOf("a", 3_000)));
    expect(growth).toBeGreaterThan(50);
    expect(growth).toBeGreaterThan(LINEAR_GROWTH);
  });
});

describe("10,000-key metadata", () => {
  test("exists, not, comparisons and count(x.prefix.*) over events with 10,000 keys", async () => {
    const judge = await mustBuild(
      judgeDoc([
        { type: "forbidden", quote: "exists", match: { metadata: { "items.9999.name": { exists: true } } } },
        { type: "forbidden", quote: "missing", match: { action: "look", metadata: { "items.10000.name": { exists: true } } } },
        { type: "forbidden", quote: "not", match: { action: "look", metadata: { "items.5000.name": { not: { equals: "n5000" } } } } },
        { type: "forbidden", quote: "gt", match: { metadata: { "items.1234.price": { gt: 1233.5 } } } },
        { type: "forbidden", quote: "lte", match: { metadata: { "items.1234.price": { lte: 1233.5 } } } },
        {
          type: "condition",
          quote: "count",
          each: { action: "act" },
          with: { r: { latest: { action: "look" } } },
          when: 'count(r.items.*) == 5000 && count(event.items.*) == 0 && r["items.4999.price"] >= 4999 && r.items.42.name == "n42"',
        },
      ]),
    );
    const metadata: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) {
      metadata[`items.${i}.name`] = `n${i}`;
      metadata[`items.${i}.price`] = String(i);
    }
    metadata["items.9999.name"] = "last"; // the 10,001st key: items 0..4999 and 9999 make 5,001 distinct N
    const look = { id: "e1", actor: "agent", action: "look", metadata };
    const act = { id: "e2", actor: "agent", action: "act", metadata: { ...metadata, "items.5000.name": "n5000" } };
    expect(Object.keys(metadata).length).toBe(10_001);
    const v = await verdicts(judge, trajectory([look, act]));
    // count(r.items.*) counts 5,001 distinct N (0…4999 and 9999), so the condition is false; event has 5,002.
    expect(v).toEqual([["false [e1,e2]", "true []", "false [e1]", "false [e1,e2]", "true []", "false [e2,e1]"]]);
    const judged = await judge.judgeTrajectory(trajectory([look, act]) as never);
    expect(judged.metaBehaviors[0]!.clauses[5]!.explanation).toContain("count(r.items.*) = 5001");
  });
});

describe("deep expressions", () => {
  const condition = (when: string) =>
    judgeDoc([{ type: "condition", quote: "deep", each: { action: "act" }, with: { r: { latest: { action: "look" } } }, when }]);

  for (const [label, when] of [
    ["10,000 parentheses", `${"(".repeat(10_000)}r.a == "1"${")".repeat(10_000)}`],
    ["10,000 nots", `${"!".repeat(10_000)}(r.a == "1")`],
    ["10,000 unary minuses", `${"-".repeat(10_000)}1 == r.a`],
    ["a list nested 10,000 deep", `r.a in ${"[".repeat(10_000)}"1"${"]".repeat(10_000)}`],
    ["an unclosed nest of 100,000", "(".repeat(100_000)],
    ["a sum of 5,000 terms", `${Array.from({ length: 5000 }, () => "1").join(" + ")} == r.a`],
  ] as const) {
    test(`${label}: a located error, not a stack overflow`, async () => {
      const built = await build(condition(when));
      expect(built.ok).toBe(false);
      if (!built.ok) expect(built.diagnostics[0]!.path).toMatch(/when$/);
    });
  }

  test("a flat chain of 400 || terms builds and judges", async () => {
    const when = Array.from({ length: 400 }, (_, i) => `r.a == "${i}"`).join(" || ");
    const judge = await mustBuild(condition(when));
    const t = (a: string) =>
      trajectory([
        { id: "e1", actor: "agent", action: "look", metadata: { a } },
        { id: "e2", actor: "agent", action: "act" },
      ]);
    expect(await verdicts(judge, t("399"))).toEqual([["true [e2]"]]);
    expect(await verdicts(judge, t("400"))).toEqual([["false [e2,e1]"]]);
  });

  test("not nested 1,000 deep in a value matcher is a located error", async () => {
    let matcher: unknown = { equals: "x" };
    for (let i = 0; i < 1000; i++) matcher = { not: matcher };
    const built = await build(judgeDoc([{ type: "forbidden", quote: "q", match: { metadata: { k: matcher } } }]));
    expect(built.ok).toBe(false);
  });

  test("a regex nested 10,000 groups deep is a located error", async () => {
    const built = await build(
      judgeDoc([{ type: "forbidden", quote: "q", match: { content: { matches: `${"(".repeat(10_000)}a${")".repeat(10_000)}` } } }]),
    );
    expect(built.ok).toBe(false);
    const inWhen = await build(condition(`matches(r.a, ${literal(`${"(?:".repeat(10_000)}a${")".repeat(10_000)}`)})`));
    expect(inWhen.ok).toBe(false);
  });
});

describe("prototype names as keys and values change no verdict", () => {
  // `__proto__` as a judge.yaml key is refused (located); as a trajectory key it is tested below.
  const PROTO = ["constructor", "valueOf", "toString", "hasOwnProperty"] as const;
  const INNOCENT = ["alpha", "bravo", "charlie", "delta"] as const;

  /** A judge using names n[0..3] as metadata keys, `on`/`per`/`sum` keys, `in` values, binding names and `when` keys. */
  const doc = (n: readonly string[]) =>
    judgeDoc([
      { type: "forbidden", quote: "equals", match: { metadata: { [n[0]!]: { equals: n[1]! } } } },
      { type: "forbidden", quote: "exists", match: { action: "look", metadata: { [n[1]!]: { exists: true } } } },
      { type: "forbidden", quote: "not exists", match: { action: "act", metadata: { [n[2]!]: { exists: false } } } },
      { type: "forbidden", quote: "gt", match: { metadata: { [n[3]!]: { gt: 5 } } } },
      { type: "forbidden", quote: "not", match: { action: "act", metadata: { [n[0]!]: { not: { in: [n[2]!, n[3]!] } } } } },
      { type: "ordering", quote: "on", first: { action: "look" }, before: { action: "act" }, on: `metadata.${n[0]}` },
      { type: "ordering", quote: "on fresh", first: { action: "look" }, before: { action: "act" }, on: `metadata.${n[1]}`, fresh: true },
      { type: "count", quote: "per", match: { action: "act" }, per: `metadata.${n[0]}`, max: 1 },
      {
        type: "count",
        quote: "sum per",
        match: { action: { in: ["act", "look"] } },
        per: `metadata.${n[1]}`,
        sum: `metadata.${n[3]}`,
        max: 10,
      },
      { type: "pairing", quote: "pairing on", each: { action: "look" }, followedBy: { action: "act" }, on: `metadata.${n[0]}`, within: 2 },
      { type: "required", quote: "after on", after: { action: "look" }, match: { action: "act" }, on: `metadata.${n[2]}` },
      { type: "forbidden", quote: "forbidden on", after: { action: "act" }, match: { action: "look" }, on: `metadata.${n[0]}` },
      { type: "count", quote: "count on", after: { action: "look" }, match: { action: "act" }, on: `metadata.${n[0]}`, max: 1 },
      ...n.map((b, i) => ({
        type: "condition",
        quote: `condition ${i}`,
        each: { action: "act" },
        with: { [b]: { latest: { action: "look" }, on: `metadata.${n[(i + 1) % 4]}` } },
        when: `${b}.${n[i]} == ${literal(n[(i + 2) % 4]!)} || ${b}["${n[(i + 3) % 4]}"] in ["${n[i]}", "x"] || count(${b}.${n[i]}.*) == 2 || event.${n[i]} == null`,
      })),
    ]);

  /** Events whose keys and values are names n[0..3] and a few others. */
  const events = (n: readonly string[]): Event[] => [
    { id: "e1", actor: "agent", action: "look", metadata: { [n[0]!]: n[1]!, [n[1]!]: n[0]!, [n[3]!]: "4", [`${n[2]}.0`]: "a" } },
    { id: "e2", actor: "agent", action: "act", metadata: { [n[0]!]: n[1]!, [n[1]!]: n[0]!, [n[2]!]: n[3]! } },
    {
      id: "e3",
      actor: "agent",
      action: "look",
      metadata: { [n[0]!]: n[2]!, [n[1]!]: n[1]!, [n[2]!]: n[3]!, [n[3]!]: "7", [`${n[0]}.0.x`]: "1", [`${n[0]}.1`]: "2" },
    },
    { id: "e4", actor: "agent", action: "act", metadata: { [n[0]!]: n[2]!, [n[1]!]: n[1]!, [n[3]!]: "6" } },
    { id: "e5", actor: "agent", action: "act", metadata: { [n[0]!]: n[1]!, [n[2]!]: n[2]! } },
    { id: "e6", actor: "agent", action: "look", metadata: { [n[3]!]: n[0]!, [n[1]!]: n[3]! } },
    { id: "e7", actor: "agent", action: "act", metadata: { [n[0]!]: n[0]!, [n[1]!]: n[3]!, [n[3]!]: "9" } },
    { id: "e8", actor: "agent", action: "act" },
  ];

  test("the same judge and trajectory with prototype names and with innocent names agree, in judgeTrajectory and the monitor", async () => {
    const proto = await mustBuild(doc(PROTO));
    const innocent = await mustBuild(doc(INNOCENT));
    const protoEvents = events(PROTO);
    const innocentEvents = events(INNOCENT);
    // The trajectories really carry the names as own keys.
    expect(Object.keys((trajectory(protoEvents) as { events: Event[] }).events[0]!.metadata!)).toContain("constructor");
    const refused = await build(judgeDoc([{ type: "forbidden", quote: "q", match: { metadata: JSON.parse('{"__proto__": "x"}') } }]));
    expect(refused.ok).toBe(false);
    for (let length = 1; length <= protoEvents.length; length++) {
      const a = await verdicts(proto, trajectory(protoEvents.slice(0, length)));
      const b = await verdicts(innocent, trajectory(innocentEvents.slice(0, length)));
      expect(a).toEqual(b);
    }
    // A sanity check that the judge is not vacuous: some clauses fail, some hold.
    const all = (await verdicts(innocent, trajectory(innocentEvents))).flat();
    expect(all.some((v) => v.startsWith("false"))).toBe(true);
    expect(all.some((v) => v.startsWith("true"))).toBe(true);

    // The monitor, pushed the same events one by one, reports the same violations.
    const seen = (judge: BuiltJudge, list: Event[]) => {
      const monitor = judge.createMonitor({ id: "t" });
      const out: string[] = [];
      for (const e of (trajectory(list) as { events: Event[] }).events) {
        out.push(JSON.stringify(monitor.push(e)));
      }
      return out;
    };
    expect(seen(proto, protoEvents).map(renameBack)).toEqual(seen(innocent, innocentEvents));
  });

  /** Innocent names in place of prototype names, to compare reports that quote them. */
  function renameBack(s: string): string {
    let out = s;
    PROTO.forEach((p, i) => (out = out.split(p).join(INNOCENT[i]!)));
    return out;
  }

  test("no prototype of the process is changed by judging", async () => {
    const proto = await mustBuild(doc(PROTO));
    await proto.judgeTrajectory(trajectory(events(PROTO)) as never);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(
      [
        "constructor",
        "__defineGetter__",
        "__defineSetter__",
        "hasOwnProperty",
        "__lookupGetter__",
        "__lookupSetter__",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toString",
        "valueOf",
        "__proto__",
        "toLocaleString",
      ].sort(),
    );
    expect(({} as Record<string, unknown>).alpha).toBeUndefined();
    expect(typeof Object.prototype.toString).toBe("function");
  });
});
