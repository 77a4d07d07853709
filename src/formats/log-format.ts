/**
 * What logtype knows of one log format: one value of this shape per `logType`, in the
 * registry (log-formats.ts), read by every part that treats types differently. Nothing else
 * names a type: a new format is one row of facts (log-type-facts.ts), its reading there, its
 * reader, and their tests.
 *
 * A format is facts (plain data: names, file, colours, sections) and reading (code: its record
 * reader and recognisers). They are declared apart so the sidecar, which needs only the facts,
 * never loads the parsers.
 */
import type { RecordReader } from '../parse/record-reader.js';

export type LogFormat = LogTypeFacts & LogReading;

/** How a format's lines are read: the parsers' part of a format. */
export interface LogReading {
  /** Reads its lines into records. */
  readonly reader: RecordReader;
  /** A JSON object without the sidecar's wrapper that this says yes to is an entry of this format (its log is read without a flag). */
  readonly recognizesObject?: ((object: Record<string, unknown>) => boolean) | undefined;
  /**
   * A line of text (not JSON, not an entry) that this says yes to is an entry of this format,
   * with or without kubectl's or stern's prefix: its log is read without a flag, from its first
   * line on. A test of the line's head: it runs on every line that is not an entry.
   */
  readonly recognizesLine?: ((line: string) => boolean) | undefined;
  /**
   * For a log read as it is (its records recognised by `recognizesLine`) whose records go on
   * over several lines (`continuesRecords`): a line that is no entry, after one of its records
   * and from the same source, is a line of this log when this says yes (its reader then says
   * whether it starts a record of its own or continues the one before). Any other line ends
   * the record and is read on its own: text pasted from elsewhere is no part of it. Without
   * it, no such line is this log's. A test of the line's shape, asked only of those lines.
   */
  readonly continuesWith?: ((line: string) => boolean) | undefined;
  /**
   * For a log whose records go on over lines only after some of its lines (not
   * `continuesRecords`: the server's pre-4.4 fatal and error lines, then a backtrace or an
   * abort message with no head of its own): whether a line, its contents' first byte in hand,
   * starts a record that is held for the lines after it, which `continuesWith` tells. A test of
   * the first byte first: it runs on every entry of the type when records are read.
   */
  readonly holdsRecordAfter?: ((firstByte: number, contents: () => string) => boolean) | undefined;
}

/** What a format is, as data. */
export interface LogTypeFacts {
  /** The `logType` its entries carry. */
  readonly name: string;
  /** The short name pretty output labels its lines with; `-t` accepts it too. */
  readonly shortName: string;
  /** Its badge's colour in pretty output. */
  readonly color: BadgeColor;
  /**
   * Its colour on the summary page's charts and tables, the same on every page (red and orange
   * are errors' and warnings', never a type's: chart-colors.ts).
   */
  readonly chartColor: string;
  /** The file the sidecar follows for it, when it is one. */
  readonly file?: SidecarFile | undefined;
  /** The sidecar may carry it from its stdin (`--stdin-type`): a stream, not a file. */
  readonly stream?: true | undefined;
  /**
   * Its records may go on over several physical lines: a line of this type that its reader does
   * not read (no head of its own) continues the record before it from the same source (the
   * same type and pod), as a Go error printed with `%v` or a stack trace does. Pretty output,
   * summary and doctor see one record; raw and json output keep the lines as they came.
   */
  readonly continuesRecords?: true | undefined;
  /**
   * What `-o json` writes for an entry: `line`, the line's own JSON object (a text line of the
   * same log in that object's shape); `entry`, the entry as it came.
   */
  readonly json: 'line' | 'entry';
  /** What writes it: `agent` takes in the agent's modules and its launcher (doctor's agent problems look there). */
  readonly writtenBy: Writer;
  /** The selection options that belong to this log: asked for, they keep only its lines. */
  readonly query?: QueryFamily | undefined;
  /** What summary counts of its records beyond every type's counts. */
  readonly summary: SummarySection;
  /** Its errors and warnings lead the summary's list of problems (the operator's say why the pods are as they are). */
  readonly problemsFirst?: true | undefined;
}

export type BadgeColor = 'green' | 'magenta' | 'cyan' | 'blue' | 'red' | 'yellow' | 'gray';

export interface SidecarFile {
  /** The operator's environment variable that names the file. */
  readonly variable: string;
  /** The file's name under `$MMS_LOG_DIR` when the variable is unset. */
  readonly defaultName: string;
  /** The file's lines are already entries (the launcher's `script_log` wraps them). */
  readonly holdsEntries: boolean;
}

/** `operator` takes in the operator's own programs: its manager and the hooks it puts into the database pods. */
export type Writer = 'database' | 'agent' | 'operator' | 'logtype';

/**
 * The server's options (`-c`, `--id`, `--ctx`, `--ns`, `--slow`, `--plan`), the audit log's
 * (`--atype`, `--user`, `--failed`), the operator's (`--resource`): select/record-query.ts
 * says which is which.
 */
export type QueryFamily = 'server' | 'audit' | 'operator';

/**
 * `server`: severities, components, messages, connections, restarts, replication, slow
 * operations; `audit`: event types and failures; `messages`: its errors and warnings by
 * message (the agents', the operator's).
 */
export type SummarySection = 'server' | 'audit' | 'messages';
