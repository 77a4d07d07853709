/**
 * The commands' own diagnostics: pino's JSON lines on stderr (`level` as pino's numbers,
 * `time`, our `logType` tag, the fields, `msg`), synchronous (they are rare, and a sync write
 * is never lost at exit; a stderr that is stdout's pipe is the exception: DiagnosticRoute), tagged with a logType so a reader of the container log can select
 * or drop them like any other type. stdout belongs to the data.
 *
 * Written here rather than by pino itself: loading pino costs the sidecar a sizeable share of its
 * memory budget at idle for three methods (docs/design.md has the figure). A test writes
 * the same calls through pino and through this and compares the lines.
 */
import fs from 'node:fs';

export interface Logger {
  info(fields: Readonly<Record<string, unknown>>, message: string): void;
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
  error(fields: Readonly<Record<string, unknown>>, message: string): void;
}

/** pino's level numbers. */
const LEVELS = { info: 30, warn: 40, error: 50 } as const;

/** Tries for a blocked stderr (a full non-blocking pipe) before a line is given up. */
const EAGAIN_TRIES = 100;
const pause = new Int32Array(new SharedArrayBuffer(4));

function writeLine(fd: number, line: string): void {
  let bytes = Buffer.from(line);
  for (let tries = 0; bytes.length > 0; ) {
    try {
      bytes = bytes.subarray(fs.writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > EAGAIN_TRIES) return;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * Where a logger's lines go instead of its descriptor while `write` is set: the sidecar's
 * entry writer, when stderr is the same pipe as stdout (`2>&1` into one pipe, a container with a
 * terminal): a line written beside the entries' own writes could land inside an entry the pipe
 * took only part of; through the writer it leaves between two whole entries.
 */
export interface DiagnosticRoute {
  /** `level`: pino's number (a warning's or an error's line is kept before a health line's). */
  write?: ((line: string, level: number) => void) | undefined;
  /** Writes a line to the logger's descriptor as it is (set by createDiagnostics): for lines held back meanwhile. */
  direct?: ((line: string) => void) | undefined;
}

/**
 * Whether two descriptors are one pipe, socket or terminal (not a file: appends to a file never
 * land inside each other's). False where either cannot be looked at.
 */
export function sameStream(fd: number, other: number): boolean {
  try {
    const a = fs.fstatSync(fd);
    const b = fs.fstatSync(other);
    return a.dev === b.dev && a.ino === b.ino && (a.isFIFO() || a.isSocket() || a.isCharacterDevice());
  } catch {
    return false;
  }
}

export function createDiagnostics(logType: string, fd = 2, route?: DiagnosticRoute): Logger {
  if (route) route.direct = (line) => writeLine(fd, line);
  const head = (level: number): string => `{"level":${level},"time":"${new Date().toISOString()}","logType":${JSON.stringify(logType)}`;
  const log = (level: number) => (fields: Readonly<Record<string, unknown>>, message: string) => {
    const body = JSON.stringify(fields);
    const line = `${head(level)}${body.length > 2 ? `,${body.slice(1, -1)}` : ''},"msg":${JSON.stringify(message)}}\n`;
    if (route?.write) route.write(line, level);
    else writeLine(fd, line);
  };
  return { info: log(LEVELS.info), warn: log(LEVELS.warn), error: log(LEVELS.error) };
}
