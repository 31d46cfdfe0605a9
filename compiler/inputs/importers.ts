/**
 * The importers, loaded when an input first needs one (issue 26): a run over
 * trajectories never loads the 27 modules of the trace formats, which cost
 * more to load than judging thousands of small cases. Each reader asks
 * `needsImporters` of a value before handing it to the synchronous code of
 * trace-inputs.ts, and awaits `loadImporters()` when it says so; that code
 * then reaches them through `importers()`. A plain trajectory (or a labeled
 * case wrapping one) is read without them, whatever `from` says.
 */
import type * as Importers from "../../importers/index.js";
import { looksLikeTrajectory } from "../../importers/formats.js";
import { isObject } from "../../runtime/is-object.js";

let loaded: typeof Importers | undefined;

/** Loads the importers once; later calls return at once. */
export async function loadImporters(): Promise<typeof Importers> {
  loaded ??= await import("../../importers/index.js");
  return loaded;
}

/** The importers, once a reader has loaded them (`needsImporters` said it would). */
export function importers(): typeof Importers {
  if (loaded === undefined)
    throw new Error("internal error: an input needed the importers before they were loaded (compiler/inputs/importers.ts)");
  return loaded;
}

/**
 * Whether reading `value` (a whole file's value, a JSONL line, an array
 * element) may need the importers and they are not loaded yet. Only values
 * that are surely read as they are need nothing: a trajectory without a
 * `trajectory` field, a labeled case (`trajectory` and `expected`) wrapping
 * one, and a non-empty array of these.
 */
export function needsImporters(value: unknown): boolean {
  if (loaded !== undefined) return false;
  if (Array.isArray(value)) return value.length === 0 || !value.every(readAsIs);
  return !readAsIs(value);
}

/** A trajectory as it is (no label, no import): what every reader makes of it, whatever `from` says, is `toCase(value, origin)`. */
export function plainTrajectory(value: unknown): boolean {
  return isObject(value) && !("trajectory" in value) && looksLikeTrajectory(value);
}

/** Whether `value` is surely read as it is, without the importers, whether they are loaded or not (needsImporters, less the loading). */
export function readAsIs(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!("trajectory" in value)) return looksLikeTrajectory(value);
  return "expected" in value && looksLikeTrajectory(value.trajectory);
}
