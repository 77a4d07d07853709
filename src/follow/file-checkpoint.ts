/**
 * How far one file's lines have left the process. The follower hands each line to the writer
 * with this object and the line's end offset; the writer moves `delivered` once the chunk
 * holding the line has been taken by the reader. What the state file saves for the file.
 *
 * When copytruncate's copy takes over a truncated file's bytes, it takes over this object too:
 * lines still on their way out continue the same count of bytes, now in the copy.
 */
export class FileCheckpoint {
  /** End offset of the last line (or piece) delivered. */
  delivered: number;
  /** That last thing delivered was a partial piece: the line's rest is still to come. */
  midLine: boolean;

  constructor(delivered: number, midLine = false) {
    this.delivered = delivered;
    this.midLine = midLine;
  }

  /** A hole passed over (HeldFile), waiting for the lines before it to leave: its start and end. */
  #holeFrom = -1;
  #holeTo = -1;

  /**
   * Bytes [from, to) that are no line's were passed over at a line's start (a hole of NUL
   * bytes): they count as delivered once every line before them has left, at once when none is
   * on its way. Without it a file that ends in a hole would never be all delivered (never
   * closed once drained), nor saved past it.
   */
  passHole(from: number, to: number): void {
    if (this.#holeFrom >= 0 && this.#holeTo === from) this.#holeTo = to;
    else if (this.delivered === from && !this.midLine) this.delivered = to;
    else {
      this.#holeFrom = from;
      this.#holeTo = to;
    }
  }

  /** `delivered`, past a hole passed over once the lines before it have left. */
  get upTo(): number {
    if (this.#holeFrom >= 0 && this.delivered >= this.#holeFrom) {
      if (this.delivered === this.#holeFrom) this.delivered = this.#holeTo;
      this.#holeFrom = this.#holeTo = -1;
    }
    return this.delivered;
  }
}
