/**
 * How a table with an "(other)" row (heavy-rows.ts: clients, drivers, response sizes, the
 * server's warnings and errors) says what it folded: the rows that are not "(other)", a count
 * that may miss some (`+`), and one sentence under the table. Shared by the text and the page.
 */
import { OTHER } from './client-connections.js';

interface FoldedRow {
  readonly missedAtMost?: number;
}

/** The rows of their own (not "(other)"); `keyOf` reads a row's key. */
export function ownRows<R>(rows: readonly R[], keyOf: (row: R) => string): number {
  return rows.filter((row) => keyOf(row) !== OTHER).length;
}

/** How many rows there are, in words: those of their own, and "(other)" where there is one (`220 and (other)`). */
export function rowsWords<R>(rows: readonly R[], keyOf: (row: R) => string, number: (n: number) => string): string {
  const own = ownRows(rows, keyOf);
  return `${number(own)}${own < rows.length ? ' and (other)' : ''}`;
}

/** A count cell: `+` after it where the row may miss some (folded into "(other)" before it had a row). */
export const countCell = (text: string, row: FoldedRow): string => (row.missedAtMost === undefined ? text : `${text}+`);

/** The sentence under a table that folded rows, or undefined when it folded none. */
export function foldedWords<R extends FoldedRow>(
  rows: readonly R[],
  keyOf: (row: R) => string,
  limit: number,
  number: (n: number) => string,
  measure: (n: number) => string = number,
): string | undefined {
  if (!rows.some((row) => keyOf(row) === OTHER)) return undefined;
  const missed = Math.max(0, ...rows.map((row) => row.missedAtMost ?? 0));
  return `(other): past ${number(limit)} rows, those with the least were folded into it as more came${missed > 0 ? `; a figure with + came after, and may miss up to ${measure(missed)} folded before it had a row` : ''}.`;
}
