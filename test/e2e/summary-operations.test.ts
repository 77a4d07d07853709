/**
 * Summary of real server logs (Hatchet's two replica members, mtools' 4.0 and 4.2 text logs)
 * through the real `logtype summary`: operations named as the server names them, applied
 * oplog entries in their own group by namespace, query patterns beside the queryHash,
 * connections counted as grep counts them, text messages grouped by their template.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';
import type { Summary } from '../../src/summary/summary.js';

const real = (file: string) => path.join(REAL_DATA, file);

function summaryOf(file: string): Summary {
  const result = runFilter(['summary', '--json', '--as', 'mongodb', real(file)]);
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Summary;
}

/** What `grep -c PATTERN` says of the file (zcat'ed first when it is gzipped). */
function grepCount(file: string, pattern: string): number {
  const command = file.endsWith('.gz') ? `zcat '${real(file)}' | grep -c '${pattern}'` : `grep -c '${pattern}' '${real(file)}'`;
  const result = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
  return Number(result.stdout.trim());
}

for (const [file, acceptedPattern, endedPattern, appliedPattern] of [
  ['mongod-replica-rs1.log.gz', '"id":22943,', '"id":22944,', '"id":51801,'],
  ['mongod-replica-rs2.log.gz', '"id":22943,', '"id":22944,', '"id":51801,'],
  ['mongod-4.0-text-slow-transactions.log', 'connection accepted', 'end connection', 'applied op:'],
] as const) {
  test(`summary of ${file}: no operation named q, applied ops by namespace, connections as grep counts them`, (t) => {
    const server = summaryOf(file).server!;
    const names = server.slowOperations.map((g) => g.operation);
    t.false(names.includes('q'), names.join(','));
    t.false(server.slowOperations.some((g) => g.ns === '?'));
    t.false(server.appliedOperations.some((g) => g.ns === '?'));
    t.is(
      server.appliedOperations.reduce((n, g) => n + g.count, 0),
      grepCount(file, appliedPattern),
      `applied entries: grep -c '${appliedPattern}' ${file}`,
    );
    t.is(server.connections.opened, grepCount(file, acceptedPattern), `grep -c '${acceptedPattern}' ${file}`);
    t.is(server.connections.closed, grepCount(file, endedPattern), `grep -c '${endedPattern}' ${file}`);
  });
}

test("Hatchet's rs1: the figures of its groups", (t) => {
  const server = summaryOf('mongod-replica-rs1.log.gz').server!;
  // grep -c '"id":22943,' = 71, grep -c '"id":22944,' = 71 on rs1.
  t.like(server.connections, { opened: grepCount('mongod-replica-rs1.log.gz', '"id":22943,'), closed: grepCount('mongod-replica-rs1.log.gz', '"id":22944,') });
  const updates = server.slowOperations.filter((g) => g.operation === 'update');
  // 1,025 update statements (type update) and 42 update commands: 1,067 updates, no row "q".
  t.is(updates.reduce((n, g) => n + g.count, 0), 1067);
  const employees = server.slowOperations.find((g) => g.ns === 'testdb.employees' && g.operation === 'update' && g.kind === 'operation' && g.pattern === '{_id: 1}');
  t.truthy(employees);
  const oplog = server.slowOperations.find((g) => g.operation === 'getMore');
  t.like(oplog, { ns: 'local.oplog.rs', pattern: '{ts: 1}', count: 2604 });
  t.truthy(server.slowOperations.find((g) => g.pattern === '{parentLsid: {id: 1, uid: 1}} sort {_id.txnNumber: -1} projection {_id: 1}' && g.shape === '2533300B'));
  const applied = new Map(server.appliedOperations.map((g) => [`${g.ns} ${g.operation}`, g.count]));
  t.is(applied.get('config.transactions update'), 117);
  t.is(applied.get('testdb.numbers insert'), 62);
  t.is(applied.get('(truncated) insert'), 72);
});

test('the 4.0 text log: every line ending in ms is in a group; transactions, applied ops; templates, no empty group', (t) => {
  const server = summaryOf('mongod-4.0-text-slow-transactions.log').server!;
  const grouped = server.slowOperations.reduce((n, g) => n + g.count, 0) + server.appliedOperations.reduce((n, g) => n + g.count, 0);
  t.is(grouped, grepCount('mongod-4.0-text-slow-transactions.log', 'ms$'));
  const transactions = server.slowOperations.filter((g) => g.kind === 'transaction');
  t.deepEqual(transactions.map((g) => [g.shape, g.count]).sort(), [['aborted', 13], ['committed', 26]]);
  t.false(server.messages.some((m) => m.msg.trim() === ''));
  const templates = server.messages.map((m) => m.msg);
  t.true(templates.includes('command config.system.sessions command: listIndexes'), templates.join('\n'));
  t.true(templates.includes('connection accepted from #.#.#.#:# ## (# connection now open)'), templates.join('\n'));
  t.true(templates.every((m) => m.length <= 200));
});

test('the 4.2 text log: connections as grep counts them, and the peak it says', (t) => {
  const server = summaryOf('mongod-4.2-text.log').server!;
  t.deepEqual(server.connections, {
    opened: grepCount('mongod-4.2-text.log', 'connection accepted'),
    closed: grepCount('mongod-4.2-text.log', 'end connection'),
    peak: 6323,
  });
});
