import test from 'ava';
import { columnSpanWords } from '../../src/summary/render-summary-text.js';

// From a CLI trial: a summary of lines from 2019 to 2026 said "one column = 47348 min".
test('an activity column\'s span in the unit that reads: minutes under two hours, hours under two days, days beyond', (t) => {
  const rows: [number, string][] = [
    [1, '1 min'],
    [15, '15 min'],
    [119, '119 min'],
    [120, '2 h'],
    [150, '2.5 h'],
    [2879, '48 h'],
    [2880, '2 days'],
    [47348, '32.9 days'],
  ];
  for (const [minutes, words] of rows) t.is(columnSpanWords(minutes), words, String(minutes));
});
