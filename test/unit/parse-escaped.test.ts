import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LogRecord } from '../../src/parse/log-record.js';
import { parseEntryRecord, parseRecord } from '../../src/parse/parse-record.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../../samples');

/** Every field a reader of a record may ask for. */
const fields = (record: LogRecord | undefined) =>
  record && {
    time: record.time,
    level: record.level,
    severity: record.severity,
    component: record.component,
    context: record.context,
    id: record.id,
    message: record.message,
    attrs: record.attrs,
    tags: record.tags,
    users: record.users,
    result: record.result,
    remote: record.remote,
    object: record.object,
  };

function linesOf(file: string): string[] {
  const raw = fs.readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n').filter(Boolean);
}

const sources: [string, string][] = [
  ['mongodb', path.join(SAMPLES, 'mongodb.log')],
  ['mongodb', path.join(REAL_DATA, 'mongod-replica-rs1.log.gz')],
  ['mongodb', path.join(REAL_DATA, 'mongod-4.2-text.log')],
  ['mongodb-audit', path.join(SAMPLES, 'mongodb-audit.log')],
];

// A line read from its entry's escaped literal (the fast path) is the line read decoded.
for (const [logType, file] of sources) {
  test(`escaped and decoded ${logType} lines read the same: ${path.basename(file)}`, (t) => {
    const lines = linesOf(file);
    t.true(lines.length > 10);
    for (const line of lines) {
      const literal = JSON.stringify(line).slice(1, -1);
      let decoded = 0;
      const record = parseEntryRecord(logType, literal, {
        get contents() {
          decoded++;
          return line;
        },
      });
      t.deepEqual(fields(record), fields(parseRecord(logType, line)), line);
      t.true(decoded <= 1, 'the contents are decoded once at the most');
    }
  });
}

const crafted: [string, string, string][] = [
  ['mongodb-audit', 'a result nested, not the event\'s', '{"atype":"authCheck","ts":{"$date":"2026-11-22T10:00:00.000Z"},"param":{"x":{"result":0}}}'],
  ['mongodb-audit', 'escapes in the users', '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:00.000Z"},"remote":{"ip":"10.0.0.1","port":1},"users":[],"roles":[],"param":{"user":"a\\"b\\u00e9","db":"admin"},"result":18}'],
  ['mongodb-audit', 'time in another form', '{"atype":"logout","ts":{"$date":{"$numberLong":"1763805600000"}},"users":[],"result":0}'],
  ['mongodb-audit', 'not an event', '{"ts":1,"result":0}'],
  ['mongodb', 'a message with quotes', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"say \\"hi\\"","attr":{"a":"\\t"}}'],
];
for (const [logType, name, line] of crafted) {
  test(`escaped and decoded ${logType} lines read the same: ${name}`, (t) => {
    const record = parseEntryRecord(logType, JSON.stringify(line).slice(1, -1), { contents: line });
    t.deepEqual(fields(record), fields(parseRecord(logType, line)));
  });
}
