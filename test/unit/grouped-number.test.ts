/** groupedNumber writes what toLocaleString('en-US') writes, for every kind of number. */
import test from 'ava';
import { groupedNumber } from '../../src/render/grouped-number.js';

const numbers = [0, -0, 1, 9, 10, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -999, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, 1234.5678, -0.25, 1e21, Number.NaN, Infinity, -Infinity];
/** Fractions: tenths as summary's ratios are rounded, up to three decimals and past them, tiny and huge. */
const fractions = [0.1, 0.5, 10119.1, -10119.1, 999.9, 1000.5, 123456.7, 0.001, 0.123, 1234.567, -1234.567, 0.0005, 1234.5675, 2.0004, 1.0005, 0.1 + 0.2, 1e-7, 5e-324, 1e15 + 0.5, 9007199254740.9, 123456789012.125, -0.5];

for (const n of numbers) {
  test(`grouped number: ${Object.is(n, -0) ? '-0' : String(n)}`, (t) => {
    t.is(groupedNumber(n), n.toLocaleString('en-US'));
  });
}

test('grouped number: every fraction as toLocaleString writes it', (t) => {
  for (const n of fractions) t.is(groupedNumber(n), n.toLocaleString('en-US'), String(n));
  // Ratios rounded to tenths, as summary writes examined/returned, over many magnitudes.
  for (let k = 1; k < 2_000_000; k += 7919) {
    for (const scale of [1, 1000, 1_000_000]) {
      const n = Math.round(k * scale) / 10;
      t.is(groupedNumber(n), n.toLocaleString('en-US'), String(n));
      t.is(groupedNumber(-n), (-n).toLocaleString('en-US'), String(-n));
    }
  }
  // Random fractions with up to five decimals.
  let seed = 7;
  for (let i = 0; i < 20_000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const n = (seed % 100_000_000) / 10 ** (seed % 6);
    t.is(groupedNumber(n), n.toLocaleString('en-US'), String(n));
  }
});
