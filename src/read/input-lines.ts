/**
 * The lines of one input as the filter's readers take them from the line splitter: a UTF-8
 * byte order mark before a line is no part of it (a file saved by a Windows editor or
 * `Out-File -Encoding utf8` starts with one, and files joined by `cat` carry one on each; the
 * entry after it would otherwise be another line); a line too long to hold is one line that is no entry, its first `maxBytes`,
 * and the rest of it is skipped (`overlong` is told): its pieces are never lines of their own.
 */
import type { LineSink } from '../follow/split-lines.js';
import { criPiece } from './cri-line.js';

export type InputLine = (bytes: Buffer, start: number, end: number) => void;

/** True when bytes[start, end) starts with the UTF-8 encoding of U+FEFF. */
export function startsWithByteOrderMark(bytes: Buffer, start: number, end: number): boolean {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
}

/**
 * A sink for one input's splitter: whole lines to `line`, pieces of overlong lines to `other`.
 * A line the container runtime cut in pieces (a CRI log file's `P` lines, cri-line.ts) is given
 * whole: its first piece's head, then every piece's text, up to the `F` piece that ends it
 * (the pieces are copied, as they span chunks). Each stream's pieces apart: the runtime writes
 * stdout's and stderr's lines into one file, so the other stream's lines may stand between a
 * line's pieces. Past `maxBytes` what is held goes to `other`, and so do the line's pieces
 * after it, up to its `F` piece: the tail of a line is never a line of its own.
 */
export interface InputLines extends LineSink {
  /** The input ended: a CRI line whose last piece never came is given as it is. */
  readonly end: () => void;
}

/** One stream's line in pieces so far (with the first one's head), or its overlong line's rest to pass by. */
class CriPieces {
  pieces: Buffer[] | undefined;
  length = 0;
  /** Where the first piece's `P` tag is in its copy: a line whose last piece came is tagged `F` there (--keep-prefix shows the head). */
  tagAt = 0;
  /** Past the bound: the pieces up to the line's `F` go to `other`. */
  overlong = false;

  /** The pieces held, joined, to `to`; none held after. */
  end(to: InputLine): void {
    const joined = Buffer.concat(this.pieces!, this.length);
    this.pieces = undefined;
    this.length = 0;
    to(joined, 0, joined.length);
  }
}

/** `tail`'s line before each file's lines when it follows several (`==> /var/log/pods/…/0.log <==`). */
const TAIL_HEADER_START = Buffer.from('==> ');
const TAIL_HEADER_END = Buffer.from(' <==');

/** Whether bytes[start, end) is a `tail` header: its file's name between `==> ` and ` <==`. */
export function isTailHeader(bytes: Buffer, start: number, end: number): boolean {
  return (
    end - start > TAIL_HEADER_START.length + TAIL_HEADER_END.length &&
    bytes[start] === 0x3d &&
    bytes.compare(TAIL_HEADER_START, 0, TAIL_HEADER_START.length, start, start + TAIL_HEADER_START.length) === 0 &&
    bytes.compare(TAIL_HEADER_END, 0, TAIL_HEADER_END.length, end - TAIL_HEADER_END.length, end) === 0
  );
}

/**
 * `tail -f` of several CRI files (`tail -f /var/log/containers/my-replica-set-*.log` on a node)
 * gives each file's new lines under a header naming it, so a line's pieces may stand in two
 * sections of its file with another file's between: each file's pieces are held apart, by
 * the header's name (the lines before any header: ''), each stream's apart within.
 */
export function inputLines(line: InputLine, other: InputLine, maxBytes = Infinity, overlong?: () => void): InputLines {
  /** The last piece given was partial: the next one is still the same overlong line. */
  let inLongLine = false;
  const files = new Map<string, CriPieces[]>();
  /** A tail header was seen: its blank line before each header ends no file's pieces. */
  let tailed = false;
  const newStreams = (): CriPieces[] => [new CriPieces(), new CriPieces()];
  /** The streams of the file whose lines come now. */
  let streams = newStreams();
  files.set('', streams);
  const endFile = (to: InputLine): void => {
    for (const stream of streams) if (stream.pieces) stream.end(to);
  };
  const endAll = (to: InputLine): void => {
    for (const file of files.values()) for (const stream of file) if (stream.pieces) stream.end(to);
  };
  const sink: LineSink = (bytes, start, end, partial) => {
    // Not only before the first line: files joined with `cat a.log b.log` carry b's mark on a line of their own.
    const from = bytes[start] === 0xef && startsWithByteOrderMark(bytes, start, end) ? start + 3 : start;
    if (partial || inLongLine) {
      const firstPiece = !inLongLine;
      inLongLine = partial;
      endAll(other);
      // The line's first maxBytes are one line that is no entry; the rest is skipped, not more lines.
      if (firstPiece) {
        overlong?.();
        other(bytes, from, end);
      }
      return;
    }
    const cri = criPiece(bytes, from, end);
    if (!cri) {
      if (isTailHeader(bytes, from, end)) {
        // Another file's section: its own pieces, this one's held for its next section.
        const name = bytes.toString('utf8', from + TAIL_HEADER_START.length, end - TAIL_HEADER_END.length);
        let next = files.get(name);
        if (!next) files.set(name, (next = newStreams()));
        streams = next;
        tailed = true;
      } else if (from !== end || !tailed) endFile(other);
      // tail's blank line before a header ends nothing.
      line(bytes, from, end);
      return;
    }
    const stream = streams[cri.stderr ? 1 : 0]!;
    if (stream.overlong) {
      stream.overlong = cri.partial;
      return;
    }
    if (!stream.pieces && !cri.partial) return line(bytes, from, end);
    const piece = Buffer.from(bytes.subarray(stream.pieces ? cri.textStart : from, end));
    if (!stream.pieces) stream.tagAt = cri.textStart - from - 2;
    (stream.pieces ??= []).push(piece);
    stream.length += piece.length;
    if (!cri.partial) {
      stream.pieces[0]![stream.tagAt] = 0x46;
      stream.end(line);
    } else if (stream.length > maxBytes) {
      overlong?.();
      stream.end(other);
      stream.overlong = true;
    }
  };
  return Object.assign(sink, { end: () => endAll(line) });
}
