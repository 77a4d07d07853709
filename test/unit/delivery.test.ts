import test from 'ava';
import { checkNumbered } from '../_helpers/delivery.js';

/** The writer's line n (NumberedWriter's shape: tag, eight digits, padding of x). */
const line = (n: number): string => `mongodb-${String(n).padStart(8, '0')} ${'x'.repeat(41)}`;
const entry = (contents: string, partial = false): string => JSON.stringify({ logType: 'mongodb', contents, ...(partial ? { partial } : {}) });

test('checkNumbered: lines delivered whole, once, in order', (t) => {
  const result = checkNumbered([1, 2, 3].map((n) => entry(line(n))), 'mongodb', 'mongodb', 3, line);
  t.deepEqual(result, { delivered: 3, lost: [], duplicated: 0, repeats: [], outOfOrder: 0, invalidJson: 0, wrongContents: 0 });
});

const damaged: [string, string[]][] = [
  ['cut short', [entry(line(1)), entry(line(2).slice(0, 30)), entry(line(3))]],
  ['its end lost (padding shorter)', [entry(line(1)), entry(line(2).slice(0, -1)), entry(line(3))]],
  ['a byte altered inside the padding', [entry(line(1)), entry(line(2).replace('xx', 'xy')), entry(line(3))]],
  ['joined to the next line', [entry(line(1)), entry(line(2) + line(3)), entry(line(3))]],
  ['a partial piece', [entry(line(1)), entry(line(2), true), entry(line(3))]],
];
for (const [name, lines] of damaged) {
  test(`checkNumbered: a line ${name} is lost and counted as wrong contents, not delivered`, (t) => {
    for (const lineOf of [line, undefined]) {
      const result = checkNumbered(lines, 'mongodb', 'mongodb', 3, lineOf);
      t.deepEqual(result.lost, [2], lineOf ? 'with the writer\'s line' : 'by its shape');
      t.is(result.wrongContents, 1);
    }
  });
}

test('checkNumbered: repeats, order, other types and broken JSON', (t) => {
  const lines = [entry(line(1)), entry(line(3)), entry(line(2)), entry(line(3)), JSON.stringify({ logType: 'other', contents: line(9) }), '{"logType":'];
  const result = checkNumbered(lines, 'mongodb', 'mongodb', 3, line);
  t.deepEqual(result.lost, []);
  t.deepEqual(result.repeats, [3]);
  t.is(result.outOfOrder, 1);
  t.is(result.invalidJson, 1);
  t.is(result.wrongContents, 0);
});
