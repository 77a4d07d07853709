/**
 * `logtype doctor`: reads the same input as the filter and looks for the known problems in
 * every line, the entries' contents and the lines that are not entries (pasted `kubectl apply`
 * or chart output, events) alike.
 */
import type { Readable, Writable } from 'node:stream';
import { parseLogTime } from '../parse/log-record.js';
import type { EntryLine } from '../read/entry-line.js';
import { PREFIX_HEAD_BYTES, parseTextPrefix, sternPrefixes, type LinePrefix } from '../read/line-prefix.js';
import { readEntries, stdinSource, type InputSelection, type StdinIO } from '../read/read-entries.js';
import { cannotRead, repeatedInput } from '../read/read-error.js';
import { palette } from '../render/colors.js';
import { terminalSafeJson } from '../render/escape-terminal.js';
import { FailedLines } from '../read/failed-lines.js';
import { EntrySelector, type Selection } from '../select/entry-selector.js';
import { ProblemFinder } from './find-problems.js';
import { KNOWN_PROBLEMS, SERVER_TYPES } from './known-problems.js';
import { UnloggedStops } from './unlogged-stops.js';
import { LineOrder } from '../summary/time-order.js';
import { readEntryRecord } from '../parse/parse-record.js';
import { startHost } from '../summary/server-shutdowns.js';
import { checkSelection } from '../select/options-error.js';
import { doctorJson, renderDoctorText } from './render-doctor.js';
import { jsonText } from '../render/json-text.js';
import { typoNotice, typoTypePatterns, unknownTypePatterns } from '../select/type-matcher.js';
import { readingNotices } from '../select/reading-notices.js';

/** The known problem whose events UnloggedStops finds. */
const UNCLEAN_SHUTDOWN = KNOWN_PROBLEMS.find((problem) => problem.id === 'server-unclean-shutdown')!;

export interface DoctorOptions extends Selection, InputSelection {
  readonly json: boolean;
  readonly color: boolean;
  readonly utc: boolean;
}

export interface ReportIO extends StdinIO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Aborted when the user interrupts (Ctrl-C): the report covers what was read until then. */
  readonly interrupted?: AbortSignal | undefined;
}

/** A time at the head of a line that is not an entry: kubectl's `--timestamps`, a log's own. */
const LEADING_TIME = /^(?:\[[^\]\s]+\] )?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)/;

function leadingTime(line: string): number | undefined {
  const match = LEADING_TIME.exec(line);
  return match ? parseLogTime(match[1]!.replace(' ', 'T')) : undefined;
}

/**
 * stern's `POD CONTAINER TIME ` in front of a line that is not an entry, when it stamps lines
 * (`--timestamps`): its RFC 3339 time after two or three names tells it from a line's own first
 * words. Undefined otherwise (two words alone could be any line's).
 */
function sternStamp(line: string): LinePrefix | undefined {
  return sternPrefixes(line.slice(0, PREFIX_HEAD_BYTES)).find((prefix) => prefix.time !== undefined);
}

function entryTime(entry: EntryLine): number | undefined {
  // From its bytes where its format reads them (the server's head kernel): asked of every server line across inputs.
  return entry.timeOf(readEntryRecord(entry.format, entry));
}

/** Resolves with the exit code: 0 when nothing to fix was found (informational findings aside), 1 when something was, 2 when an input could not be read. */
export async function runDoctor(options: DoctorOptions, io: ReportIO): Promise<number> {
  checkSelection(options);
  const finder = new ProblemFinder();
  // A server killed or crashed, read from its lines in order (one known problem's witness).
  // Lines that are not entries belong to no type: with -t they are left out.
  const looksAtOther = options.types.length === 0;
  // Several inputs (one file per pod): a line's source is its input when no prefix names one.
  let input: string | undefined;
  const inputs = options.inputs.length > 1 ? options.inputs : undefined;
  // Several input files may be one server's (its previous log and its current one).
  const stops = new UnloggedStops(UNCLEAN_SHUTDOWN.matches, inputs !== undefined);
  // The lines that are not entries looked at (the entries are the selector's count).
  let otherLookedAt = 0;
  const failed = new FailedLines();
  // Whether the server's lines run newest first (time-order.ts).
  const order = new LineOrder();
  const selector = new EntrySelector(
    options,
    {
      selected: (entry) => {
        try {
          const sourceOf = (): string | undefined => entry.prefix?.source ?? input;
          if (SERVER_TYPES.includes(entry.logType) && order.wanted) order.step(entry.logType, entryTime(entry));
          if (SERVER_TYPES.includes(entry.logType) && stops.line(
              sourceOf() ?? '',
              entry.contents,
              () => readEntryRecord(entry.format, entry)?.message,
              () => entryTime(entry),
              // A pod's lines are its own server's: only input files are one server's by their host.
              () => (entry.prefix?.source === undefined ? startHostOf(entry) : undefined),
            )) {
            finder.witness(UNCLEAN_SHUTDOWN.id, entry.logType, entry.contents, () => entryTime(entry), sourceOf);
          }
          finder.look(
            entry.logType,
            entry.contents,
            () => entryTime(entry),
            sourceOf,
            // One event in several logs is counted once a pod: the pod its prefix names, not the input file.
            () => entry.prefix?.source,
          );
        } catch (error) {
          failed.failed(error, entry.logType, entry.contents);
        }
      },
      other: (bytes, start, end, wrapped) => {
        if (!looksAtOther) return;
        otherLookedAt++;
        // A Docker record's line is looked at as the container wrote it (its time leads it, if any).
        const line = wrapped ?? bytes.toString('utf8', start, end);
        try {
          finder.look(
            undefined,
            line,
            () => leadingTime(line) ?? parseLogTime(sternStamp(line)?.time),
            () => parseTextPrefix(line.slice(0, PREFIX_HEAD_BYTES))?.source ?? sternStamp(line)?.source ?? input,
          );
        } catch (error) {
          failed.failed(error, undefined, line);
        }
      },
    },
    false,
    {},
    // A record over several lines is looked at whole: its message may go on below its first line.
    true,
    // Counted, not shown: the order across logs counts for nothing.
    false,
  );
  const unread: string[] = [];
  const cannotReadInput = (input: string, error: unknown): void => {
    const why = cannotRead(input, error);
    unread.push(why);
    io.stderr.write(`logtype doctor: ${why}; what was read of it was looked at\n`);
  };
  const repeated = (name: string, first: string): void => void io.stderr.write(`logtype doctor: ${repeatedInput(name, first)}\n`);
  await readEntries(
    options,
    selector,
    stdinSource(io),
    () => undefined,
    cannotReadInput,
    io.interrupted,
    (name) => {
      if (inputs) input = name;
    },
    repeated,
  );
  for (const notice of readingNotices(selector.counts, { untimed: 'not looked at for problems', broken: 'not looked at' })) io.stderr.write(`logtype doctor: ${notice}\n`);
  const failure = failed.message('logtype doctor', 'looked at');
  if (failure) io.stderr.write(`${failure}\n`);
  // A pod's previous log and its current one, given as two files: one server, read as a whole.
  for (const crash of stops.inputCrashes()) finder.witness(UNCLEAN_SHUTDOWN.id, 'mongodb', crash.text, () => crash.at, () => crash.source);
  const findings = finder.findings();
  // In lines read: a record over several lines, or a line joined from pieces, is that many.
  const lines = { read: selector.counts.entries + selector.counts.other, lookedAt: selector.counts.selectedAsRead + otherLookedAt, timesRead: selector.counts.timesRead };
  // A Ctrl-C that came while a blocking read of a pipe waited is handled on the event loop's next turn (as summary's).
  await new Promise((resolve) => setImmediate(resolve));
  const interrupted = io.interrupted?.aborted === true;
  const failures = failed.incomplete;
  const incomplete = unread.length > 0 || interrupted || failures ? { unread, interrupted, ...failures } : undefined;
  io.stdout.write(
    options.json
      ? `${terminalSafeJson(jsonText(doctorJson(findings, lines, incomplete, order.newestFirst()))!)}\n`
      : renderDoctorText(findings, lines, palette(options.color), options.utc, incomplete, order.newestFirst()),
  );
  if (unread.length > 0) return 2;
  const typos = typoTypePatterns(options.unknownTypes ?? unknownTypePatterns(options.types), options.types, selector.counts.byType.keys(), selector.counts.selected);
  if (typos.length > 0) {
    io.stderr.write(`logtype doctor: ${typoNotice(typos)}\n`);
    return 2;
  }
  // Informational findings alone (nothing to fix) are no failure: `doctor || page-someone` pages on a problem only.
  return findings.some((finding) => !finding.problem.informational) ? 1 : 0;
}

/** The host a server's start line names (asked of start lines only). */
function startHostOf(entry: EntryLine): string | undefined {
  const record = readEntryRecord(entry.format, entry);
  return record ? startHost(record) : undefined;
}
