/**
 * Sizes and durations as people type them: `1MiB`, `64KiB`, `1048576`, `1M`; `5`, `0.2s`,
 * `500ms`. Errors are values, so the commands can turn them into one line and exit 2.
 */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

export function parseSize(text: string): Parsed<number> {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    return { ok: false, error: `"${text}" is not a size (examples: 65536, 64KiB, 1MiB)` };
  }
  return { ok: true, value: Math.floor(Number(match[1]) * unit) };
}

const DURATION_UNITS: Readonly<Record<string, number>> = { '': 1000, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in milliseconds; a bare number is seconds. */
export function parseDurationMs(text: string): Parsed<number> {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!match) return { ok: false, error: `"${text}" is not a duration (examples: 5, 0.5s, 200ms, 2m)` };
  const value = Math.round(Number(match[1]) * DURATION_UNITS[(match[2] ?? '').toLowerCase()]!);
  // Node's timers take at most 2^31 - 1 ms; a longer one fires at once, again and again.
  if (value > MAX_DURATION_MS) return { ok: false, error: `"${text}" is longer than a timer can wait (24 days at most, e.g. 24d)` };
  return { ok: true, value };
}

/** The longest duration a timer can wait (Node's limit). */
export const MAX_DURATION_MS = 2 ** 31 - 1;
