/**
 * The replica set's story from a pre-4.4 text log tells the other members' states as the 4.4+
 * JSON log's does (21215, `host is now PRIMARY`): after mtools' 3.6 member steps down, which
 * member became primary is its text line `Member host:27017 is now in state PRIMARY`
 * (test/fixtures/real/SOURCES.md).
 */
import path from 'node:path';
import test from 'ava';
import { SummaryCollector } from '../../src/summary/summary-collector.js';
import { readRecords } from '../_helpers/read-records.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const MEMBER_STATE = / I REPL +\[[^\]]+\] Member (\S+) is now in state (\w+)$/;

test('mongod-3.6-text-restart.log: each other member\'s state, as its line says, in the replica set\'s story in time order', async (t) => {
  const { records } = await readRecords(path.join(REAL_DATA, 'mongod-3.6-text-restart.log'), 'mongodb');
  const collector = new SummaryCollector();
  for (const r of records) collector.add(r.logType, r.record, undefined, { contents: r.contents });
  const replication = collector.summary({ entries: records.length, selected: records.length, notEntries: 0 }).server!.replication;
  const expected = records
    .map((r) => ({ line: r.contents, match: MEMBER_STATE.exec(r.contents) }))
    .filter(({ match }) => match !== null)
    .map(({ line, match }) => ({ time: new Date(line.slice(0, line.indexOf(' '))).toISOString(), event: `${match![1]} is now ${match![2]}` }));
  t.true(expected.length >= 2, 'the log has them');
  t.deepEqual(
    replication.filter((e) => / is now [A-Z0-9]+$/.test(e.event)),
    expected,
  );
  // The member that became primary when this one stepped down comes right after its step-down.
  const stepDown = replication.findIndex((e) => e.event === 'this member: PRIMARY → SECONDARY');
  t.is(replication[stepDown + 1]?.event, expected[0]!.event);
  t.regex(expected[0]!.event, /is now PRIMARY$/);
});
