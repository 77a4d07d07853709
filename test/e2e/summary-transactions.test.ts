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
import { REAL_DATA } from '../_helpers/sidecar-process.js';
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
