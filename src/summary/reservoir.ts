/**
 * A uniform sample of a stream in bounded memory: every item until `capacity` are held, then
 * each new one replaces a random slot with probability capacity/seen (Vitter's algorithm R).
 * Seeded, so a run is repeatable.
 */
export class Reservoir<T> {
  readonly #capacity: number;
  readonly #random: () => number;
  readonly #items: T[] = [];
  #seen = 0;

  /** `random`: uniform in [0, 1), seeded (xorshift32, linearCongruential). */
  constructor(capacity: number, random: () => number) {
    this.#capacity = capacity;
    this.#random = random;
  }

  add(item: T): void {
    this.#seen++;
    if (this.#items.length < this.#capacity) {
      this.#items.push(item);
      return;
    }
    const slot = Math.floor(this.#random() * this.#seen);
    if (slot < this.#capacity) this.#items[slot] = item;
  }

  /** Items offered, sampled or not. */
  get seen(): number {
    return this.#seen;
  }

  /** The sample (every item while no more than `capacity` were offered), in no particular order. */
  get items(): readonly T[] {
    return this.#items;
  }
}

/**
 * Two seeded sources of uniform numbers: the quantiles and the plot's points have each sampled
 * with their own since they were written, and keep it, so a report's samples stay as they were.
 */

/** xorshift32: fast, seeded, good enough to pick reservoir slots. */
export function xorshift32(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

/** The C library's linear congruential generator (multiplier 1103515245, increment 12345). */
export function linearCongruential(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 0x1_0000_0000;
  };
}
