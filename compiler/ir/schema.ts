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
import {
  LIMITS,
  ON_ARRAYS,
  ON_OBJECTS,
  describeNonString,
  formatCount,
  hintParams,
  list,
  mapping,
  rejectUnknownKeys,
  report,
  requireOneOf,
  text,
  tooLongMessage,
  unlessMissing,
  type SchemaVocabulary,
} from "./schema-kit.js";
import type { Actor, CheckType, JudgeIR, Matcher, Trigger, ValueMatcher } from "./types.js";
import { bindingsSchema, checkValueMatcher, checkWhenExpression, keyRefSchema, onSchema, type ValueSite } from "./schema-extended.js";

export const ACTORS = ["user", "agent", "tool"] as const satisfies readonly Actor[];
export const CHECK_TYPES = ["ordering", "pairing", "required", "forbidden", "count", "condition"] as const satisfies readonly CheckType[];

/* Key lists in canonical order: the serializer writes keys in this order. */
export const TOP_LEVEL_KEYS = ["version", "behavior", "metaBehaviors"] as const;
export const META_BEHAVIOR_KEYS = ["name", "trigger", "checks", "semanticChecks", "source"] as const;
export const TRIGGER_KEYS = ["description", "match", "semantic"] as const;
export const SEMANTIC_CHECK_KEYS = ["quote", "question"] as const;
export const MATCHER_KEYS = ["action", "actor", "contentIncludes", "content", "metadata"] as const;
export const CHECK_KEYS = {
  ordering: ["type", "quote", "first", "before", "on", "fresh"],
  pairing: ["type", "quote", "each", "followedBy", "on", "within"],
  required: ["type", "quote", "match", "after", "on"],
  forbidden: ["type", "quote", "match", "after", "on"],
  count: ["type", "quote", "match", "after", "on", "min", "max", "distinctBy", "per", "sum"],
  condition: ["type", "quote", "each", "with", "when"],
} as const satisfies Record<CheckType, readonly string[]>;

/** Check fields whose value is a pattern (one matcher or a list of matchers). */
export const PATTERN_KEYS = ["match", "first", "before", "each", "followedBy", "after"] as const;

export { LIMITS, formatCount, type IssueParams, type SchemaVocabulary } from "./schema-kit.js";

/** A value matcher at `site`: a non-empty string, or one operator object (docs/FORMATS.md §10.1). */
function valueMatcher(site: ValueSite) {
  return z
    .custom<ValueMatcher>(() => true)
    .superRefine((value, ctx) => {
      if (typeof value === "number" || typeof value === "boolean") {
        // As version 1 said it; parse.ts then hints the quoting with the value as spelled (`"1.50"`).
        ctx.addIssue({ code: "invalid_type", expected: "string", input: value, message: describeNonString(value), path: [] });
        return;
      }
      for (const problem of checkValueMatcher(value, site)) report(ctx, problem.path, problem.message, problem.params);
    });
}

function metadataSchema(vocabulary: SchemaVocabulary) {
  return z
    .record(z.string(), valueMatcher("metadata"), {
      error: unlessMissing(() => "must be a mapping of metadata keys to strings or value matchers"),
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
      action: valueMatcher("action").optional(),
      actor: z.enum(ACTORS, { error: unlessMissing(() => "must be user, agent, or tool") }).optional(),
      contentIncludes: text().optional(),
      content: valueMatcher("content").optional(),
      metadata: metadataSchema(vocabulary).optional(),
    },
    "a matcher (a mapping with action, actor, contentIncludes, content or metadata)",
  )
    .superRefine(rejectUnknownKeys(MATCHER_KEYS), ON_OBJECTS)
    .superRefine(requireOneOf(MATCHER_KEYS, "needs at least one of action, actor, contentIncludes, content, metadata"), ON_OBJECTS)
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
    for (const key of ["action", "actor", "contentIncludes", "content"]) if (matcher[key] !== undefined) fields++;
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

/** `on:` of a windowed check ties the window to a key: without `after` there is no window to tie. */
function onNeedsAfter(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (value.on !== undefined && value.after === undefined) {
    report(ctx, ["on"], "needs after: the window is what on ties to a key", {
      atKey: true,
      hint: "add after: <pattern> (the event that opens each key's window), or use a condition check",
    });
  }
}

function checkSchemas(vocabulary: SchemaVocabulary) {
  const pattern = patternSchema(vocabulary);
  const base = { quote: text() };
  const strictly = (type: CheckType) => rejectUnknownKeys(CHECK_KEYS[type], keyOfOtherCheckTypes(type));
  const count = z.int({ error: unlessMissing(() => "must be a non-negative integer") }).min(0, "must be a non-negative integer");
  const positive = z
    .int({ error: unlessMissing(() => "must be a positive integer") })
    .min(1, "must be a positive integer (1: the very next event)");
  const keyRef = keyRefSchema(vocabulary);
  const windowOn = onSchema(vocabulary, "after", "match");
  return [
    mapping({
      type: z.literal("ordering"),
      ...base,
      first: pattern,
      before: pattern,
      on: onSchema(vocabulary, "first", "before").optional(),
      fresh: z.boolean({ error: unlessMissing(() => "must be true or false") }).optional(),
    }).superRefine(strictly("ordering"), ON_OBJECTS),
    mapping({
      type: z.literal("pairing"),
      ...base,
      each: pattern,
      followedBy: pattern,
      on: onSchema(vocabulary, "each", "followedBy").optional(),
      within: positive.optional(),
    }).superRefine(strictly("pairing"), ON_OBJECTS),
    mapping({ type: z.literal("required"), ...base, match: pattern, after: pattern.optional(), on: windowOn.optional() })
      .superRefine(strictly("required"), ON_OBJECTS)
      .superRefine(onNeedsAfter, ON_OBJECTS),
    mapping({ type: z.literal("forbidden"), ...base, match: pattern, after: pattern.optional(), on: windowOn.optional() })
      .superRefine(strictly("forbidden"), ON_OBJECTS)
      .superRefine(onNeedsAfter, ON_OBJECTS),
    mapping({
      type: z.literal("count"),
      ...base,
      match: pattern,
      after: pattern.optional(),
      on: windowOn.optional(),
      min: count.optional(),
      max: count.optional(),
      distinctBy: text().superRefine(checkDistinctBy(vocabulary)).optional(),
      per: keyRef.optional(),
      sum: keyRef.optional(),
    })
      .superRefine(strictly("count"), ON_OBJECTS)
      .superRefine(onNeedsAfter, ON_OBJECTS)
      .superRefine(requireOneOf(["min", "max"], "needs at least one of min or max"), ON_OBJECTS),
    mapping({
      type: z.literal("condition"),
      ...base,
      each: pattern,
      with: bindingsSchema(pattern, vocabulary).optional(),
      when: text(),
    })
      .superRefine(strictly("condition"), ON_OBJECTS)
      .superRefine((value, ctx) => {
        for (const problem of checkWhenExpression(value)) report(ctx, problem.path, problem.message, problem.params);
      }, ON_OBJECTS),
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
