/**
 * Span-based formats record each model call with the whole conversation it
 * was sent, so the same user message comes back in every later call (and in
 * the next agent's, when agents share the history). SeenTexts picks out the
 * messages that are new: for each text, only occurrences beyond the number
 * already taken. Messages keep their order.
 */
export class SeenTexts {
  private readonly taken = new Map<string, number>();

  /** The texts of `texts` not seen before, in order; they count as seen from now on. */
  fresh(texts: readonly string[]): string[] {
    const inThisCall = new Map<string, number>();
    const out: string[] = [];
    for (const text of texts) {
      const n = (inThisCall.get(text) ?? 0) + 1;
      inThisCall.set(text, n);
      if (n > (this.taken.get(text) ?? 0)) {
        this.taken.set(text, n);
        out.push(text);
      }
    }
    return out;
  }
}

/**
 * Milliseconds of a time: a number (epoch ms) as is; an ISO text with its
 * fraction kept to the microsecond (Python writes `…:00.123456+00:00`, and
 * LangSmith omits the zone, meaning UTC), so close spans still sort right.
 * A missing or unreadable time sorts last (NaN would break a sort).
 */
export function timeOf(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string") return Number.POSITIVE_INFINITY;
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(value);
  const base = Date.parse(match === null ? value : `${match[1]}${match[3] || "Z"}`);
  if (Number.isNaN(base)) return Number.POSITIVE_INFINITY;
  return match?.[2] === undefined ? base : base + Number(`0.${match[2]}`) * 1000;
}

/** Two argument texts that mean the same JSON (an SDK may re-serialize what the model wrote). */
export function sameJson(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/**
 * Links spans into trees by their parent ids and returns the roots, roots and
 * each span's children sorted by `order`. A span whose parent was not exported
 * (a partial export) is a root; the first span with an id wins a duplicate.
 */
export function spanForest<S extends { children: S[] }>(
  spans: readonly S[],
  idOf: (span: S) => string | undefined,
  parentOf: (span: S) => string | undefined,
  order: (a: S, b: S) => number,
): S[] {
  const byId = new Map<string, S>();
  for (const s of spans) {
    const id = idOf(s);
    if (id !== undefined && !byId.has(id)) byId.set(id, s);
  }
  const roots: S[] = [];
  for (const s of spans) {
    const parentId = parentOf(s);
    const parent = parentId === undefined ? undefined : byId.get(parentId);
    if (parent === undefined || parent === s) roots.push(s);
    else parent.children.push(s);
  }
  roots.sort(order);
  for (const s of spans) s.children.sort(order);
  return roots;
}
