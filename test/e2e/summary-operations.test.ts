/**
 * Summary of real server logs (Hatchet's two replica members, mtools' 4.0 and 4.2 text logs)
 * through the real `logtype summary`: operations named as the server names them, applied
 * oplog entries in their own group by namespace, query patterns beside the queryHash,
 * connections counted as grep counts them, text messages grouped by their template.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import { displayWidth } from '../../src/render/display-width.js';
import { TEXT_CELL_COLUMNS } from '../../src/summary/render-summary-text.js';
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

/** A real log's slow COLLSCANs, read here by the line's own words: their times, by minute. */
function collscanMinutes(file: string): Map<number, number> {
  const minutes = new Map<number, number>();
  for (const line of gunzipSync(fs.readFileSync(real(file))).toString('utf8').split('\n')) {
    if (!line.includes('"durationMillis"') || !line.includes('"planSummary":"COLLSCAN')) continue;
    const minute = Math.floor(Date.parse(/"\$date":"([^"]+)"/.exec(line)![1]!) / 60_000);
    minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
  }
  return minutes;
}

test("two members read one after another (Hatchet's rs1, then rs2): every COLLSCAN of both in the plot, each minute's, said so", (t) => {
  const files = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz'];
  const page = path.join(tempDir('summary-collscans'), 'page.html');
  const result = runFilter(['summary', '--json', '--as', 'mongodb', '--html', page, ...files.map(real)]);
  t.is(result.status, 0, result.stderr);
  const server = (JSON.parse(result.stdout) as Summary).server!;
  const seen = new Map<number, number>();
  for (const file of files) for (const [minute, count] of collscanMinutes(file)) seen.set(minute, (seen.get(minute) ?? 0) + count);
  const total = [...seen.values()].reduce((a, b) => a + b, 0);
  // rs1's spike (2,322 in one minute) and rs2's (416, four minutes later): every one drawn (a reports
  // trial: 2,001 of these 3,136 were, a sample; past MAX_COLLSCAN_POINTS the unit test's uniform sample stands).
  t.is(server.collscansSeen, total);
  t.true(total > 3000, `${total}`);
  const drawn = server.slowPoints.filter((p) => p.collscan);
  t.is(drawn.length, total);
  const drawnIn = new Map<number, number>();
  for (const p of drawn) {
    const minute = Math.floor(Date.parse(p.time) / 60_000);
    drawnIn.set(minute, (drawnIn.get(minute) ?? 0) + 1);
  }
  // Every minute's COLLSCANs, all of them.
  for (const [minute, count] of seen) {
    const at = new Date(minute * 60_000).toISOString().slice(11, 16);
    t.is(drawnIn.get(minute) ?? 0, count, `${at}: all ${count} drawn`);
  }
  // The slowest operation is drawn, and the page says what it draws.
  const slowest = Math.max(...server.slowest.map((s) => s.durationMillis));
  t.true(server.slowPoints.some((p) => p.durationMillis === slowest));
  const caption = /Slow operations over time, by duration \(([^)]*)\)/.exec(fs.readFileSync(page, 'utf8'))?.[1];
  // Every COLLSCAN drawn; those among the 100 slowest counted there, once.
  t.regex(caption ?? '', new RegExp(`; (all ${total.toLocaleString('en-US')} COLLSCANs|the other [\\d,]+ COLLSCANs, every one of the ${total.toLocaleString('en-US')} drawn); `));
  // The secondaries' applied entries are among the plotted operations, and counted apart in the tables: the title says how many.
  const applied = gunzipSync(fs.readFileSync(real(files[0]!))).toString('utf8').split('\n').filter((line) => line.includes('"id":51801,')).length +
    gunzipSync(fs.readFileSync(real(files[1]!))).toString('utf8').split('\n').filter((line) => line.includes('"id":51801,')).length;
  t.true(applied > 0);
  t.true(
    fs.readFileSync(page, 'utf8').includes(`: ${applied.toLocaleString('en-US')} of the ${server.slowPointsSeen.toLocaleString('en-US')} are oplog entries applied slowly, counted apart in their own table`),
  );
});

test("one member within the plot's budget (Hatchet's rs2): every COLLSCAN drawn, and the page says all", (t) => {
  const page = path.join(tempDir('summary-collscans'), 'page.html');
  const result = runFilter(['summary', '--json', '--as', 'mongodb', '--html', page, real('mongod-replica-rs2.log.gz')]);
  t.is(result.status, 0, result.stderr);
  const server = (JSON.parse(result.stdout) as Summary).server!;
  const total = [...collscanMinutes('mongod-replica-rs2.log.gz').values()].reduce((a, b) => a + b, 0);
  t.is(server.collscansSeen, total);
  t.is(server.slowPoints.filter((p) => p.collscan).length, total);
  t.regex(fs.readFileSync(page, 'utf8'), new RegExp(`Slow operations over time, by duration \\([^)]*; (all ${total} COLLSCANs|the other [\\d,]+ COLLSCANs, every one of the ${total} drawn); `));
});

test("Hatchet's rs1 with a trial's strings on its slowest line (a 300-character namespace, an 85-character appName): the text tables cut those cells, the JSON and the page keep them whole", (t) => {
  const lines = gunzipSync(fs.readFileSync(real('mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').filter((line) => line !== '');
  const durationOf = (line: string): number => (line.includes('"id":51803,') ? ((JSON.parse(line) as { attr: { durationMillis: number } }).attr.durationMillis ?? 0) : 0);
  const slowest = lines.reduce((at, line, i) => (durationOf(line) > durationOf(lines[at]!) ? i : at), 0);
  const namespace = `orders.${'customer_order_history_archive_'.repeat(10)}`.slice(0, 300);
  const appName = `inventory-service ${'x'.repeat(60)} v2.3.1`.padEnd(85, 'y');
  const record = JSON.parse(lines[slowest]!) as { attr: Record<string, unknown> };
  record.attr['ns'] = namespace;
  record.attr['appName'] = appName;
  lines[slowest] = JSON.stringify(record);
  const dir = tempDir('logtype-cells-');
  try {
    const file = path.join(dir, 'rs1.log');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const page = path.join(dir, 'summary.html');
    const json = runFilter(['summary', '--json', '--html', page, file]);
    t.is(json.status, 0, json.stderr);
    const server = (JSON.parse(json.stdout) as Summary).server!;
    t.like(server.slowest[0], { ns: namespace, appName });
    const html = fs.readFileSync(page, 'utf8');
    // Whole, with a place to break after each dot (<wbr>, no character of its own).
    t.true(html.includes(`<td class="ns">${namespace.replaceAll('.', '.<wbr>')}</td>`) && html.includes(`<td>${appName}</td>`), 'the page: whole');
    const text = runFilter(['summary', '--utc', file]).stdout;
    // Each table of the text: its last column starts at the same terminal column on every line, within a 200-column terminal.
    for (const [title, lastHeader] of [
      ['\nSlowest operations', 'plan'],
      ['\nSlow operations, by total time', 'shape / plan'],
    ] as const) {
      // From the table's header (the slow operations' COLLSCAN count comes between it and its title).
      const after = text.slice(text.indexOf(title)).split('\n');
      const rest = after.slice(after.findIndex((line) => line.includes(lastHeader)));
      const table = rest.slice(0, rest.findIndex((line) => !/^ +(?:\d|total|#)/.test(line)));
      const lastAt = displayWidth(table[0]!.slice(0, table[0]!.lastIndexOf(lastHeader)));
      t.true(lastAt < 200, `${title.trim()}: its last column at ${lastAt}`);
      const row = table.find((line) => line.includes('orders.customer'));
      if (!row) return t.fail(`${title.trim()}: no row of the long namespace in ${table.join('\n')}`);
      t.true(row.includes(`${namespace.slice(0, TEXT_CELL_COLUMNS - 1)}…`), row);
      t.false(row.includes(namespace.slice(0, TEXT_CELL_COLUMNS)), row);
    }
    const slowestRow = text.slice(text.indexOf('\nSlowest operations')).split('\n')[3]!;
    t.true(slowestRow.includes(`${appName.slice(0, TEXT_CELL_COLUMNS - 1)}…`), slowestRow);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// From an incident trial: rs1's heading said "COLLSCANs: … in 4 groups, marked ◀", and all four
// were behind "… 55 more groups".
test("Hatchet's rs1: every COLLSCAN group is a row of the text's slow operations, marked, after the fifteen with the most time", (t) => {
  const summary = summaryOf('mongod-replica-rs1.log.gz');
  const groups = summary.server!.slowOperations;
  const collscans = groups.filter((g) => g.collscan);
  t.true(collscans.length > 0 && groups.slice(0, 15).filter((g) => g.collscan).length < collscans.length, 'some COLLSCAN group is past the first fifteen');
  const run = runFilter(['summary', '--utc', '--as', 'mongodb', real('mongod-replica-rs1.log.gz')]);
  t.is(run.status, 0, run.stderr);
  const section = run.stdout.slice(run.stdout.indexOf('Slow operations, by total time'));
  const rows = section.slice(0, section.indexOf('more groups')).split('\n');
  t.is(rows.filter((row) => row.endsWith(' ◀') && !row.includes('COLLSCANs:')).length, collscans.length, 'each COLLSCAN group marked');
  const shown = 15 + collscans.filter((g) => groups.indexOf(g) >= 15).length;
  t.regex(section, new RegExp(`… ${groups.length - shown} more groups`));
});

// From a review of the report: the server's warnings and errors showed their message alone;
// why (a warning's `error`, WiredTiger's `message`) was in no part of the report.
test('every server warning and error shows what its first line said beyond the message (its attributes), in the text, the JSON and the page', (t) => {
  const rs1 = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8');
  const full = '{"t":{"$date":"2024-03-18T14:51:20.000-04:00"},"s":"E",  "c":"WT",       "id":22435,   "ctx":"conn9","msg":"WiredTiger error message","attr":{"error":28,"message":"No space left on device"}}';
  const input = `${rs1}${full}\n`;
  const json = JSON.parse(runFilter(['summary', '--json', '--as', 'mongodb', '-'], input).stdout) as { server: { problems: { id: number | null; example?: string }[] } };
  t.is(json.server.problems.find((p) => p.id === 22435)?.example, 'error: 28, message: "No space left on device"');
  t.regex(json.server.problems.find((p) => p.id === 21122)?.example ?? '', /^error: "InvalidSyncSource: sync source localhost:27018/);
  const text = runFilter(['summary', '--color', 'never', '--as', 'mongodb', '-'], input).stdout;
  t.regex(text, /WiredTiger error message\n {20,}first: error: 28, message: "No space left on device"\n/);
  const page = runFilter(['summary', '--html', '-', '--as', 'mongodb', '-'], input).stdout;
  t.regex(page, /WiredTiger error message<br><span class="example">first: error: 28, message: &quot;No space left on device&quot;<\/span>/);
});

// From a review of the report: one server's error and fatal lines were no bar on the page's
// charts (scaled to 6,000 lines a minute) and, with one member, on no lane either.
test('a server\'s error and fatal lines are marked on the page\'s time charts, with their id, message and attributes', (t) => {
  const rs1 = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8');
  const error = '{"t":{"$date":"2024-03-18T14:51:20.000-04:00"},"s":"E",  "c":"WT",       "id":22435,   "ctx":"conn9","msg":"WiredTiger error message","attr":{"error":28,"message":"No space left on device"}}';
  const fatal = '{"t":{"$date":"2024-03-18T14:53:20.000-04:00"},"s":"F",  "c":"ASSERT",   "id":23089,   "ctx":"conn9","msg":"Fatal assertion","attr":{"msgid":28559,"file":"src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp","line":65}}';
  const input = `${rs1}${error}\n${fatal}\n`;
  const json = JSON.parse(runFilter(['summary', '--json', '--as', 'mongodb', '-'], input).stdout) as Summary;
  t.deepEqual(
    (json.marks ?? []).filter((m) => m.logType === 'mongodb').map((m) => [m.kind, m.label]),
    [
      ['error', '22435: WiredTiger error message (error: 28, message: "No space left on device")'],
      ['error', '23089: Fatal assertion (msgid: 28559, file: "src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp", line: 65)'],
    ],
  );
  const page = runFilter(['summary', '--html', '-', '--as', 'mongodb', '-'], input).stdout;
  // On each of the three time charts.
  t.is(page.match(/<g class="type-mark type-mark-error" data-key="mongodb"/g)?.length, 6);
});

// From a review of the report: the page marked sketched quantiles `~0` and never said what `~` means.
test('the page says what ~ means under a table whose quantiles are sketched, as the text does', (t) => {
  const rs1 = path.join(REAL_DATA, 'mongod-replica-rs1.log.gz');
  const words = '~: within 1% (a group of more than 1,024 operations keeps a sketch of its durations)';
  t.true(runFilter(['summary', '--html', '-', rs1]).stdout.includes(`<p>${words}</p>`));
  t.true(runFilter(['summary', '--color', 'never', rs1]).stdout.includes(`  ${words}\n`));
});
