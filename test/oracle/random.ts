/**
 * Seeded random judge.yaml IR and trajectories for differential tests. The
 * vocabulary is deliberately tiny so that patterns, `after` windows, pairings
 * and distinct values collide often; the interesting verdict boundaries
 * (windows that never open, counts next to min/max, incomplete traces) are
 * reached without luck.
 */
import type { Actor, Trajectory, TrajectoryEvent } from "../../runtime/types.js";
import type { Check, CountCheck, JudgeIR, Matcher, MetaBehavior, Pattern, SemanticCheck, Trigger } from "../../compiler/ir/types.js";

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

export interface RandomCase {
  ir: JudgeIR;
  trajectory: Trajectory;
}

/** mulberry32: tiny, fast and fully determined by its 32-bit seed. */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- vocabulary

const ACTORS: readonly Actor[] = ["user", "agent", "tool"];

/** The last action is rare in events, so `after` windows on it often never open. */
const COMMON_ACTIONS = ["read_file", "run_tests", 'say "hi" \\ ${x}'] as const;
const RARE_ACTION = "deploy";

const CONTENTS = ["", "ok", "ok ok", "OK done", "error: failed", 'quote " and \\ and ${x}', "日本語 ✓"] as const;

/** Substrings of CONTENTS (and one that never occurs), case-sensitive on purpose. */
const CONTENT_FRAGMENTS = ["ok", "OK", "error", "fail", '"', "${", "✓", "d", "absent"] as const;

/** `constructor` checks that metadata keys are own keys, not inherited ones. */
const METADATA_KEYS = ["status", "stage", "host", "constructor"] as const;
const METADATA_VALUES = ["passed", "failed", "canary", "web-1", "1", "true"] as const;
/** Non-string metadata values a producer may send; compared as String(v): "1", "true", "null". */
const RAW_METADATA_VALUES = [1, true, null] as const;

/** Text that must survive quoting into generated code byte for byte. */
const ODD_TEXTS = [
  'She said "stop"',
  "back\\slash \\n not a newline",
  "template ${process.exit(1)}",
  "two\nlines",
  "line\u2028separator\u2029paragraph",
  "comment */ end",
  "</script><script>alert(1)</script>",
  "it's `ticked`",
  "ünïcödé 🚀 ✓",
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

/** A distinct subset of `items`, in their original order, of size `count`. */
function pickSome<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(int(rng, 0, items.length - 1));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

/** Mostly plain text, sometimes text that stresses quoting. */
function text(rng: Rng, plain: string): string {
  return chance(rng, 0.2) ? `${plain} ${pick(rng, ODD_TEXTS)}` : plain;
}

// ---------------------------------------------------------------- IR

function randomMatcher(rng: Rng): Matcher {
  const matcher: Matcher = {};
  // Keep looping until at least one field is set: an empty matcher is invalid.
  while (Object.keys(matcher).length === 0) {
    if (chance(rng, 0.6)) {
      matcher.action = chance(rng, 0.15) ? RARE_ACTION : pick(rng, COMMON_ACTIONS);
    }
    if (chance(rng, 0.3)) matcher.actor = pick(rng, ACTORS);
    if (chance(rng, 0.2)) matcher.contentIncludes = pick(rng, CONTENT_FRAGMENTS);
    if (chance(rng, 0.2)) {
      const metadata: Record<string, string> = {};
      for (const key of pickSome(rng, METADATA_KEYS, int(rng, 1, 2))) {
        metadata[key] = pick(rng, METADATA_VALUES);
      }
      matcher.metadata = metadata;
    }
  }
  return matcher;
}

/** The items in a random order (Fisher-Yates). */
function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(rng, 0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Patterns whose matchers imply one another, which once made the generated code
 * fail to type-check (issue 8): an actor repeated after a matcher naming only that
 * actor (`[{actor: agent}, {actor: agent, action: b}]`), and all three actors next
 * to an action (`[{actor: agent}, {actor: user}, {actor: tool}, {action: z}]`).
 */
function redundantPattern(rng: Rng): Pattern {
  if (chance(rng, 0.5)) {
    const actor = pick(rng, ACTORS);
    const between = chance(rng, 0.3) ? [randomMatcher(rng)] : [];
    return [{ actor }, ...between, { ...randomMatcher(rng), actor }];
  }
  const action: Matcher = { action: pick(rng, COMMON_ACTIONS) };
  if (chance(rng, 0.5)) action.actor = pick(rng, ACTORS);
  return shuffled(rng, [...ACTORS.map((actor): Matcher => ({ actor })), action]);
}

function randomPattern(rng: Rng): Pattern {
  if (chance(rng, 0.06)) return redundantPattern(rng);
  const size = pick(rng, [1, 1, 1, 2, 2, 3]);
  return Array.from({ length: size }, () => randomMatcher(rng));
}

function maybeAfter(rng: Rng): { after?: Pattern } {
  return chance(rng, 0.35) ? { after: randomPattern(rng) } : {};
}

function randomDistinctBy(rng: Rng): string {
  return chance(rng, 0.4) ? "content" : `metadata.${pick(rng, METADATA_KEYS)}`;
}

/** Bounds near the small counts the vocabulary produces, so both sides of each are hit. */
function countBounds(rng: Rng): Pick<CountCheck, "min" | "max"> {
  const low = int(rng, 0, 4);
  const high = low + int(rng, 0, 4);
  switch (int(rng, 0, 2)) {
    case 0:
      return { min: low };
    case 1:
      return { max: low };
    default:
      return { min: low, max: high };
  }
}

function randomCheck(rng: Rng, index: number): Check {
  const quote = text(rng, `check ${index}`);
  switch (int(rng, 0, 4)) {
    case 0:
      return { type: "ordering", quote, first: randomPattern(rng), before: randomPattern(rng) };
    case 1:
      return { type: "pairing", quote, each: randomPattern(rng), followedBy: randomPattern(rng) };
    case 2:
      return { type: "required", quote, match: randomPattern(rng), ...maybeAfter(rng) };
    case 3:
      return { type: "forbidden", quote, match: randomPattern(rng), ...maybeAfter(rng) };
    default: {
      const check: CountCheck = {
        type: "count",
        quote,
        match: randomPattern(rng),
        ...countBounds(rng),
        ...maybeAfter(rng),
      };
      if (chance(rng, 0.4)) check.distinctBy = randomDistinctBy(rng);
      return check;
    }
  }
}

function randomSemanticCheck(rng: Rng, index: number): SemanticCheck {
  return {
    quote: text(rng, `semantic clause ${index}`),
    question: text(rng, `Did the agent satisfy clause ${index}?`),
  };
}

function randomTrigger(rng: Rng): Trigger {
  const description = text(rng, "when the rule applies");
  return chance(rng, 0.2) ? { description, semantic: true } : { description, match: randomPattern(rng) };
}

function randomMeta(rng: Rng, index: number): MetaBehavior {
  let checkCount = int(rng, 0, 4);
  const semanticCount = int(rng, 0, 2);
  // A meta-behavior needs at least one check of either kind.
  if (checkCount + semanticCount === 0) checkCount = 1;
  return {
    // The index prefix keeps names unique even when the odd suffix repeats.
    name: text(rng, `Rule ${index}`),
    trigger: randomTrigger(rng),
    checks: Array.from({ length: checkCount }, (_, i) => randomCheck(rng, i)),
    semanticChecks: Array.from({ length: semanticCount }, (_, i) => randomSemanticCheck(rng, i)),
  };
}

function randomIr(rng: Rng): JudgeIR {
  const metaCount = int(rng, 1, 4);
  return {
    version: 1,
    behavior: text(rng, "random-behavior"),
    metaBehaviors: Array.from({ length: metaCount }, (_, i) => randomMeta(rng, i)),
  };
}

// ---------------------------------------------------------------- trajectories

function randomMetadata(rng: Rng): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const key of METADATA_KEYS) {
    // `constructor` is rare so most of its lookups are of a missing own key.
    const p = key === "constructor" ? 0.1 : 0.4;
    if (chance(rng, p)) metadata[key] = chance(rng, 0.1) ? pick(rng, RAW_METADATA_VALUES) : pick(rng, METADATA_VALUES);
  }
  return metadata;
}

/**
 * An event as producers write it (docs/FORMATS.md §2): content and metadata are
 * sometimes absent, content sometimes not a string, metadata values
 * sometimes numbers or booleans. Judges must normalize them the same way.
 */
function randomEvent(rng: Rng, index: number): TrajectoryEvent {
  const event: Record<string, unknown> = {
    id: chance(rng, 0.1) ? `ev-${index} ${pick(rng, ODD_TEXTS)}` : `e${index}`,
    actor: pick(rng, ACTORS),
    action: chance(rng, 0.05) ? RARE_ACTION : pick(rng, COMMON_ACTIONS),
  };
  if (!chance(rng, 0.1)) event.content = chance(rng, 0.03) ? 42 : pick(rng, CONTENTS);
  if (!chance(rng, 0.15)) event.metadata = randomMetadata(rng);
  return event as unknown as TrajectoryEvent;
}

function randomTrajectory(rng: Rng, caseIndex: number): Trajectory {
  const eventCount = chance(rng, 0.08) ? 0 : int(rng, 1, 30);
  return {
    id: `case-${caseIndex}`,
    description: "",
    complete: chance(rng, 0.5),
    events: Array.from({ length: eventCount }, (_, i) => randomEvent(rng, i)),
  };
}

// ---------------------------------------------------------------- API

/** One valid IR (docs/FORMATS.md §3) with one trajectory to judge against it. */
export function randomCase(rng: Rng, caseIndex = 0): RandomCase {
  return { ir: randomIr(rng), trajectory: randomTrajectory(rng, caseIndex) };
}

/** `n` cases, identical for identical `(seed, n)`. */
export function randomCases(seed: number, n: number): RandomCase[] {
  const rng = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => randomCase(rng, i));
}
