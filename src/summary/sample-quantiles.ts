/**
 * Quantiles of a stream of numbers in bounded memory: exact up to `capacity` values, then a
 * uniform reservoir sample of that many (Vitter's algorithm R, seeded, so a run is
 * repeatable). The count, total and maximum stay exact.
 */
export class SampleQuantiles {
  readonly #capacity: number;
  readonly #sample: number[] = [];
  #count = 0;
  #total = 0;
  #max = Number.NEGATIVE_INFINITY;
  #seed = 0x9e3779b9;

  constructor(capacity = 1024) {
    this.#capacity = capacity;
  }

  add(value: number): void {
    this.#count++;
    this.#total += value;
    if (value > this.#max) this.#max = value;
    if (this.#sample.length < this.#capacity) {
      this.#sample.push(value);
      return;
    }
    const slot = Math.floor(this.#random() * this.#count);
    if (slot < this.#capacity) this.#sample[slot] = value;
  }

  get count(): number {
    return this.#count;
  }

  get total(): number {
    return this.#total;
  }

  get max(): number {
    return this.#count === 0 ? 0 : this.#max;
  }

  /** The q-quantile (0..1) by the nearest-rank method; exact while the sample holds every value. */
  quantile(q: number): number {
    if (this.#sample.length === 0) return 0;
    const sorted = [...this.#sample].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  }

  /** xorshift32: fast, seeded, good enough to pick reservoir slots. */
  #random(): number {
    let x = this.#seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#seed = x >>> 0;
    return this.#seed / 0x1_0000_0000;
  }
}
