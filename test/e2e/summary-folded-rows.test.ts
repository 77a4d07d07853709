/**
 * Tables past their limit keep the heaviest rows, not the first (a field trial beside Hatchet):
 * a client that opens 150 connections after 700 that opened one each, a namespace that sends
 * 160 MB after 620 that sent 100 B, a fatal and an error line after 600 distinct warnings. Each
 * once went into "(other)", and the report named only the first keys. The lines are real
 * server lines (a replica member's, test/fixtures/real), their remote, namespace, id and
 * severity varied.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import test from 'ava';
import type { Summary } from '../../src/summary/summary.js';
import { MAX_CLIENT_IPS, MAX_RESPONSE_SIZE_KEYS, MAX_SERVER_PROBLEMS } from '../../src/summary/summary-limits.js';
import { FILTER_BIN, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const real = zlib.gunzipSync(fs.readFileSync(new URL('../../../test/fixtures/real/mongod-replica-rs1.log.gz', import.meta.url))).toString('utf8').split('\n');
const first = (pattern: RegExp): Record<string, unknown> => JSON.parse(real.find((line) => pattern.test(line))!) as Record<string, unknown>;
const accepted = first(/"id":22943,/);
const slowQuery = first(/"msg":"Slow query".*"reslen"/);
const warning = first(/"s":"W",/);

let second = 0;
/** A real line with its time moved on a second and its attributes changed; as the sidecar's entry. */
function entry(line: Record<string, unknown>, change: Record<string, unknown>, attr: Record<string, unknown> = {}): string {
  second++;
  const t = { $date: new Date(Date.UTC(2024, 2, 18, 15, 0, second)).toISOString().replace('Z', '+00:00') };
  const contents = { ...line, t, ...change, attr: { ...(line['attr'] as object | undefined), ...attr } };
  return JSON.stringify({ logType: 'mongodb', contents: JSON.stringify(contents) });
}

function summaryOf(lines: readonly string[]): { json: Summary; text: string } {
  const dir = tempDir('logtype-folded-');
  const input = path.join(dir, 'pod.log');
  fs.writeFileSync(input, `${lines.join('\n')}\n`);
  const json = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', input], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  const text = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--no-color', '--utc', input], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  fs.rmSync(dir, { recursive: true, force: true });
  if (json.status !== 0 || text.status !== 0) throw new Error(`summary failed: ${json.stderr}${text.stderr}`);
  return { json: JSON.parse(json.stdout) as Summary, text: text.stdout };
}

test('a client that comes after more than MAX_CLIENT_IPS others and opens 150 connections leads the clients table, with (other) last and said', (t) => {
  const lines: string[] = [];
  const others = MAX_CLIENT_IPS + 200;
  for (let i = 0; i < others; i++) lines.push(entry(accepted, {}, { remote: `10.0.${i >> 8}.${i & 255}:5000`, connectionId: i }));
  for (let i = 0; i < 150; i++) lines.push(entry(accepted, {}, { remote: `10.9.9.9:${6000 + i}`, connectionId: 1000 + i }));
  const { json, text } = summaryOf(lines);
  const clients = json.server!.clients;
  t.is(clients[0]!.ip, '10.9.9.9');
  t.is(clients[0]!.opened, 150);
  t.is(clients.at(-1)!.ip, '(other)');
  t.is(clients.reduce((sum, c) => sum + c.opened, 0), others + 150);
  t.regex(text, /\n +150\+ +0 +10\.9\.9\.9\n/);
  t.regex(text, new RegExp(`\\n +[\\d,]+ +0 +\\(other\\)\\n +\\(other\\): past ${MAX_CLIENT_IPS.toLocaleString('en-US')} rows`));
});

test('a namespace that sends 160 MB after more than MAX_RESPONSE_SIZE_KEYS that sent 100 B leads the response sizes', (t) => {
  const lines: string[] = [];
  const others = MAX_RESPONSE_SIZE_KEYS + 120;
  for (let i = 0; i < others; i++) lines.push(entry(slowQuery, {}, { ns: `tenant${i}.orders`, reslen: 100 }));
  for (let i = 0; i < 10; i++) lines.push(entry(slowQuery, {}, { ns: 'bigtenant.reports', reslen: 16_000_000 }));
  const { json, text } = summaryOf(lines);
  const byNamespace = json.server!.responseSizes.byNamespace;
  t.is(byNamespace[0]!.key, 'bigtenant.reports');
  t.is(byNamespace[0]!.totalBytes, 160_000_000);
  t.is(byNamespace.reduce((sum, r) => sum + r.totalBytes, 0), others * 100 + 160_000_000);
  t.regex(text, /by namespace \(the 10 with the most bytes of [\d,]+ and \(other\)\):\n.*\n +10 +152\.6 MiB\+? +15\.3 MiB +bigtenant\.reports\n/);
});

test('a fatal and an error line after 600 distinct warnings are listed first among every warning and error message', (t) => {
  const lines: string[] = [];
  for (let i = 0; i < MAX_SERVER_PROBLEMS + 100; i++) lines.push(entry(warning, { id: 100_000 + i, msg: `${String(warning['msg'])} (${i})` }));
  lines.push(entry(warning, { s: 'F', id: 23081, c: 'ASSERT', msg: 'Fatal assertion' }, { msgid: 40507 }));
  lines.push(entry(warning, { s: 'E', id: 22435, c: 'STORAGE', msg: 'WiredTiger error message' }, { error: 5 }));
  const { json, text } = summaryOf(lines);
  const problems = json.server!.problems;
  t.deepEqual(problems.slice(0, 2).map((p) => [p.severity, p.id, p.count]), [['F', 23081, 1], ['E', 22435, 1]]);
  t.is(problems.at(-1)!.msg, '(other)');
  t.is(problems.reduce((sum, p) => sum + p.count, 0), MAX_SERVER_PROBLEMS + 102);
  t.regex(text, /every warning and error message \([\d,]+ and \(other\)\), the worst first:\n.*\n +1\+? +23081 +F /);
});
