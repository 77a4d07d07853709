import { isRepeatedLocalTime } from '../select/local-time.js';

/**
 * `2026-11-22 10:00:00.123` in local time, or UTC with `utc` (then marked `Z`). A local time the
 * clocks show twice (the hour they go back) is marked with its offset (`01:30:00.123-04:00`,
 * then `01:30:00.123-05:00`), else the two would read alike. Log lines come in time order, so
 * the part up to the second is made once per second and reused.
 */
const cache = { second: Number.NaN, utc: false, text: '', end: '' };

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Four digits at least, as ISO 8601 writes a year (`0001`), its sign kept before them. */
const year = (n: number): string => (n < 0 ? `-${pad(-n, 4)}` : pad(n, 4));

/** `ms`: milliseconds since the epoch. */
export function formatTime(ms: number, utc: boolean): string {
  if (Number.isNaN(ms)) return '';
  const second = Math.floor(ms / 1000);
  if (second !== cache.second || utc !== cache.utc) {
    const date = new Date(ms);
    cache.second = second;
    cache.utc = utc;
    cache.text = utc
      ? `${year(date.getUTCFullYear())}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
      : `${year(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
    cache.end = utc ? 'Z' : isRepeatedLocalTime(ms) ? offsetText(-date.getTimezoneOffset()) : '';
  }
  return `${cache.text}.${MILLIS[Math.floor(ms - second * 1000)]}${cache.end}`;
}

/** An offset east of UTC in minutes as ISO 8601 writes it: `-04:00`, `+05:30`. */
function offsetText(offset: number): string {
  const minutes = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The local zone's offset at `ms`, as `UTC-04:00` (`UTC` itself at no offset): what a reader of
 * local times needs to put them beside UTC ones (kubectl's, a page's).
 */
export function localZone(ms: number): string {
  const offset = -new Date(ms).getTimezoneOffset();
  if (Number.isNaN(offset)) return '';
  return offset === 0 ? 'UTC' : `UTC${offsetText(offset)}`;
}

/**
 * The words after local times of a span from `first` to `last` (ms): `local time (UTC-04:00)`, or
 * the zone at each end when they differ (a change to or from summer time between them). Every
 * report that writes local times says so with these words: the page's times are UTC, kubectl's
 * too, and a local time without its zone cannot be put beside them.
 */
export function localTimeWords(first: number, last: number = first): string {
  const from = localZone(first);
  const to = localZone(last);
  return `local time (${from === to ? from : `${from} to ${to}`})`;
}

/** `000` to `999`, made once: padding each line's milliseconds was a fiftieth of pretty's time. */
const MILLIS = Array.from({ length: 1000 }, (_, n) => pad(n, 3));
