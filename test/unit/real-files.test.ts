/**
 * Every line of every real file (test/fixtures/real) and sample (samples/) reads as `logtype`
 * reads it: a record with a time, a level and a message, where the line has them. Each file
 * says how many records its lines make, and which of them lack a time or a level and why.
 */
import test from 'ava';
import path from 'node:path';
import { REAL_DATA, REPO } from '../_helpers/sidecar-process.js';
import { readRecords } from '../_helpers/read-records.js';

const SAMPLES = path.join(REPO, 'samples');

interface FileCase {
  readonly file: string;
  /** Read `--as TYPE` (a log file as the sidecar follows it); else as it is, without a flag. */
  readonly as?: string;
  readonly lines: number;
  readonly records: number;
  /** Records per type. */
  readonly types: Readonly<Record<string, number>>;
  /** Records without a time of their own or kubectl's, by their message's start, and why. */
  readonly noTime?: readonly string[];
  /** Records without a level, by their message's start. */
  readonly noLevel?: readonly string[];
  /** Lines that are no entry of any log. */
  readonly other?: number;
}

const cases: FileCase[] = [
  { file: path.join(REAL_DATA, 'operator-issue-threads.log'), lines: 8, records: 8, types: { operator: 8 } },
  {
    file: path.join(REAL_DATA, 'agent-issue-threads.log'),
    lines: 15,
    // Lines 11-12 are one record; line 15 is the agent's stderr text, which has no time.
    records: 14,
    types: { 'automation-agent-verbose': 6, 'automation-agent-stderr': 1, 'automation-agent-stdout': 7 },
    noTime: ['Logging error occurred'],
  },
  { file: path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), lines: 6, records: 6, types: { 'automation-agent-verbose': 6 } },
  { file: path.join(REAL_DATA, 'agent-community-operator.log'), lines: 7, records: 7, types: { 'automation-agent-stdout': 7 } },
  {
    file: path.join(REAL_DATA, 'agent-stderr-disk-full.log'),
    as: 'automation-agent-stderr',
    lines: 1,
    records: 1,
    types: { 'automation-agent-stderr': 1 },
    noTime: ['Logging error occurred'],
  },
  { file: path.join(REAL_DATA, 'audit-json.log'), lines: 4, records: 4, types: { 'mongodb-audit': 4 } },
  { file: path.join(REAL_DATA, 'mongod-replica-rs1.log.gz'), as: 'mongodb', lines: 7757, records: 7757, types: { mongodb: 7757 } },
  { file: path.join(REAL_DATA, 'mongod-replica-rs2.log.gz'), as: 'mongodb', lines: 4599, records: 4599, types: { mongodb: 4599 } },
  { file: path.join(REAL_DATA, 'mongod-4.2-text.log'), as: 'mongodb', lines: 503, records: 503, types: { mongodb: 503 } },
  { file: path.join(REAL_DATA, 'mongod-4.0-text-slow-transactions.log'), as: 'mongodb', lines: 1414, records: 1414, types: { mongodb: 1414 } },
  // Read as they are, without --as: recognised by their lines.
  { file: path.join(REAL_DATA, 'mongod-4.2-text.log'), lines: 503, records: 503, types: { mongodb: 503 } },
  { file: path.join(REAL_DATA, 'mongod-replica-rs2.log.gz'), lines: 4599, records: 4599, types: { mongodb: 4599 } },
  // The launcher's lines have a time and no level.
  {
    file: path.join(SAMPLES, 'agent-launcher-script.log'),
    lines: 3,
    records: 3,
    types: { 'agent-launcher-script': 3 },
    noLevel: ['Starting agent launcher', 'Downloading automation agent', 'Launching automation agent'],
  },
  {
    file: path.join(SAMPLES, 'automation-agent-stderr.log'),
    as: 'automation-agent-stderr',
    lines: 1,
    records: 1,
    types: { 'automation-agent-stderr': 1 },
    noTime: ['Logging error occurred'],
  },
  { file: path.join(SAMPLES, 'automation-agent-verbose.log'), as: 'automation-agent-verbose', lines: 31, records: 31, types: { 'automation-agent-verbose': 31 } },
  { file: path.join(SAMPLES, 'automation-agent.log'), as: 'automation-agent', lines: 21, records: 21, types: { 'automation-agent': 21 } },
  { file: path.join(SAMPLES, 'backup-agent.log'), as: 'backup-agent', lines: 3, records: 3, types: { 'backup-agent': 3 } },
  { file: path.join(SAMPLES, 'monitoring-agent.log'), as: 'monitoring-agent', lines: 6, records: 6, types: { 'monitoring-agent': 6 } },
  { file: path.join(SAMPLES, 'mongodb.log'), as: 'mongodb', lines: 66, records: 66, types: { mongodb: 66 } },
  { file: path.join(SAMPLES, 'mongodb-audit.log'), as: 'mongodb-audit', lines: 15, records: 15, types: { 'mongodb-audit': 15 } },
  { file: path.join(SAMPLES, 'operator.log'), lines: 8, records: 8, types: { operator: 8 } },
  {
    file: path.join(SAMPLES, 'kubectl-logs-timestamps-prefix.txt'),
    lines: 147,
    records: 146,
    types: {
      'automation-agent-verbose': 31,
      'automation-agent': 21,
      'monitoring-agent': 6,
      'backup-agent': 3,
      mongodb: 66,
      'mongodb-audit': 15,
      'agent-launcher-script': 3,
      'automation-agent-stderr': 1,
    },
    noLevel: ['Starting agent launcher', 'Downloading automation agent', 'Launching automation agent'],
    // The launcher's plain line, printed before the sidecar started: no entry.
    other: 1,
  },
];

for (const c of cases) {
  test(`every line reads: ${path.relative(REPO, c.file)}${c.as ? ` --as ${c.as}` : ''}`, async (t) => {
    const { records, other } = await readRecords(c.file, c.as);
    t.is(records.reduce((lines, r) => lines + r.lines, 0) + other.length, c.lines, 'lines');
    t.is(records.length, c.records, 'records');
    t.is(other.length, c.other ?? 0, 'other lines');
    const types: Record<string, number> = {};
    for (const r of records) types[r.logType] = (types[r.logType] ?? 0) + 1;
    t.deepEqual(types, c.types);
    const unread = records.filter((r) => r.record === undefined);
    t.deepEqual(unread.map((r) => r.contents.slice(0, 100)), [], 'every record read');
    const startsOf = (list: typeof records) => list.map((r) => r.record?.message ?? '');
    const matches = (starts: readonly string[] | undefined) => (message: string) => (starts ?? []).some((start) => message.startsWith(start));
    t.deepEqual(startsOf(records.filter((r) => r.time === undefined)).filter((m) => !matches(c.noTime)(m)), [], 'a time');
    t.is(records.filter((r) => r.time === undefined).length, c.noTime?.length ?? 0, 'records without a time');
    t.deepEqual(startsOf(records.filter((r) => r.record?.level === undefined)).filter((m) => !matches(c.noLevel)(m)), [], 'a level');
    t.is(records.filter((r) => r.record?.level === undefined).length, c.noLevel?.length ?? 0, 'records without a level');
    t.true(records.every((r) => typeof r.record?.message === 'string'), 'a message');
  });
}
