/**
 * Issue 21, "Authoring knows the language": serializeJudgeYaml writes every
 * form of the extended rule language (value matchers, `on`, `fresh`,
 * `within`, `per`, `sum`, the condition check's `with`/`when`) so that
 * parse(serialize(ir)) deep-equals ir, in canonical key order whatever the
 * order in memory. `generate --update` and the interview write judge.yaml
 * through it: a form it dropped or reordered would be lost or churn diffs.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { Binding, Check, JudgeIR, Matcher, Pattern, ValueMatcher } from "../../compiler/ir/types.js";

/** A fixed-seed generator: reproducible cases without a dependency. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const pick = <T>(items: readonly T[]): T => items[next(items.length)]!;
  const chance = (p: number) => next(1000) < p * 1000;
  return { next, pick, chance };
}
type Rng = ReturnType<typeof rng>;

const STRINGS = ["refund", "yes", "1.50", "on", "a: b", "# x", "</script>", "\u2028sep", "O-1", "2024-05-14", "ünï"];
const KEYS = ["order_id", "@turn", "amount", "reservation.id", "yes", "k-1"];
const NUMBERS = [0, 500, -12, 3.5, 1e21, 0.1];
const DATES = ["2024-05-14", "2024-05-14T15:00:00Z", "2024-05-14T15:00:00+02:00", "2024-02-29T23:59:59.123Z"];

function valueMatcher(r: Rng, site: "action" | "content" | "metadata", depth = 0): ValueMatcher {
  const forms = ["string", "equals", "in", "not", "matches", "range", "exists"].filter(
    (f) => (f !== "exists" || site === "metadata") && (f !== "not" || depth < 2),
  );
  switch (r.pick(forms)) {
    case "string":
      return r.pick(STRINGS);
    case "equals":
      return { equals: r.pick(STRINGS) };
    case "in":
      return { in: Array.from({ length: 1 + r.next(3) }, () => r.pick(STRINGS)) };
    case "not":
      return { not: valueMatcher(r, site, depth + 1) };
    case "matches":
      return r.chance(0.5) ? { matches: r.pick(["^R\\d+$", "refund|return", "a.b", "\\$\\d"]), flags: "i" } : { matches: "^(yes|y)$" };
    case "range": {
      const dates = r.chance(0.3);
      const bound = () => (dates ? r.pick(DATES) : r.pick(NUMBERS));
      const range: Record<string, number | string> = {};
      const lower = r.pick([undefined, "gt", "gte"]);
      const upper = r.pick(lower === undefined ? ["lt", "lte"] : [undefined, "lt", "lte"]);
      if (lower !== undefined) range[lower] = bound();
      if (upper !== undefined) range[upper] = bound();
      return range;
    }
    default:
      return { exists: r.chance(0.5) };
  }
}

function matcher(r: Rng): Matcher {
  const m: Matcher = {};
  const fields = ["action", "actor", "contentIncludes", "content", "metadata"].filter(() => r.chance(0.45));
  if (fields.length === 0) fields.push("action");
  for (const field of fields) {
    if (field === "action") m.action = valueMatcher(r, "action");
    if (field === "actor") m.actor = r.pick(["user", "agent", "tool"] as const);
    if (field === "contentIncludes") m.contentIncludes = r.pick(STRINGS);
    if (field === "content") m.content = valueMatcher(r, "content");
    if (field === "metadata") {
      const metadata: Record<string, ValueMatcher> = {};
      for (let i = 0; i <= r.next(2); i++) metadata[r.pick(KEYS)] = valueMatcher(r, "metadata");
      m.metadata = metadata;
    }
  }
  return m;
}

function pattern(r: Rng): Pattern {
  return Array.from({ length: 1 + (r.chance(0.3) ? 1 : 0) }, () => matcher(r));
}

const keyRef = (r: Rng) => `metadata.${r.pick(KEYS)}`;

function on<A extends string, B extends string>(r: Rng, a: A, b: B): string | Record<A | B, string> {
  return r.chance(0.5) ? keyRef(r) : ({ [a]: keyRef(r), [b]: keyRef(r) } as Record<A | B, string>);
}

function binding(r: Rng): Binding {
  const withOn = r.chance(0.5);
  if (r.chance(0.5)) return withOn ? { latest: pattern(r), on: on(r, "each", "latest") } : { latest: pattern(r) };
  return withOn ? { first: pattern(r), on: on(r, "each", "first") } : { first: pattern(r) };
}

const WHEN = [
  'r.cabin == "business" || r.insurance == "yes"',
  "r.amount > 500 && !(u.tier in [\"gold\", \"silver\"])",
  'matches(event.content, "^ok", "i") || count(r.flights.*) >= 2',
  'r["reservation id"] != null',
];

function check(r: Rng): Check {
  const quote = r.pick(STRINGS);
  switch (r.pick(["ordering", "pairing", "required", "forbidden", "count", "condition"] as const)) {
    case "ordering": {
      const c: Check = { type: "ordering", quote, first: pattern(r), before: pattern(r) };
      if (r.chance(0.6)) c.on = on(r, "first", "before");
      if (r.chance(0.5)) c.fresh = r.chance(0.8);
      return c;
    }
    case "pairing": {
      const c: Check = { type: "pairing", quote, each: pattern(r), followedBy: pattern(r) };
      if (r.chance(0.6)) c.on = on(r, "each", "followedBy");
      if (r.chance(0.5)) c.within = 1 + r.next(5);
      return c;
    }
    case "required":
    case "forbidden": {
      const type = r.pick(["required", "forbidden"] as const);
      const c: Check = { type, quote, match: pattern(r) };
      if (r.chance(0.7)) {
        c.after = pattern(r);
        if (r.chance(0.6)) c.on = on(r, "after", "match");
      }
      return c;
    }
    case "count": {
      const c: Check = { type: "count", quote, match: pattern(r), max: r.next(4) };
      if (r.chance(0.4)) c.min = 0;
      if (r.chance(0.5)) {
        c.after = pattern(r);
        if (r.chance(0.6)) c.on = on(r, "after", "match");
      }
      if (r.chance(0.3)) c.distinctBy = r.chance(0.5) ? "content" : keyRef(r);
      if (r.chance(0.5)) c.per = keyRef(r);
      if (r.chance(0.4)) c.sum = keyRef(r);
      return c;
    }
    default: {
      const withs: Record<string, Binding> = { r: binding(r), u: binding(r) };
      return { type: "condition", quote, each: pattern(r), with: withs, when: r.pick(WHEN) };
    }
  }
}

function randomJudge(r: Rng): JudgeIR {
  return {
    version: 1,
    behavior: "extended",
    metaBehaviors: Array.from({ length: 1 + r.next(3) }, (_, i) => ({
      name: `rule ${i}`,
      trigger: r.chance(0.2) ? { description: "d", semantic: true as const } : { description: "d", match: pattern(r) },
      checks: Array.from({ length: 1 + r.next(3) }, () => check(r)),
      semanticChecks: [],
    })),
  };
}

function parseOrThrow(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(`${result.diagnostics.map(formatDiagnostic).join("\n")}\n--- text ---\n${text}`);
  return result.ir;
}

/**
 * Reverses the key order of every object, deep: what serializing must not depend on. The
 * order of metadata keys and of `with` names is data (judge.yaml order), kept as it is.
 */
function reversedKeys(value: unknown, keep = false): unknown {
  if (Array.isArray(value)) return value.map((v) => reversedKeys(v));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reversedKeys(v, k === "metadata" || k === "with")] as const);
  return Object.fromEntries(keep ? entries : entries.reverse());
}

describe("issue 21: serializeJudgeYaml round-trips every extended form", () => {
  it("parse(serialize(ir)) deep-equals ir for 800 random judges using every form", () => {
    const r = rng(20261202);
    const mismatches: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 800; i++) {
      const ir = randomJudge(r);
      for (const rule of ir.metaBehaviors) for (const c of rule.checks) for (const k of Object.keys(c)) seen.add(`${c.type}.${k}`);
      const text = serializeJudgeYaml(ir);
      const back = parseJudgeYaml(text);
      if (!back.ok) mismatches.push(`${back.diagnostics.map(formatDiagnostic).join("\n")}\n${text}`);
      else if (!isDeepStrictEqual(back.ir, ir)) mismatches.push(JSON.stringify({ ir, back: back.ir }));
      // Canonical: the same IR with every key order reversed serializes to the same text.
      else if (serializeJudgeYaml(reversedKeys(ir) as JudgeIR) !== text) mismatches.push(`key order leaks into:\n${text}`);
    }
    expect(mismatches.slice(0, 1)).toEqual([]);
    // The generator reached every field of every check.
    for (const field of ["ordering.on", "ordering.fresh", "pairing.on", "pairing.within", "count.per", "count.sum", "count.on", "condition.with", "condition.when", "required.on", "forbidden.on"])
      expect(seen).toContain(field);
  });

  it("writes on objects, bindings and operators in canonical order, whatever the order in memory", () => {
    const ir = {
      version: 1,
      behavior: "b",
      metaBehaviors: [
        {
          name: "rule",
          trigger: { description: "d", match: [{ action: "a" }] },
          checks: [
            {
              on: { before: "metadata.b", first: "metadata.a" },
              fresh: true,
              before: [{ metadata: { amount: { lte: 900, gt: 500 } }, action: { in: ["refund"] } }],
              first: [{ content: { flags: "i", matches: "^yes$" } }],
              quote: "q",
              type: "ordering",
            },
            {
              when: "r.x == 1",
              with: {
                r: { on: { latest: "metadata.id", each: "metadata.rid" }, latest: [{ action: "look" }] },
                f: { on: "metadata.id", first: [{ metadata: { k: { not: { exists: true } } } }] },
              },
              each: [{ action: "cancel" }],
              quote: "q2",
              type: "condition",
            },
            {
              sum: "metadata.amount",
              per: "metadata.@turn",
              max: 1,
              on: { match: "metadata.m", after: "metadata.a" },
              after: [{ action: "open" }],
              match: [{ actor: "agent" }],
              quote: "q3",
              type: "count",
            },
            { within: 2, on: "metadata.id", followedBy: [{ action: "f" }], each: [{ action: "e" }], quote: "q4", type: "pairing" },
          ],
          semanticChecks: [],
        },
      ],
    } as unknown as JudgeIR;
    const text = serializeJudgeYaml(ir);
    expect(text).toBe(`version: 1
behavior: b
metaBehaviors:
  - name: rule
    trigger:
      description: d
      match:
        action: a
    checks:
      - type: ordering
        quote: q
        first:
          content:
            matches: ^yes$
            flags: i
        before:
          action:
            in:
              - refund
          metadata:
            amount:
              gt: 500
              lte: 900
        "on":
          first: metadata.a
          before: metadata.b
        fresh: true
      - type: condition
        quote: q2
        each:
          action: cancel
        with:
          r:
            latest:
              action: look
            "on":
              each: metadata.rid
              latest: metadata.id
          f:
            first:
              metadata:
                k:
                  not:
                    exists: true
            "on": metadata.id
        when: r.x == 1
      - type: count
        quote: q3
        match:
          actor: agent
        after:
          action: open
        "on":
          after: metadata.a
          match: metadata.m
        max: 1
        per: metadata.@turn
        sum: metadata.amount
      - type: pairing
        quote: q4
        each:
          action: e
        followedBy:
          action: f
        "on": metadata.id
        within: 2
    semanticChecks: []
`);
    expect(parseOrThrow(text)).toStrictEqual(reversedKeys(reversedKeys(ir)));
  });
});
