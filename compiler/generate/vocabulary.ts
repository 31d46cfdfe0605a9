/**
 * The vocabulary of the sample trajectories: the actions, actors, metadata
 * keys and values a judge.yaml can refer to. Drafters pick patterns from it,
 * the IR checker flags names outside it ("did you mean …?"), and the
 * interview shows it. Ordering never depends on object iteration order or
 * locale, so the same samples give the same vocabulary, and the same prompt.
 */
import type { Actor, Trajectory } from "../../runtime/types.js";
import type { BehaviorSpec } from "../behavior-md/load.js";
import type { ActionMetadata, Vocabulary } from "./types.js";

const ACTOR_ORDER: readonly Actor[] = ["user", "agent", "tool"];
const METADATA_EXAMPLES = 5;
const CONTENT_SAMPLES = 3;
const ACTION_METADATA_VALUES = 10;

/** Code-point order: stable across machines, unlike localeCompare. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Most frequent first; ties in code-point order, so the result ignores sample order. */
function topValues(counts: Map<string, number>, limit: number): { value: string; count: number }[] {
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || byCodePoint(a.value, b.value))
    .slice(0, limit);
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

interface ActionTally {
  count: number;
  actors: Set<Actor>;
  contents: string[];
  metadata: Map<string, Map<string, number>>;
}

/** Builds the vocabulary of the given (validated) sample trajectories. */
export function buildVocabulary(samples: readonly Trajectory[]): Vocabulary {
  const actions = new Map<string, ActionTally>();
  const keys = new Map<string, Map<string, number>>();
  for (const trajectory of samples) {
    for (const event of trajectory.events) {
      const tally = getOrCreate(actions, event.action, () => ({ count: 0, actors: new Set<Actor>(), contents: [], metadata: new Map() }));
      tally.count++;
      tally.actors.add(event.actor);
      const content = event.content ?? "";
      if (content.trim() !== "" && tally.contents.length < CONTENT_SAMPLES && !tally.contents.includes(content))
        tally.contents.push(content);
      for (const [key, value] of Object.entries(event.metadata ?? {})) {
        bump(
          getOrCreate(keys, key, () => new Map()),
          value,
        );
        bump(
          getOrCreate(tally.metadata, key, () => new Map()),
          value,
        );
      }
    }
  }
  const actionNames = [...actions.keys()].sort(byCodePoint);
  return {
    actions: actionNames.map((action) => {
      const tally = actions.get(action)!;
      return { action, actors: ACTOR_ORDER.filter((a) => tally.actors.has(a)), count: tally.count };
    }),
    metadataKeys: [...keys.keys()].sort(byCodePoint).map((key) => {
      const values = keys.get(key)!;
      return { key, values: topValues(values, METADATA_EXAMPLES).map((v) => v.value), count: sum(values.values()) };
    }),
    contentSamples: actionNames
      .filter((a) => actions.get(a)!.contents.length > 0)
      .map((action) => ({ action, samples: actions.get(action)!.contents })),
    actionMetadata: actionNames.flatMap((action) => actionMetadataOf(action, actions.get(action)!)),
  };
}

function actionMetadataOf(action: string, tally: ActionTally): ActionMetadata[] {
  return [...tally.metadata.keys()].sort(byCodePoint).map((key) => {
    const counts = tally.metadata.get(key)!;
    return { action, key, count: sum(counts.values()), distinct: counts.size, values: topValues(counts, ACTION_METADATA_VALUES) };
  });
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** The names the IR checker should know, for `parseJudgeYaml(text, { vocabulary })`. */
export function vocabularyNames(vocabulary: Vocabulary): { actions: string[]; metadataKeys: string[] } {
  return { actions: vocabulary.actions.map((a) => a.action), metadataKeys: vocabulary.metadataKeys.map((k) => k.key) };
}

/** Per-action metadata, computed from the samples when an older vocabulary lacks it. */
export function actionMetadata(vocabulary: Vocabulary): ActionMetadata[] {
  return vocabulary.actionMetadata ?? [];
}

/** A code span that names a tool or action: `issue_refund`, `orders.lookup`, `sendEmail`. */
const ACTION_NAME = /^(?:[A-Za-z][A-Za-z0-9]*(?:[_.:-][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)$/;
/** A code span that names a metadata value: `status: found`, `status=found`. */
const METADATA_PAIR = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*[:=]\s*"?([^"\s][^"]*?)"?$/;

/**
 * The vocabulary when there are no sample trajectories: the action names and
 * metadata values the spec itself writes as code spans. Specs that name no
 * tools give an empty vocabulary; the drafters then map what they can from
 * the wording alone (mostly semantic questions), and the person is told.
 */
export function guessVocabulary(spec: BehaviorSpec): Vocabulary {
  const actions = new Set<string>();
  const metadata = new Map<string, Set<string>>();
  for (const section of spec.sections) {
    for (const match of section.body.matchAll(/`([^`\n]+)`/g)) {
      const span = match[1]!.trim();
      const pair = METADATA_PAIR.exec(span);
      if (pair !== null) getOrCreate(metadata, pair[1]!, () => new Set<string>()).add(pair[2]!);
      else if (ACTION_NAME.test(span)) actions.add(span);
    }
  }
  const names = [...actions].sort(byCodePoint);
  return {
    // A name ending in "result" is what a tool returns; anything else, the agent's call.
    actions: names.map((action) => ({ action, actors: [/result$/i.test(action) ? "tool" : "agent"], count: 0 })),
    metadataKeys: [...metadata.keys()]
      .sort(byCodePoint)
      .map((key) => ({ key, values: [...metadata.get(key)!].sort(byCodePoint), count: 0 })),
    contentSamples: [],
    actionMetadata: [],
    guessed: true,
  };
}
