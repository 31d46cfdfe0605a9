/**
 * Per-key state of the extended checks (docs/FORMATS.md §10): a Map from a
 * metadata value to what the check keeps for it, sized by the distinct values
 * seen. A monitor's `check(event)` steps the rules and then goes back
 * (stepper.ts `save`/`restore`): lists only grow, so their length stands for
 * them, but a Map entry may be added, replaced or deleted. Between `save` and
 * `restore` every change is journaled, so `restore` undoes exactly one
 * event's changes; outside them nothing is journaled and a change costs a Map
 * operation. Values must be replaced, never changed in place. Keys are
 * metadata values, or event indexes (numbers: no string made per event).
 */
export class Keyed<V, K extends string | number = string> {
  readonly #map = new Map<K, V>();
  /** While saving: for each change, the key and what it held before (`had` false: nothing). */
  #journal: { key: K; had: boolean; old: V | undefined }[] | undefined = undefined;

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  get size(): number {
    return this.#map.size;
  }

  set(key: K, value: V): void {
    this.#remember(key);
    this.#map.set(key, value);
  }

  delete(key: K): void {
    if (!this.#map.has(key)) return;
    this.#remember(key);
    this.#map.delete(key);
  }

  #remember(key: K): void {
    if (this.#journal === undefined) return;
    const had = this.#map.has(key);
    this.#journal.push({ key, had, old: had ? this.#map.get(key) : undefined });
  }

  /** Starts journaling: `restore` will undo every change from here. */
  save(): void {
    this.#journal = [];
  }

  /** Undoes the changes since `save`, newest first, and stops journaling. */
  restore(): void {
    const journal = this.#journal;
    this.#journal = undefined;
    if (journal === undefined) return;
    for (let i = journal.length - 1; i >= 0; i--) {
      const { key, had, old } = journal[i]!;
      if (had) this.#map.set(key, old as V);
      else this.#map.delete(key);
    }
  }
}
