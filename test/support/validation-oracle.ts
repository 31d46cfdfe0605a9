/**
 * Trajectory validation as docs/FORMATS.md §2 defines it, written plainly and kept apart from
 * runtime/trajectory.ts: no fast path, every event checked field by field, every metadata object
 * copied unless it is an ordinary object of strings. test/runtime/validation-corpus.test.ts
 * holds the runtime's validation (its inlined fast path, its id-order proof) to this, error for
 * error and event for event, so a faster check cannot change what is accepted, copied or named.
 * It is a copy of the runtime's checks as of issue 26's round 9: change both only together, when
 * the format itself changes.
 */
import { TrajectoryError } from "../../runtime/trajectory.js";
import type { TrajectoryEvent } from "../../runtime/types.js";

const NON_EMPTY = "must be a non-empty string";
const MAX_DEPTH = 100;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/** An ordinary object (its `constructor`, own or inherited, is Object) whose enumerable keys, own and inherited, all hold strings. */
function isStringMap(value: Record<string, unknown>): boolean {
  if (value.constructor !== Object) return false;
  for (const key in value) if (typeof value[key] !== "string") return false;
  return true;
}

function nestsTooDeep(list: unknown[]): boolean {
  const stack: [unknown[], number][] = [[list, 1]];
  while (stack.length > 0) {
    const [items, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return true;
    for (const item of items) if (Array.isArray(item)) stack.push([item, depth + 1]);
  }
  return false;
}

function metadataField(index: number, key: string): string {
  return `events[${index}].metadata${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
}

/** Own enumerable string keys, each value String()ed, into a null-prototype object. */
function stringMapCopy(value: Record<string, unknown>, index: number): Record<string, string> {
  const copy: Record<string, string> = Object.create(null);
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (Array.isArray(item) && nestsTooDeep(item)) {
      throw new TrajectoryError(
        metadataField(index, key),
        `nests lists more than ${MAX_DEPTH} deep (metadata values are compared as strings)`,
      );
    }
    try {
      copy[key] = String(item);
    } catch {
      throw new TrajectoryError(metadataField(index, key), "cannot be converted to a string");
    }
  }
  return copy;
}

/** `events[index]` checked: the caller's object when it is already in normal form, else a normalized copy. */
export function oracleReadEvent(raw: unknown, index: number): TrajectoryEvent {
  if (!isObject(raw)) throw new TrajectoryError(`events[${index}]`, "must be an object");
  if (!isNonEmptyString(raw.id)) throw new TrajectoryError(`events[${index}].id`, NON_EMPTY);
  if (raw.actor !== "agent" && raw.actor !== "tool" && raw.actor !== "user") {
    throw new TrajectoryError(`events[${index}].actor`, "must be user, agent, or tool");
  }
  if (!isNonEmptyString(raw.action)) throw new TrajectoryError(`events[${index}].action`, NON_EMPTY);
  const content = raw.content;
  const metadata = raw.metadata;
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) {
    throw new TrajectoryError(`events[${index}].metadata`, "must be an object of key: value pairs");
  }
  const contentOk = content === undefined || typeof content === "string";
  const metadataOk = metadata === undefined || (metadata !== null && isStringMap(metadata as Record<string, unknown>));
  if (contentOk && metadataOk) return raw as unknown as TrajectoryEvent;
  return {
    id: raw.id,
    actor: raw.actor,
    action: raw.action,
    content: typeof content === "string" ? content : "",
    metadata: metadata === undefined || metadata === null ? undefined : stringMapCopy(metadata as Record<string, unknown>, index),
  };
}

/** A trajectory's header fields, in the order validation reports them; `events` unchecked. */
export function oracleReadHeader(raw: unknown): { id: string; description: string; complete: boolean; events: readonly unknown[] } {
  if (!isObject(raw)) throw new TrajectoryError("", "a trajectory must be a JSON object");
  if (!isNonEmptyString(raw.id)) throw new TrajectoryError("id", NON_EMPTY);
  const description = raw.description ?? "";
  if (typeof description !== "string") throw new TrajectoryError("description", "must be a string");
  if (typeof raw.complete !== "boolean") throw new TrajectoryError("complete", "must be true or false");
  if (!Array.isArray(raw.events)) throw new TrajectoryError("events", "must be an array");
  return { id: raw.id, description, complete: raw.complete, events: raw.events };
}

/** The error for the first event (at `index`) whose id an earlier event has. */
export function oracleDuplicate(index: number, id: string): TrajectoryError {
  return new TrajectoryError(`events[${index}].id`, `duplicates the id ${JSON.stringify(id)} of an earlier event`);
}
