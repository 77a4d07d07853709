/**
 * A small seeded generator (sfc32): the same seed gives the same schedule and the same line
 * bytes on every machine, which is what makes a failing seed replayable.
 */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(...seeds: readonly number[]) {
    const mixed = mixSeeds(seeds);
    this.#a = mixed[0]!;
    this.#b = mixed[1]!;
    this.#c = mixed[2]!;
    this.#d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** In [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of `items`, drawn in proportion to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [item, weight] of items) {
      at -= weight;
      if (at < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** `count` distinct items of `items`, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, count);
  }
}

/** Three 32-bit words from any number of integers (a murmur-style finaliser per input). */
function mixSeeds(seeds: readonly number[]): number[] {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  let h3 = 0xc2b2ae35;
  for (const seed of seeds) {
    // Seeds may exceed 32 bits (a time-based seed): both halves count.
    for (const word of [seed >>> 0, Math.floor(seed / 4294967296) >>> 0]) {
      h1 = fmix(h1 ^ word);
      h2 = fmix(h2 + h1);
      h3 = fmix(h3 ^ h2);
    }
  }
  return [h1, h2, h3];
}

function fmix(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
