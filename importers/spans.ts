import { KeyedQueues, boundedJson, parseJson } from "./core.js";

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
  return a === b || canonicalJson(a) === canonicalJson(b);
}

/**
 * A text's JSON written back compactly, so two texts of the same JSON compare
 * equal; a text that is not JSON (or nests past MAX_NESTING, whose
 * re-serializing would depend on the thread's stack) stands for itself.
 */
export function canonicalJson(text: string): string {
  const parsed = parseJson(text);
  const json = parsed === undefined ? undefined : boundedJson(parsed);
  return json === undefined ? `text:${text}` : `json:${json}`;
}

/** A parent cycle that spanForest broke: the spans on it, from the one read as a root on. */
export interface SpanCycle<S> {
  /** The spans on the cycle, starting at `cut` and following parent ids. */
  spans: readonly S[];
  /** The span whose parent link was dropped: the cycle's earliest span by `order`. */
  cut: S;
}

/**
 * Links spans into trees by their parent ids and returns the roots, roots and
 * each span's children sorted by `order`. A span whose parent was not exported
 * (a partial export) is a root; the first span with an id wins a duplicate.
 *
 * Spans whose parent ids form a cycle (a → b → a) are reached from no root;
 * they are never dropped: each cycle is broken at its earliest span by
 * `order` (start time, then file order), which `onCycle` may hang under
 * another span (its return value), else it becomes a root. `onCycle` hears of
 * every cycle, so the importer can warn naming the span ids. Iterative: a
 * chain of 100,000 spans needs no stack.
 */
export function spanForest<S extends { children: S[] }>(
  spans: readonly S[],
  idOf: (span: S) => string | undefined,
  parentOf: (span: S) => string | undefined,
  order: (a: S, b: S) => number,
  onCycle?: (cycle: SpanCycle<S>) => S | undefined,
): S[] {
  const byId = new Map<string, S>();
  for (const s of spans) {
    const id = idOf(s);
    if (id !== undefined && !byId.has(id)) byId.set(id, s);
  }
  const roots: S[] = [];
  const parents = new Map<S, S>();
  for (const s of spans) {
    const parentId = parentOf(s);
    const parent = parentId === undefined ? undefined : byId.get(parentId);
    if (parent === undefined || parent === s) roots.push(s);
    else {
      parent.children.push(s);
      parents.set(s, parent);
    }
  }
  const reached = new Set<S>();
  for (const root of roots) reach(root, reached);
  for (const s of spans) {
    if (reached.has(s)) continue;
    const cycle = cycleAbove(s, parents, order);
    const parent = parents.get(cycle.cut)!;
    parent.children.splice(parent.children.indexOf(cycle.cut), 1);
    parents.delete(cycle.cut);
    const host = onCycle?.(cycle);
    if (host !== undefined && reached.has(host)) host.children.push(cycle.cut);
    else roots.push(cycle.cut);
    reach(cycle.cut, reached);
  }
  roots.sort(order);
  for (const s of spans) s.children.sort(order);
  return roots;
}

/** Marks `from` and everything under it. */
function reach<S extends { children: S[] }>(from: S, reached: Set<S>): void {
  const stack = [from];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (reached.has(s)) continue;
    reached.add(s);
    for (const child of s.children) stack.push(child);
  }
}

/**
 * The cycle the parent links of an unreached span lead into (every unreached
 * span has a parent, and following parents must come back to a span seen
 * before), starting at its earliest span by `order`.
 */
function cycleAbove<S>(start: S, parents: ReadonlyMap<S, S>, order: (a: S, b: S) => number): SpanCycle<S> {
  const seen = new Map<S, number>();
  const chain: S[] = [];
  let s = start;
  while (!seen.has(s)) {
    seen.set(s, chain.length);
    chain.push(s);
    s = parents.get(s)!;
  }
  const ring = chain.slice(seen.get(s)!);
  let cut = 0;
  for (let i = 1; i < ring.length; i++) if (order(ring[i]!, ring[cut]!) < 0) cut = i;
  return { spans: [...ring.slice(cut), ...ring.slice(0, cut)], cut: ring[cut]! };
}

/** The warning for a broken cycle: `span ids a → b → a form a parent cycle; a is read as a root`. */
export function cycleWarning(ids: readonly string[], where: string): string {
  return `${ids.join(" → ")} → ${ids[0]} form a parent cycle: the link from ${ids[0]} to its parent is dropped and ${ids[0]} is read ${where}, so no span is lost`;
}

/**
 * Visits trees depth first, a span before its children, children in order,
 * as a recursive walk would, but with a stack of its own: a parent chain of
 * 100,000 spans walks alike on any thread. `step` handles one span with the
 * context its parent handed down and returns the context for its children.
 */
export function walkDepthFirst<S extends { children: readonly S[] }, C>(
  roots: readonly S[],
  context: C,
  step: (span: S, context: C) => C,
): void {
  const stack: { span: S; context: C }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ span: roots[i]!, context });
  while (stack.length > 0) {
    const { span, context: inherited } = stack.pop()!;
    const passed = step(span, inherited);
    for (let i = span.children.length - 1; i >= 0; i--) stack.push({ span: span.children[i]!, context: passed });
  }
}

/** A binary min-heap: results waiting for their span's end, taken in (end, file order) as time passes. */
export class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.before(items[l]!, items[m]!)) m = l;
        if (r < items.length && this.before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * The model's calls a tool span (or run) may have run, found in constant
 * time: the earliest open one with the same call id, with the same name and
 * the same JSON arguments, or with the same name. A scan of every call per
 * tool span made 100,000-span traces quadratic.
 */
export class CallIndex<C extends { id: string | undefined; name: string; args: string }> {
  private readonly ids = new KeyedQueues<C>();
  private readonly names = new KeyedQueues<C>();
  private readonly namesAndArgs = new KeyedQueues<C>();
  constructor(private readonly open: (call: C) => boolean) {}

  add(call: C): void {
    if (call.id !== undefined) this.ids.add(call.id, call);
    this.names.add(call.name, call);
    this.namesAndArgs.add(`${call.name}\u0000${canonicalJson(call.args)}`, call);
  }

  byId(id: string): C | undefined {
    return this.ids.first(id, this.open);
  }

  /** Same name and same JSON arguments (sameJson), else same name. */
  byName(name: string, args: string): C | undefined {
    return this.namesAndArgs.first(`${name}\u0000${canonicalJson(args)}`, this.open) ?? this.names.first(name, this.open);
  }
}
