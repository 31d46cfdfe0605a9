/**
 * Random judges that use every form of the extended rule language (issue 21):
 * value matchers on action, content and metadata, `on` in both forms,
 * `fresh`, `within`, `per`, `sum`, and condition checks with `with`/`when`.
 * Each is valid judge.yaml in parsed form (patterns as lists, absent fields
 * absent), so parse(serialize(ir)) must give it back.
 */
import type { Binding, Check, ForbiddenCheck, JudgeIR, Matcher, Pattern, RequiredCheck, ValueMatcher } from "../../compiler/ir/types.js";

/** A fixed-seed generator: reproducible cases without a dependency. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const pick = <T>(items: readonly T[]): T => items[next(items.length)]!;
  const chance = (p: number) => next(1000) < p * 1000;
  return { next, pick, chance };
}
export type Rng = ReturnType<typeof rng>;

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

export function randomPattern(r: Rng): Pattern {
  return Array.from({ length: 1 + (r.chance(0.3) ? 1 : 0) }, () => matcher(r));
}

const keyRef = (r: Rng) => `metadata.${r.pick(KEYS)}`;

function on<A extends string, B extends string>(r: Rng, a: A, b: B): string | Record<A | B, string> {
  return r.chance(0.5) ? keyRef(r) : ({ [a]: keyRef(r), [b]: keyRef(r) } as Record<A | B, string>);
}

function binding(r: Rng): Binding {
  const withOn = r.chance(0.5);
  if (r.chance(0.5)) return withOn ? { latest: randomPattern(r), on: on(r, "each", "latest") } : { latest: randomPattern(r) };
  return withOn ? { first: randomPattern(r), on: on(r, "each", "first") } : { first: randomPattern(r) };
}

const WHEN = [
  'r.cabin == "business" || r.insurance == "yes"',
  'r.amount > 500 && !(u.tier in ["gold", "silver"])',
  'matches(event.content, "^ok", "i") || count(r.flights.*) >= 2',
  'r["reservation id"] != null',
];

export function randomCheck(r: Rng): Check {
  const quote = r.pick(STRINGS);
  switch (r.pick(["ordering", "pairing", "required", "forbidden", "count", "condition"] as const)) {
    case "ordering": {
      const c: Check = { type: "ordering", quote, first: randomPattern(r), before: randomPattern(r) };
      if (r.chance(0.6)) c.on = on(r, "first", "before");
      if (r.chance(0.5)) c.fresh = r.chance(0.8);
      return c;
    }
    case "pairing": {
      const c: Check = { type: "pairing", quote, each: randomPattern(r), followedBy: randomPattern(r) };
      if (r.chance(0.6)) c.on = on(r, "each", "followedBy");
      if (r.chance(0.5)) c.within = 1 + r.next(5);
      return c;
    }
    case "required":
    case "forbidden": {
      const type = r.pick(["required", "forbidden"] as const);
      const c: RequiredCheck | ForbiddenCheck = { type, quote, match: randomPattern(r) };
      if (r.chance(0.7)) {
        c.after = randomPattern(r);
        if (r.chance(0.6)) c.on = on(r, "after", "match");
      }
      return c;
    }
    case "count": {
      const c: Check = { type: "count", quote, match: randomPattern(r), max: r.next(4) };
      if (r.chance(0.4)) c.min = 0;
      if (r.chance(0.5)) {
        c.after = randomPattern(r);
        if (r.chance(0.6)) c.on = on(r, "after", "match");
      }
      if (r.chance(0.3)) c.distinctBy = r.chance(0.5) ? "content" : keyRef(r);
      if (r.chance(0.5)) c.per = keyRef(r);
      if (r.chance(0.4)) c.sum = keyRef(r);
      return c;
    }
    default: {
      const withs: Record<string, Binding> = { r: binding(r), u: binding(r) };
      return { type: "condition", quote, each: randomPattern(r), with: withs, when: r.pick(WHEN) };
    }
  }
}

export function randomExtendedJudge(r: Rng): JudgeIR {
  return {
    version: 1,
    behavior: "extended",
    metaBehaviors: Array.from({ length: 1 + r.next(3) }, (_, i) => ({
      name: `rule ${i}`,
      trigger: r.chance(0.2) ? { description: "d", semantic: true as const } : { description: "d", match: randomPattern(r) },
      checks: Array.from({ length: 1 + r.next(3) }, () => randomCheck(r)),
      semanticChecks: [],
    })),
  };
}
