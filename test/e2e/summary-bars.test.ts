/**
 * The page's bar charts over a span of an hour and of days, read from the page's markup: a
 * bar per minute and type over an hour, as the activity counted them; buckets of a round
 * number of minutes over days, each bar the sum of its minutes and the title saying the
 * bucket. Real lines: Hatchet's rs1 and an agent's line moved before it.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Summary } from '../../src/summary/summary.js';
import { FILTER_BIN, REAL_DATA, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const RS1 = path.join(REAL_DATA, 'mongod-replica-rs1.log.gz');

/** `logtype summary --json --html` of a real agent line stamped `agentTime`, then rs1: the summary, and each #plot-types bar's title. */
function barsOf(agentTime: string): { summary: Summary; captions: string[]; bars: string[] } {
  const dir = tempDir('logtype-bars-');
  try {
    const agent = path.join(dir, 'agent.log');
    const line = fs.readFileSync(path.join(REAL_DATA, 'agent-community-operator.log'), 'utf8').split('\n')[1]!;
    fs.writeFileSync(agent, `${line.replace(/^\[[^\]]+\]/, `[${agentTime}]`)}\n`);
    const page = path.join(dir, 'page.html');
    const run = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--json', '--html', page, agent, RS1], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
    if (run.status !== 0) throw new Error(run.stderr);
    const html = fs.readFileSync(page, 'utf8');
    const types = html.slice(html.indexOf('<svg id="plot-types"'), html.indexOf('</svg>', html.indexOf('<svg id="plot-types"')));
    return {
      summary: JSON.parse(run.stdout) as Summary,
      captions: [...html.matchAll(/<figcaption>(Entries per [^<]*)<\/figcaption>/g)].map((m) => m[1]!),
      bars: [...types.matchAll(/<rect class="bar"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]!),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('over an hour the bars are per minute: one per minute and type, its count as the activity counted it', (t) => {
  const { summary, captions, bars } = barsOf('2024-03-18T13:50:00.000+0000');
  t.deepEqual(captions, ['Entries per minute, by type', 'Entries per minute, by severity']);
  const { start, bucketMinutes, buckets } = summary.activity;
  t.is(bucketMinutes, 1);
  t.true(buckets.length >= 60 && buckets.length <= 70, `${buckets.length} minutes`);
  const expected = buckets.flatMap((b, i) => summary.types.filter((type) => (b.byType[type.logType] ?? 0) > 0).map((type) => `${new Date(Date.parse(start!) + i * 60_000).toISOString()} ${type.logType}: ${b.byType[type.logType]}`));
  t.deepEqual(bars, expected);
});

test('over 5 days the bars are per 30 min, from the half hour: each the sum of its minutes', (t) => {
  const { summary, captions, bars } = barsOf('2024-03-13T14:40:00.000+0000');
  t.deepEqual(captions, ['Entries per 30 min, by type', 'Entries per 30 min, by severity']);
  const { start, buckets } = summary.activity;
  const sums = new Map<string, number>();
  buckets.forEach((b, i) => {
    const bucket = new Date(Math.floor((Date.parse(start!) + i * 60_000) / 1_800_000) * 1_800_000).toISOString();
    for (const [type, n] of Object.entries(b.byType)) sums.set(`${bucket} ${type}`, (sums.get(`${bucket} ${type}`) ?? 0) + n);
  });
  t.deepEqual(bars, [...sums].filter(([, n]) => n > 0).map(([key, n]) => `${key}: ${n}`));
  t.deepEqual(bars, ['2024-03-13T14:30:00.000Z automation-agent-stdout: 1', `2024-03-18T14:30:00.000Z mongodb: ${summary.types.find((type) => type.logType === 'mongodb')!.entries}`]);
});
