import test from 'ava';
import { sizeOf } from '../../src/cli/read-progress.js';

test('progress sizes: KB under a megabyte, MB with a decimal under ten, whole MB above (a 44 KB file read "0 of 0 MB")', (t) => {
  const rows: readonly [number, number, string][] = [
    [0, 45_056, '0 KB'],
    [45_056, 45_056, '44 KB'],
    [1, 1000, '1 KB'],
    [1_572_864, 5_242_880, '1.5 MB'],
    [5_242_880, 5_242_880, '5.0 MB'],
    [1_048_576, 104_857_600, '1 MB'],
    [104_857_600, 104_857_600, '100 MB'],
  ];
  for (const [bytes, scale, said] of rows) t.is(sizeOf(bytes, scale), said, `${bytes} of ${scale}`);
});
