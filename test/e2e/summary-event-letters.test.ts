/**
 * The letters above the time charts' event lines, on real lines (a replica member's, two
 * members' with kubectl's --prefix): events closer than a letter's room share its place, and
 * each kind among them keeps its letter (a shutdown a moment after a state change was drawn
 * with no D); every event's title names its member when there are several.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import test from 'ava';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';

const rs1 = zlib.gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'))).toString('utf8').split('\n').filter(Boolean);
const entry = (line: string): string => JSON.stringify({ logType: 'mongodb', contents: line });

test('a shutdown a second after a state change: both letters above the charts (S and D), and with two members each event\'s title names whose it is', (t) => {
  // The member's life as it logged it, up to its step-down at 10:52:44 and its SIGTERM at
  // 10:55:27, moved to a second after the step-down.
  const stepDown = rs1.findIndex((line) => line.includes('"newState":"SECONDARY","oldState":"PRIMARY"'));
  const signal = rs1.findIndex((line) => line.includes('"msg":"Received signal"'));
  t.true(stepDown > 0 && signal > stepDown);
  const moved = rs1.slice(signal).map((line) => line.replace(/"\$date":"2024-03-18T10:5\d:\d\d/, '"$date":"2024-03-18T10:52:45'));
  const lines = [...rs1.slice(0, stepDown + 1), ...moved];
  const dir = tempDir('event-letters');
  for (const [name, input] of [
    ['one member', lines.map(entry).join('\n')],
    ['two members', lines.flatMap((line) => ['my-rs-0', 'my-rs-1'].map((pod) => `[pod/${pod}/mongodb] ${entry(line)}`)).join('\n')],
  ] as const) {
    const file = path.join(dir, 'pod.log');
    fs.writeFileSync(file, `${input}\n`);
    const page = path.join(dir, 'report.html');
    const run = runFilter(['summary', '--html', page, file]);
    t.is(run.status, 0, run.stderr);
    const html = fs.readFileSync(page, 'utf8');
    const letterGroups = [...html.matchAll(/<text class="marker-letters"[^>]*>(.*?)<\/text>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    t.true(letterGroups.some((letters) => letters.includes('S') && letters.includes('D')), `${name}: ${letterGroups.join(' ')}`);
    const titles = [...html.matchAll(/<g class="marker marker-\w+"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    t.true(titles.length > 0);
    if (name === 'two members') for (const title of titles) t.regex(title, / my-rs-[01]: /, title);
  }
});
