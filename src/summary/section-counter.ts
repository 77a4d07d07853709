/**
 * A section of the summary: counts the records of the types whose format names it
 * (LogFormat.summary), beyond what is counted of every type.
 */
import type { Level, LogRecord } from '../parse/log-record.js';

export interface SectionCounter {
  /** One record, its time (its own, else kubectl's), its level and that level's rank (levelRank; Infinity: none). */
  add(record: LogRecord, time: number | undefined, level: Level | undefined, rank: number): void;
}
