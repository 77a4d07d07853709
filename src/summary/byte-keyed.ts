/**
 * Values kept by the bytes of a short text: the same bytes find the same value, its text
 * decoded once, so a host that comes back on every connection line is found by its bytes
 * instead of being decoded and hashed as a new string each time. The keys' hashes, places and
 * bytes are held in a few flat arrays (an open-addressing table), so a lookup touches little
 * memory. Bounded: past `limit` texts (or their bytes past `limit` * `bytesPerKey`), a new
 * one's value is made each time it comes.
 */

const EMPTY = -1;

export class ByteKeyed<V> {
  readonly #limit: number;
  /** The pool's bound: `limit` * `bytesPerKey`. */
  readonly #maxPool: number;
  readonly #make: (text: string) => V;
  /** Indexes of the keys by hash (open addressing, linear probing); EMPTY where none. */
  readonly #slots: Int32Array;
  readonly #mask: number;
  /** Each key's hash, start in #pool and length. */
  readonly #keys: Int32Array;
  #pool: Buffer;
  #poolEnd = 0;
  readonly #values: V[] = [];

  /** `make`: the value of a text, the first time its bytes come. */
  constructor(limit: number, make: (text: string) => V, bytesPerKey = 64) {
    this.#limit = limit;
    this.#maxPool = limit * bytesPerKey;
    this.#make = make;
    let size = 16;
    while (size < 2 * limit) size *= 2;
    this.#slots = new Int32Array(size).fill(EMPTY);
    this.#mask = size - 1;
    this.#keys = new Int32Array(3 * limit);
    this.#pool = Buffer.alloc(Math.min(4096, this.#maxPool));
  }

  /** The value of the text in bytes[start, end) (UTF-8). */
  get(bytes: Buffer, start: number, end: number): V {
    const length = end - start;
    // As an int32 from the start, as the table stores it: an empty key (no byte to mix in) must
    // hash to what was stored for it.
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    const slots = this.#slots;
    const keys = this.#keys;
    let slot = hash & this.#mask;
    for (let index = slots[slot]!; index !== EMPTY; index = slots[slot]!) {
      const at = 3 * index;
      if (keys[at] === hash && keys[at + 2] === length && equalBytes(this.#pool, keys[at + 1]!, bytes, start, length)) return this.#values[index]!;
      slot = (slot + 1) & this.#mask;
    }
    const value = this.#make(bytes.toString('utf8', start, end));
    const index = this.#values.length;
    if (index < this.#limit && this.#room(length)) {
      keys[3 * index] = hash;
      keys[3 * index + 1] = this.#poolEnd;
      keys[3 * index + 2] = length;
      bytes.copy(this.#pool, this.#poolEnd, start, end);
      this.#poolEnd += length;
      this.#values.push(value);
      slots[slot] = index;
    }
    return value;
  }

  /** True when the pool holds `length` more bytes (grown up to its bound). */
  #room(length: number): boolean {
    const needed = this.#poolEnd + length;
    if (needed <= this.#pool.length) return true;
    if (needed > this.#maxPool) return false;
    const pool = Buffer.alloc(Math.min(this.#maxPool, Math.max(needed, 2 * this.#pool.length)));
    this.#pool.copy(pool, 0, 0, this.#poolEnd);
    this.#pool = pool;
    return true;
  }
}

/** True when pool[at, at + length) and bytes[start, start + length) are the same bytes. */
function equalBytes(pool: Buffer, at: number, bytes: Buffer, start: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (pool[at + i] !== bytes[start + i]) return false;
  return true;
}

