/**
 * The agents' text logs: bracketed fields, then the message, which repeats the time
 * (`[2026-11-22T10:00:00.123+0000] [.info] [src/director/director.go:computePlan:1083]
 * <rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state`); older agents write
 * `[2019/09/10 04:07:50.537]`, agent 10.x `[2020-12-04T16:39:07.258-00]`; start-up banners
 * `[header.info] [::0]`. A line without that head is none of the agent's records: it
 * continues the record before it (formats/log-formats.ts says the agents' records do), or is
 * the server's own JSON line the agent passed on from a process it started, read as such.
 */
import { parseIsoMillis } from './iso-time.js';
import { AgentHead, readAgentHead } from './line-head.js';
import type { RecordReader } from './record-reader.js';
import { levelOf, type Level, type LineSource, type LogRecord } from './log-record.js';
import { parseLogTime } from './log-time.js';
import { parseServerLine } from './parse-server-line.js';
import { isKubectlOutputLine } from './kubectl-output-line.js';

/** The bracketed fields; the message is the rest of the line, cut out only when asked for. */
const AGENT_LINE = /^\[([^\]]+)\] \[([^\]]*)\] \[([^\]]*)\]\s?/;
/** Sticky: read where the fields end. */
const PROCESS = /<([^>]+)>\s*/y;
const REPEATED_TIME = /^\[\d\d:\d\d:\d\d(?:\.\d+)?\]\s*/;

/**
 * A line read by its time, level and source; its process and message are cut out of the rest
 * on first use (summary counts most lines without them), from the line decoded then.
 */
class AgentRecord implements LogRecord {
  /** Undefined when the head's time names no real moment (the line is still the agent's). */
  readonly time: number | undefined;
  readonly severity: string;
  readonly level: Level | undefined;
  readonly component: string | undefined;
  readonly #source: LineSource;
  readonly #restAt: number;
  #line: string | undefined;
  #process: RegExpExecArray | null | undefined;

  constructor(time: number | undefined, severity: string, source: string, line: LineSource, restAt: number) {
    this.time = time;
    this.severity = severity;
    this.level = levelOf(severity);
    this.component = source === '::0' ? undefined : source;
    this.#source = line;
    this.#restAt = restAt;
  }

  /** The line, asked of the source once. */
  #decoded(): string {
    this.#line ??= this.#source.contents;
    return this.#line;
  }

  #processMatch(): RegExpExecArray | null {
    if (this.#process === undefined) {
      PROCESS.lastIndex = this.#restAt;
      this.#process = PROCESS.exec(this.#decoded());
    }
    return this.#process;
  }

  get context(): string | undefined {
    return this.#processMatch()?.[1];
  }

  get message(): string {
    const process = this.#processMatch();
    // A banner's text is aligned with blanks after its `[::0]`: they are no part of it.
    return this.#decoded().slice(process ? process.index + process[0].length : this.#restAt).replace(REPEATED_TIME, '').trimStart();
  }
}

/** A time-like first field: a line whose time names no real moment is still an agent's line. */
const TIME_FIELD = /^\d{4}[-/]\d\d[-/]\d\d[T ]\d/;

/**
 * True when the line starts with an agent's head: a time in brackets, the level, the source.
 * A line of the agent's outside an entry (its stdout, as `kubectl logs` of an agent container
 * shows it) is recognised so (formats/log-formats.ts).
 */
export function isAgentLine(line: string): boolean {
  if (line.charCodeAt(0) !== 0x5b) return false;
  const match = AGENT_LINE.exec(line);
  return match !== null && (timeOf(line, match[1]!) !== undefined || TIME_FIELD.test(match[1]!));
}

/** The head's time, read in place (the time between the first brackets). */
function timeOf(line: string, text: string): number | undefined {
  return parseIsoMillis(line, 1, 1 + text.length) ?? parseLogTime(text);
}

/**
 * What the agent's stderr holds besides its own lines: free text with a head of its own, each
 * the start of a record (a Go panic's trace, and the agent's complaint that it cannot write its
 * log, continue on the lines after it).
 */
const FREE_TEXT_HEADS: readonly { readonly start: string; readonly level: Level }[] = [
  { start: 'panic: ', level: 'fatal' },
  { start: 'fatal error: ', level: 'fatal' },
  { start: 'Logging error occurred: ', level: 'error' },
  // A Go command's failure as its CLI library prints it (cobra: `Error: <the error>`).
  { start: 'Error: ', level: 'error' },
];

/**
 * A line of Go's standard `log` package (`2026/11/22 10:20:00 http: TLS handshake error …`, as
 * net/http writes its server's errors): a record of its own, of no level it says. Its time is
 * the process's local time with no zone, so it is not taken as one: kubectl's stamp stands.
 */
const GO_LOG_LINE = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d(?:\.\d+)? /;

function freeTextRecord(line: string): LogRecord | undefined {
  for (const { start, level } of FREE_TEXT_HEADS) if (line.startsWith(start)) return { level, message: line };
  return GO_LOG_LINE.test(line) ? { message: line } : undefined;
}

/**
 * After an agent's line read as it is (its stdout, with its stderr, as `kubectl logs` of an
 * agent container shows them), a line that is no entry is the agent's: one without a head
 * continues the record before (its error details come so, as free text: `…failed to
 * validate:` then `&{builds …}`), and the free text above starts a record of its own. Only
 * kubectl's own output pasted after it (its events, errors, tables) is not: that ends the record.
 */
export function isAgentContinuation(line: string): boolean {
  return !isKubectlOutputLine(line);
}

/** An agent's line, of its log files or its stderr and stdout (where free text starts records too). */
export function parseAgentLine(line: string): LogRecord | undefined {
  return readAgentLine(line, true);
}

/**
 * A line of an agent's own log file (verbose, automation-agent, monitoring, backup), which its
 * logger writes: only the agent's head starts a record there. Free text continues the record
 * before it, even where it starts as the stderr's heads do (an error's detail: `Error: …`).
 */
export function parseAgentLogLine(line: string): LogRecord | undefined {
  return readAgentLine(line, false);
}

function readAgentLine(line: string, freeText: boolean): LogRecord | undefined {
  const match = AGENT_LINE.exec(line);
  if (!match) return line.charCodeAt(0) === 0x7b ? parseServerLine(line) : freeText ? freeTextRecord(line) : undefined;
  const time = timeOf(line, match[1]!);
  if (time === undefined && !TIME_FIELD.test(match[1]!)) return undefined;
  return new AgentRecord(time, match[2]!, match[3]!, { contents: line }, match[0].length);
}

/**
 * An agent line in bytes[start, end), a raw line or inside an entry's contents literal (still
 * escaped), read by its fields without decoding it; undefined when they need decoding (then
 * parse the contents). `source.contents` decodes the line, on first use.
 */
export function parseAgentLineInBytes(bytes: Buffer, start: number, end: number, source: LineSource): LogRecord | undefined {
  const head = HEAD;
  // The fields are ASCII without escapes: the rest starts at the same index in the contents.
  // A head whose time the kernel could not read is read from the text (a time naming no real moment is still a head).
  return readAgentHead(bytes, start, end, head) && head.time !== undefined ? new AgentRecord(head.time, head.level, head.source, source, head.end - start) : undefined;
}

/** The head read last: its fields are copied into the record at once. */
const HEAD = new AgentHead();

/**
 * The agent's stderr and stdout: its lines, and the free text a Go program writes there. Lines
 * are read from their bytes where the head is ASCII without escapes (escaped or not, it reads the same).
 */
export const agentRecordReader: RecordReader = {
  text: parseAgentLine,
  bytes: (source, start, end) => parseAgentLineInBytes(source.bytes, start, end, source),
};

/** The agent's own log files: its lines alone start records. */
export const agentLogRecordReader: RecordReader = {
  text: parseAgentLogLine,
  bytes: agentRecordReader.bytes,
};

/** The launcher's script lines: a time, then plain text (`2026-11-22 09:58:00 Starting agent launcher`). */
const LAUNCHER_LINE = /^\[?(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\]?\s+(.*)$/;

export function parseLauncherLine(line: string): LogRecord | undefined {
  const match = LAUNCHER_LINE.exec(line);
  const time = match ? parseLogTime(match[1]) : undefined;
  return match && time !== undefined ? { time, message: match[2]! } : undefined;
}

export const launcherRecordReader: RecordReader = { text: parseLauncherLine };
