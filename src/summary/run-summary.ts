/**
 * `logtype summary`: reads the same input as the filter, with the same selection, into a
 * Summary, and writes it as text, JSON, or a page.
 */
import { checkSelection } from '../select/options-error.js';
import { notLogsHint } from '../select/not-logs-hint.js';
import fs from 'node:fs';
import type { ReportIO } from '../doctor/run-doctor.js';
import { readEntries, stdinSource, type InputSelection } from '../read/read-entries.js';
import { cannotRead, readErrorReason, repeatedInput } from '../read/read-error.js';
import { FailedLines } from '../read/failed-lines.js';
import { palette } from '../render/colors.js';
import { escapeTerminal, terminalSafeJson } from '../render/escape-terminal.js';
import { EntrySelector, type Selection } from '../select/entry-selector.js';
import { renderSummaryHtml } from './render-summary-html.js';
import { renderSummaryText } from './render-summary-text.js';
import type { Summary } from './summary.js';
import { SummaryCollector } from './summary-collector.js';
import { writtenOrder } from './replica-members.js';
import { jsonText } from '../render/json-text.js';
import { typoNotice, typoTypePatterns, unknownTypePatterns } from '../select/type-matcher.js';
import { readingNotices } from '../select/reading-notices.js';

export interface SummaryOptions extends Selection, InputSelection {
  readonly json: boolean;
  /** Also write the page to this file. */
  readonly html?: string | undefined;
  readonly color: boolean;
  readonly utc: boolean;
  /** Columns for the activity strip. */
  readonly width: number;
}

/** Told of the bytes read after each chunk, and once at the end. */
export interface ReadProgress {
  read(bytes: number): void;
  done(): void;
}

/**
 * The summary of what could be read: an input that cannot be read, or ends early (a truncated
 * gzip file), is named on stderr and counted in `unreadable`, and the next one is read.
 */
export async function collectSummary(options: SummaryOptions, io: ReportIO, progress?: ReadProgress, unreadable: { count: number; typos?: string[] } = { count: 0 }): Promise<Summary> {
  checkSelection(options);
  const collector = new SummaryCollector();
  const failed = new FailedLines();
  const selector = new EntrySelector(
    options,
    {
      selected: (entry, record, lines) => {
        try {
          // kubectl's time is made only for lines without one of their own.
          collector.add(entry.logType, record, record?.time === undefined ? entry.stampedAt : undefined, entry, lines?.length ?? 1);
        } catch (error) {
          failed.failed(error, entry.logType, entry.contents);
        }
      },
      other: () => undefined,
    },
    true,
    {},
    false,
    // Counted, not shown: the order across logs counts for nothing (a member's own lines keep theirs).
    false,
  );
  const unread: string[] = [];
  try {
    const cannotReadInput = (input: string, error: unknown): void => {
      unreadable.count++;
      const why = cannotRead(input, error);
      unread.push(why);
      io.stderr.write(`logtype summary: ${why}; the summary covers what was read of it\n`);
    };
    const repeated = (input: string, first: string): void => void io.stderr.write(`logtype summary: ${repeatedInput(input, first)}\n`);
    // A member's rotated logs before its current one: its story is told in the order it was written.
    const inputs = writtenOrder(options.inputs);
    await readEntries({ ...options, inputs }, selector, stdinSource(io), (bytes) => progress?.read(bytes), cannotReadInput, io.interrupted, (input) => collector.input(input, inputs), repeated);
  } finally {
    progress?.done();
  }
  // A Ctrl-C that came while a blocking read of a pipe waited (the terminal's SIGINT ended the
  // pipe's writer too, so the read then saw its end) is handled on the event loop's next turn.
  await new Promise((resolve) => setImmediate(resolve));
  const { counts } = selector;
  unreadable.typos = typoTypePatterns(options.unknownTypes ?? unknownTypePatterns(options.types), options.types, counts.byType.keys(), counts.selected);
  for (const notice of readingNotices(counts, { untimed: 'not counted', broken: 'counted among the lines that are not entries' })) io.stderr.write(`logtype summary: ${notice}\n`);
  const failure = failed.message('logtype summary', 'read into the report');
  if (failure) io.stderr.write(`${failure}\n`);
  const summary = collector.summary({
    entries: counts.entries,
    selected: counts.selected,
    notEntries: counts.other,
    ...(counts.selectedAsRead !== counts.selected ? { selectedAsRead: counts.selectedAsRead } : {}),
    ...(counts.entries === 0 && counts.firstOther !== undefined && notLogsHint(counts.firstOther) ? { notLogs: notLogsHint(counts.firstOther) } : {}),
    ...(counts.selected === 0 && counts.timesRead ? { timesRead: { first: new Date(counts.timesRead.first).toISOString(), last: new Date(counts.timesRead.last).toISOString() } } : {}),
  });
  const interrupted = io.interrupted?.aborted === true;
  const failures = failed.incomplete;
  return unread.length > 0 || interrupted || failures ? { ...summary, incomplete: { unread, interrupted, ...failures } } : summary;
}

/** `--html -`: the page is written to stdout, instead of the text. */
export const STDOUT_PAGE = '-';

export async function runSummary(options: SummaryOptions, io: ReportIO, progress?: ReadProgress): Promise<number> {
  const unreadable: { count: number; typos?: string[] } = { count: 0 };
  const summary = await collectSummary(options, io, progress, unreadable);
  // Every -t a typo (no such type, no entry had it): after the summary, said and exit 2, as logtype's.
  const typos = (): number => {
    if (!unreadable.typos?.length) return 0;
    io.stderr.write(`logtype summary: ${typoNotice(unreadable.typos)}\n`);
    return 2;
  };
  if (options.html === STDOUT_PAGE) {
    // `--html -`: the page is what stdout is for (`logtype summary --html - > pod.html`, or piped on).
    io.stdout.write(renderSummaryHtml(summary));
    return typos() || (unreadable.count > 0 ? 1 : 0);
  }
  // The text first: it is what the user waits for, and a page that cannot be written then costs nothing of it.
  io.stdout.write(options.json ? `${terminalSafeJson(jsonText(summary)!)}\n` : renderSummaryText(summary, { palette: palette(options.color), utc: options.utc, width: options.width }));
  if (options.html) {
    try {
      fs.writeFileSync(options.html, renderSummaryHtml(summary));
    } catch (error) {
      // The system's code kept (ENOENT, EACCES): a caller tells a page it could not write by it.
      throw Object.assign(new Error(`cannot write the page to ${escapeTerminal(options.html)}: ${readErrorReason(error)}; the summary on stdout is whole`, { cause: error }), {
        code: (error as NodeJS.ErrnoException).code,
      });
    }
  }
  return typos() || (unreadable.count > 0 ? 1 : 0);
}
