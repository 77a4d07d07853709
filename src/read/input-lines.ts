/**
 * The lines of one input as the filter's readers take them from the line splitter: a UTF-8
 * byte order mark before the input's first line is no part of it (a file saved by a Windows
 * editor or `Out-File -Encoding utf8` starts with one, and its first entry would otherwise be
 * another line), and every piece of a line too long to hold is another line, its last piece
 * too: that piece ends at a newline but is only the tail of a line, never a line of its own.
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
 * (the pieces are copied, as they span chunks); past `maxBytes` what is held goes to `other`.
 */
export interface InputLines extends LineSink {
  /** The input ended: a CRI line whose last piece never came is given as it is. */
  readonly end: () => void;
}

export function inputLines(line: InputLine, other: InputLine, maxBytes = Infinity): InputLines {
  let first = true;
  /** The last piece given was partial: the next one is still the same overlong line. */
  let inLongLine = false;
  /** A CRI line's pieces so far, with the first one's head. */
  let pieces: Buffer[] | undefined;
  let piecesLength = 0;
  /** Where the first piece's `P` tag is in its copy: a line whose last piece came is tagged `F` there (--keep-prefix shows the head). */
  let tagAt = 0;
  const endPieces = (to: InputLine): void => {
    const joined = Buffer.concat(pieces!, piecesLength);
    pieces = undefined;
    piecesLength = 0;
    to(joined, 0, joined.length);
  };
  const sink: LineSink = (bytes, start, end, partial) => {
    let from = start;
    if (first) {
      first = false;
      if (startsWithByteOrderMark(bytes, start, end)) from += 3;
    }
    if (partial || inLongLine) {
      inLongLine = partial;
      if (pieces) endPieces(other);
      other(bytes, from, end);
      return;
    }
    const cri = criPiece(bytes, from, end);
    if (!cri) {
      if (pieces) endPieces(other);
      line(bytes, from, end);
      return;
    }
    if (!pieces && !cri.partial) return line(bytes, from, end);
    const piece = Buffer.from(bytes.subarray(pieces ? cri.textStart : from, end));
    if (!pieces) tagAt = cri.textStart - from - 2;
    (pieces ??= []).push(piece);
    piecesLength += piece.length;
    if (!cri.partial) {
      pieces[0]![tagAt] = 0x46;
      endPieces(line);
    }
    else if (piecesLength > maxBytes) endPieces(other);
  };
  return Object.assign(sink, { end: () => (pieces ? endPieces(line) : undefined) });
}
