/**
 * Counts by key in bounded memory: once `limit` keys are held, new keys are counted together
 * under one "other" total (a log with a million distinct messages does not hold a million
 * keys). Each key keeps a value of its own: an example, a first time.
 */
/** A key's count and value. A class, not an object literal (docs/design.md, "classes for what is made per key"). */
class Held<V> {
  count = 1;
  readonly value: V;
  constructor(value: V) {
    this.value = value;
  }
}

export class BoundedCounts<V = undefined, K extends string | number = string> {
  readonly #limit: number;
  readonly #counts = new Map<K, { count: number; value: V }>();
  #other = 0;
  /**
   * The keys counted last, and what is held for each (a key counted under "other" is never
   * among them): looked at before the map, as a log repeats a handful of keys (a server's
   * components and message ids, line after line).
   */
  readonly #recentKeys: (K | undefined)[];
  readonly #recentHeld: ({ count: number; value: V } | undefined)[];
  #nextRecent = 0;

  /** `recent`: how many of the keys counted last are looked at before the map. */
  constructor(limit: number, recent = 1) {
    this.#limit = limit;
    this.#recentKeys = new Array<K | undefined>(recent).fill(undefined);
    this.#recentHeld = new Array<{ count: number; value: V } | undefined>(recent).fill(undefined);
  }

  /**
   * Counts one for `key`; `valueOf` makes the key's value the first time it is seen. Returns
   * what is held for the key (its value undefined the first time, without `valueOf`), or
   * undefined when it was counted under "other".
   */
  add(key: K, valueOf?: () => V): { count: number; value: V } | undefined {
    const recent = this.#recentKeys;
    for (let i = 0; i < recent.length; i++) {
      if (recent[i] === key) {
        const known = this.#recentHeld[i]!;
        known.count++;
        return known;
      }
    }
    let held = this.#counts.get(key);
    if (held) held.count++;
    else {
      // Bumped for every new key, by 0 or 1 (docs/design.md, "bounds bumped by 0 or 1").
      const room = this.#counts.size < this.#limit;
      this.#other += room ? 0 : 1;
      if (room) {
        held = new Held(valueOf?.() as V);
        this.#counts.set(key, held);
      }
    }
    if (held) {
      const at = this.#nextRecent;
      recent[at] = key;
      this.#recentHeld[at] = held;
      this.#nextRecent = at + 1 === recent.length ? 0 : at + 1;
    }
    return held;
  }

  get size(): number {
    return this.#counts.size;
  }

  /** Keys counted together because the limit was reached. */
  get other(): number {
    return this.#other;
  }

  /** The most frequent first (ties by key), at most `n`. */
  top(n = Infinity): { key: K; count: number; value: V }[] {
    return [...this.#counts.entries()]
      .map(([key, { count, value }]) => ({ key, count, value }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, n);
  }
}
