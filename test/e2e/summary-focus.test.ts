/**
 * A few lines far from the rest stretch every chart's time axis: real audit lines of 2022 read
 * with Hatchet's rs2 (seven minutes of 2024). The summary says where the bulk is, in text, JSON
 * and the page, and the options it gives chart exactly those lines.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Summary } from '../../src/summary/summary.js';
import { FILTER_BIN, REAL_DATA, cleanEnv, tempDir } from '../_helpers/sidecar-process.js';

const AUDIT = path.join(REAL_DATA, 'audit-json.log');
const RS2 = path.join(REAL_DATA, 'mongod-replica-rs2.log.gz');

const summary = (...args: string[]): { stdout: string; status: number | null } => {
  const run = spawnSync(process.execPath, [FILTER_BIN, 'summary', '--utc', ...args], { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  return { stdout: run.stdout, status: run.status };
};

test("four audit lines of 2022 beside rs2's seven minutes of 2024: the summary says where the bulk is, and its options chart those alone", (t) => {
  const dir = tempDir('logtype-focus-');
  try {
    const page = path.join(dir, 'page.html');
    const text = summary('--html', page, AUDIT, RS2);
    t.is(text.status, 0);
    t.regex(
      text.stdout,
      /^most lines: 4,599 of the 4,603 timed lines are from 2024-03-18 14:49:00 to 2024-03-18 14:55:59; the other 4 \(4 before\) stretch every chart's time axis: --since 2024-03-18T14:49:00\.000Z --until 2024-03-18T14:55:59\.999Z charts those 4,599 alone$/m,
    );
    t.regex(fs.readFileSync(page, 'utf8'), /<b>Most lines:<\/b> 4,599 of the 4,603 timed lines are from 2024-03-18 14:49:00Z to 2024-03-18 14:55:59Z;/);
    const json = JSON.parse(summary('--json', AUDIT, RS2).stdout) as Summary;
    t.deepEqual(json.activity.focus, { from: '2024-03-18T14:49:00.000Z', to: '2024-03-18T14:55:59.999Z', lines: 4599, before: 4, after: 0 });
    // The options as given: the server's lines alone, and nothing more to say.
    const focused = summary('--json', '--since', json.activity.focus!.from, '--until', json.activity.focus!.to, AUDIT, RS2);
    const alone = JSON.parse(focused.stdout) as Summary;
    t.is(alone.lines.selected, 4599);
    t.deepEqual(alone.types.map((type) => type.logType), ['mongodb']);
    t.is(alone.activity.focus, undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('rs2 alone, seven minutes without a stray line: no such line', (t) => {
  const text = summary(RS2);
  t.is(text.status, 0);
  t.notRegex(text.stdout, /most lines/);
  t.is((JSON.parse(summary('--json', RS2).stdout) as Summary).activity.focus, undefined);
});
