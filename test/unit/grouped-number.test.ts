/** groupedNumber writes what toLocaleString('en-US') writes, for every kind of number. */
import test from 'ava';
import { groupedNumber } from '../../src/render/grouped-number.js';

const numbers = [0, -0, 1, 9, 10, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -999, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, 1234.5678, -0.25, 1e21, Number.NaN, Infinity, -Infinity];

for (const n of numbers) {
  test(`grouped number: ${Object.is(n, -0) ? '-0' : String(n)}`, (t) => {
    t.is(groupedNumber(n), n.toLocaleString('en-US'));
  });
}
