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

export function readingNotices(counts: SelectionCounts, leftOut: { readonly untimed?: string | undefined; readonly broken?: string | undefined; readonly otherMatched?: boolean | undefined }): string[] {
  const notices: string[] = [];
  if (counts.otherMatched > 0 && leftOut.otherMatched) notices.push(otherMatchedLines(counts.otherMatched));
  if (counts.overlong > 0) notices.push(overlongLines(counts.overlong, MAX_INPUT_LINE_BYTES));
  if (counts.unfinished > 0) notices.push(unfinishedLines(counts.unfinished));
  if (counts.untimedLeftOut > 0 && leftOut.untimed !== undefined) notices.push(untimedLeftOut(counts.untimedLeftOut, leftOut.untimed));
  if (counts.broken > 0 && leftOut.broken !== undefined) notices.push(brokenLines(counts.broken, counts.firstBroken ?? '', leftOut.broken));
  return notices;
}

