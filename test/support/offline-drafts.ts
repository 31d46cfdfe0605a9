/**
 * The offline drafter on a one-rule spec and hand-made samples, for the tests that show what it
 * makes of a sentence (test/generate/backticks, spec-words, deed-words, worded-words, …).
 */
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { Draft } from "../../compiler/generate/types.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Trajectory } from "../../runtime/types.js";

/**
 * The offline draft of a spec named `name` with `preamble` and one rule whose section is `body`;
 * `description` is the frontmatter's (the drafter reads an assistant's name from it).
 */
export function draftOf(
  preamble: string,
  body: string,
  samples: Trajectory[],
  name = "support",
  description = `Rules for the ${name === "support" ? "support " : ""}agent.`,
): Draft {
  const parsed = parseBehaviorMd(`---\nname: ${name}\ndescription: ${description}\n---\n${preamble}\n\n## The rule\n\n${body}\n`);
  if (!parsed.ok) throw new Error("spec does not parse");
  return draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples });
}

let n = 0;
/** A complete sample of `[actor, action, metadata?]` events, with ids s1, s2, … across a test file. */
export function session(...events: [Trajectory["events"][number]["actor"], string, Record<string, string>?][]): Trajectory {
  return {
    id: `s${++n}`,
    description: "",
    complete: true,
    events: events.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
  };
}

/** The check a draft gives for "each `act` only if the latest `looked` of the same `key` shows `when`". */
export const onLatest = (act: string, looked: string, key: string, when: string) => ({
  type: "condition",
  each: [{ action: act }],
  with: { r: { latest: [{ action: looked }], on: `metadata.${key}` } },
  when,
});

/** The check a draft gives for "no `act` after an `event` on the same `key`". */
export const bannedAfter = (act: string, event: string, key: string) => ({
  type: "forbidden",
  match: [{ action: act }],
  after: [{ action: event }],
  on: `metadata.${key}`,
});

/** An agent's action event with string metadata, as the drafter's samples carry them. */
export const agentAction = (id: string, action: string, metadata: Record<string, string>) => ({
  id,
  type: "action" as const,
  action,
  actor: "agent" as const,
  metadata,
});
