/**
 * Trajectory validation and normalization (FORMATS.md §2). Runs inside every
 * judge.mjs, on untrusted input, so it never trusts a prototype and never
 * mutates what it was given.
 */
import type { Actor, Trajectory, TrajectoryEvent } from "./types.js";

/** A trajectory that breaks FORMATS.md §2; `field` is a path like `events[3].actor`. */
export class TrajectoryError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(field === "" ? message : `${field} ${message}`);
    this.name = "TrajectoryError";
    this.field = field;
  }
}

const EMPTY_METADATA: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isActor(value: unknown): value is Actor {
  return value === "agent" || value === "tool" || value === "user";
}

/**
 * Metadata values are compared as strings. An all-string map is used as is;
 * anything else is copied into a null-prototype object so that a key such as
 * `__proto__` stays an ordinary key.
 */
function normalizeMetadata(value: unknown, field: string): Readonly<Record<string, string>> {
  if (value === undefined || value === null) return EMPTY_METADATA;
  if (!isPlainObject(value)) throw new TrajectoryError(field, "must be an object of key: value pairs");
  let allStrings = true;
  for (const key in value) {
    if (Object.hasOwn(value, key) && typeof value[key] !== "string") {
      allStrings = false;
      break;
    }
  }
  if (allStrings && Object.getPrototypeOf(value) === Object.prototype) return value as Record<string, string>;
  const copy: Record<string, string> = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = String(value[key]);
  return copy;
}

function requireNonEmptyString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw new TrajectoryError(field, "must be a non-empty string");
  return value;
}

function normalizeEvent(raw: unknown, index: number, seen: Set<string>): TrajectoryEvent {
  const at = `events[${index}]`;
  if (!isPlainObject(raw)) throw new TrajectoryError(at, "must be an object");
  const id = requireNonEmptyString(raw.id, `${at}.id`);
  if (seen.has(id)) throw new TrajectoryError(`${at}.id`, `duplicates the id ${JSON.stringify(id)} of an earlier event`);
  seen.add(id);
  const actor = raw.actor;
  if (!isActor(actor)) throw new TrajectoryError(`${at}.actor`, "must be user, agent, or tool");
  const action = requireNonEmptyString(raw.action, `${at}.action`);
  const content = typeof raw.content === "string" ? raw.content : "";
  const metadata = normalizeMetadata(raw.metadata, `${at}.metadata`);
  return { id, actor, action, content, metadata };
}

/**
 * Checks a trajectory against FORMATS.md §2 and returns a normalized copy:
 * `content` always a string, `metadata` always a string map.
 * @throws TrajectoryError naming the first offending field.
 */
export function validateTrajectory(raw: unknown): Trajectory {
  if (!isPlainObject(raw)) throw new TrajectoryError("", "a trajectory must be a JSON object");
  const id = requireNonEmptyString(raw.id, "id");
  if (raw.description !== undefined && typeof raw.description !== "string") {
    throw new TrajectoryError("description", "must be a string");
  }
  if (typeof raw.complete !== "boolean") throw new TrajectoryError("complete", "must be true or false");
  if (!Array.isArray(raw.events)) throw new TrajectoryError("events", "must be an array");
  const rawEvents: unknown[] = raw.events;
  const seen = new Set<string>();
  const events = new Array<TrajectoryEvent>(rawEvents.length);
  for (let i = 0; i < rawEvents.length; i++) events[i] = normalizeEvent(rawEvents[i], i, seen);
  return { id, description: raw.description ?? "", complete: raw.complete, events };
}
