/**
 * The commands' own diagnostics: pino JSON on stderr, synchronous (they are rare, and a sync
 * write is never lost at exit), tagged with a logType so a reader of the container log can
 * select or drop them like any other type. stdout belongs to the data.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createDiagnostics(logType: string, fd = 2): Logger {
  return pino(
    { base: { logType }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: fd, sync: true }),
  );
}
