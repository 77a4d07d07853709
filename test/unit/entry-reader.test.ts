import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { EntryReader } from '../../src/read/entry-reader.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

type Read = { entry: { logType: string; contents: string; partial: boolean; source?: string; time?: string } } | { other: string };

function read(input: string | Buffer, chunkSize = 7): Read[] {
  const results: Read[] = [];
  const reader = new EntryReader({
    wants: () => true,
    counted: () => undefined,
    entry: (e) =>
      results.push({
        entry: {
          logType: e.logType,
          contents: e.contents,
          partial: e.partial,
          ...(e.prefix?.source ? { source: e.prefix.source } : {}),
          ...(e.prefix?.time ? { time: e.prefix.time } : {}),
        },
      }),
    other: (bytes, start, end) => results.push({ other: bytes.toString('utf8', start, end) }),
  });
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input);
  // Small chunks: every line crosses chunk edges somewhere.
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.subarray(at, at + chunkSize));
  reader.end();
  return results;
}

const entry = (logType: string, contents: string, extra: Partial<{ partial: boolean; source: string; time: string }> = {}): Read => ({
  entry: { logType, contents, partial: extra.partial ?? false, ...extra },
});

const cases: { name: string; input: string; expected: Read[] }[] = [
  { name: 'a canonical entry', input: '{"logType":"mongodb","contents":"hi"}\n', expected: [entry('mongodb', 'hi')] },
  { name: 'escapes decoded', input: '{"logType":"mongodb","contents":"a \\"q\\" \\\\ \\u00e9"}\n', expected: [entry('mongodb', 'a "q" \\ é')] },
  { name: 'a piece', input: '{"logType":"m","contents":"abc","partial":true}\n', expected: [entry('m', 'abc', { partial: true })] },
  { name: 'contents ending in an escaped quote', input: '{"logType":"m","contents":"say \\""}\n', expected: [entry('m', 'say "')] },
  { name: 'contents ending in a backslash', input: '{"logType":"m","contents":"c:\\\\"}\n', expected: [entry('m', 'c:\\')] },
  { name: 'other key order (a shipper re-serialised it)', input: '{"contents":"x","logType":"mongodb"}\n', expected: [entry('mongodb', 'x')] },
  { name: 'spaces (not compact)', input: '{"logType": "mongodb", "contents": "x"}\n', expected: [entry('mongodb', 'x')] },
  {
    name: "the sidecar's diagnostics: contents are the whole line",
    input: '{"level":30,"logType":"logtype-sidecar","msg":"following file"}\n',
    expected: [entry('logtype-sidecar', '{"level":30,"logType":"logtype-sidecar","msg":"following file"}')],
  },
  { name: 'plain text', input: 'Skipping creating symlinks\n', expected: [{ other: 'Skipping creating symlinks' }] },
  { name: 'JSON without logType', input: '{"level":"info"}\n', expected: [{ other: '{"level":"info"}' }] },
  { name: 'a cut line', input: '{"logType":"mongodb","conte\n', expected: [{ other: '{"logType":"mongodb","conte' }] },
  { name: 'an empty line', input: '\n', expected: [{ other: '' }] },
  { name: 'a last line without newline', input: '{"logType":"a","contents":"b"}', expected: [entry('a', 'b')] },
  { name: 'CRLF', input: '{"logType":"a","contents":"b"}\r\n', expected: [entry('a', 'b')] },
  {
    name: 'kubectl --timestamps',
    input: '2026-11-22T10:00:00.123456789Z {"logType":"a","contents":"b"}\n',
    expected: [entry('a', 'b', { time: '2026-11-22T10:00:00.123456789Z' })],
  },
  {
    name: 'kubectl --prefix --timestamps',
    input: '[pod/db-0/c] 2026-11-22T10:00:00Z {"logType":"a","contents":"b"}\n',
    expected: [entry('a', 'b', { source: 'pod/db-0/c', time: '2026-11-22T10:00:00Z' })],
  },
  { name: 'stern', input: 'db-0 agent {"logType":"a","contents":"b"}\n', expected: [entry('a', 'b', { source: 'db-0 agent' })] },
  { name: 'a prefixed non-entry', input: '[pod/db-0/c] hello\n', expected: [{ other: '[pod/db-0/c] hello' }] },
];

/** A pre-4.4 server line, read as it is (no wrapper): recognised after any prefix below. */
const TEXT_LINE = '2019-06-18T11:59:00.000+0100 I NETWORK  [listener] connection accepted from 127.0.0.1:57374 #1 (1 connection now open)';
const COLOURED = (word: string, colour: number) => `\u001b[${colour}m${word}\u001b[0m`;
for (const [name, prefix, extra] of [
  ['none', '', {}],
  ['kubectl --prefix', '[pod/db-0/mongod] ', { source: 'pod/db-0/mongod' }],
  ['kubectl --timestamps', '2026-11-22T10:00:00.123456789Z ', { time: '2026-11-22T10:00:00.123456789Z' }],
  ['kubectl --prefix --timestamps', '[pod/db-0/mongod] 2026-11-22T10:00:00Z ', { source: 'pod/db-0/mongod', time: '2026-11-22T10:00:00Z' }],
  ['stern', 'db-0 mongod ', { source: 'db-0 mongod' }],
  ['stern, coloured', `${COLOURED('db-0', 32)} ${COLOURED('mongod', 36)} `, { source: 'db-0 mongod' }],
  ['stern --all-namespaces', 'mongodb db-0 mongod ', { source: 'mongodb db-0 mongod' }],
  ['stern --all-namespaces --timestamps, coloured', `${COLOURED('mongodb', 32)} ${COLOURED('db-0', 32)} ${COLOURED('mongod', 36)} 2026-11-22T10:00:00Z `, { source: 'mongodb db-0 mongod', time: '2026-11-22T10:00:00Z' }],
  ['stern --timestamps=short', 'db-0 mongod 11-22 10:00:00 ', { source: 'db-0 mongod' }],
] as const) {
  test(`a log's own text line after a prefix: ${name}`, (t) => {
    const expected = [entry('mongodb', TEXT_LINE, extra)];
    t.deepEqual(read(`${prefix}${TEXT_LINE}\n`), expected);
    t.deepEqual(read(`${prefix}${TEXT_LINE}\n`, 1 << 20), expected, 'in one chunk');
  });
}
test("a text line whose first words look like stern's, but what follows is no log's: not an entry", (t) => {
  t.deepEqual(read('one two three four five six\n'), [{ other: 'one two three four five six' }]);
});

for (const { name, input, expected } of cases) {
  test(name, (t) => {
    t.deepEqual(read(input), expected);
    t.deepEqual(read(input, 1 << 20), expected, 'in one chunk');
  });
}

test('the real kubectl logs sample: six entries, contents as jq decodes them', (t) => {
  const text = fs.readFileSync(path.join(REAL_DATA, 'kubectl-logs-enterprise-agent.log'), 'utf8');
  const expected = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { logType: string; contents: string })
    .map((e) => entry(e.logType, e.contents));
  t.is(expected.length, 6);
  t.deepEqual(read(text), expected);
});

test('random bytes never throw', (t) => {
  for (let round = 0; round < 200; round++) {
    const bytes = Buffer.alloc(512);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.random() < 0.1 ? 0x0a : Math.floor(Math.random() * 256);
    t.notThrows(() => read(bytes, 13));
  }
});

test('entries of types not wanted are counted, never built', (t) => {
  const built: string[] = [];
  const counted: string[] = [];
  const reader = new EntryReader({
    wants: (type) => type === 'a',
    counted: (type) => counted.push(type),
    entry: (e) => built.push(`${e.logType}:${e.contents}`),
    other: () => undefined,
  });
  reader.push(Buffer.from('{"logType":"a","contents":"x"}\n{"logType":"b","contents":"y"}\n{"logType":"b","contents":"z"}\n'));
  reader.end();
  t.deepEqual(built, ['a:x']);
  t.deepEqual(counted, ['b', 'b']);
});

test('long contents decode as JSON.parse decodes them, by the kernel or not', (t) => {
  const pieces = ['{"q":"x\\"y"}', '\t', 'é', '日本', '\\', '/', '"', 'plain text '];
  for (const length of [1023, 1024, 5000, 300_000]) {
    let contents = '';
    for (let i = 0; contents.length < length; i++) contents += pieces[i % pieces.length];
    for (const [name, text] of [['escapes', contents], ['a \\u escape too', `${contents}\u0001`]] as const) {
      const line = `${JSON.stringify({ logType: 'mongodb', contents: text })}\n`;
      t.deepEqual(read(line, 1 << 20), [entry('mongodb', text)], `${length}, ${name}`);
    }
  }
});
