/**
 * One line of any log the pods write, read into the same fields whatever its format, so a
 * filter or a renderer means the same thing for every type. Parsers never throw: a line they
 * do not recognise gives undefined and is shown as it is.
 */
export { parseLogTime } from './log-time.js';
import type { AttributeReader } from './record-attributes.js';
import { parseJson, parseRepairedJson } from './json-value.js';

export type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug';

export const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug'];

export interface LogRecord {
  /** Milliseconds since the epoch (UTC): numbers, not Dates, as a million lines make a million times. */
  readonly time?: number | undefined;
  readonly level?: Level | undefined;
  /** The level as the line wrote it: `W`, `D2`, `.warn`, `header.info`, `error`. */
  readonly severity?: string | undefined;
  /** The server's component, the agent's source file, the operator's caller, the audit atype. */
  readonly component?: string | undefined;
  /** The server's thread (`conn123`), the agent's process (`rs0-1`). */
  readonly context?: string | undefined;
  readonly id?: number | undefined;
  readonly message: string;
  readonly attrs?: Readonly<Record<string, unknown>> | undefined;
  readonly tags?: readonly string[] | undefined;
  /** Audit: who acted (`user@db`, or the name a failed authentication tried). */
  readonly users?: readonly string[] | undefined;
  /** Audit: the result code (0 success, 13 unauthorized, 18 authentication failed). */
  readonly result?: number | undefined;
  /** Audit: where from (`ip:port`, `unix:PATH`, `system`). */
  readonly remote?: string | undefined;
  /** Operator: the resource reconciled, `namespace/name`. */
  readonly resource?: string | undefined;
  /** The line's own JSON object, when it was one: for `--fields` and `-o json`. */
  readonly object?: Readonly<Record<string, unknown>> | undefined;
  /** Reads one attribute at a time without parsing the whole line, where the record can (record-attributes.ts). */
  readonly attributes?: AttributeReader | undefined;
  /**
   * The physical lines that continued the record after its first (an agent's error printed
   * with `%v`, a stack trace), already part of its message: renderers put them below it.
   */
  readonly continuation?: readonly string[] | undefined;
  /**
   * The log whose line this is, where the line of one log holds another's: the server's JSON
   * line an agent passed on from a process it started is the server's (`server`), and the
   * server's filters (-c, --id, --ctx) select it in the agent's log too. Set on server records.
   */
  readonly family?: 'server' | undefined;
}

/** Levels from worst to mildest: `--level warn` keeps ranks up to warn's. */
export function levelRank(level: Level): number {
  // A switch, not a keyed lookup: asked for every line.
  switch (level) {
    case 'fatal':
      return 0;
    case 'error':
      return 1;
    case 'warn':
      return 2;
    case 'info':
      return 3;
    case 'debug':
      return 4;
  }
}

/** Levels by the words lines write them with: a log writes a handful, a million times over. */
const levelsByWord = new Map<string, Level | undefined>();
let lastWord: string | number | undefined;
let lastLevel: Level | undefined;

/** `F E W I D1..D5`, `.warn`, `header.info`, zap's and pino's levels onto one scale. */
export function levelOf(severity: string | number | undefined): Level | undefined {
  if (severity === undefined) return undefined;
  // The same word as the line before, most often (a server writes `I` on most lines).
  if (severity === lastWord) return lastLevel;
  if (typeof severity === 'number') {
    // pino: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal
    return severity >= 60 ? 'fatal' : severity >= 50 ? 'error' : severity >= 40 ? 'warn' : severity >= 30 ? 'info' : 'debug';
  }
  const known = levelsByWord.get(severity);
  if (known !== undefined || levelsByWord.has(severity)) {
    lastWord = severity;
    lastLevel = known;
    return known;
  }
  const level = levelOfWord(severity.slice(severity.lastIndexOf('.') + 1).toLowerCase());
  // Bounded: a crafted log could write a new word on every line.
  if (levelsByWord.size < 256) levelsByWord.set(severity, level);
  return level;
}

function levelOfWord(word: string): Level | undefined {
  switch (word) {
    case 'f':
    case 'fatal':
    case 'panic':
    case 'dpanic':
      return 'fatal';
    case 'e':
    case 'error':
      return 'error';
    case 'w':
    case 'warn':
    case 'warning':
      return 'warn';
    case 'i':
    case 'info':
      return 'info';
    default:
      return /^(d[1-5]?|debug|trace)$/.test(word) ? 'debug' : undefined;
  }
}

/** Where a record's line is decoded from on first use: an entry's contents, decoded once for every user. */
export interface LineSource {
  readonly contents: string;
}

/**
 * An entry's line as the reader holds it: where its contents literal's quotes are in the input
 * bytes (literalStart -1 when it was not read so), the text between them while it is not
 * decoded; or where the contents stand as written (a raw line; plainStart -1 otherwise); and
 * the contents.
 */
export interface EntrySource extends LineSource {
  readonly bytes: Buffer;
  readonly literalStart: number;
  readonly literalEnd: number;
  readonly escapedContents: string | undefined;
  readonly plainStart: number;
  readonly plainEnd: number;
}

export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * A line's JSON object. One JSON.parse refuses only for a bare non-finite number (the server's
 * `"ratio":nan`) or a raw control in a string is read as repairedJson writes it.
 */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return asObject(parseJson(line));
  } catch {
    return asObject(parseRepairedJson(line));
  }
}
