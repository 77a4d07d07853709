/**
 * Counts by key in bounded memory: once `limit` keys are held, a new key folds the lighter
 * half of them (the least frequent; `rank` first, where given) into one "other" total
 * (heavy-rows.ts), so a log with a million distinct messages does not hold a million keys and
 * a frequent key that comes late still gets its row. Each key keeps a value of its own: an
 * example, a first time.
 */
import { HeavyRows } from './heavy-rows.js';

/** A key's count and value. A class, not an object literal (docs/design.md, "classes for what is made per key"). */
class Held<V> {
  count = 0;
  value: V;
  constructor(value: V) {
    this.value = value;
  }
}

export class BoundedCounts<V = undefined, K extends string | number = string> {
  readonly #rows: HeavyRows<K, Held<V>>;
  /**
   * The keys counted last, and what is held for each: looked at before the map, as a log
   * repeats a handful of keys (a server's components and message ids, line after line);
   * emptied when rows are folded (`#folds`).
   */
  readonly #recentKeys: (K | undefined)[];
  readonly #recentHeld: (Held<V> | undefined)[];
  #nextRecent = 0;
  #folds = 0;

  /**
   * `recent`: how many of the keys counted last are looked at before the map; `rank`: a value's
   * class, lower kept first when rows are folded (a level's rank: an error's row outlives any
   * warning's), whatever the counts.
   */
  constructor(limit: number, recent = 1, rank?: (value: V) => number) {
    this.#rows = new HeavyRows<K, Held<V>>(limit, new Held<V>(undefined as V), {
      weight: (held) => held.count,
      fold: (other, held) => {
        other.count += held.count;
      },
      ...(rank ? { rank: (held: Held<V>) => rank(held.value) } : {}),
    });
    this.#recentKeys = new Array<K | undefined>(recent).fill(undefined);
    this.#recentHeld = new Array<Held<V> | undefined>(recent).fill(undefined);
  }

  /**
   * Counts one for `key`; `valueOf` makes the key's value the first time it is seen. Returns
   * what is held for the key (its value undefined the first time, without `valueOf`).
   */
  add(key: K, valueOf?: () => V): { count: number; value: V } {
    const recent = this.#recentKeys;
    for (let i = 0; i < recent.length; i++) {
      if (recent[i] === key) {
        const known = this.#recentHeld[i]!;
        known.count++;
        return known;
      }
    }
    const rows = this.#rows;
    const held = rows.get(key) ?? rows.row(key, () => new Held(valueOf?.() as V));
    held.count++;
    if (rows.folds !== this.#folds) {
      // Rows were folded: what the recent keys point at may be gone.
      this.#folds = rows.folds;
      recent.fill(undefined);
      this.#recentHeld.fill(undefined);
    }
    const at = this.#nextRecent;
    recent[at] = key;
    this.#recentHeld[at] = held;
    this.#nextRecent = at + 1 === recent.length ? 0 : at + 1;
    return held;
  }

  get size(): number {
    return this.#rows.size;
  }

  /** What the rows folded counted. */
  get other(): number {
    return this.#rows.other.count;
  }

  /** The most frequent first (ties by key), at most `n`. */
  top(n = Infinity): { key: K; count: number; value: V }[] {
    return [...this.#rows.entries()]
      .map(({ key, row: { count, value } }) => ({ key, count, value }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, n);
  }
}
