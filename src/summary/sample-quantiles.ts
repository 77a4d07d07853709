/**
 * Quantiles of a stream of numbers in bounded memory: exact up to `capacity` values, then a
 * uniform sample of that many (reservoir.ts). The count, total and maximum stay exact.
 */
import { Reservoir, xorshift32 } from './reservoir.js';

export class SampleQuantiles {
  readonly #sample: Reservoir<number>;
  #total = 0;
  #max = Number.NEGATIVE_INFINITY;

  constructor(capacity: number) {
    this.#sample = new Reservoir<number>(capacity, xorshift32(0x9e3779b9));
  }

  add(value: number): void {
    this.#total += value;
    if (value > this.#max) this.#max = value;
    this.#sample.add(value);
  }

  get count(): number {
    return this.#sample.seen;
  }

  get total(): number {
    return this.#total;
  }

  get max(): number {
    return this.count === 0 ? 0 : this.#max;
  }

  /** The q-quantile (0..1) by the nearest-rank method; exact while the sample holds every value. */
  quantile(q: number): number {
    const sample = this.#sample.items;
    if (sample.length === 0) return 0;
    const sorted = [...sample].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  }
}
