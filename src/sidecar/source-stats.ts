/**
 * Per-source counters for the health lines (`event: "stats"`), and the lines themselves.
 */
import type { Logger } from '../diag/logger.js';

export interface SourceStats {
  /** Lines read (handed to the writer): a reader that went away may not have taken them all. */
  lines: number;
  bytes: number;
  /** Files renamed away (a rotation) and files deleted at the name, each drained: counted apart. */
  rotations: number;
  deletions: number;
  truncations: number;
  /** Bytes given up: rotated files closed unread past the bound, copies that were not found. */
  givenUpBytes: number;
}

export function newStats(): SourceStats {
  return { lines: 0, bytes: 0, rotations: 0, deletions: 0, truncations: 0, givenUpBytes: 0 };
}

export interface StatsSource {
  readonly logType: string;
  readonly path: string;
  readonly stats: SourceStats;
  /** A file's read position, how far its lines were delivered (what a save keeps), and its unread bytes; nothing for a stream. */
  readonly progress?: () => { position: number | null; delivered: number | null; lag: number | undefined };
}

export function logStats(log: Logger, sources: readonly StatsSource[]): void {
  for (const { logType, path, stats, progress } of sources) {
    if (progress) log.info({ event: 'stats', source: logType, path, ...stats, ...progress() }, 'file stats');
    else log.info({ event: 'stats', source: logType, path, ...stats }, 'stream stats');
  }
}
