/**
 * Docker's json-file driver cuts a line longer than 16 KiB into records of 16 KiB, each but the
 * last without the line's newline in its `log`. Their logs joined are the line, as a CRI file's
 * P pieces and their F piece are (cri-line.ts). Pieces are held apart by stream (stdout and
 * stderr are written side by side) and by the source kubectl's prefix names (several pods'
 * files in one input), at most MAX_HELD_CHARS in all: a line longer than that leaves as it is
 * so far, and the pieces after it as lines of their own.
 */
import { matchCriHead } from './cri-line.js';

/** Characters held at the most, over every line held (the input's own bound on a line). */
const MAX_HELD_CHARS = 64 * 1024 * 1024;

export class DockerPieces {
  readonly #held = new Map<string, string[]>();
  #heldChars = 0;

  /**
   * A record's `log`, from the stream and source `key`: undefined while its line goes on in
   * the next record (the piece is held); else the whole line, its newline taken off.
   */
  line(key: string, log: string): string | undefined {
    const pieces = this.#held.get(key);
    const ended = log.endsWith('\n');
    if (!ended && this.#heldChars + log.length <= MAX_HELD_CHARS) {
      if (pieces) pieces.push(log);
      else this.#held.set(key, [log]);
      this.#heldChars += log.length;
      return undefined;
    }
    const whole = pieces ? this.#take(key, pieces) + log : log;
    return whole.endsWith('\r\n') ? whole.slice(0, -2) : ended ? whole.slice(0, -1) : whole;
  }

  /**
   * A shipper's line that still has the runtime's CRI head (a shipper that read the runtime's
   * file without its `cri` parser: Fluent Bit's tail): the line after the head once its last
   * piece came, pieces held apart by `source` and stream (undefined while a `P` piece is held);
   * false for a line without the head.
   */
  criLine(source: string, line: string): string | undefined | false {
    const cri = matchCriHead(line);
    if (!cri) return false;
    const text = line.slice(cri[0].length);
    return this.line(`${source}\u0000cri\u0000${cri[2]}`, cri[3] === 'P' ? text : `${text}\n`);
  }

  /** The end of the input: lines whose last piece never came, as they are. */
  flush(): string[] {
    const lines = [...this.#held.values()].map((pieces) => pieces.join(''));
    this.#held.clear();
    this.#heldChars = 0;
    return lines;
  }

  #take(key: string, pieces: string[]): string {
    this.#held.delete(key);
    const text = pieces.join('');
    this.#heldChars -= text.length;
    return text;
  }
}
