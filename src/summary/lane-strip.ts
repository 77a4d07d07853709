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

/** Who was primary at the middle of each of `columns` columns from `start` to `end` (epoch ms). */
export function laneStrip(lane: MemberSummary['lane'], start: number, end: number, columns: number): string {
  const width = (end - start) / columns;
  const segments = lane.map((s) => ({ from: Date.parse(s.from), to: Date.parse(s.to), char: stateChar(s.state) }));
  let out = '';
  let at = 0;
  for (let column = 0; column < columns; column++) {
    const t = start + (column + 0.5) * width;
    while (at < segments.length && segments[at]!.to <= t) at++;
    const segment = segments[at];
    out += segment && segment.from <= t ? segment.char : ' ';
  }
  return out.trimEnd();
}

/** What the characters of the lanes shown mean. */
export function stripKey(members: readonly MemberSummary[]): string {
  const seen = new Set(members.flatMap((m) => m.lane.map((s) => s.state)));
  return [...seen].map((state) => `${stateChar(state)} ${escapeTerminal(state)}`).join(', ');
}
