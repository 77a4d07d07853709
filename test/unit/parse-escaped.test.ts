import test, { type ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { EntrySource, LogRecord } from '../../src/parse/log-record.js';
import { parseEntryRecord, parseRecord } from '../../src/parse/parse-record.js';
import { attrFirstKey, attrNumber, attrValue } from '../../src/parse/record-attributes.js';
import { slowOperationOf } from '../../src/parse/slow-operation.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';
import { parseJson } from '../../src/parse/json-value.js';

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
    missing: attrValue(record, 'noSuchAttribute'),
    commandName: attrFirstKey(record, 'command'),
    slow: slowOperationOf(record),
  };

/** ...and as JSON.parse gives them. */
function headOf(line: string) {
  const json = JSON.parse(line) as { t: { $date: string }; s: string; c: string; id: number; ctx: string; msg: string; attr?: Record<string, unknown>; truncated?: Record<string, unknown>; size?: unknown };
  const command = json.attr?.['command'];
  const text = (key: string) => (typeof json.attr?.[key] === 'string' ? json.attr[key] : undefined);
  return {
    time: Date.parse(json.t.$date),
    severity: json.s,
    component: json.c,
    context: json.ctx,
    id: json.id,
    message: json.msg,
    connectionCount: json.attr?.['connectionCount'],
    missing: undefined,
    commandName: typeof command === 'object' && command !== null && !Array.isArray(command) ? Object.keys(command)[0] : undefined,
    // A slow operation's line only (51803, 51801, 51802): other lines time themselves too.
    slow: [51803, 51801, 51802].includes(json.id) && typeof json.attr?.['durationMillis'] === 'number' ? { durationMillis: json.attr['durationMillis'], ns: text('ns'), plan: text('planSummary'), type: text('type') } : undefined,
  };
}

/** A file's lines; for a `kubectl logs` capture, its entries' contents. */
function linesOf(file: string): string[] {
  const raw = fs.readFileSync(file);
  const lines = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n').filter(Boolean);
  return path.basename(file).startsWith('kubectl-logs') ? lines.map((line) => (JSON.parse(line) as { contents: string }).contents) : lines;
}

const sources: [string, string][] = [
  ['automation-agent-verbose', path.join(SAMPLES, 'automation-agent-verbose.log')],
  ['automation-agent', path.join(SAMPLES, 'automation-agent.log')],
  ['automation-agent-stderr', path.join(SAMPLES, 'automation-agent-stderr.log')],
  ['backup-agent', path.join(SAMPLES, 'backup-agent.log')],
  ['monitoring-agent', path.join(SAMPLES, 'monitoring-agent.log')],
  ['automation-agent', path.join(REAL_DATA, 'agent-community-operator.log')],
  ['automation-agent-verbose', path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log')],
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
    plainStart: -1,
    plainEnd: -1,
    get contents() {
      decoded();
      return line;
    },
  };
}

/** Every attribute read one by one, as JSON.parse reads it (integers past 2^53 with their digits: json-value.ts). */
function assertAttrValues(t: ExecutionContext, record: LogRecord, line: string): void {
  const attr = (parseJson(line) as { attr?: Record<string, unknown> }).attr ?? {};
  for (const key of Object.keys(attr)) t.deepEqual(attrValue(record, key), attr[key], `${key} of ${line}`);
}

/** What the reader gives for a raw line read `--as TYPE`: the line where it stands, the next one after it. */
function rawLineSource(line: string): EntrySource {
  const bytes = Buffer.from(`${line}\n{"t":{"$date":"2026-11-22T10:00:00.000Z"},"attr":{"connectionCount":7}}\n`);
  return { bytes, literalStart: -1, literalEnd: -1, escapedContents: undefined, plainStart: 0, plainEnd: Buffer.byteLength(line), contents: line };
}

// A line read from its entry's escaped literal (the fast path) is the line read decoded.
for (const [logType, file] of sources) {
  test(`escaped and decoded ${logType} lines read the same: ${path.basename(file)}`, (t) => {
    const lines = linesOf(file);
    t.true(lines.length > 0);
    for (const line of lines) {
      let decoded = 0;
      const record = parseEntryRecord(
        logType,
        entrySource(logType, line, () => decoded++),
      );
      if (logType === 'mongodb' && line.startsWith('{')) {
        // A head without escapes, a count and single attributes are read from the bytes, the
        // line never decoded (a line with cut attributes is parsed whole).
        const read = headFields(record);
        if (!line.includes('\\') && !line.includes('"truncated":')) t.is(decoded, 0, line);
        t.deepEqual(read, headOf(line), line);
        assertAttrValues(t, record!, line);
      }
      t.deepEqual(fields(record), fields(parseRecord(logType, line)), line);
      t.true(decoded <= 1, 'the contents are decoded once at the most');
      // And from a raw line's bytes.
      const raw = parseEntryRecord(logType, rawLineSource(line));
      if (logType === 'mongodb' && line.startsWith('{')) t.deepEqual(headFields(raw), headOf(line), line);
      t.deepEqual(fields(raw), fields(parseRecord(logType, line)), line);
    }
  });
}

/** Type, name, line, and whether its head and attributes are read without decoding it. */
const crafted: [string, string, string, boolean?][] = [
  ['mongodb-audit', 'a result nested, not the event\'s', '{"atype":"authCheck","ts":{"$date":"2026-11-22T10:00:00.000Z"},"param":{"x":{"result":0}}}'],
  ['mongodb-audit', 'escapes in the users', '{"atype":"authenticate","ts":{"$date":"2026-11-22T10:00:00.000Z"},"remote":{"ip":"10.0.0.1","port":1},"users":[],"roles":[],"param":{"user":"a\\"b\\u00e9","db":"admin"},"result":18}'],
  ['mongodb-audit', 'time in another form', '{"atype":"logout","ts":{"$date":{"$numberLong":"1763805600000"}},"users":[],"result":0}'],
  ['mongodb-audit', 'not an event', '{"ts":1,"result":0}'],
  ['mongodb', 'UTF-8 in the context and message, tabs in the padding', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"W",\t"c":"ACCESS",\t"id":20436,\t"ctx":"conn/é","msg":"Zugriff für ü verweigert ✗","attr":{"connectionCount":12}}'],
  ['mongodb', 'a time in another zone, a long id', '{"t":{"$date":"2026-11-22T10:00:00.000-0530"},"s":"D1", "c":"-", "id":12345678901234567, "ctx":"","msg":"","attr":{"connectionCount":3.5e1}}'],
  ['mongodb', 'attributes with escapes, nested brackets and quotes in strings, runs of backslashes', String.raw`{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"conn1","msg":"Slow query","attr":{"type":"command","ns":"shop.\"odd\"","command":{"find":"x","filter":{"a":"}]{[\"","b":"\\","c":"\\\"","d":["\\\\",{"e":"é\u00e9\n"}]},"$db":"shop"},"planSummary":"COLLSCAN","docsExamined":1.5e3,"nreturned":-2,"ok":true,"none":null,"empty":{},"list":[],"durationMillis":1234}}`, true],
  ['mongodb', 'a key with an escape', String.raw`{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"REPL",  "id":21358,   "ctx":"c","msg":"m","attr":{"a\"b":1,"oldState":"SECONDARY","newState":"PRIMARY"}}`],
  ['mongodb', 'a command written as a string', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"c","msg":"Slow query","attr":{"command":"unrecognized","durationMillis":0}}', true],
  ['mongodb', 'more attributes than the kernel reads', `{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"X",  "id":1,   "ctx":"c","msg":"m","attr":{${Array.from({ length: 70 }, (_, i) => `"k${i}":${i}`).join(',')}}}`],
  ['mongodb', 'tags and no attributes', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"W",  "c":"CONTROL",  "id":22120,   "ctx":"c","msg":"m","tags":["startupWarnings"]}'],
  ['mongodb', 'cut attributes', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"COMMAND",  "id":51803,   "ctx":"c","msg":"Slow query","attr":{"command":{"find":"x"},"durationMillis":5},"truncated":{"command":{"find":{"type":"string","size":9000}}},"size":{"command":9100}}'],
  ['automation-agent', 'an agent line, read by its fields', '[2026-11-22T10:00:00.123+0000] [.warn] [src/director/director.go:computePlan:1083] <rs0-1> [10:00:00.123] Zugriff für ü ✗', true],
  ['automation-agent', 'an older agent\'s time', '[2019/09/10 04:07:50.537] [.info] [cm/mongot/maintainer.go:NewEmptyMaintainer:84] [04:07:50.537] Started', true],
  ['automation-agent', 'a start-up banner', '[2026-11-22T10:00:00.123+0000] [header.info] [::0]        GitCommitId = 1234', true],
  ['automation-agent', 'no space after the fields', '[2026-11-22T10:00:00.123+0000] [.info] [a.go:f:1]<p> m', true],
  ['automation-agent', 'a tab after the fields', '[2026-11-22T10:00:00.123+0000] [.info] [a.go:f:1]\tmessage'],
  ['automation-agent', 'a space beyond ASCII after the fields', '[2026-11-22T10:00:00.123+0000] [.info] [a.go:f:1]\u00a0message'],
  ['automation-agent', 'a backslash in a field', '[2026-11-22T10:00:00.123+0000] [.info] [C:\\agent\\a.go:f:1] message'],
  ['automation-agent', 'UTF-8 in a field', '[2026-11-22T10:00:00.123+0000] [.info] [é.go:f:1] message'],
  ['automation-agent', 'an empty time', '[] [.info] [a.go:f:1] message'],
  ['automation-agent', 'a time that is no time', '[soon] [.info] [a.go:f:1] message'],
  ['automation-agent', 'a missing field', '[2026-11-22T10:00:00.123+0000] [.info] message'],
  ['mongodb', 'a message with quotes', '{"t":{"$date":"2026-11-22T10:00:00.000+00:00"},"s":"I",  "c":"NETWORK",  "id":1,   "ctx":"conn1","msg":"say \\"hi\\"","attr":{"a":"\\t"}}'],
];
for (const [logType, name, line, readInBytes] of crafted) {
  test(`escaped and decoded ${logType} lines read the same: ${name}`, (t) => {
    let decoded = 0;
    const record = parseEntryRecord(logType, entrySource(logType, line, () => decoded++));
    if (readInBytes) {
      // The fields a summary counts by are read without decoding the line.
      if (logType === 'mongodb') {
        headFields(record);
        assertAttrValues(t, record!, line);
      } else {
        t.is(typeof record?.time, 'number');
        t.truthy(record?.severity && record.level);
        t.not(record?.component, '::0');
      }
      t.is(decoded, 0);
    }
    t.deepEqual(fields(record), fields(parseRecord(logType, line)));
    if (logType === 'mongodb') {
      t.deepEqual(headFields(record), headOf(line));
      assertAttrValues(t, record!, line);
      // Read as the server wrote it, too.
      const plain = parseRecord(logType, line)!;
      t.deepEqual(headFields(plain), headOf(line));
      assertAttrValues(t, plain, line);
    }
  });
}
