/**
 * The zod schema of judge.yaml version 1 (docs/FORMATS.md §3): the single source of
 * validation for the IR in `types.ts`.
 *
 * Every message here is written for a person reading `file:line:col error:
 * path: message`. Objects are "loose" so that unknown keys reach our own
 * refinement, which reports each one separately with a suggestion; the parse
 * fails on any unknown key, so a successful parse never carries extras.
 * Refinements run even when a sibling field failed (`when`), so one run
 * reports every problem in the file.
 */
import * as z from "zod";
import { isObject } from "../../runtime/is-object.js";
import { closestMatch, didYouMean } from "./did-you-mean.js";
import type { Actor, CheckType, JudgeIR, Matcher, Trigger } from "./types.js";

export const ACTORS = ["user", "agent", "tool"] as const satisfies readonly Actor[];
export const CHECK_TYPES = ["ordering", "pairing", "required", "forbidden", "count"] as const satisfies readonly CheckType[];

/* Key lists in canonical order: the serializer writes keys in this order. */
export const TOP_LEVEL_KEYS = ["version", "behavior", "metaBehaviors"] as const;
export const META_BEHAVIOR_KEYS = ["name", "trigger", "checks", "semanticChecks", "source"] as const;
export const TRIGGER_KEYS = ["description", "match", "semantic"] as const;
export const SEMANTIC_CHECK_KEYS = ["quote", "question"] as const;
export const MATCHER_KEYS = ["action", "actor", "contentIncludes", "metadata"] as const;
export const CHECK_KEYS = {
  ordering: ["type", "quote", "first", "before"],
  pairing: ["type", "quote", "each", "followedBy"],
  required: ["type", "quote", "match", "after"],
  forbidden: ["type", "quote", "match", "after"],
  count: ["type", "quote", "match", "after", "min", "max", "distinctBy"],
} as const satisfies Record<CheckType, readonly string[]>;

/**
 * The sizes judge.yaml accepts, each far above any real spec (a few rules of a
 * few checks, patterns of a few fields, quotes of a sentence) and low enough
 * that the costliest file accepted builds in a minute or so, in under a
 * gigabyte: the time and memory of a build grow with the text. `fileCharacters` is
 * checked before the YAML is parsed (parse.ts); `textCharacters` bounds the
 * strings once aliases are expanded; `patternFields` counts action, actor,
 * contentIncludes and each metadata entry over a pattern's matchers (one
 * pattern is one boolean expression in judge.ts, and the type checker's cost
 * grows with its square).
 */
export const LIMITS = {
  fileCharacters: 1_000_000,
  textCharacters: 1_000_000,
  stringCharacters: 10_000,
  metaBehaviors: 1_000,
  checks: 1_000,
  semanticChecks: 1_000,
  patternFields: 64,
} as const;

/** 12345 → "12,345", the same on every machine. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Check fields whose value is a pattern (one matcher or a list of matchers). */
export const PATTERN_KEYS = ["match", "first", "before", "each", "followedBy", "after"] as const;

/** Names the generator's sample vocabulary knows; unknown ones are reported only when given. */
export interface SchemaVocabulary {
  actions?: readonly string[] | undefined;
  metadataKeys?: readonly string[] | undefined;
}

/**
 * Extra facts our custom issues carry for `parse.ts`, which turns issues into
 * located diagnostics.
 */
export interface IssueParams {
  hint?: string;
  /** The problem is the mapping key itself (unknown, empty), not its value. */
  atKey?: boolean;
  /** For an unknown key: the valid key it is probably a misspelling of. */
  suggestion?: string;
  /** Keys whose presence would resolve this issue; lets a misspelled key explain it. */
  satisfiableBy?: readonly string[];
  /** For a duplicate: index of the first occurrence among the same list's items. */
  firstIndex?: number;
}

type Path = (string | number)[];

/* Refinements must see partly invalid values (to report everything), but only of the right shape. */
const ON_OBJECTS = { when: (payload: { value: unknown }) => isObject(payload.value) };
const ON_ARRAYS = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

function report(ctx: z.RefinementCtx, path: Path, message: string, params: IssueParams = {}): void {
  ctx.addIssue({ code: "custom", message, path, params });
}

/** Zod calls error maps both for a missing key (input undefined) and for a wrong value. */
function unlessMissing(describe: (input: unknown) => string) {
  return (issue: { input?: unknown }): string => (issue.input === undefined ? "is required" : describe(issue.input));
}

function describeNonString(input: unknown): string {
  if (typeof input === "number" || typeof input === "boolean") {
    return `must be a string, got ${typeof input} ${String(input)}`;
  }
  if (Array.isArray(input)) return "must be a string, got a list";
  if (isObject(input)) return "must be a string, got a mapping";
  return "must be a non-empty string";
}

function tooLongMessage(length: number, what = "is"): string {
  return `${what} ${formatCount(length)} characters long; at most ${formatCount(LIMITS.stringCharacters)} are accepted`;
}

/** Empty strings are errors everywhere in judge.yaml, and so are strings past LIMITS.stringCharacters. */
function text() {
  return z
    .string({ error: unlessMissing(describeNonString) })
    .min(1, "must be a non-empty string")
    .max(LIMITS.stringCharacters, {
      error: (issue) => tooLongMessage(typeof issue.input === "string" ? issue.input.length : LIMITS.stringCharacters + 1),
    });
}

function mapping<Shape extends z.ZodRawShape>(shape: Shape, what = "a mapping") {
  return z.looseObject(shape, { error: unlessMissing(() => `must be ${what}`) });
}

function list<Item extends z.ZodType>(item: Item, what = "a list", max?: number) {
  const array = z.array(item, { error: unlessMissing(() => `must be ${what}`) });
  if (max === undefined) return array;
  return array.max(max, {
    error: (issue) =>
      `holds ${formatCount(Array.isArray(issue.input) ? issue.input.length : max + 1)} items; at most ${formatCount(max)} are accepted`,
  });
}

/**
 * Reports every key not in `allowed`, at the key. `explain` may give a more
 * specific message than "unknown key" (e.g. a key that belongs to another
 * check type).
 */
function rejectUnknownKeys(allowed: readonly string[], explain?: (key: string) => { message: string; hint?: string } | undefined) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      const specific = explain?.(key);
      if (specific !== undefined) {
        report(ctx, [key], specific.message, { atKey: true, ...hintParams(specific.hint) });
        continue;
      }
      const suggestion = closestMatch(key, allowed);
      report(ctx, [key], `unknown key ${JSON.stringify(key)}`, {
        atKey: true,
        ...(suggestion === undefined ? {} : { suggestion, hint: `did you mean ${JSON.stringify(suggestion)}?` }),
      });
    }
  };
}

function hintParams(hint: string | undefined): IssueParams {
  return hint === undefined ? {} : { hint };
}

/** "needs at least one of …", placed at the mapping that lacks them. */
function requireOneOf(keys: readonly string[], message: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (keys.some((key) => value[key] !== undefined)) return;
    report(ctx, [], message, { satisfiableBy: keys });
  };
}

function metadataSchema(vocabulary: SchemaVocabulary) {
  return z
    .record(z.string(), text(), {
      error: unlessMissing(() => "must be a mapping of metadata keys to strings"),
    })
    .superRefine((value, ctx) => {
      const keys = Object.keys(value);
      if (keys.length === 0) report(ctx, [], "must be a non-empty mapping");
      for (const key of keys) {
        if (key === "") {
          report(ctx, [key], "metadata keys must be non-empty", { atKey: true });
        } else if (key.length > LIMITS.stringCharacters) {
          report(ctx, [key], tooLongMessage(key.length, "a metadata key is"), { atKey: true });
        } else if (vocabulary.metadataKeys !== undefined && !vocabulary.metadataKeys.includes(key)) {
          report(ctx, [key], `unknown metadata key ${JSON.stringify(key)}`, {
            atKey: true,
            ...hintParams(didYouMean(key, vocabulary.metadataKeys)),
          });
        }
      }
    }, ON_OBJECTS);
}

function matcherSchema(vocabulary: SchemaVocabulary) {
  return mapping(
    {
      action: text().optional(),
      actor: z.enum(ACTORS, { error: unlessMissing(() => "must be user, agent, or tool") }).optional(),
      contentIncludes: text().optional(),
      metadata: metadataSchema(vocabulary).optional(),
    },
    "a matcher (a mapping with action, actor, contentIncludes or metadata)",
  )
    .superRefine(rejectUnknownKeys(MATCHER_KEYS), ON_OBJECTS)
    .superRefine(requireOneOf(MATCHER_KEYS, "needs at least one of action, actor, contentIncludes, metadata"), ON_OBJECTS)
    .superRefine((value, ctx) => {
      const known = vocabulary.actions;
      const action = value.action;
      if (known === undefined || typeof action !== "string" || action === "" || known.includes(action)) {
        return;
      }
      report(ctx, ["action"], `unknown action ${JSON.stringify(action)}`, hintParams(didYouMean(action, known)));
    }, ON_OBJECTS);
}

/**
 * One matcher or a non-empty list of them; the IR always stores a list. The
 * single mapping is wrapped before validation, so its issues carry a `0`
 * index that does not exist in the file; `parse.ts` drops it when locating.
 */
function patternSchema(vocabulary: SchemaVocabulary) {
  return z.preprocess(
    (value) => (isObject(value) ? [value] : value),
    list(matcherSchema(vocabulary), "a matcher or a non-empty list of matchers")
      .min(1, "must be a non-empty list of matchers")
      .superRefine(limitPatternFields, ON_ARRAYS),
  );
}

/** The fields a pattern tests, counted over its matchers; see LIMITS.patternFields. */
function limitPatternFields(matchers: unknown[], ctx: z.RefinementCtx): void {
  let fields = 0;
  for (const matcher of matchers) {
    if (!isObject(matcher)) continue;
    for (const key of ["action", "actor", "contentIncludes"]) if (matcher[key] !== undefined) fields++;
    if (isObject(matcher.metadata)) fields += Object.keys(matcher.metadata).length;
  }
  if (fields <= LIMITS.patternFields) return;
  report(
    ctx,
    [],
    `tests ${formatCount(fields)} fields (action, actor, contentIncludes and metadata entries of its matchers); at most ${LIMITS.patternFields} are accepted`,
  );
}

/** A key that another check type accepts gets a precise message instead of "unknown key". */
function keyOfOtherCheckTypes(type: CheckType) {
  return (key: string): { message: string; hint: string } | undefined => {
    const owners = CHECK_TYPES.filter((other) => (CHECK_KEYS[other] as readonly string[]).includes(key));
    if (owners.length === 0) return undefined;
    return {
      message: `${JSON.stringify(key)} is not allowed on ${type} checks`,
      hint: `it is allowed on ${joinWithAnd(owners)} checks`,
    };
  };
}

function joinWithAnd(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function checkSchemas(vocabulary: SchemaVocabulary) {
  const pattern = patternSchema(vocabulary);
  const base = { quote: text() };
  const strictly = (type: CheckType) => rejectUnknownKeys(CHECK_KEYS[type], keyOfOtherCheckTypes(type));
  const count = z.int({ error: unlessMissing(() => "must be a non-negative integer") }).min(0, "must be a non-negative integer");
  return [
    mapping({ type: z.literal("ordering"), ...base, first: pattern, before: pattern }).superRefine(strictly("ordering"), ON_OBJECTS),
    mapping({ type: z.literal("pairing"), ...base, each: pattern, followedBy: pattern }).superRefine(strictly("pairing"), ON_OBJECTS),
    mapping({ type: z.literal("required"), ...base, match: pattern, after: pattern.optional() }).superRefine(
      strictly("required"),
      ON_OBJECTS,
    ),
    mapping({ type: z.literal("forbidden"), ...base, match: pattern, after: pattern.optional() }).superRefine(
      strictly("forbidden"),
      ON_OBJECTS,
    ),
    mapping({
      type: z.literal("count"),
      ...base,
      match: pattern,
      after: pattern.optional(),
      min: count.optional(),
      max: count.optional(),
      distinctBy: text().superRefine(checkDistinctBy(vocabulary)).optional(),
    })
      .superRefine(strictly("count"), ON_OBJECTS)
      .superRefine(requireOneOf(["min", "max"], "needs at least one of min or max"), ON_OBJECTS),
  ] as const;
}

function checkDistinctBy(vocabulary: SchemaVocabulary) {
  return (value: string, ctx: z.RefinementCtx): void => {
    // "" already has its own message from text().
    if (value === "content" || value === "") return;
    if (value.startsWith("metadata.") && value.length > "metadata.".length) {
      const key = value.slice("metadata.".length);
      const known = vocabulary.metadataKeys;
      if (known !== undefined && !known.includes(key)) {
        const suggestion = closestMatch(key, known);
        report(ctx, [], `unknown metadata key ${JSON.stringify(key)}`, {
          ...hintParams(suggestion === undefined ? undefined : `did you mean "metadata.${suggestion}"?`),
        });
      }
      return;
    }
    const candidates = ["content", ...(vocabulary.metadataKeys ?? []).map((key) => `metadata.${key}`)];
    report(ctx, [], 'must be "content" or "metadata.<key>"', hintParams(didYouMean(value, candidates)));
  };
}

function describeCheckType(input: unknown): string {
  if (!isObject(input) || input.type === undefined) return "is required";
  if (typeof input.type === "string") return `unknown check type ${JSON.stringify(input.type)}`;
  return `must be one of ${CHECK_TYPES.join(", ")}`;
}

function checkSchema(vocabulary: SchemaVocabulary) {
  return z.discriminatedUnion("type", checkSchemas(vocabulary), {
    error: (issue) =>
      issue.code === "invalid_union" && "discriminator" in issue
        ? describeCheckType(issue.input)
        : "must be a check (a mapping with type and quote)",
  });
}

const semanticCheckSchema = mapping({ quote: text(), question: text() }, "a mapping with quote and question").superRefine(
  rejectUnknownKeys(SEMANTIC_CHECK_KEYS),
  ON_OBJECTS,
);

/**
 * Exactly one of `match` and `semantic: true`. A `semantic` that is present
 * but not literally `true` gets its own message and nothing else, because the
 * author's intent (semantic or not) is then unclear.
 */
function checkTriggerKind(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const hasMatch = value.match !== undefined;
  if (value.semantic !== undefined && value.semantic !== true) {
    report(ctx, ["semantic"], "must be true", {
      hint: "for a deterministic trigger, remove semantic and give match",
    });
    return;
  }
  const hasSemantic = value.semantic === true;
  if (hasMatch && hasSemantic) {
    report(ctx, [], "has both match and semantic: true", { hint: "give exactly one" });
  } else if (!hasMatch && !hasSemantic) {
    report(ctx, [], "needs match or semantic: true", { satisfiableBy: ["match", "semantic"] });
  }
}

function toTrigger(value: { description: string; match?: Matcher[] | undefined }): Trigger {
  return value.match === undefined
    ? { description: value.description, semantic: true }
    : { description: value.description, match: value.match };
}

function triggerSchema(vocabulary: SchemaVocabulary) {
  return mapping({
    description: text(),
    match: patternSchema(vocabulary).optional(),
    semantic: z.unknown().optional(),
  })
    .superRefine(rejectUnknownKeys(TRIGGER_KEYS), ON_OBJECTS)
    .superRefine(checkTriggerKind, ON_OBJECTS)
    .transform(toTrigger);
}

function isEmptyOrMissing(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

function metaBehaviorSchema(vocabulary: SchemaVocabulary) {
  return mapping({
    name: text(),
    trigger: triggerSchema(vocabulary),
    checks: list(checkSchema(vocabulary), "a list", LIMITS.checks).default([]),
    semanticChecks: list(semanticCheckSchema, "a list", LIMITS.semanticChecks).default([]),
    source: text().optional(),
  })
    .superRefine(rejectUnknownKeys(META_BEHAVIOR_KEYS), ON_OBJECTS)
    .superRefine((value, ctx) => {
      // A malformed (non-list) field is reported by itself; only a truly empty rule is this error.
      if (isEmptyOrMissing(value.checks) && isEmptyOrMissing(value.semanticChecks)) {
        report(ctx, [], "needs at least one of checks or semanticChecks", {
          satisfiableBy: ["checks", "semanticChecks"],
        });
      }
    }, ON_OBJECTS);
}

/** Names identify rules in the output and in labels, so a repeat is reported where it repeats. */
function rejectDuplicateNames(items: unknown[], ctx: z.RefinementCtx): void {
  const firstIndexByName = new Map<string, number>();
  items.forEach((item, index) => {
    if (!isObject(item) || typeof item.name !== "string" || item.name === "") return;
    const firstIndex = firstIndexByName.get(item.name);
    if (firstIndex === undefined) {
      firstIndexByName.set(item.name, index);
      return;
    }
    report(ctx, [index, "name"], `duplicate meta-behavior name ${JSON.stringify(item.name)}`, { firstIndex });
  });
}

function describeVersion(input: unknown): string {
  return typeof input === "string" ? `must be 1, got the string ${JSON.stringify(input)}` : "must be 1";
}

/** The judge.yaml schema; with a vocabulary, unknown actions and metadata keys are errors too. */
export function createJudgeSchema(vocabulary: SchemaVocabulary = {}): z.ZodType<JudgeIR> {
  const document = mapping(
    {
      version: z.literal(1, { error: unlessMissing(describeVersion) }),
      behavior: text(),
      metaBehaviors: list(metaBehaviorSchema(vocabulary), "a non-empty list", LIMITS.metaBehaviors)
        .min(1, "must be a non-empty list")
        .superRefine(rejectDuplicateNames, ON_ARRAYS),
    },
    "a mapping with version, behavior and metaBehaviors",
  ).superRefine(rejectUnknownKeys(TOP_LEVEL_KEYS), ON_OBJECTS);
  // The input as written, before defaults are filled in.
  return z.preprocess((input, ctx) => {
    limitText(input, ctx);
    return input;
  }, document);
}

/**
 * Aliases can repeat one long string many times in a small file: the
 * generated code would hold every copy. Counted without recursion, so a
 * deeply nested document cannot overflow the stack here.
 */
function limitText(document: unknown, ctx: z.RefinementCtx): void {
  let characters = 0;
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") characters += value.length;
    else if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        characters += key.length;
        pending.push(item);
      }
    }
  }
  if (characters <= LIMITS.textCharacters) return;
  report(
    ctx,
    [],
    `the text of this judge.yaml (its strings, with aliases expanded) is ${formatCount(characters)} characters long; at most ${formatCount(LIMITS.textCharacters)} are accepted`,
  );
}

/** The schema without a vocabulary. */
export const judgeIRSchema: z.ZodType<JudgeIR> = createJudgeSchema();
