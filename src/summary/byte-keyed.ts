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
  /** The pool's bytes as a view, read four at a time (made again when the pool grows). */
  #poolView: DataView;
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
    this.#poolView = viewOf(this.#pool, true);
  }

  /** The value of the text in bytes[start, end) (UTF-8). */
  get(bytes: Buffer, start: number, end: number): V {
    const length = end - start;
    const view = viewOf(bytes);
    const at = bytes.byteOffset + start;
    const hash = hashOf(view, at, length);
    const slot = this.#slotOf(view, at, length, hash);
    const found = this.#slots[slot]!;
    if (found !== EMPTY) return this.#values[found]!;
    const value = this.#make(bytes.toString('utf8', start, end));
    const index = this.#values.length;
    if (index < this.#limit && this.#room(length)) {
      const keys = this.#keys;
      keys[3 * index] = hash;
      keys[3 * index + 1] = this.#poolEnd;
      keys[3 * index + 2] = length;
      bytes.copy(this.#pool, this.#poolEnd, start, end);
      this.#poolEnd += length;
      this.#values.push(value);
      this.#slots[slot] = index;
    }
    return value;
  }

  /** The value of the text in bytes[start, end) if it is kept; undefined otherwise (nothing is made). */
  known(bytes: Buffer, start: number, end: number): V | undefined {
    const view = viewOf(bytes);
    const at = bytes.byteOffset + start;
    const length = end - start;
    const found = this.#slots[this.#slotOf(view, at, length, hashOf(view, at, length))]!;
    return found === EMPTY ? undefined : this.#values[found];
  }

  /** The slot of the key view[at, at + length) of this hash: where it is kept, else the empty slot it would take. */
  #slotOf(view: DataView, at: number, length: number, hash: number): number {
    const slots = this.#slots;
    const keys = this.#keys;
    let slot = hash & this.#mask;
    for (let index = slots[slot]!; index !== EMPTY; index = slots[slot]!) {
      const key = 3 * index;
      if (keys[key] === hash && keys[key + 2] === length && equalBytes(this.#poolView, keys[key + 1]!, view, at, length)) return slot;
      slot = (slot + 1) & this.#mask;
    }
    return slot;
  }

  /** True when the pool holds `length` more bytes (grown up to its bound). */
  #room(length: number): boolean {
    const needed = this.#poolEnd + length;
    if (needed <= this.#pool.length) return true;
    if (needed > this.#maxPool) return false;
    const pool = Buffer.alloc(Math.min(this.#maxPool, Math.max(needed, 2 * this.#pool.length)));
    this.#pool.copy(pool, 0, 0, this.#poolEnd);
    this.#pool = pool;
    this.#poolView = viewOf(pool, true);
    return true;
  }
}

/**
 * A view of the memory under `bytes`, so a key's bytes are read four at a time. The lines of a
 * stream lie in one or two buffers reused for good (its input chunks): the last one's view is
 * kept, as making a new one costs more than comparing, and so is the last Buffer asked about
 * (the lines of a chunk come one after another, and asking a Buffer for its memory is a call
 * into the engine). It holds at most that one chunk. `own`: a view of a buffer of one's own,
 * not kept.
 */
let lastBytes: Buffer | undefined;
let lastBuffer: ArrayBufferLike | undefined;
let lastView: DataView | undefined;
function viewOf(bytes: Buffer, own = false): DataView {
  if (own) return new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (bytes !== lastBytes) {
    lastBytes = bytes;
    if (bytes.buffer !== lastBuffer) {
      lastBuffer = bytes.buffer;
      lastView = new DataView(bytes.buffer);
    }
  }
  return lastView!;
}

/**
 * The hash of view[at, at + length): four bytes a step (murmur3's mixing, then its finish, so
 * the low bits the table takes depend on every byte), the last few one by one. The same bytes
 * hash alike wherever they lie. An int32, as the table stores it: the empty key too.
 */
function hashOf(view: DataView, at: number, length: number): number {
  let hash = length | 0;
  const end = at + length;
  let i = at;
  for (const last = end - 3; i < last; i += 4) {
    let word = Math.imul(view.getInt32(i, true), 0xcc9e2d51);
    word = Math.imul((word << 15) | (word >>> 17), 0x1b873593);
    hash ^= word;
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  for (; i < end; i++) hash = Math.imul(hash ^ view.getUint8(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** True when pool[at, at + length) and bytes[start, start + length) are the same bytes (four at a time). */
function equalBytes(pool: DataView, at: number, bytes: DataView, start: number, length: number): boolean {
  let i = 0;
  for (const last = length - 3; i < last; i += 4) if (pool.getInt32(at + i, true) !== bytes.getInt32(start + i, true)) return false;
  for (; i < length; i++) if (pool.getUint8(at + i) !== bytes.getUint8(start + i)) return false;
  return true;
}
