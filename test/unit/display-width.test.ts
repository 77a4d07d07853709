/**
 * Terminal columns of a table's cells: a trial's CJK appName pushed every later column of its
 * row two columns right a character. The widths, and a text table lined up by them.
 */
import test from 'ava';
import { displayWidth, padToWidth } from '../../src/render/display-width.js';
import { formatTable } from '../../src/summary/render-summary-text.js';

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
