/**
 * The agents' text logs: bracketed fields, then the message, which repeats the time
 * (`[2026-11-22T10:00:00.123+0000] [.info] [src/director/director.go:computePlan:1083]
 * <rs0-1> [10:00:00.123] All 3 Mongo processes are in goal state`); older agents write
 * `[2019/09/10 04:07:50.537]`; start-up banners `[header.info] [::0]`.
 */
import { parseIsoMillis } from './iso-time.js';
import { readAgentHead } from './line-head.js';
import type { RecordReader } from './record-reader.js';
import { levelOf, parseLogTime, type Level, type LineSource, type LogRecord } from './log-record.js';

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
  readonly time: number;
  readonly severity: string;
  readonly level: Level | undefined;
  readonly component: string | undefined;
  readonly #source: LineSource;
  readonly #restAt: number;
  #line: string | undefined;
  #process: RegExpExecArray | null | undefined;

  constructor(time: number, severity: string, source: string, line: LineSource, restAt: number) {
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
    return this.#decoded().slice(process ? process.index + process[0].length : this.#restAt).replace(REPEATED_TIME, '');
  }
}

export function parseAgentLine(line: string): LogRecord | undefined {
  const match = AGENT_LINE.exec(line);
  if (!match) return undefined;
  // Read in place: the time between the first brackets.
  const time = parseIsoMillis(line, 1, 1 + match[1]!.length) ?? parseLogTime(match[1]);
  return time === undefined ? undefined : new AgentRecord(time, match[2]!, match[3]!, { contents: line }, match[0].length);
}

/**
 * An agent line in bytes[start, end), a raw line or inside an entry's contents literal (still
 * escaped), read by its fields without decoding it; undefined when they need decoding (then
 * parse the contents). `source.contents` decodes the line, on first use.
 */
export function parseAgentLineInBytes(bytes: Buffer, start: number, end: number, source: LineSource): LogRecord | undefined {
  const head = readAgentHead(bytes, start, end);
  // The fields are ASCII without escapes: the rest starts at the same index in the contents.
  return head && head.time !== undefined ? new AgentRecord(head.time, head.level, head.source, source, head.end - start) : undefined;
}

/** The agents' lines, read from their bytes where the head is ASCII without escapes (escaped or not, it reads the same). */
export const agentRecordReader: RecordReader = {
  text: parseAgentLine,
  bytes: (source, start, end) => parseAgentLineInBytes(source.bytes, start, end, source),
};

/** The launcher's script lines: a time, then plain text (`2026-11-22 09:58:00 Starting agent launcher`). */
const LAUNCHER_LINE = /^\[?(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\]?\s+(.*)$/;

export function parseLauncherLine(line: string): LogRecord | undefined {
  const match = LAUNCHER_LINE.exec(line);
  const time = match ? parseLogTime(match[1]!.replace(' ', 'T')) : undefined;
  return match && time !== undefined ? { time, message: match[2]! } : undefined;
}

export const launcherRecordReader: RecordReader = { text: parseLauncherLine };
