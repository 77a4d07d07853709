import test from 'ava';
import { HeavyRows } from '../../src/summary/heavy-rows.js';

interface Row {
  count: number;
  rank: number;
}

const rows = (limit: number): HeavyRows<string, Row> =>
  new HeavyRows<string, Row>(limit, { count: 0, rank: 0 }, {
    weight: (row) => row.count,
    rank: (row) => row.rank,
    fold: (other, row) => {
      other.count += row.count;
    },
  });

function feed(table: HeavyRows<string, Row>, keys: Iterable<string>, rank = (_key: string): number => 0): void {
  for (const key of keys) table.row(key, () => ({ count: 0, rank: rank(key) })).count++;
}

const held = (table: HeavyRows<string, Row>): Map<string, { count: number; before: number }> =>
  new Map([...table.entries()].map(({ key, row, before }) => [key, { count: row.count, before }]));

function* repeat(key: string, n: number): Generator<string> {
  for (let i = 0; i < n; i++) yield key;
}

test('heavy rows: below the limit every key has its row, exact, and nothing is folded', (t) => {
  const table = rows(500);
  feed(table, ['a', 'b', 'a', ...repeat('c', 7)]);
  t.deepEqual([...held(table)], [['a', { count: 2, before: 0 }], ['b', { count: 1, before: 0 }], ['c', { count: 7, before: 0 }]]);
  t.is(table.otherKeys, 0);
  t.is(table.foldedWeight, 0);
});

test('heavy rows: a key that comes after 700 single ones and is counted 150 times keeps its row (a client that comes late)', (t) => {
  const table = rows(500);
  const singles = Array.from({ length: 700 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
  feed(table, [...singles, ...repeat('10.9.9.9', 150)]);
  const late = held(table).get('10.9.9.9');
  t.is(late?.count, 150);
  // It may have missed at most the heaviest row folded before it came: 1.
  t.is(late?.before, 1);
  t.is([...table.entries()].reduce((sum, { row }) => sum + row.count, table.other.count), 850);
});

test('heavy rows: interleaved, a late heavy key is not folded by the singles that keep coming', (t) => {
  const table = rows(100);
  const keys: string[] = [];
  for (let i = 0; i < 2000; i++) keys.push(`single ${i}`, ...(i >= 500 && i % 4 === 0 ? ['busy'] : []));
  feed(table, keys);
  t.is(held(table).get('busy')?.count, 375);
});

test('heavy rows: a rank keeps a fatal and an error line past 600 distinct warnings', (t) => {
  const table = rows(500);
  const levels: Record<string, number> = { F: 0, E: 1, W: 3 };
  const warnings = Array.from({ length: 600 }, (_, i) => `W warning ${i}`);
  feed(table, [...warnings, 'F Fatal assertion', 'E WiredTiger error'], (key) => levels[key[0]!]!);
  t.is(held(table).get('F Fatal assertion')?.count, 1);
  t.is(held(table).get('E WiredTiger error')?.count, 1);
});

test('heavy rows: on random skewed streams, every key heavier than what was folded keeps its row, never counted more than it came, never short by more than its before', (t) => {
  for (let seed = 1; seed <= 30; seed++) {
    const limit = 8 + (seed % 5) * 8;
    const table = rows(limit);
    const truth = new Map<string, number>();
    let s = seed;
    for (let i = 0; i < 5000; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      // Skewed: key k comes about 1/(k+1) as often (a few heavy keys, a long tail).
      const k = Math.floor(1 / ((s % 10_000) / 10_000 + 1e-4)) - 1;
      const key = `k${k}`;
      truth.set(key, (truth.get(key) ?? 0) + 1);
      feed(table, [key]);
    }
    const kept = held(table);
    for (const [key, count] of truth) {
      const row = kept.get(key);
      if (count > table.foldedWeight) t.truthy(row, `seed ${seed}: ${key} (${count} > ${table.foldedWeight}) kept`);
      if (!row) continue;
      t.true(row.count <= count, `seed ${seed}: ${key} not counted more than it came`);
      t.true(count - row.count <= row.before, `seed ${seed}: ${key} short by ${count - row.count}, at most ${row.before}`);
    }
    t.is([...kept.values()].reduce((sum, r) => sum + r.count, table.other.count), 5000, `seed ${seed}: every line counted once`);
    t.true(table.size <= limit);
  }
});
