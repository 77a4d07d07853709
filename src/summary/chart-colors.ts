/**
 * The summary page's colours, decided here once: red means errors and only errors, orange
 * warnings; each log type keeps one colour on every chart and every page (its format's
 * `chartColor` in the registry, log-formats.ts); a COLLSCAN is drawn in a colour and a shape of
 * its own, never red.
 */
import { logFormat } from '../formats/log-formats.js';
import { OTHER_TYPES } from './summary-limits.js';

export const ERROR_COLOR = '#c62828';
export const WARNING_COLOR = '#ef6c00';
/** Lines that are neither errors nor warnings. */
export const INFO_COLOR = '#90a4ae';
/** A slow operation that scanned its whole collection: a dark diamond, apart from the round points. */
export const COLLSCAN_COLOR = '#212121';
/** The types beyond MAX_TYPES, in one row. */
export const OTHER_TYPES_COLOR = '#bdbdbd';
/** Marks of events on the time charts (restarts, elections, state changes). */
export const MARKER_COLORS = { restart: '#880e4f', shutdown: '#b8860b', election: '#aa00ff', state: '#004d40' } as const;

/**
 * Types logtype does not know get one of these by a hash of their name: the same name, the same
 * colour on every page (two unknown names may share one).
 */
export const UNKNOWN_TYPE_COLORS = ['#0097a7', '#558b2f', '#283593', '#8d6e63', '#4db6ac', '#9575cd', '#afb42b', '#5c6bc0'];

/** The colour of a log type on every chart and table of every page. */
export function typeColor(logType: string): string {
  const known = logFormat(logType)?.chartColor;
  if (known !== undefined) return known;
  if (logType === OTHER_TYPES) return OTHER_TYPES_COLOR;
  let hash = 0;
  for (let i = 0; i < logType.length; i++) hash = (hash * 31 + logType.charCodeAt(i)) >>> 0;
  return UNKNOWN_TYPE_COLORS[hash % UNKNOWN_TYPE_COLORS.length]!;
}

/**
 * Replica-set states in the members' lanes: the primary dark, secondaries light, the states
 * between (starting, recovering, rolling back) in greys and lavender; down dark grey; unknown
 * nearly white. None red or orange: those stay errors' and warnings'.
 */
export const STATE_COLORS: Readonly<Record<string, string>> = {
  PRIMARY: '#0d47a1',
  SECONDARY: '#90caf9',
  ARBITER: '#a5d6a7',
  STARTUP: '#cfd8dc',
  STARTUP2: '#b0bec5',
  RECOVERING: '#b39ddb',
  ROLLBACK: '#9575cd',
  down: '#455a64',
  unknown: '#eceff1',
};
/** A state not in STATE_COLORS (REMOVED, UNKNOWN as the server says it). */
export const OTHER_STATE_COLOR = '#bcaaa4';
