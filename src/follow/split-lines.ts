/**
 * Bytes in, lines out, without decoding on the way: a line ends at `\n` (a `\r` before it is
 * part of the line). A line longer than `maxLineBytes` leaves in pieces of at most that many
 * bytes, cut before a UTF-8 lead byte so no character is split, every piece but the last marked
 * partial. Bytes of an unfinished line are held (copied) until its newline comes or `flush()`.
 *
 * Every line or piece is given with `endOffset`: where it ends in the whole stream (the bytes
 * pushed since the splitter began, counted from `startOffset`), past its newline when it has
 * one. A follower saves that offset as the place to resume after the line.
 */
export type LineSink = (bytes: Buffer, start: number, end: number, partial: boolean, endOffset: number) => void;

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/**
 * A held store doubles up to DOUBLING_LIMIT_BYTES, then grows in one step to its largest (twice
 * the line limit), at most ONE_STEP_BYTES. Larger buffers are mmap'd by glibc's malloc, and each
 * one given back raises malloc's mmap threshold to its size and its trim threshold to twice that:
 * from then on memory freed anywhere in the process (V8's compiler threads' arenas among it)
 * stays resident instead of going back to the system. Doubling through 128 KiB, 256 KiB, 512 KiB
 * and 1 MiB gave four of them back on a file's first long line. The one large store costs
 * resident memory only for the pages bytes are held in (its pages are untouched until then).
 * glibc moves the thresholds only for buffers of up to 32 MiB: past that (a --max-line-bytes
 * over 16 MiB) a store doubles again rather than reserve its largest at once. Limit: the one
 * large store (2 MiB at the default line limit) is mmap'd too, so giving it back (its file
 * closed after a rotation) still moves the thresholds once, where four buffers did before.
 */
const DOUBLING_LIMIT_BYTES = 64 * 1024;
const ONE_STEP_BYTES = 32 * 1024 * 1024;

/** The largest cut position in (start, start+max] that does not split a UTF-8 character. */
export function utf8CutPoint(bytes: Buffer, start: number, max: number): number {
  const limit = start + max;
  let cut = limit;
  // Continuation bytes are 10xxxxxx; a character is at most 4 bytes, so look back at most 3.
  while (cut > start && cut > limit - 3 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut > start && ((bytes[cut] ?? 0) & 0xc0) !== 0x80 ? cut : limit;
}

/**
 * Where bytes[start, end) can be cut so that no character is left incomplete at its end: `end`
 * when its last character is whole, else the start of that last, incomplete character (bytes
 * that are not UTF-8 at all count as whole: they will be U+FFFD either way).
 */
export function completeCharactersEnd(bytes: Buffer, start: number, end: number): number {
  for (let at = end - 1, seen = 1; at >= start && seen <= 4; at--, seen++) {
    const byte = bytes[at]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > seen && byte >= 0xc0 && byte < 0xf8 ? at : end;
  }
  return end;
}

export interface LineSplitterOptions {
  /**
   * Keep unfinished lines in one buffer reused for the splitter's life, instead of fresh
   * copies: no garbage while a long line accumulates (a 100 MB line without newline took the
   * sidecar's RSS to 88 MB with copies). Only for sinks that are done with the bytes when they
   * return: the next line may overwrite them.
   */
  readonly reuseHeldBuffer?: boolean;
  /** The stream offset of the first byte pushed (a file resumed at a saved position). */
  readonly startOffset?: number;
  /** The stream starts inside a line whose earlier pieces left already (marked partial). */
  readonly pieceOpen?: boolean;
}

export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #sink: LineSink;
  readonly #reuse: boolean;
  #held: Buffer[] = [];
  #heldBytes = 0;
  /** With reuseHeldBuffer: the one buffer that holds unfinished lines. */
  #store: Buffer = Buffer.alloc(0);
  /** Stream offset of the next byte pushed. */
  #offset: number;
  /** The last thing emitted was a partial piece: the line's last piece is still to come. */
  #pieceOpen: boolean;

  constructor(maxLineBytes: number, sink: LineSink, options: LineSplitterOptions = {}) {
    if (!(maxLineBytes >= 4)) throw new RangeError('maxLineBytes must be at least 4');
    this.#maxLineBytes = maxLineBytes;
    this.#sink = sink;
    this.#reuse = options.reuseHeldBuffer === true;
    this.#offset = options.startOffset ?? 0;
    this.#pieceOpen = options.pieceOpen === true;
  }

  /** Bytes of an unfinished line held now. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** Stream offset just past the last byte pushed. */
  get offset(): number {
    return this.#offset;
  }

  /** True after a partial piece, until the line's last piece has been emitted. */
  get pieceOpen(): boolean {
    return this.#pieceOpen;
  }

  push(chunk: Buffer, start = 0, end = chunk.length): void {
    // chunk[i] is at stream offset base + i.
    const base = this.#offset - start;
    this.#offset += end - start;
    let lineStart = start;
    if (this.#heldBytes > 0) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1 || newline >= end) {
        this.#hold(chunk, start, end, base + end);
        return;
      }
      this.#hold(chunk, start, newline, base + newline);
      const heldStart = base + newline - this.#heldBytes;
      const line = this.#takeHeld();
      this.#emitBounded(line, 0, line.length, true, heldStart, base + newline + 1);
      lineStart = newline + 1;
    }
    if (this.#pieceOpen) {
      // The first newline ends a line whose earlier pieces left before: its last piece.
      const newline = chunk.indexOf(NEWLINE, lineStart);
      if (newline !== -1 && newline < end) {
        this.#emitBounded(chunk, lineStart, newline, true, base, base + newline + 1);
        lineStart = newline + 1;
      }
    }
    const max = this.#maxLineBytes;
    const sink = this.#sink;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, lineStart);
      if (newline === -1 || newline >= end) break;
      if (newline - lineStart > max) this.#emitBounded(chunk, lineStart, newline, true, base, base + newline + 1);
      else sink(chunk, lineStart, newline, false, base + newline + 1);
      lineStart = newline + 1;
    }
    if (lineStart < end) this.#hold(chunk, lineStart, end, base + end);
  }

  /**
   * Passes over `bytes` bytes of the stream that are no line's (a file's hole of NUL bytes) at a
   * line's start: the offset moves on, nothing is emitted.
   */
  skip(bytes: number): void {
    if (this.#heldBytes > 0 || this.#pieceOpen) throw new Error('LineSplitter.skip is for the start of a line');
    this.#offset += bytes;
  }

  /** Emits the held bytes as a last line (a file closed, or shutdown). */
  flush(): void {
    if (this.#heldBytes === 0) return;
    const start = this.#offset - this.#heldBytes;
    const line = this.#takeHeld();
    this.#emitBounded(line, 0, line.length, true, start, this.#offset);
  }

  /**
   * The end of the stream (a file closed): held bytes leave as the line's last piece, and a line
   * whose pieces left before is closed by an empty last piece, so a reader joining pieces never
   * waits for a rest that cannot come.
   */
  end(): void {
    if (this.#heldBytes > 0) this.flush();
    else if (this.#pieceOpen) {
      this.#pieceOpen = false;
      this.#sink(EMPTY, 0, 0, false, this.#offset);
    }
  }

  /**
   * The stream is given up where it was read to: held bytes are dropped (their line's rest will
   * never be read), and a line whose pieces left before is closed by an empty last piece.
   * Returns the bytes dropped.
   */
  abandon(): number {
    const dropped = this.#heldBytes;
    if (dropped > 0) this.#takeHeld();
    if (this.#pieceOpen) {
      this.#pieceOpen = false;
      this.#sink(EMPTY, 0, 0, false, this.#offset - dropped);
    }
    return dropped;
  }

  /**
   * Emits the held bytes of an unfinished line as a partial piece (the line's rest comes later,
   * perhaps after a restart that resumes at the piece's end offset). A character not yet whole
   * stays held. Returns false when nothing could be emitted.
   */
  flushPiece(): boolean {
    if (this.#heldBytes === 0) return false;
    const start = this.#offset - this.#heldBytes;
    const line = this.#takeHeld();
    const cut = completeCharactersEnd(line, 0, line.length);
    if (cut === 0) {
      this.#hold(line, 0, line.length, this.#offset);
      return false;
    }
    const rest = this.#emitBounded(line, 0, cut, false, start, start + cut);
    this.#sink(line, rest, cut, true, start + cut);
    this.#pieceOpen = true;
    if (cut < line.length) {
      // The splitter's own store may be what `line` is: keep the tail at its start.
      const tail = Buffer.from(line.subarray(cut));
      this.#hold(tail, 0, tail.length, this.#offset);
    }
    return true;
  }

  /** Holds chunk[start, end), which ends at stream offset `endOffset`. */
  #hold(chunk: Buffer, start: number, end: number, endOffset: number): void {
    if (end <= start) return;
    if (this.#reuse) {
      this.#storeBytes(chunk, start, end, endOffset);
      return;
    }
    this.#held.push(Buffer.from(chunk.subarray(start, end)));
    this.#heldBytes += end - start;
    if (this.#heldBytes > this.#maxLineBytes) {
      const heldStart = endOffset - this.#heldBytes;
      const bytes = this.#takeHeld();
      const rest = this.#emitBounded(bytes, 0, bytes.length, false, heldStart, 0);
      this.#hold(bytes, rest, bytes.length, endOffset);
    }
  }

  #storeBytes(chunk: Buffer, start: number, end: number, endOffset: number): void {
    const needed = this.#heldBytes + (end - start);
    if (needed > this.#store.length) {
      // Grows to at most the line limit plus one read, once; past DOUBLING_LIMIT_BYTES in one step.
      const size = this.#store.length;
      const next = size < DOUBLING_LIMIT_BYTES || size >= ONE_STEP_BYTES ? size * 2 || 4096 : ONE_STEP_BYTES;
      const grown = Buffer.allocUnsafe(Math.max(needed, Math.min(next, this.#maxLineBytes * 2)));
      this.#store.copy(grown, 0, 0, this.#heldBytes);
      this.#store = grown;
    }
    chunk.copy(this.#store, this.#heldBytes, start, end);
    this.#heldBytes = needed;
    if (this.#heldBytes > this.#maxLineBytes) {
      const rest = this.#emitBounded(this.#store, 0, this.#heldBytes, false, endOffset - this.#heldBytes, 0);
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
   * line's last piece when `final` (ending at stream offset `finalEnd`). `bytesOffset` is the
   * stream offset of bytes[0]. Returns where the unemitted rest starts.
   */
  #emitBounded(bytes: Buffer, start: number, end: number, final: boolean, bytesOffset: number, finalEnd: number): number {
    let pieceStart = start;
    while (end - pieceStart > this.#maxLineBytes) {
      const cut = utf8CutPoint(bytes, pieceStart, this.#maxLineBytes);
      this.#sink(bytes, pieceStart, cut, true, bytesOffset + cut);
      this.#pieceOpen = true;
      pieceStart = cut;
    }
    if (!final) return pieceStart;
    this.#sink(bytes, pieceStart, end, false, finalEnd);
    this.#pieceOpen = false;
    return end;
  }
}
