/**
 * A pre-4.4 log that begins at a log rotation has no start lines: what mongod writes at the
 * rotation is what says its version and its replica-set member state (`pid=… port=… host=…`,
 * `Replica Set Member State: PRIMARY`, `db version v4.2.11`, CONTROL lines). On mtools' 4.2 and
 * 3.6 logs, which both begin so (test/fixtures/real/SOURCES.md), and the 4.0 log, which has no
 * rotation; each expectation read from the lines' own words.
 */
import path from 'node:path';
import test from 'ava';
import { palette } from '../../src/render/colors.js';
import { renderSummaryHtml } from '../../src/summary/render-summary-html.js';
import { renderSummaryText } from '../../src/summary/render-summary-text.js';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import type { Summary } from '../../src/summary/summary.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

/** A text line's time (its first word) and its message (after `[thread] `). */
const timeOf = (line: string): string => new Date(line.slice(0, line.indexOf(' '))).toISOString();
const messageOf = (line: string): string => line.slice(line.indexOf('] ') + 2);

/** A log's rotation as its lines say it: the CONTROL `pid=` line, and the state and version lines after it, before any start. */
async function rotationOf(file: string): Promise<{ lines: string[]; rotation: { time: string; version: string; memberState: string } | undefined }> {
  const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
  const lines = records.map((r) => r.contents);
  const at = lines.findIndex((l) => / CONTROL +\[[^\]]+\] pid=\d+ port=/.test(l));
  if (at === -1) return { lines, rotation: undefined };
  const after = lines.slice(at, lines.findIndex((l, i) => i > at && l.includes('] MongoDB starting')) >>> 0);
  const said = (prefix: string): string => messageOf(after.find((l) => messageOf(l).startsWith(prefix))!).slice(prefix.length);
  return { lines, rotation: { time: timeOf(lines[at]!), version: said('db version v'), memberState: said('Replica Set Member State: ') } };
}

async function summarize(files: readonly string[]): Promise<Summary> {
  const collector = new SummaryCollector();
  let n = 0;
  for (const file of files) {
    const { records } = await readRecords(path.join(REAL_DATA, file), 'mongodb');
    collector.input(file, files);
    for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
    n += records.length;
  }
  return collector.summary({ entries: n, selected: n, notEntries: 0 });
}

const when = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

for (const file of ['mongod-4.2-text.log', 'mongod-3.6-text-restart.log', 'mongod-4.0-text-slow-transactions.log']) {
  test(`${file}: a log rotation says the version and the member state its lines wrote, in the text, --json and the page`, async (t) => {
    const { rotation } = await rotationOf(file);
    const summary = await summarize([file]);
    const server = summary.server!;
    const text = renderSummaryText(summary, { palette: palette(false), utc: true, width: 60 });
    const page = renderSummaryHtml(summary);
    if (!rotation) {
      t.deepEqual(server.logRotations, []);
      t.notRegex(text, /rotation/);
      return;
    }
    t.true(rotation.time === summary.first, 'the log begins at it');
    t.deepEqual(server.logRotations, [{ ...rotation, atLogStart: true }]);
    t.is(server.logRotationsNotKept, 0);
    const words = `log rotations: 1 (${when(rotation.time)} v${rotation.version}, member state ${rotation.memberState}, where its log begins)`;
    t.true(text.includes(`\n  ${words}\n`), text.slice(text.indexOf('Server'), text.indexOf('replica set')));
    // The page's times are UTC, marked Z.
    t.true(page.includes(`Log rotations: 1 (${when(rotation.time)}Z v${rotation.version}, member state ${rotation.memberState}, where its log begins)`), 'the page says it');
    // The replica set's story says the state, as the rotation said it: no change.
    t.true(text.includes(`\n    ${when(rotation.time)}  this member: ${rotation.memberState} (said at a log rotation)\n`));
    // A start's version stays the start's (3.6 starts again: its own db version line).
    t.true(server.restarts.every((r) => r.version !== null));
  });
}

test('mtools\' 4.2 and 3.6 logs as two members: each lane is in the state its rotation said from its first line, each rotation names its member', async (t) => {
  const files = ['mongod-4.2-text.log', 'mongod-3.6-text-restart.log'];
  const summary = await summarize(files);
  const server = summary.server!;
  for (const file of files) {
    const { rotation } = await rotationOf(file);
    const name = file.replace(/\.log$/, '');
    t.deepEqual(
      server.logRotations.filter((r) => r.member === name),
      [{ ...rotation!, member: name, atLogStart: true }],
    );
    const member = server.members!.find((m) => m.name === name)!;
    t.like(member.lane[0], { from: rotation!.time, state: rotation!.memberState });
    // Said, not changed: its state changes are only those its lines tell.
    if (file === 'mongod-4.2-text.log') t.like(member, { stateChanges: 0, lastState: rotation!.memberState });
  }
  t.false(server.primaries!.some((p) => p.unknown.length > 0 && p.from === p.to), 'no instant of unknown state before a rotation\'s');
});
