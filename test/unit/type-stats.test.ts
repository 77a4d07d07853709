import test from 'ava';
import { perMinuteShown } from '../../src/summary/type-stats.js';

// A mixed 4.2 + 6.0 input: 8,260 entries over years read "per min 0" when rounded to a tenth.
const cases: readonly [entries: number, spanMinutes: number, shown: number][] = [
  [8260, 2_000_000, 0.0041],
  [3, 60 * 24 * 2, 0.001],
  [5, 60, 0.083],
  [59, 60, 0.98],
  [60, 60, 1],
  [1234, 60, 20.6],
  [10, 0, 10],
  [10, 0.5, 10],
  [0, 60, 0],
];

for (const [entries, spanMinutes, shown] of cases) {
  test(`per minute: ${entries} entries over ${spanMinutes} minutes read ${shown}`, (t) => {
    t.is(perMinuteShown(entries, spanMinutes), shown);
  });
}
