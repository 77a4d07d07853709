import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { EntrySource, LogRecord } from '../../src/parse/log-record.js';
import { parseEntryRecord, parseRecord } from '../../src/parse/parse-record.js';
import { attrNumber } from '../../src/parse/parse-server-line.js';
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

/** A server line's head and count as its reader gives them... */
const headFields = (record: LogRecord | undefined) =>
  record && {
    time: record.time,
    severity: record.severity,
    component: record.component,
    context: record.context,
    id: record.id,
    message: record.message,
    connectionCount: attrNumber(record, 'connectionCount'),
  };

/** ...and as JSON.parse gives them. */
function headOf(line: string) {
  const json = JSON.parse(line) as { t: { $date: string }; s: string; c: string; id: number; ctx: string; msg: string; attr?: { connectionCount?: number } };
  return {
    time: Date.parse(json.t.$date),
    severity: json.s,
    component: json.c,
    context: json.ctx,
    id: json.id,
    message: json.msg,
    connectionCount: json.attr?.connectionCount,
  };
}

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

/**
 * What the reader gives for an entry read by its bytes: its literal where it stands in the
 * input, the next line after it (whose attributes must not be read as this one's).
 */
function entrySource(logType: string, line: string, decoded: () => void = () => undefined): EntrySource {
  const literal = JSON.stringify(line);
  const head = `{"logType":"${logType}","contents":`;
  const bytes = Buffer.from(`${head}${literal}}\n{"logType":"x","contents":"{\\"connectionCount\\":7}"}\n`);
  const literalStart = Buffer.byteLength(head);
  return {
    bytes,
    literalStart,
    literalEnd: literalStart + Buffer.byteLength(literal) - 1,
    escapedContents: literal.slice(1, -1),
    get contents() {
      decoded();
      return line;
    },
  };
}

// A line read from its entry's escaped literal (the fast path) is the line read decoded.
for (const [logType, file] of sources) {
  test(`escaped and decoded ${logType} lines read the same: ${path.basename(file)}`, (t) => {
    const lines = linesOf(file);
    t.true(lines.length > 10);
    for (const line of lines) {
      let decoded = 0;
      const record = parseEntryRecord(
        logType,
        entrySource(logType, line, () => decoded++),
      );
      if (logType === 'mongodb' && line.startsWith('{')) {
        t.deepEqual(headFields(record), headOf(line), line);
        // A head without escapes and a count are read from the bytes, the line never decoded.
        if (!line.includes('\\')) t.is(decoded, 0, line);
      }
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
  ['mongodb', 'UTF-8 in the context and message, tabs in the padding', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"W",\t"c":"ACCESS",\t"id":20436,\t"ctx":"conn/é","msg":"Zugriff für ü verweigert ✗","attr":{"connectionCount":12}}'],
  ['mongodb', 'a time in another zone, a long id', '{"t":{"$date":"2026-11-22T10:00:00.000-0530"},"s":"D1", "c":"-", "id":12345678901234567, "ctx":"","msg":"","attr":{"connectionCount":3.5e1}}'],
  ['mongodb', 'a message with quotes', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"say \\"hi\\"","attr":{"a":"\\t"}}'],
];
for (const [logType, name, line] of crafted) {
  test(`escaped and decoded ${logType} lines read the same: ${name}`, (t) => {
    const record = parseEntryRecord(logType, entrySource(logType, line));
    t.deepEqual(fields(record), fields(parseRecord(logType, line)));
    if (logType === 'mongodb') t.deepEqual(headFields(record), headOf(line));
  });
}
