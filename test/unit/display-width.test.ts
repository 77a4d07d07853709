/**
 * Terminal columns of a table's cells: a trial's CJK appName pushed every later column of its
 * row two columns right a character; another trial's 300-character namespace widened its
 * column in every row. The widths, cells cut to a width, and a text table lined up by them.
 */
import test from 'ava';
import { cutToWidth, displayWidth, padToWidth } from '../../src/render/display-width.js';
import { TEXT_CELL_COLUMNS, formatTable } from '../../src/summary/render-summary-text.js';

const widths: readonly [string, number][] = [
  ['', 0],
  ['mongosh 2.0.1', 13],
  ['é', 1],
  ['e\u0301', 1],
  ['库存服务', 8],
  ['在庫サービス', 12],
  ['재고', 4],
  ['ＡＢ', 4],
  ['a\u200bb', 2],
  ['🚀', 2],
  ['𠀀', 2],
  ['\\u001b[31m', 10],
];

for (const [text, columns] of widths) {
  test(`${JSON.stringify(text)} takes ${columns} columns`, (t) => {
    t.is(displayWidth(text), columns);
  });
}

test('padToWidth pads by columns, at the end or the start', (t) => {
  t.is(padToWidth('库存', 6), '库存  ');
  t.is(padToWidth('库存', 6, true), '  库存');
  t.is(padToWidth('longer than', 4), 'longer than');
});

test('a text table with CJK cells: every column starts at the same terminal column on every line', (t) => {
  const lines = formatTable(
    ['appName', 'connections', 'driver'],
    [
      ['库存服务', '12', 'nodejs|mongosh'],
      ['orders', '3', 'PyMongo'],
      ['在庫サービス', '1,204', 'mongo-go-driver'],
    ],
    [false, true, false],
  );
  // Where each line's last column starts, counted in terminal columns.
  const lastColumnAt = (line: string, last: string): number => displayWidth(line.slice(0, line.lastIndexOf(last)));
  const starts = lines.map((line, i) => lastColumnAt(line, ['driver', 'nodejs|mongosh', 'PyMongo', 'mongo-go-driver'][i]!));
  t.true(starts.every((at) => at === starts[0]), JSON.stringify(lines));
  // Right-aligned counts end in one column too.
  const countEnds = lines.slice(1).map((line, i) => displayWidth(line.slice(0, line.indexOf(['12', '3', '1,204'][i]!) + ['12', '3', '1,204'][i]!.length)));
  t.true(countEnds.every((at) => at === countEnds[0]), JSON.stringify(lines));
});

/** [text, columns, what cutToWidth makes of it] */
const cuts: readonly [string, number, string][] = [
  ['testdb.favorites', 40, 'testdb.favorites'],
  ['abcdef', 6, 'abcdef'],
  ['abcdefg', 6, 'abcde…'],
  // A wide character that would cross the bound is left out whole: one column less.
  ['库存服务', 8, '库存服务'],
  ['库存服务x', 8, '库存服…'],
  ['ab库存服务', 6, 'ab库…'],
  ['a库存服务', 6, 'a库存…'],
  // Marks of no width stay with their character; a surrogate pair is never split.
  ['e\u0301e\u0301e\u0301e\u0301', 3, 'e\u0301e\u0301…'],
  ['🚀🚀🚀', 4, '🚀…'],
  ['𠀀𠀀𠀀', 5, '𠀀𠀀…'],
];

for (const [text, columns, cut] of cuts) {
  test(`${JSON.stringify(text)} in ${columns} columns: ${JSON.stringify(cut)}`, (t) => {
    t.is(cutToWidth(text, columns), cut);
    t.true(displayWidth(cutToWidth(text, columns)) <= columns);
  });
}

test('a text table cuts every cell but the last column\'s at TEXT_CELL_COLUMNS, by columns, and lines the rest up', (t) => {
  const namespace = `app.${'orders_archive_'.repeat(20)}`;
  const appName = `在庫サービス ${'x'.repeat(79)}`;
  const lines = formatTable(
    ['count', 'namespace', 'appName', 'message'],
    [
      ['1', namespace, appName, 'the last column is kept whole '.repeat(5)],
      ['12', 'app.orders', 'orders', 'short'],
    ],
    [true],
  );
  const [, long, short] = lines;
  t.true(long!.includes(`${namespace.slice(0, TEXT_CELL_COLUMNS - 1)}…`), long);
  t.true(long!.includes(cutToWidth(appName, TEXT_CELL_COLUMNS)), long);
  t.true(long!.endsWith('the last column is kept whole '.repeat(5).trimEnd()));
  // Every column but the last within its bound: the message starts at the same column on every line, within 2 + 5 + 2 × (2 + 40) + 2.
  const messageAt = (line: string, message: string): number => displayWidth(line.slice(0, line.indexOf(message)));
  t.is(messageAt(long!, 'the last'), messageAt(short!, 'short'));
  t.true(messageAt(short!, 'short') <= 2 + 5 + 2 * (2 + TEXT_CELL_COLUMNS) + 2, short);
});
