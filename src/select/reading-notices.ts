/**
 * What reading the input left aside, said on stderr by logtype, summary and doctor after their
 * own name, in one order: lines longer than a reader holds, lines whose last piece never came,
 * records --since/--until left out for having no time, lines cut short. Each command says what
 * became of the last two in its own words (`leftOut`); undefined: not said (the command shows
 * them, or says nothing at all).
 */
import { MAX_INPUT_LINE_BYTES } from '../read/entry-reader.js';
import { brokenLines, otherMatchedLines, overlongLines, unfinishedLines, untimedLeftOut } from '../read/read-error.js';
import type { SelectionCounts } from './entry-selector.js';
import { formatTime, localTimeWords } from '../render/format-time.js';
import type { TimesRead } from './record-query.js';

export function readingNotices(counts: SelectionCounts, leftOut: { readonly untimed?: string | undefined; readonly broken?: string | undefined; readonly otherMatched?: boolean | undefined }): string[] {
  const notices: string[] = [];
  if (counts.otherMatched > 0 && leftOut.otherMatched) notices.push(otherMatchedLines(counts.otherMatched));
  if (counts.overlong > 0) notices.push(overlongLines(counts.overlong, MAX_INPUT_LINE_BYTES));
  if (counts.unfinished > 0) notices.push(unfinishedLines(counts.unfinished));
  if (counts.untimedLeftOut > 0 && leftOut.untimed !== undefined) notices.push(untimedLeftOut(counts.untimedLeftOut, leftOut.untimed));
  if (counts.broken > 0 && leftOut.broken !== undefined) notices.push(brokenLines(counts.broken, counts.firstBroken ?? '', leftOut.broken));
  return notices;
}

/**
 * Where the entries --since/--until looked at lie in time, for a selection that left out every
 * one: `--since 15m` on last week's file says that its lines end a week ago, not only "none".
 */
export function timesReadWords(times: TimesRead, utc: boolean): string {
  const span = times.first === times.last ? `at ${formatTime(times.first, utc)}` : `from ${formatTime(times.first, utc)} to ${formatTime(times.last, utc)}`;
  return `the entries the time bounds looked at run ${span}${utc ? '' : ` ${localTimeWords(times.first, times.last)}`}`;
}
