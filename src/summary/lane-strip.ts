/**
 * A member's lane at a terminal: one character per column, the state the member was in at the
 * column's middle (P primary, S secondary, and so on; blank where its log says nothing), so
 * the members' lanes stacked read as the page's chart does. Pure.
 */
import { escapeTerminal } from '../render/escape-terminal.js';
import type { MemberSummary } from './summary.js';

/** A state's character; states not named here are `o`. */
export const STATE_CHARS: Readonly<Record<string, string>> = {
  PRIMARY: 'P',
  SECONDARY: 'S',
  ARBITER: 'A',
  STARTUP: 's',
  STARTUP2: '2',
  RECOVERING: 'R',
  ROLLBACK: 'B',
  down: 'x',
  unknown: '?',
};

/** A state's character: the server's own names only (a line's words are no key of an object's). */
const stateChar = (state: string): string => (Object.hasOwn(STATE_CHARS, state) ? STATE_CHARS[state]! : 'o');

/**
 * Each of `columns` columns from `start` to `end` (epoch ms): the state the member was in at the
 * column's middle; where its log says nothing there, the state it was longest in within the
 * column (a member whose log is shorter than a column, among members whose logs span days, is
 * still seen). Blank only where the member has no line in the column.
 */
export function laneStrip(lane: MemberSummary['lane'], start: number, end: number, columns: number): string {
  const width = (end - start) / columns;
  const segments = lane.map((s) => ({ from: Date.parse(s.from), to: Date.parse(s.to), char: stateChar(s.state) }));
  let out = '';
  let at = 0;
  for (let column = 0; column < columns; column++) {
    const left = start + column * width;
    const right = left + width;
    const t = left + width / 2;
    // Segments that ended before this column are behind every later column too.
    while (at < segments.length && segments[at]!.to < left) at++;
    let char = ' ';
    let longest = -1;
    // A segment starting at the right edge is the next column's.
    for (let i = at; i < segments.length && segments[i]!.from < right; i++) {
      const { from, to, char: c } = segments[i]!;
      if (from <= t && t < to) {
        char = c;
        break;
      }
      // One of a single line (no length) counts where it lies.
      const overlap = Math.min(to, right) - Math.max(from, left);
      const within = overlap > 0 || (from === to && from >= left);
      if (within && overlap > longest) {
        longest = overlap;
        char = c;
      }
    }
    out += char;
  }
  return out.trimEnd();
}

/** What the characters of the lanes shown mean. */
export function stripKey(members: readonly MemberSummary[]): string {
  const seen = new Set(members.flatMap((m) => m.lane.map((s) => s.state)));
  return [...seen].map((state) => `${stateChar(state)} ${escapeTerminal(state)}`).join(', ');
}
