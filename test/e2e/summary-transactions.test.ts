/**
 * The slowest transactions with their parameters, as mloginfo --transactions shows each one,
 * through the real `logtype summary` on mtools' 4.0 log of slow transactions: the slowest
 * durations its `transaction parameters:` lines have, each row with the parameters of such a
 * line as the line writes them.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import type { Summary } from '../../src/summary/summary.js';
import { MAX_SLOWEST_TRANSACTIONS } from '../../src/summary/summary-limits.js';

const FILE = path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log');

/** A transaction line's parameters, read with patterns of their own (not logtype's parser). */
function parametersOf(line: string) {
  const number = (name: string): number | null => {
    const found = new RegExp(`\\b${name}:? ?(\\d+)`).exec(line);
    return found ? Number(found[1]) : null;
  };
  return {
    time: new Date(line.slice(0, 28)).toISOString(),
    durationMillis: Number(/ (\d+)ms$/.exec(line)![1]),
    lsid: /lsid: \{ id: UUID\("([^"]+)"\)/.exec(line)![1]!,
    txnNumber: number('txnNumber'),
    autocommit: /autocommit: (true|false)/.exec(line)![1] === 'true',
    readConcern: /readConcern: \{ level: "(\w+)" \}/.exec(line)![1]!,
    terminationCause: /terminationCause:(\w+)/.exec(line)![1]!,
    timeActiveMicros: number('timeActiveMicros'),
    timeInactiveMicros: number('timeInactiveMicros'),
    numYields: number('numYields'),
  };
}

test("mtools' 4.0 log: the slowest transactions, each with its parameters (session, txnNumber, autocommit, readConcern, how it ended, time active and inactive, yields)", (t) => {
  const lines = fs.readFileSync(FILE, 'utf8').split('\n').filter((line) => line.includes(' transaction parameters:'));
  t.true(lines.length > MAX_SLOWEST_TRANSACTIONS, `${lines.length} transaction lines`);
  const run = runFilter(['summary', '--json', FILE]);
  t.is(run.status, 0, run.stderr);
  const found = (JSON.parse(run.stdout) as Summary).server!.slowestTransactions;
  const expected = lines.map(parametersOf);
  t.deepEqual(
    found.map((x) => x.durationMillis),
    expected.map((x) => x.durationMillis).sort((a, b) => b - a).slice(0, MAX_SLOWEST_TRANSACTIONS),
    'the slowest durations, the slowest first',
  );
  const keys = (x: object): string => JSON.stringify(x);
  const written = new Set(expected.map(keys));
  for (const row of found) {
    const { connection, ...parameters } = row;
    t.is(connection, 'main');
    t.true(written.has(keys(parameters)), `a line's parameters: ${keys(parameters)}`);
  }
  t.true(new Set(found.map((x) => x.terminationCause)).size >= 1 && found.every((x) => x.lsid !== null && x.txnNumber !== null));
  const text = runFilter(['summary', '--utc', FILE]);
  t.regex(text.stdout, /Slowest transactions \(10 of the 20 kept/);
  t.regex(text.stdout, new RegExp(`  ${found[0]!.lsid}\\n`));
});

test("mtools' 4.0 log as two pods of one kubectl --prefix stream (its lines dealt to each in turn): each slowest transaction names a pod that wrote it, in the JSON, the text and the page", (t) => {
  const all = fs.readFileSync(FILE, 'utf8').split('\n').filter((line) => line !== '');
  const podOf = (i: number): string => `db-${i % 2}`;
  const dir = tempDir('logtype-transactions-');
  try {
    const input = path.join(dir, 'kubectl-logs-prefix.log');
    fs.writeFileSync(input, all.map((line, i) => `[pod/${podOf(i)}/mongodb] ${line}\n`).join(''));
    // The log repeats three transactions 13 times over: a row tells its kind, not its line. Each
    // row's member is a pod that wrote a line of its kind, no pod is named for more rows of a kind
    // than it wrote, and the rows name both pods.
    const keys = (x: object): string => JSON.stringify(x);
    const written = new Map<string, Map<string, number>>();
    all.forEach((line, i) => {
      if (!line.includes(' transaction parameters:')) return;
      const kind = written.get(keys(parametersOf(line))) ?? new Map<string, number>();
      kind.set(podOf(i), (kind.get(podOf(i)) ?? 0) + 1);
      written.set(keys(parametersOf(line)), kind);
    });
    const page = path.join(dir, 'summary.html');
    const run = runFilter(['summary', '--json', '--html', page, input]);
    t.is(run.status, 0, run.stderr);
    const found = (JSON.parse(run.stdout) as Summary).server!.slowestTransactions;
    t.is(found.length, MAX_SLOWEST_TRANSACTIONS);
    const named = new Map<string, number>();
    for (const row of found) {
      const { connection: _connection, member, ...parameters } = row;
      const key = `${keys(parameters)} ${String(member)}`;
      named.set(key, (named.get(key) ?? 0) + 1);
      t.true(named.get(key)! <= (written.get(keys(parameters))?.get(member!) ?? 0), `${String(member)} wrote this transaction (${row.terminationCause!}, ${row.numYields!} yields) as often as the rows say`);
    }
    t.deepEqual([...new Set(found.map((x) => x.member))].sort(), ['db-0', 'db-1']);
    const text = runFilter(['summary', '--utc', input]).stdout;
    const table = text.slice(text.indexOf('Slowest transactions'));
    t.regex(table, /\n\s+duration\s+time\s+member\s+connection\s+txnNumber\s/);
    t.regex(table, new RegExp(`\\n\\s+${found[0]!.durationMillis}ms\\s+\\S+ \\S+\\s+${found[0]!.member!}\\s+main\\s`));
    t.regex(fs.readFileSync(page, 'utf8'), /<table class="transactions"><thead><tr><th>duration ms<\/th><th>time<\/th><th>member<\/th><th>connection<\/th>/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
