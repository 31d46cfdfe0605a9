/**
 * How the reports list a clause's cited events: in trajectory order, each
 * with where an imported event came from. The judgment keeps the order its
 * checks cited them in (the differential tests compare it); only what a
 * person reads is sorted. Imports nothing: every judge.mjs carries it.
 */
import type { Citation } from "./types.js";

/** What the reports read of an event: its id and, for an imported one, the facts its importer kept. */
export interface LocatedEvent {
  readonly id: string;
  /** As read from the input: `metadata: null` is valid there and means none (docs/FORMATS.md). */
  readonly metadata?: Readonly<Record<string, unknown>> | null | undefined;
}

/** Each event's index in its trajectory, by id (ids are unique in a valid trajectory). */
export function eventPositions(events: readonly LocatedEvent[]): Map<string, number> {
  return new Map(events.map((e, i) => [e.id, i] as const));
}

/** Where `citations[i]` sorts: its event's index, and an event the trajectory lacks after all that it has. */
function rank(citations: readonly Citation[], positions: ReadonlyMap<string, number>, i: number): number {
  return positions.get(citations[i]!.eventId) ?? Number.POSITIVE_INFINITY;
}

/**
 * The first `limit` citations in trajectory order (ties, and events not in
 * `positions`, in the judgment's order). Without positions (a report given no
 * trajectory) the judgment's order is all there is, so it is kept. Linear in
 * the citations when they are already in order (a pairing over a long trace
 * cites every event), else at most `limit` steps per citation: nothing is
 * sorted beyond what is shown.
 */
export function citationsInOrder(
  citations: readonly Citation[],
  positions: ReadonlyMap<string, number> | undefined,
  limit: number,
): Citation[] {
  if (positions === undefined || inOrder(citations, positions)) return citations.slice(0, limit);
  const kept: number[] = [];
  for (let i = 0; i < citations.length; i++) {
    const at = rank(citations, positions, i);
    if (kept.length === limit && at >= rank(citations, positions, kept[kept.length - 1]!)) continue;
    let slot = kept.length;
    while (slot > 0 && rank(citations, positions, kept[slot - 1]!) > at) slot--;
    kept.splice(slot, 0, i);
    if (kept.length > limit) kept.pop();
  }
  return kept.map((i) => citations[i]!);
}

function inOrder(citations: readonly Citation[], positions: ReadonlyMap<string, number>): boolean {
  for (let i = 1; i < citations.length; i++) {
    if (rank(citations, positions, i - 1) > rank(citations, positions, i)) return false;
  }
  return true;
}

/**
 * The native ids an importer kept (docs/IMPORTERS.md, "Ids"), as shown beside
 * the synthetic event id, in this order. `@turn` is not among them: the
 * importer counts turns itself, so it names no place in the native file.
 */
const ORIGIN_FACTS = [
  ["@call_id", "call"],
  ["@span_id", "span"],
  ["@item_id", "item"],
] as const;

/** Where an imported event came from (`call call_lookupA1001, span 4982…`); undefined for an event without native ids. */
export function eventOrigin(event: LocatedEvent | undefined): string | undefined {
  const metadata = event?.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  let origin: string | undefined;
  for (let i = 0; i < ORIGIN_FACTS.length; i++) {
    const [key, label] = ORIGIN_FACTS[i]!;
    const value = metadata[key];
    // The load first, the own-property test only for a string: most events have metadata and no
    // native id, and a missing key costs less than Object.hasOwn (docs/SPEED.md, eighth round).
    if (typeof value === "string" && value !== "" && Object.hasOwn(metadata, key)) {
      origin = origin === undefined ? `${label} ${value}` : `${origin}, ${label} ${value}`;
    }
  }
  return origin;
}
