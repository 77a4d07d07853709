/**
 * The commands' own diagnostics: pino's JSON lines on stderr (`level` as pino's numbers,
 * `time`, our `logType` tag, the fields, `msg`), synchronous (they are rare, and a sync write
 * is never lost at exit), tagged with a logType so a reader of the container log can select
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

export function createDiagnostics(logType: string, fd = 2): Logger {
  const head = (level: number): string => `{"level":${level},"time":"${new Date().toISOString()}","logType":${JSON.stringify(logType)}`;
  const log = (level: number) => (fields: Readonly<Record<string, unknown>>, message: string) => {
    const body = JSON.stringify(fields);
    writeLine(fd, `${head(level)}${body.length > 2 ? `,${body.slice(1, -1)}` : ''},"msg":${JSON.stringify(message)}}\n`);
  };
  return { info: log(LEVELS.info), warn: log(LEVELS.warn), error: log(LEVELS.error) };
}
