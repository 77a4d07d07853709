/**
 * Counts by key in bounded memory: once `limit` keys are held, new keys are counted together
 * under one "other" total (a log with a million distinct messages does not hold a million
 * keys). Each key keeps a value of its own: an example, a first time.
 */
export class BoundedCounts<V = undefined, K extends string | number = string> {
  readonly #limit: number;
  readonly #counts = new Map<K, { count: number; value: V }>();
  #other = 0;
  #lastKey: K | undefined;
  #lastHeld: { count: number; value: V } | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Counts one for `key`; `valueOf` makes the key's value the first time it is seen. Returns
   * what is held for the key (its value undefined the first time, without `valueOf`), or
   * undefined when it was counted under "other".
   */
  add(key: K, valueOf?: () => V): { count: number; value: V } | undefined {
    // The same key as the last time, often (a log's severities): no lookup.
    if (key === this.#lastKey && this.#lastHeld) {
      this.#lastHeld.count++;
      return this.#lastHeld;
    }
    let held = this.#counts.get(key);
    if (held) held.count++;
    else if (this.#counts.size < this.#limit) {
      held = { count: 1, value: valueOf?.() as V };
      this.#counts.set(key, held);
    } else this.#other++;
    this.#lastKey = key;
    this.#lastHeld = held;
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
