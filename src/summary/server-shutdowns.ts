/**
 * The server's shutdowns: what began each one (a signal, the `shutdown` command) and how it
 * ended (its exit code), from the server's own lines, 4.4+ JSON and the text before it alike.
 * A step-down or a member gone quiet at the end of its log is explained by them, and a restart
 * with none logged before it is a process that was killed (the OOM killer, SIGKILL) or crashed.
 *
 * Only the lines whose message says so are read (isShutdownMessage, asked once per message id
 * of a JSON line, once per text line: one anchored regular expression).
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrValue } from '../parse/record-attributes.js';
import { isoString } from './iso-string.js';
import type { ServerSummary } from './summary.js';
import { KeptEvents } from './kept-events.js';
import { MAX_SHUTDOWNS } from './summary-limits.js';

/**
 * A shutdown's lines, as the server writes them: its beginning, 4.4+ `Received signal` (23377)
 * or `Terminating via shutdown command` (4695400), before 4.4 `got signal 15 (Terminated), will
 * terminate …` or `terminating, shutdown command received`; its end, 4.4+ `Shutting down` (23138,
 * the message alone: `Shutting down full-time diagnostic data capture` and its like are steps of
 * it), before 4.4 `shutting down with code:0`, older `dbexit:  rc: 0`.
 */
const SHUTDOWN_BEGIN = /^(?:Received signal$|Terminating via shutdown command|got signal \d|terminating, shutdown command received)/;
const SHUTDOWN_END = /^(?:Shutting down$|shutting down with code:|dbexit: +rc:)/;
const SHUTDOWN = /^(?:Received signal$|Terminating via shutdown command|got signal \d|terminating, shutdown command received|Shutting down$|shutting down with code:|dbexit: +rc:)/;
const TEXT_SIGNAL = /^got signal (\d+)(?: \(([^)]*)\))?/;
const TEXT_EXIT_CODE = /(?:code:|rc: *)(-?\d+)/;

/**
 * A server writes a few lines before its start line (4.4+: the wire specification, TLS 1.0,
 * TCP FastOpen, its primary-only services; before 4.4: TLS 1.0 on [main]), milliseconds before
 * it. A pause that ended at most this long before a start line is the one the member was down
 * across, the lines after it the start's own; lines this close before a start are not a run
 * that ended without a shutdown (doctor's unlogged-stops.ts).
 */
export const START_PREAMBLE_MS = 2000;

/** A start of the server: 4.4+ `MongoDB starting` (4615611), the text's `MongoDB starting : pid=…`, 3.x's `***** SERVER RESTARTED *****` before it. */
const START = /^MongoDB starting|SERVER RESTARTED/;
/** `Detected unclean shutdown` (22271): a warning a start writes after a crash, seconds after its first line. */
const UNCLEAN_START = /^Detected unclean shutdown/;

/** Whether a server message is a start's first line (one of a start's consecutive ones). */
export const isStartMessage = (message: string): boolean => START.test(message);

/**
 * Whether a server message says a start (the summary's restarts): a start's first line, or the
 * unclean-shutdown warning of a start after a crash, which, with `-l warn`, is the only line of
 * that start selected (a start's lines within RESTART_MERGE_MS are one restart).
 */
export const isRestartMessage = (message: string): boolean => START.test(message) || UNCLEAN_START.test(message);

/** Whether a server message is a shutdown's first or last line. */
export const isShutdownMessage = (message: string): boolean => SHUTDOWN.test(message);

/** What a shutdown line says: `begin` with its cause, or `end` with its exit code (null: not said). */
export type ShutdownLine = { readonly kind: 'begin'; readonly cause: string } | { readonly kind: 'end'; readonly exitCode: number | null };

/** A line isShutdownMessage said yes to, read: its attributes (4.4+) or its text. */
export function shutdownLine(record: LogRecord): ShutdownLine | undefined {
  const message = record.message;
  if (SHUTDOWN_BEGIN.test(message)) {
    if (message.startsWith('Received signal')) {
      const signal = attrValue(record, 'signal');
      const error = attrValue(record, 'error');
      return { kind: 'begin', cause: `signal ${String(signal ?? '?')}${typeof error === 'string' && error !== '' ? ` (${error})` : ''}` };
    }
    const text = TEXT_SIGNAL.exec(message);
    if (text) return { kind: 'begin', cause: `signal ${text[1]}${text[2] ? ` (${text[2]})` : ''}` };
    return { kind: 'begin', cause: 'shutdown command' };
  }
  if (!SHUTDOWN_END.test(message)) return undefined;
  const code = message === 'Shutting down' ? attrValue(record, 'exitCode') : TEXT_EXIT_CODE.exec(message)?.[1];
  const exitCode = typeof code === 'number' ? code : typeof code === 'string' && code !== '' ? Number(code) : null;
  return { kind: 'end', exitCode: exitCode !== null && Number.isInteger(exitCode) ? exitCode : null };
}

/** One shutdown as it is followed: its beginning's time and cause, its end's when seen. */
export interface Shutdown {
  readonly at: number;
  cause: string | null;
  exitCode: number | null;
  exited: number;
  /** Its end was seen (a later end line is another shutdown's). */
  ended: boolean;
}

/** Each member's last shutdown is its own: kept by the caller with the member, passed in and out. */
export class ServerShutdowns {
  readonly #kept = new KeptEvents<Shutdown>(MAX_SHUTDOWNS);

  /**
   * A shutdown line of `member`; `last`: that member's last shutdown, `sinceStart`: whether it
   * came after the member's last start (an end line ends it only then). The member's shutdown now.
   */
  add(line: ShutdownLine, time: number | undefined, member: string, last: Shutdown | undefined, sinceStart: boolean): Shutdown {
    const at = time ?? Number.NaN;
    // An end line ends the shutdown its member began (and has not ended since its last start);
    // a second signal while shutting down is the same shutdown.
    if (last && sinceStart && !last.ended) {
      if (line.kind === 'end') {
        last.exitCode = line.exitCode;
        last.exited = at;
        last.ended = true;
      }
      return last;
    }
    const shutdown: Shutdown = line.kind === 'begin' ? { at, cause: line.cause, exitCode: null, exited: Number.NaN, ended: false } : { at, cause: null, exitCode: line.exitCode, exited: at, ended: true };
    this.#kept.keep(shutdown, member);
    return shutdown;
  }

  /** `several`: name each one's member. */
  summary(several: boolean): Pick<ServerSummary, 'shutdowns' | 'shutdownsNotKept'> {
    return {
      shutdowns: this.#kept.inTimeOrder().map(({ event: shutdown, member }) => ({
        time: isoString(shutdown.at) ?? null,
        cause: shutdown.cause,
        exitCode: shutdown.exitCode,
        exited: shutdown.ended ? (isoString(shutdown.exited) ?? null) : null,
        ...(several ? { member } : {}),
      })),
      shutdownsNotKept: this.#kept.notKept,
    };
  }
}

/** A text start line's host (`MongoDB starting : pid=99 port=27017 dbpath=/data 64-bit host=rs0-0`). */
const TEXT_HOST = /\bhost=(\S+)/;

/** The host a start line names: 4.4+ `attr.host` (4615611), a text start's `host=`; undefined for another start line. */
export function startHost(record: LogRecord): string | undefined {
  if (record.id !== undefined) {
    const host = record.id === 4615611 ? attrValue(record, 'host') : undefined;
    return typeof host === 'string' && host !== '' ? host : undefined;
  }
  return TEXT_HOST.exec(record.message)?.[1];
}
