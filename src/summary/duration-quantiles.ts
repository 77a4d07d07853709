/**
 * Quantiles of a stream of durations (whole milliseconds, as the server writes them) in
 * bounded memory: exact while at most `capacity` values were seen; beyond, the values are
 * folded into a log-bucketed sketch (DDSketch's mapping, Masson, Rim and Lee, VLDB 2019) whose
 * quantiles are within RELATIVE_ACCURACY of the exact ones, whatever the count. Its buckets
 * are bounded by the range of the values (about 2,100 from 1 ms to 11 days), not by their
 * number. The count, total, minimum and maximum stay exact. docs/design.md says why this and
 * not a sample or the npm package.
 */

/** What the reports promise: a sketched quantile, as shown (a whole millisecond), is within 1% of the exact one. */
export const RELATIVE_ACCURACY = 0.01;
/**
 * The sketch's own accuracy: half the promise, as the value is then rounded to a whole
 * millisecond (half a millisecond is at most the other half of 1% from 50 ms up; below 100 ms
 * a bucket is narrower than a millisecond and holds one whole value, which comes back exactly).
 * With the whole 1% for the sketch, rounding took a p50 of 164 ms to 162 (1.2%).
 */
const SKETCH_ACCURACY = RELATIVE_ACCURACY / 2;
const GAMMA = (1 + SKETCH_ACCURACY) / (1 - SKETCH_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);

export class DurationQuantiles {
  readonly #capacity: number;
  /** Every value, while no more than `capacity`; then undefined and the buckets hold them. */
  #values: number[] | undefined = [];
  /** Values by bucket (ceil(log_gamma(v))); zero and below in `#zeros`. */
  #buckets: Map<number, number> | undefined;
  #zeros = 0;
  #count = 0;
  #total = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(value: number): void {
    this.#count++;
    this.#total += value;
    if (value > this.#max) this.#max = value;
    if (value < this.#min) this.#min = value;
    const values = this.#values;
    if (values) {
      values.push(value);
      if (values.length > this.#capacity) {
        this.#values = undefined;
        this.#buckets = new Map();
        for (const held of values) this.#bucket(held);
      }
    } else this.#bucket(value);
  }

  #bucket(value: number): void {
    if (value <= 0) {
      this.#zeros++;
      return;
    }
    const index = Math.ceil(Math.log(value) / LOG_GAMMA);
    const buckets = this.#buckets!;
    buckets.set(index, (buckets.get(index) ?? 0) + 1);
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

  /** Whether the quantiles are exact (no more values than the capacity were seen). */
  get exact(): boolean {
    return this.#values !== undefined;
  }

  /**
   * The q-quantile (0..1) by the nearest-rank method: exact while every value is held, else
   * within RELATIVE_ACCURACY of it, rounded to a whole millisecond and kept within [min, max].
   */
  quantile(q: number): number {
    if (this.#count === 0) return 0;
    const rank = Math.min(this.#count - 1, Math.max(0, Math.ceil(q * this.#count) - 1));
    if (this.#values) return [...this.#values].sort((a, b) => a - b)[rank]!;
    if (rank < this.#zeros) return Math.max(this.#min, 0);
    let seen = this.#zeros;
    for (const index of [...this.#buckets!.keys()].sort((a, b) => a - b)) {
      seen += this.#buckets!.get(index)!;
      if (seen > rank) {
        // The bucket's values are in (gamma^(i-1), gamma^i]: its middle by relative error.
        const value = Math.round((2 * GAMMA ** index) / (GAMMA + 1));
        return Math.min(this.#max, Math.max(this.#min, value));
      }
    }
    return this.#max;
  }
}
