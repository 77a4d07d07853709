/**
 * The `n` greatest items of a stream by a number, in bounded memory: a min-heap of `n`, so an
 * item smaller than the least held costs one comparison. Ties keep the item seen first.
 */
export class TopN<T> {
  readonly #n: number;
  readonly #by: (item: T) => number;
  readonly #heap: T[] = [];

  constructor(n: number, by: (item: T) => number) {
    this.#n = n;
    this.#by = by;
  }

  /** Whether an item of this size would be held: asked before an item is made (its fields read). */
  wouldHold(value: number): boolean {
    return this.#heap.length < this.#n || value > this.#by(this.#heap[0]!);
  }

  add(item: T): void {
    const heap = this.#heap;
    if (heap.length < this.#n) {
      heap.push(item);
      this.#up(heap.length - 1);
    } else if (this.#n > 0 && this.#by(item) > this.#by(heap[0]!)) {
      heap[0] = item;
      this.#down(0);
    }
  }

  /** The items held, greatest first. */
  items(): T[] {
    return [...this.#heap].sort((a, b) => this.#by(b) - this.#by(a));
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#by(heap[parent]!) <= this.#by(heap[i]!)) return;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && this.#by(heap[left]!) < this.#by(heap[least]!)) least = left;
      if (right < heap.length && this.#by(heap[right]!) < this.#by(heap[least]!)) least = right;
      if (least === i) return;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
}
