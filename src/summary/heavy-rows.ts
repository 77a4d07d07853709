/**
 * Rows by key in bounded memory that keep the heaviest, not the first: while fewer than
 * `limit` keys are held every key has a row of its own, exactly counted; when a new key comes
 * to a full table, the lighter half of the rows (by rank first: an error's row outranks any
 * warning's; then by weight) is folded into one "(other)" row, and the new key gets a row.
 *
 * Why not the first come: a client that opens 150 connections after 700 that opened one each,
 * a namespace that sends 160 MB after 620 that sent 100 B, a fatal line after 600 distinct
 * warnings, are what an engineer looks for, and a table that kept the first keys lost them.
 *
 * The bound (Space-Saving's, made in batches): a key folded away and seen again starts a new
 * row, which misses what was folded of it before. A row made after a fold is ranked as if it
 * held the heaviest weight folded so far besides its own (`before`: the most it can miss, as
 * Space-Saving's new counter takes the least one's count), so what a key folded is never more
 * than `foldedWeight`, and a key that weighs more than that keeps its row among the rows of its
 * rank (a rank folds every lower one's rows first: a heavy warning before a light error). A
 * row's weight is exact when its `before` is 0 (made before any fold). Folding costs a sort of
 * one number a held row, once per limit/2 new keys.
 */
export interface HeavyRowsOptions<V> {
  /** What ranks a row in the table: the bigger, the more it is kept. */
  readonly weight: (row: V) => number;
  /** Adds a row being folded into the "(other)" row. */
  readonly fold: (other: V, row: V) => void;
  /** A row's class, lower kept first whatever the weights (a severity's rank: fatal 0 before warning 3); 0 for all without. */
  readonly rank?: (row: V) => number;
}

export class HeavyRows<K, V> {
  readonly #limit: number;
  readonly #options: HeavyRowsOptions<V>;
  readonly #rows = new Map<K, Held<V>>();
  readonly #other: V;
  #otherKeys = 0;
  #foldedWeight = 0;
  #folds = 0;

  /** `other`: the "(other)" row, empty: rows folded are added to it. */
  constructor(limit: number, other: V, options: HeavyRowsOptions<V>) {
    if (limit < 2) throw new RangeError('HeavyRows holds at least 2 rows');
    this.#limit = limit;
    this.#other = other;
    this.#options = options;
  }

  /** The key's row, made by `make` when it has none (folding the lighter half first when the table is full). */
  row(key: K, make: (key: K) => V): V {
    let held = this.#rows.get(key);
    if (held === undefined) {
      if (this.#rows.size >= this.#limit) this.#foldLighterHalf();
      held = new Held(make(key), this.#foldedWeight);
      this.#rows.set(key, held);
    }
    return held.row;
  }

  /** The key's row if it has one. */
  get(key: K): V | undefined {
    return this.#rows.get(key)?.row;
  }

  get size(): number {
    return this.#rows.size;
  }

  /** The "(other)" row: every row folded, added up. */
  get other(): V {
    return this.#other;
  }

  /** How many rows were folded into "(other)" (a key folded twice counts twice). */
  get otherKeys(): number {
    return this.#otherKeys;
  }

  /** The heaviest row folded so far: the most a row held now may miss (0: every row is exact). */
  get foldedWeight(): number {
    return this.#foldedWeight;
  }

  /** How many times rows were folded: a caller that keeps a row it was given asks again when this moved. */
  get folds(): number {
    return this.#folds;
  }

  /** Every row held, in no order, with the most it may miss (`before`: 0 when it is exact). */
  *entries(): IterableIterator<{ key: K; row: V; before: number }> {
    for (const [key, { row, before }] of this.#rows) yield { key, row, before };
  }

  #foldLighterHalf(): void {
    const { weight, rank, fold } = this.#options;
    // The rows kept: the first half by rank, then by what each may have weighed in all (its own
    // and what it may miss). Found by sorting one number a row (rank and weight in one key, no
    // object a row): a fold comes once per limit/2 new keys, and a stream of new keys (clients
    // from more addresses than the limit) folds often.
    const keys = new Float64Array(this.#rows.size);
    let i = 0;
    for (const { row, before } of this.#rows.values()) keys[i++] = orderKey(rank?.(row) ?? 0, weight(row) + before);
    keys.sort();
    const keep = Math.ceil(this.#limit / 2);
    // Rows ordered before the threshold stay; of those equal to it, as many as there is room for.
    const threshold = keys[keep - 1]!;
    let equalRoom = 0;
    for (let k = keep - 1; k >= 0 && keys[k] === threshold; k--) equalRoom++;
    for (const [key, { row, before }] of this.#rows) {
      const total = weight(row) + before;
      const order = orderKey(rank?.(row) ?? 0, total);
      if (order < threshold) continue;
      if (order === threshold && equalRoom > 0) {
        equalRoom--;
        continue;
      }
      fold(this.#other, row);
      this.#rows.delete(key);
      this.#otherKeys++;
      if (total > this.#foldedWeight) this.#foldedWeight = total;
    }
    this.#folds++;
  }
}

/**
 * One number that orders rows as kept: a lower rank first, then the heavier. Weights are whole
 * counts or bytes below 2^40 (a terabyte of responses), ranks small: rank * 2^42 - weight sorts
 * both exactly in a double.
 */
const orderKey = (rank: number, weight: number): number => rank * 2 ** 42 - Math.min(weight, 2 ** 41);

/** A row and the most it may miss. A class, not an object literal (docs/design.md, "classes for what is made per key"). */
class Held<V> {
  readonly row: V;
  readonly before: number;
  constructor(row: V, before: number) {
    this.row = row;
    this.before = before;
  }
}

/** A row's `missedAtMost` for the summary: present only where the row may miss some (made after a fold). */
export const missed = (before: number): { missedAtMost?: number } => (before > 0 ? { missedAtMost: before } : {});
