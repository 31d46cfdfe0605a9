/**
 * Trajectory validation and normalization (docs/FORMATS.md §2). Runs inside every
 * judge.mjs, on untrusted input, so it never trusts a prototype and never
 * mutates what it was given.
 */
import { isObject } from "./is-object.js";
import type { Steppers } from "./stepper.js";
import type { Actor, Trajectory, TrajectoryEvent } from "./types.js";

/** A trajectory that breaks docs/FORMATS.md §2; `field` is a path like `events[3].actor`. */
export class TrajectoryError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(field === "" ? message : `${field} ${message}`);
    this.name = "TrajectoryError";
    this.field = field;
  }
}

function isActor(value: unknown): value is Actor {
  return value === "agent" || value === "tool" || value === "user";
}

/** True when every own value is a string and the object is an ordinary one: usable as is. */
function isStringMap(value: Record<string, unknown>): boolean {
  // An ordinary object (what JSON.parse makes). Reading `constructor` is a cached
  // property load where Object.getPrototypeOf is a call; an object with its own
  // `constructor` key, a null prototype or a class simply takes the copying path.
  if (value.constructor !== Object) return false;
  for (const key in value) if (typeof value[key] !== "string") return false;
  return true;
}

/**
 * How deep lists may nest in a metadata value. String(v) flattens a list with
 * one recursion per level, so a value nested 200,000 deep overflowed the stack
 * with no field named; real metadata values are flat.
 */
const MAX_METADATA_DEPTH = 100;

/** Whether lists nest more than MAX_METADATA_DEPTH deep. Iterative, and depth first: a cycle stops at the limit. */
function nestsTooDeep(list: unknown[]): boolean {
  const stack: [unknown[], number][] = [[list, 1]];
  while (stack.length > 0) {
    const [items, depth] = stack.pop()!;
    if (depth > MAX_METADATA_DEPTH) return true;
    for (const item of items) if (Array.isArray(item)) stack.push([item, depth + 1]);
  }
  return false;
}

/** `events[3].metadata.status`, or `events[3].metadata["a b"]` for a key that is not a name. */
function metadataField(index: number, key: string): string {
  return `events[${index}].metadata${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
}

/**
 * Metadata values are compared as strings: anything else is converted with
 * String(v), into a null-prototype copy so a key such as `__proto__` stays an
 * ordinary key.
 */
function stringMapCopy(value: Record<string, unknown>, index: number): Record<string, string> {
  const copy: Record<string, string> = Object.create(null);
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (Array.isArray(item) && nestsTooDeep(item)) {
      throw new TrajectoryError(
        metadataField(index, key),
        `nests lists more than ${MAX_METADATA_DEPTH} deep (metadata values are compared as strings)`,
      );
    }
    try {
      copy[key] = String(item);
    } catch {
      // JSON can give an object a `toString` that is not a function: String() then throws.
      throw new TrajectoryError(metadataField(index, key), "cannot be converted to a string");
    }
  }
  return copy;
}

const NON_EMPTY = "must be a non-empty string";

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

function requireNonEmptyString(value: unknown, field: string): string {
  if (!isNonEmptyString(value)) throw new TrajectoryError(field, NON_EMPTY);
  return value;
}

/**
 * Checks `events[index]` and returns it in normal form: the caller's object
 * when it already is, else a normalized copy.
 * @throws TrajectoryError naming the offending field.
 */
export function readEvent(raw: unknown, index: number): TrajectoryEvent {
  if (!isObject(raw)) throw new TrajectoryError(`events[${index}]`, "must be an object");
  // Field paths are built only on failure: this loop runs once per event.
  if (!isNonEmptyString(raw.id)) throw new TrajectoryError(`events[${index}].id`, NON_EMPTY);
  if (!isActor(raw.actor)) throw new TrajectoryError(`events[${index}].actor`, "must be user, agent, or tool");
  if (!isNonEmptyString(raw.action)) throw new TrajectoryError(`events[${index}].action`, NON_EMPTY);
  const content = raw.content;
  const metadata = raw.metadata;
  const contentOk = content === undefined || typeof content === "string";
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) {
    throw new TrajectoryError(`events[${index}].metadata`, "must be an object of key: value pairs");
  }
  // `metadata: null` means none, like an absent key; it is normalized away below.
  const metadataOk = metadata === undefined || (metadata !== null && isStringMap(metadata as Record<string, unknown>));
  // The common case: already normal, so the caller's object is used as is.
  if (contentOk && metadataOk) return raw as unknown as TrajectoryEvent;
  return {
    id: raw.id as string,
    actor: raw.actor,
    action: raw.action as string,
    content: typeof content === "string" ? content : "",
    metadata: metadata === undefined || metadata === null ? undefined : stringMapCopy(metadata as Record<string, unknown>, index),
  };
}

/**
 * Whether `raw` is an event already in normal form, which `readEvent` would
 * return as is: the fields read in `readEvent`'s order, with no call and no
 * path built, so that the loop over a trajectory's events stays one tight
 * pass. Anything else (an error to name, a value to convert) is `readEvent`'s.
 */
export function isNormalEvent(raw: unknown): raw is TrajectoryEvent {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return false;
  const fields = raw as Record<string, unknown>;
  const id = fields.id;
  if (typeof id !== "string" || id === "") return false;
  const actor = fields.actor;
  if (actor !== "agent" && actor !== "tool" && actor !== "user") return false;
  const action = fields.action;
  if (typeof action !== "string" || action === "") return false;
  const content = fields.content;
  const metadata = fields.metadata;
  if (content !== undefined && typeof content !== "string") return false;
  if (metadata === undefined) return true;
  return typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) && isStringMap(metadata as Record<string, unknown>);
}

/** Shortlex order: shorter first, then by code units. "e9" < "e10" < "e11". */
function shortlexBefore(a: string, b: string): boolean {
  return a.length < b.length || (a.length === b.length && a < b);
}

function duplicateId(index: number, id: string): TrajectoryError {
  return new TrajectoryError(`events[${index}].id`, `duplicates the id ${JSON.stringify(id)} of an earlier event`);
}

/**
 * Event ids must be unique. Most producers number their events, so ids come in
 * strictly increasing shortlex order, which proves uniqueness with one string
 * comparison per event (made in the validation loop); only when that order
 * breaks does this Set-based check run.
 */
function assertUniqueIds(events: readonly TrajectoryEvent[]): void {
  const seen = new Set<string>();
  for (let k = 0; k < events.length; k++) {
    const id = events[k]!.id;
    if (seen.has(id)) throw duplicateId(k, id);
    seen.add(id);
  }
}

/**
 * The ids of a trajectory that arrives one event at a time (a monitor), with
 * the same cheap proof: while the ids added increase in shortlex order, they
 * are kept in a list that is therefore sorted, a new id past the last one is
 * proven new with one comparison, and any other id (a `check` of an event
 * numbered otherwise) is looked up by binary search, changing nothing. Only
 * when an id is added out of order does a Set take over.
 */
export class EventIds {
  #last = "";
  #list: string[] | undefined = [];
  #set: Set<string> | undefined;

  /** @throws TrajectoryError when `id` (of the event at `index`) was seen before. Changes nothing. */
  assertNew(id: string, index: number): void {
    const list = this.#list;
    if (list !== undefined) {
      if (shortlexBefore(this.#last, id) || !sortedHas(list, id)) return;
    } else if (!this.#set!.has(id)) return;
    throw duplicateId(index, id);
  }

  add(id: string): void {
    const list = this.#list;
    if (list !== undefined && shortlexBefore(this.#last, id)) {
      list.push(id);
      this.#last = id;
      return;
    }
    if (this.#set === undefined) {
      this.#set = new Set(list);
      this.#list = undefined;
    }
    this.#set.add(id);
  }
}

/** Whether `list`, sorted in shortlex order, holds `id`. */
function sortedHas(list: readonly string[], id: string): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const item = list[middle]!;
    if (item === id) return true;
    if (shortlexBefore(item, id)) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** A trajectory's fields other than its events, checked; `events` is the raw array, not yet checked. */
export interface TrajectoryHeader {
  readonly id: string;
  readonly description: string;
  readonly complete: boolean;
  readonly events: readonly unknown[];
}

/** `description`: null is how many producers write an absent optional field; it means the default "". */
export function readDescription(value: unknown): string {
  const description = value ?? "";
  if (typeof description !== "string") throw new TrajectoryError("description", "must be a string");
  return description;
}

/** Checks a trajectory's header fields (docs/FORMATS.md §2), in the order validation reports them. */
export function readTrajectoryHeader(raw: unknown): TrajectoryHeader {
  if (!isObject(raw)) throw new TrajectoryError("", "a trajectory must be a JSON object");
  const id = requireNonEmptyString(raw.id, "id");
  const description = readDescription(raw.description);
  if (typeof raw.complete !== "boolean") throw new TrajectoryError("complete", "must be true or false");
  if (!Array.isArray(raw.events)) throw new TrajectoryError("events", "must be an array");
  return { id, description, complete: raw.complete, events: raw.events };
}

/** The header of a monitored trajectory: `id` and `description` as a trajectory's. */
export function readMonitorHeader(raw: unknown): { id: string; description: string } {
  if (!isObject(raw)) throw new TrajectoryError("", "a trajectory header must be an object with an id");
  return { id: requireNonEmptyString(raw.id, "id"), description: readDescription(raw.description) };
}

/**
 * Checks every event and returns them in normal form, in one pass that also
 * steps `steppers` (when given) with each event as soon as it is checked: the
 * fused loop of a judge, where validation and every rule see an event while
 * it is in cache. The caller's array is returned as is until an event needs
 * a normalized copy.
 * @throws TrajectoryError naming the first offending field.
 */
export function readEvents(rawEvents: readonly unknown[], steppers?: Steppers): readonly TrajectoryEvent[] {
  let events = rawEvents as TrajectoryEvent[];
  let idsInOrder = true;
  let previousId = "";
  for (let i = 0; i < rawEvents.length; i++) {
    const raw = rawEvents[i];
    const event = isNormalEvent(raw) ? raw : readEvent(raw, i);
    if (idsInOrder) {
      idsInOrder = shortlexBefore(previousId, event.id);
      previousId = event.id;
    }
    if (event !== raw) {
      if (events === rawEvents) events = rawEvents.slice() as TrajectoryEvent[];
      events[i] = event;
    }
    if (steppers !== undefined) steppers.step(event);
  }
  if (!idsInOrder) assertUniqueIds(events);
  return events;
}

/**
 * Checks a trajectory against docs/FORMATS.md §2 and returns it in normal form
 * (see TrajectoryEvent), reusing the caller's objects where they already are.
 * @throws TrajectoryError naming the first offending field.
 */
export function validateTrajectory(raw: unknown): Trajectory {
  const { id, description, complete, events } = readTrajectoryHeader(raw);
  return { id, description, complete, events: readEvents(events) };
}
