import { OTHER_TYPES } from './summary-limits.js';
import type { Summary } from './summary.js';

/** A type's name as its row shows it; the shared row says how many types it holds. */
export function typeLabel(logType: string, summary: Pick<Summary, 'otherTypes'>): string {
  const other = summary.otherTypes;
  if (logType !== OTHER_TYPES || !other) return logType;
  return `and ${other.atLeast ? 'at least ' : ''}${other.names.toLocaleString('en-US')} more ${other.names === 1 ? 'type' : 'types'}`;
}
