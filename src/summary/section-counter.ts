/**
 * A section of the summary: counts the records of the types whose format names it
 * (LogFormat.summary), beyond what is counted of every type.
 */
import type { Level, LogRecord } from '../parse/log-record.js';
import type { RecordSource } from './slowest-operations.js';

export interface SectionCounter {
  /** One record, its time (its own, else kubectl's), its level and that level's rank (levelRank; Infinity: none). */
  /** `source`: where its line can be read, for the few records whose line is kept. */
  add(record: LogRecord, time: number | undefined, level: Level | undefined, rank: number, source?: RecordSource): void;
}
