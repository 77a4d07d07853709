/**
 * The lines of one input as the filter's readers take them from the line splitter: a UTF-8
 * byte order mark before the input's first line is no part of it (a file saved by a Windows
 * editor or `Out-File -Encoding utf8` starts with one, and its first entry would otherwise be
 * another line), and every piece of a line too long to hold is another line, its last piece
 * too: that piece ends at a newline but is only the tail of a line, never a line of its own.
 */
import type { LineSink } from '../follow/split-lines.js';

export type InputLine = (bytes: Buffer, start: number, end: number) => void;

/** True when bytes[start, end) starts with the UTF-8 encoding of U+FEFF. */
export function startsWithByteOrderMark(bytes: Buffer, start: number, end: number): boolean {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
}

/** A sink for one input's splitter: whole lines to `line`, pieces of overlong lines to `other`. */
export function inputLines(line: InputLine, other: InputLine): LineSink {
  let first = true;
  /** The last piece given was partial: the next one is still the same overlong line. */
  let inLongLine = false;
  return (bytes, start, end, partial) => {
    let from = start;
    if (first) {
      first = false;
      if (startsWithByteOrderMark(bytes, start, end)) from += 3;
    }
    if (partial || inLongLine) {
      inLongLine = partial;
      other(bytes, from, end);
    } else line(bytes, from, end);
  };
}
