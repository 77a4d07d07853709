/**
 * Bytes in, lines out, without decoding on the way: a line ends at `\n` (a `\r` before it is
 * part of the line). A line longer than `maxLineBytes` leaves in pieces of at most that many
 * bytes, cut before a UTF-8 lead byte so no character is split, every piece but the last marked
 * partial. Bytes of an unfinished line are held (copied) until its newline comes or `flush()`.
 */
export type LineSink = (bytes: Buffer, start: number, end: number, partial: boolean) => void;

const NEWLINE = 0x0a;

/** The largest cut position in (start, start+max] that does not split a UTF-8 character. */
export function utf8CutPoint(bytes: Buffer, start: number, max: number): number {
  const limit = start + max;
  let cut = limit;
  // Continuation bytes are 10xxxxxx; a character is at most 4 bytes, so look back at most 3.
  while (cut > start && cut > limit - 3 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut > start && ((bytes[cut] ?? 0) & 0xc0) !== 0x80 ? cut : limit;
}

export interface LineSplitterOptions {
  /**
   * Keep unfinished lines in one buffer reused for the splitter's life, instead of fresh
   * copies: no garbage while a long line accumulates (a 100 MB line without newline took the
   * sidecar's RSS to 88 MB with copies). Only for sinks that are done with the bytes when they
   * return: the next line may overwrite them.
   */
  readonly reuseHeldBuffer?: boolean;
}

export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #sink: LineSink;
  readonly #reuse: boolean;
  #held: Buffer[] = [];
  #heldBytes = 0;
  /** With reuseHeldBuffer: the one buffer that holds unfinished lines. */
  #store: Buffer = Buffer.alloc(0);

  constructor(maxLineBytes: number, sink: LineSink, options: LineSplitterOptions = {}) {
    if (!(maxLineBytes >= 4)) throw new RangeError('maxLineBytes must be at least 4');
    this.#maxLineBytes = maxLineBytes;
    this.#sink = sink;
    this.#reuse = options.reuseHeldBuffer === true;
  }

  /** Bytes of an unfinished line held now. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  push(chunk: Buffer, start = 0, end = chunk.length): void {
    let lineStart = start;
    if (this.#heldBytes > 0) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1 || newline >= end) {
        this.#hold(chunk, start, end);
        return;
      }
      this.#hold(chunk, start, newline);
      const line = this.#takeHeld();
      this.#emitBounded(line, 0, line.length, true);
      lineStart = newline + 1;
    }
    const max = this.#maxLineBytes;
    const sink = this.#sink;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, lineStart);
      if (newline === -1 || newline >= end) break;
      if (newline - lineStart > max) this.#emitBounded(chunk, lineStart, newline, true);
      else sink(chunk, lineStart, newline, false);
      lineStart = newline + 1;
    }
    if (lineStart < end) this.#hold(chunk, lineStart, end);
  }

  /** Emits the held bytes as a last line (a file closed, or shutdown). */
  flush(): void {
    if (this.#heldBytes === 0) return;
    const line = this.#takeHeld();
    this.#emitBounded(line, 0, line.length, true);
  }

  #hold(chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    if (this.#reuse) {
      this.#storeBytes(chunk, start, end);
      return;
    }
    this.#held.push(Buffer.from(chunk.subarray(start, end)));
    this.#heldBytes += end - start;
    if (this.#heldBytes > this.#maxLineBytes) {
      const bytes = this.#takeHeld();
      const rest = this.#emitBounded(bytes, 0, bytes.length, false);
      this.#hold(bytes, rest, bytes.length);
    }
  }

  #storeBytes(chunk: Buffer, start: number, end: number): void {
    const needed = this.#heldBytes + (end - start);
    if (needed > this.#store.length) {
      // Grows to at most the line limit plus one read, once.
      const grown = Buffer.allocUnsafe(Math.max(needed, Math.min(this.#store.length * 2 || 4096, this.#maxLineBytes * 2)));
      this.#store.copy(grown, 0, 0, this.#heldBytes);
      this.#store = grown;
    }
    chunk.copy(this.#store, this.#heldBytes, start, end);
    this.#heldBytes = needed;
    if (this.#heldBytes > this.#maxLineBytes) {
      const rest = this.#emitBounded(this.#store, 0, this.#heldBytes, false);
      this.#store.copyWithin(0, rest, this.#heldBytes);
      this.#heldBytes -= rest;
    }
  }

  #takeHeld(): Buffer {
    if (this.#reuse) {
      const bytes = this.#store.subarray(0, this.#heldBytes);
      this.#heldBytes = 0;
      return bytes;
    }
    const bytes = this.#held.length === 1 ? this.#held[0]! : Buffer.concat(this.#held, this.#heldBytes);
    this.#held = [];
    this.#heldBytes = 0;
    return bytes;
  }

  /**
   * Emits pieces of at most maxLineBytes while more than that remains; then the rest as the
   * line's last piece when `final`. Returns where the unemitted rest starts.
   */
  #emitBounded(bytes: Buffer, start: number, end: number, final: boolean): number {
    let pieceStart = start;
    while (end - pieceStart > this.#maxLineBytes) {
      const cut = utf8CutPoint(bytes, pieceStart, this.#maxLineBytes);
      this.#sink(bytes, pieceStart, cut, true);
      pieceStart = cut;
    }
    if (!final) return pieceStart;
    this.#sink(bytes, pieceStart, end, false);
    return end;
  }
}
