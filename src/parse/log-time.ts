/**
 * Times as the pods' logs write them, in milliseconds since the epoch, read strictly: a time
 * that names no real moment (`2026-02-30`, `24:00`, a zone of `+25:00`) is no time at all,
 * never the moment a lenient parser rolls it over to (Date.parse makes `2026-02-30` March 2nd).
 *
 * Read: ISO 8601 as the server, the agents, the operator and kubectl write it
 * (`2026-11-22T10:00:00.123Z`, `+00:00`, `+0000`, agent 10.x's two-digit `-00`, a space for
 * the `T`, any number of fraction digits, no zone meaning UTC), the old agents'
 * `2019/09/10 04:07:50.537`, a date alone (its midnight UTC), epoch seconds or milliseconds as
 * a number or its text (zap writes `1579818939.4106023` and `1.5798189394106023e+09`), and
 * extended JSON's `{"$numberLong": "…"}` for a `$date`.
 */
import { parseIsoMillis } from './iso-time.js';

/** The most milliseconds a JavaScript Date holds either side of the epoch. */
export const MAX_TIME_MILLIS = 8.64e15;

const LOG_TIME = /^(\d{4})([-/])(\d\d)\2(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?)? ?(Z|z|[+-]\d\d(?::?\d\d)?)?$/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Days in a month of a year (the Gregorian calendar, as the server's clock keeps it). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Epoch seconds (below 1e11, before the year 5138) or milliseconds, when they are a Date's. */
function epochMillis(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const millis = Math.abs(value) < 1e11 ? value * 1000 : value;
  return Math.abs(millis) <= MAX_TIME_MILLIS ? millis : undefined;
}

/** A time as text, read by LOG_TIME's parts; undefined when it names no moment. */
function textMillis(text: string): number | undefined {
  const parts = LOG_TIME.exec(text);
  if (!parts) return undefined;
  const year = Number(parts[1]);
  const month = Number(parts[3]);
  const date = Number(parts[4]);
  const hour = parts[5] === undefined ? 0 : Number(parts[5]);
  const minute = parts[6] === undefined ? 0 : Number(parts[6]);
  const second = parts[7] === undefined ? 0 : Number(parts[7]);
  if (month < 1 || month > 12 || date < 1 || date > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = parts[8] === undefined ? 0 : Number(parts[8].slice(0, 3).padEnd(3, '0'));
  let offset = 0;
  const zone = parts[9];
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = zone.length > 3 ? Number(zone.slice(-2)) : 0;
    if (hours > 23 || minutes > 59) return undefined;
    offset = (zone[0] === '+' ? 1 : -1) * (hours * 60 + minutes) * 60_000;
  }
  // Not Date.UTC, which reads the years 0-99 as 1900-1999.
  const day = new Date(0).setUTCFullYear(year, month - 1, date);
  return day + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis - offset;
}

/**
 * A time as logs write it, in milliseconds since the epoch (UTC); undefined when it is not a
 * time, or not a real one.
 */
export function parseLogTime(value: unknown): number | undefined {
  if (typeof value === 'number') return epochMillis(value);
  if (typeof value !== 'string') return undefined;
  const millis = parseIsoMillis(value);
  if (millis !== undefined) return millis;
  const text = value.trim();
  if (NUMBER.test(text)) return epochMillis(Number(text));
  return textMillis(text);
}

/**
 * A `$date` of extended JSON: its text (relaxed), or `{"$numberLong": "…"}` (canonical, and
 * relaxed for years outside 1970-9999). The server writes the most and the least 64-bit
 * numbers as "no date" sentinels: outside what a Date holds, they are no time.
 */
export function extendedJsonDate(value: unknown): number | undefined {
  // Legacy extended JSON writes the milliseconds as a number.
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= MAX_TIME_MILLIS ? value : undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const long = (value as Record<string, unknown>)['$numberLong'];
    if (typeof long !== 'string' || !/^-?\d+$/.test(long)) return undefined;
    const millis = Number(long);
    return Math.abs(millis) <= MAX_TIME_MILLIS ? millis : undefined;
  }
  return parseLogTime(value);
}
