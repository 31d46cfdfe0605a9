/**
 * Seeded random judges in the extended rule language (LANGUAGE.md,
 * semantics.md) and trajectories that exercise them: every value matcher
 * (equals, in, not, matches with and without "i", ranges over numbers and
 * dates, exists), content matchers, ordering with on/fresh, pairing with
 * on/within, required/forbidden/count with after+on, count per/sum/distinctBy,
 * and condition checks with latest/first bindings, on and random `when`
 * expressions. The vocabulary is tiny so keys repeat, go missing and collide
 * across events, and numbers and dates sit on the bounds.
 */
import { parseWhen } from "../../compiler/ir/when.js";
import type {
  Binding,
  Check,
  ConditionCheck,
  CountCheck,
  ForbiddenCheck,
  JudgeIR,
  Matcher,
  MetaBehavior,
  Pattern,
  RequiredCheck,
  ValueMatcher,
} from "../../compiler/ir/types.js";
import type { Actor, Trajectory, TrajectoryEvent } from "../../runtime/types.js";
import { mulberry32, type Rng } from "./random.js";

export { mulberry32, type Rng };

// ---------------------------------------------------------------- vocabulary

const ACTORS: readonly Actor[] = ["user", "agent", "tool"];
const ACTIONS = ["lookup", "lookup_result", "write", "refund", "confirm", "say"] as const;
const RARE_ACTION = "deploy";

/** Content that the regexes below hit and miss, case and Unicode folding included. */
const CONTENTS = [
  "",
  "yes",
  "YES",
  "y",
  "no",
  "Yes please",
  "refund 500",
  "error: failed",
  "ſ",
  "K",
  "日本語 ✓",
  "a\nb",
  "abcabc",
  "500",
] as const;

/** Correlation keys: `id` and `ref` share values so two-sided `on` collides across events. */
const KEY_VALUES = ["A", "B", "C"] as const;
const AMOUNTS = [
  "499",
  "500",
  "500.0",
  "5e2",
  "-0",
  "abc",
  "501",
  "0",
  "1e999",
  ".5",
  "1.",
  "+3",
  "0x10",
  " 500",
  "",
  "Infinity",
  "250",
  "1000",
] as const;
const NEGATIVE_AMOUNTS = ["-12", "-500"] as const;
const DATES = [
  "2024-05-14",
  "2024-05-14T15:00",
  "2024-05-14T15:00:00Z",
  "2024-05-14T17:00:00+02:00",
  "2024-05-14T17:00:00+0200",
  "2024-05-14T14:59:59.999",
  "2024-05-14T15:00:00.0001Z",
  "2024-05-14T14:00:00-01:00",
  "2024-05-13T23:59:59.9999-15:00",
  "2024-02-29",
  "2023-02-29",
  "2024-02-30",
  "2024-05-14T25:00",
  "2024-05-14t15:00",
  "2024-05-14 15:00",
  "2024-05-15",
  "1969-12-31T23:59:59Z",
] as const;
const FLAGS = ["yes", "no", "true", "Yes"] as const;
const TURNS = ["1", "2", "3"] as const;

/** Flattened list keys for `count(r.f.*)`: distinct indexes, a non-index, a bare prefix and a look-alike prefix. */
const LIST_KEYS = ["f.0.x", "f.0.y", "f.1.x", "f.2", "f.x", "f", "fx.3", "f.01"] as const;

/** The number bounds of ranges and the date bounds, chosen on the values' edges. */
const NUMBER_BOUNDS = [499, 500, 500.5, 0, -1, 1000] as const;
const DATE_BOUNDS = ["2024-05-14", "2024-05-14T15:00:00", "2024-05-14T15:00:00+02:00", "2024-05-14T14:59:59.999Z"] as const;

const REGEXES = [
  "^yes$",
  "^(yes|y)$",
  "es",
  "^$",
  "[0-9]+",
  "^\\d{3}$",
  "5\\d*",
  "a.c",
  "(ab)+",
  "^a|c$",
  "\\w+",
  "\\s",
  "e.*d",
  "[^a-z]",
  "x?y",
  "^.$",
  "ſ",
  "k",
  "s",
  "^[A-C]$",
  "b$",
  "^.{3}$",
  "\\.",
  "(?:no|NO)\\b",
] as const;

// ---------------------------------------------------------------- primitives

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

function pickSome<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(int(rng, 0, items.length - 1));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

// ---------------------------------------------------------------- value matchers

type Domain = "action" | "content" | MetadataKey;
type MetadataKey = "id" | "ref" | "amount" | "at" | "flag" | "turn";
const METADATA_KEYS: readonly MetadataKey[] = ["id", "ref", "amount", "at", "flag", "turn"];

function valuesOf(domain: Domain): readonly string[] {
  switch (domain) {
    case "action":
      return [...ACTIONS, RARE_ACTION];
    case "content":
      return CONTENTS.filter((c) => c !== "");
    case "id":
    case "ref":
      return KEY_VALUES;
    case "amount":
      return AMOUNTS.filter((a) => a !== "");
    case "at":
      return DATES;
    case "flag":
      return FLAGS;
    case "turn":
      return TURNS;
  }
}

function rangeOf(rng: Rng, bounds: readonly (number | string)[]): ValueMatcher {
  const lower = pick(rng, ["gt", "gte"] as const);
  const upper = pick(rng, ["lt", "lte"] as const);
  switch (int(rng, 0, 2)) {
    case 0:
      return { [lower]: pick(rng, bounds) };
    case 1:
      return { [upper]: pick(rng, bounds) };
    default: {
      const [a, b] = [pick(rng, bounds), pick(rng, bounds)];
      const numeric = typeof a === "number";
      const lo = numeric ? Math.min(a as number, b as number) : a;
      const hi = numeric ? Math.max(a as number, b as number) : b;
      return { [lower]: lo, [upper]: hi };
    }
  }
}

function randomValueMatcher(rng: Rng, domain: Domain, depth = 0): ValueMatcher {
  const values = valuesOf(domain);
  const metadata = domain !== "action" && domain !== "content";
  const roll = int(rng, 0, metadata ? 10 : 9);
  switch (roll) {
    case 0:
    case 1:
      return pick(rng, values);
    case 2:
      return { equals: pick(rng, values) };
    case 3:
      return { in: pickSome(rng, values, int(rng, 1, 3)) };
    case 4:
      return depth < 2 ? { not: randomValueMatcher(rng, domain, depth + 1) } : pick(rng, values);
    case 5:
    case 6:
      return chance(rng, 0.4) ? { matches: pick(rng, REGEXES), flags: "i" } : { matches: pick(rng, REGEXES) };
    case 7:
    case 8:
      return rangeOf(rng, domain === "at" || (domain !== "amount" && chance(rng, 0.3)) ? DATE_BOUNDS : NUMBER_BOUNDS);
    case 9:
      return rangeOf(rng, chance(rng, 0.5) ? DATE_BOUNDS : NUMBER_BOUNDS);
    default:
      return { exists: chance(rng, 0.5) };
  }
}

/** Action matchers that hold of several actions, so patterns written with operators still match often. */
const BROAD_ACTIONS: readonly ValueMatcher[] = [
  { in: ["lookup", "lookup_result", "write"] },
  { not: "say" },
  { matches: "^l" },
  { matches: "RE", flags: "i" },
  { not: { in: ["confirm", "deploy"] } },
];

/**
 * Mostly an action and at most one more field, so a pattern matches a good
 * share of the events; operators appear in every field, on narrow and broad
 * value sets alike.
 */
function randomMatcher(rng: Rng): Matcher {
  const matcher: Matcher = {};
  const roll = rng();
  if (roll < 0.55) matcher.action = pick(rng, ACTIONS);
  else if (roll < 0.7) matcher.action = chance(rng, 0.6) ? pick(rng, BROAD_ACTIONS) : randomValueMatcher(rng, "action");
  else if (roll < 0.75) matcher.action = RARE_ACTION;
  const extra = rng();
  if (extra < 0.12) matcher.actor = pick(rng, ACTORS);
  else if (extra < 0.2) matcher.contentIncludes = pick(rng, ["es", "500", "ſ", "no"]);
  else if (extra < 0.35) matcher.content = randomValueMatcher(rng, "content");
  else if (extra < 0.6 || Object.keys(matcher).length === 0) {
    const metadata: Record<string, ValueMatcher> = {};
    for (const key of pickSome(rng, METADATA_KEYS, chance(rng, 0.8) ? 1 : 2)) metadata[key] = randomValueMatcher(rng, key);
    matcher.metadata = metadata;
  }
  return matcher;
}

function randomPattern(rng: Rng): Pattern {
  return Array.from({ length: pick(rng, [1, 1, 1, 2]) }, () => randomMatcher(rng));
}

// ---------------------------------------------------------------- checks

const CORRELATION_KEYS = ["metadata.id", "metadata.ref"] as const;

/** `on` in its one-key or two-sided form. */
function randomOn<S extends string>(rng: Rng, sides: [S, S]): string | Record<S, string> {
  if (chance(rng, 0.6)) return chance(rng, 0.85) ? "metadata.id" : "metadata.ref";
  return { [sides[0]]: pick(rng, CORRELATION_KEYS), [sides[1]]: pick(rng, CORRELATION_KEYS) } as Record<S, string>;
}

function countBounds(rng: Rng, sum: boolean): Pick<CountCheck, "min" | "max"> {
  const scale = sum ? pick(rng, [1, 250, 500]) : 1;
  const low = int(rng, 0, 3) * scale;
  const high = low + int(rng, 0, 2) * scale;
  switch (int(rng, 0, 2)) {
    case 0:
      return { min: low };
    case 1:
      return { max: low };
    default:
      return { min: low, max: high };
  }
}

function randomCount(rng: Rng, quote: string): CountCheck {
  const sum = chance(rng, 0.35);
  const check: CountCheck = { type: "count", quote, match: randomPattern(rng), ...countBounds(rng, sum) };
  if (chance(rng, 0.5)) {
    check.after = randomPattern(rng);
    if (chance(rng, 0.7)) check.on = randomOn(rng, ["after", "match"]) as CountCheck["on"];
  }
  if (chance(rng, 0.5)) check.per = pick(rng, ["metadata.turn", "metadata.turn", "metadata.id", "metadata.flag"]);
  // "At most one per turn": two groups above max, the later one first, is where the cited group matters.
  if (check.per !== undefined && !sum && chance(rng, 0.3)) {
    delete check.min;
    check.max = 1;
  }
  if (sum) check.sum = "metadata.amount";
  if (chance(rng, 0.25)) check.distinctBy = pick(rng, ["content", "metadata.flag", "metadata.ref"]);
  return check;
}

// ---------------------------------------------------------------- when expressions

const REFERENCES = [
  "r.amount",
  "r.at",
  "r.id",
  "r.flag",
  "r.content",
  "r.action",
  "r.actor",
  'r["f.0.x"]',
  "r.f.0.x",
  "r.missing",
  "u.amount",
  "u.flag",
  "u.at",
  "event.amount",
  "event.id",
  "event.at",
  "event.content",
] as const;
const LITERALS = [
  '"500"',
  "500",
  "499.5",
  "5e2",
  '"2024-05-14T15:00:00"',
  '"2024-05-14"',
  '"yes"',
  '"A"',
  "null",
  "0",
  "-1",
  '"agent"',
] as const;

function whenValue(rng: Rng, names: readonly string[], depth: number): string {
  const refs = REFERENCES.filter((r) => names.includes(r.split(/[.[]/)[0]!));
  const roll = int(rng, 0, 9);
  if (depth > 2 || roll < 4) return pick(rng, refs);
  if (roll < 7) return pick(rng, LITERALS);
  if (roll === 7) return `count(${pick(rng, names)}.f.*)`;
  if (roll === 8) return `-${pick(rng, refs)}`;
  return `(${whenValue(rng, names, depth + 1)} ${pick(rng, ["+", "-", "*", "/"])} ${whenValue(rng, names, depth + 1)})`;
}

function whenCondition(rng: Rng, names: readonly string[], depth: number): string {
  const roll = int(rng, 0, 11);
  if (depth < 3 && roll === 0) return `${whenCondition(rng, names, depth + 1)} && ${whenCondition(rng, names, depth + 1)}`;
  if (depth < 3 && roll === 1) return `${whenCondition(rng, names, depth + 1)} || ${whenCondition(rng, names, depth + 1)}`;
  if (depth < 3 && (roll === 2 || roll === 8)) return `!(${whenCondition(rng, names, depth + 1)})`;
  if (depth < 3 && roll === 3) return `(${whenCondition(rng, names, depth + 1)})`;
  if (roll === 4) {
    const refs = REFERENCES.filter((r) => names.includes(r.split(/[.[]/)[0]!));
    const flags = chance(rng, 0.4) ? ', "i"' : "";
    return `matches(${pick(rng, refs)}, ${JSON.stringify(pick(rng, REGEXES))}${flags})`;
  }
  if (roll === 5) return `${whenValue(rng, names, depth)} in [${pickSome(rng, LITERALS, int(rng, 1, 3)).join(", ")}]`;
  if (roll === 6) return pick(rng, ["true", "false"]);
  const op = pick(rng, ["==", "!=", "<", "<=", ">", ">="]);
  return `${whenValue(rng, names, depth)} ${op} ${whenValue(rng, names, depth)}`;
}

/** A `when` the shared parser accepts (the few that break a static rule are drawn again). */
function randomWhen(rng: Rng, names: readonly string[], tally: { rejected: number }): string {
  for (;;) {
    const one = () => whenCondition(rng, [...names, "event"], 0);
    const text = chance(rng, 0.3) ? `${one()} || ${one()}` : one();
    if (parseWhen(text, names).ok) return text;
    tally.rejected++;
  }
}

/** A pattern most events match, so names usually find an event and a condition can hold. */
function broadPattern(rng: Rng): Pattern {
  return chance(rng, 0.5) ? [{ actor: pick(rng, ACTORS) }] : [{ action: pick(rng, BROAD_ACTIONS) }];
}

/** A pattern few events match (an action and an actor), so "every each event passes" can hold. */
function narrowPattern(rng: Rng): Pattern {
  return [{ action: pick(rng, ACTIONS), actor: pick(rng, ACTORS) }];
}

/** The side every event of the other side needs: often broad. */
function needed(rng: Rng): Pattern {
  return chance(rng, 0.4) ? broadPattern(rng) : randomPattern(rng);
}

/** The side that needs the other: often narrow. */
function needing(rng: Rng): Pattern {
  return chance(rng, 0.4) ? narrowPattern(rng) : randomPattern(rng);
}

function randomBinding(rng: Rng): Binding {
  const pattern = chance(rng, 0.5) ? broadPattern(rng) : randomPattern(rng);
  const binding: Binding = chance(rng, 0.7) ? { latest: pattern } : { first: pattern };
  if (chance(rng, 0.6)) {
    const side = binding.latest !== undefined ? "latest" : "first";
    binding.on = randomOn(rng, ["each", side]) as never;
  }
  return binding;
}

function randomCondition(rng: Rng, quote: string, tally: { rejected: number }): ConditionCheck {
  const names = pickSome(rng, ["r", "u"], int(rng, 0, 2));
  const bindings: Record<string, Binding> = {};
  for (const name of names) bindings[name] = randomBinding(rng);
  // Some conditions hold whenever their names bind, so the binding rules alone decide.
  const when = chance(rng, 0.25) ? pick(rng, ["true", "!(false)", "event.action == event.action"]) : randomWhen(rng, names, tally);
  const check: ConditionCheck = { type: "condition", quote, each: needing(rng), when };
  if (names.length > 0) check.with = bindings;
  return check;
}

/** Which extended form a check exercises, for the coverage figures. */
export function formsOf(check: Check): string[] {
  const forms: string[] = [];
  const c = check as unknown as Record<string, unknown>;
  if (c.on !== undefined) forms.push(`${check.type}+on${typeof c.on === "string" ? "" : "(two-sided)"}`);
  if (c.fresh === true) forms.push(`${check.type}+fresh`);
  if (c.within !== undefined) forms.push(`${check.type}+within`);
  if (c.per !== undefined) forms.push("count+per");
  if (c.sum !== undefined) forms.push("count+sum");
  if (c.distinctBy !== undefined) forms.push("count+distinctBy");
  if (check.type === "condition") {
    forms.push("condition");
    for (const b of Object.values(check.with ?? {}))
      forms.push(b.first !== undefined ? "condition+first" : "condition+latest", ...(b.on !== undefined ? ["condition+on"] : []));
  }
  return forms;
}

function randomCheck(rng: Rng, index: number, tally: { rejected: number }): Check {
  const quote = `check ${index}`;
  switch (int(rng, 0, 5)) {
    case 0: {
      const check: Check = { type: "ordering", quote, first: needed(rng), before: needing(rng) };
      const roll = int(rng, 0, 3);
      if (roll !== 1) check.on = randomOn(rng, ["first", "before"]) as never;
      if (roll >= 1) check.fresh = roll === 3 ? false : true;
      return check;
    }
    case 1: {
      const check: Check = { type: "pairing", quote, each: needing(rng), followedBy: needed(rng) };
      const roll = int(rng, 0, 2);
      if (roll !== 1) check.on = randomOn(rng, ["each", "followedBy"]) as never;
      if (roll >= 1) check.within = int(rng, 1, 4);
      return check;
    }
    case 2:
    case 3: {
      const type = index % 2 === 0 ? "required" : "forbidden";
      const check: RequiredCheck | ForbiddenCheck = { type, quote, match: randomPattern(rng), after: randomPattern(rng) };
      if (chance(rng, 0.85)) check.on = randomOn(rng, ["after", "match"]) as never;
      return check;
    }
    case 4:
      return randomCount(rng, quote);
    default:
      return randomCondition(rng, quote, tally);
  }
}

function randomMeta(rng: Rng, index: number, tally: { rejected: number }): MetaBehavior {
  const count = int(rng, 1, 3);
  return {
    name: `Rule ${index}`,
    trigger: {
      description: "when it applies",
      match: chance(rng, 0.5) ? [{ actor: "agent" }, { actor: "user" }, { actor: "tool" }] : randomPattern(rng),
    },
    checks: Array.from({ length: count }, (_, i) => randomCheck(rng, i, tally)),
    semanticChecks: [],
  };
}

export interface ExtendedTally {
  /** `when` texts the parser refused, drawn again. */
  rejected: number;
}

/** One random judge in the extended language. */
export function randomExtendedIr(rng: Rng, tally: ExtendedTally = { rejected: 0 }): JudgeIR {
  return {
    version: 1,
    behavior: "random-extended",
    metaBehaviors: Array.from({ length: int(rng, 1, 3) }, (_, i) => randomMeta(rng, i, tally)),
  };
}

// ---------------------------------------------------------------- trajectories

function randomMetadata(rng: Rng, negativeAmounts: boolean): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (chance(rng, 0.6)) metadata.id = pick(rng, KEY_VALUES);
  if (chance(rng, 0.5)) metadata.ref = pick(rng, KEY_VALUES);
  if (chance(rng, 0.5)) {
    if (negativeAmounts && chance(rng, 0.1)) metadata.amount = pick(rng, NEGATIVE_AMOUNTS);
    else metadata.amount = chance(rng, 0.05) ? 500 : pick(rng, AMOUNTS);
  }
  if (chance(rng, 0.4)) metadata.at = pick(rng, DATES);
  if (chance(rng, 0.3)) metadata.flag = chance(rng, 0.1) ? true : pick(rng, FLAGS);
  if (chance(rng, 0.4)) metadata.turn = pick(rng, TURNS);
  // An own key named like an Object.prototype member.
  if (chance(rng, 0.03)) metadata["constructor"] = "A";
  for (const key of LIST_KEYS) if (chance(rng, 0.12)) metadata[key] = "v";
  return metadata;
}

function randomEvent(rng: Rng, index: number, negativeAmounts: boolean): TrajectoryEvent {
  const event: Record<string, unknown> = {
    id: `e${index}`,
    actor: pick(rng, ACTORS),
    action: chance(rng, 0.05) ? RARE_ACTION : pick(rng, ACTIONS),
  };
  if (!chance(rng, 0.15)) event.content = pick(rng, CONTENTS);
  if (!chance(rng, 0.1)) event.metadata = randomMetadata(rng, negativeAmounts);
  return event as unknown as TrajectoryEvent;
}

/**
 * A random trajectory; `negativeAmounts` lets a few amounts be negative
 * (a sum can then come back under max, so the monitor is not certain there).
 */
export function randomExtendedTrajectory(rng: Rng, id: string, negativeAmounts = true): Trajectory {
  // Short ones too: "every each event passes" is true more often in a few events.
  const length = chance(rng, 0.05) ? 0 : chance(rng, 0.4) ? int(rng, 1, 6) : int(rng, 1, 24);
  return {
    id,
    description: "",
    complete: chance(rng, 0.5),
    events: Array.from({ length }, (_, i) => randomEvent(rng, i, negativeAmounts)),
  };
}
