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

export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #sink: LineSink;
  #held: Buffer[] = [];
  #heldBytes = 0;

  constructor(maxLineBytes: number, sink: LineSink) {
    if (!(maxLineBytes >= 4)) throw new RangeError('maxLineBytes must be at least 4');
    this.#maxLineBytes = maxLineBytes;
    this.#sink = sink;
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

  /** Forgets held bytes without emitting them. */
  discard(): void {
    this.#held = [];
    this.#heldBytes = 0;
  }

  #hold(chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.#held.push(Buffer.from(chunk.subarray(start, end)));
    this.#heldBytes += end - start;
    if (this.#heldBytes > this.#maxLineBytes) {
      const bytes = this.#takeHeld();
      const rest = this.#emitBounded(bytes, 0, bytes.length, false);
      this.#hold(bytes, rest, bytes.length);
    }
  }

  #takeHeld(): Buffer {
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
