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
}
