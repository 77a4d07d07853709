import test from 'ava';
import { spawnSync } from 'node:child_process';
import { encodeEntry, isEntryLine } from '../../src/encode/encode-entry.js';
import { escapeAsciiJson } from '../../src/encode/encode-bytes.js';

const cases: { name: string; contents: string; expected: string }[] = [
  { name: 'plain', contents: 'hello', expected: '{"logType":"mongodb","contents":"hello"}\n' },
  { name: 'quotes and backslashes', contents: 'a "b" \\c', expected: '{"logType":"mongodb","contents":"a \\"b\\" \\\\c"}\n' },
  { name: 'slash stays', contents: 'a/b', expected: '{"logType":"mongodb","contents":"a/b"}\n' },
  { name: 'short escapes', contents: '\b\t\f\r\n', expected: '{"logType":"mongodb","contents":"\\b\\t\\f\\r\\n"}\n' },
  { name: 'NUL and ESC', contents: '\u0000\u001b', expected: '{"logType":"mongodb","contents":"\\u0000\\u001b"}\n' },
  { name: 'DEL raw (valid JSON)', contents: '\u007f', expected: '{"logType":"mongodb","contents":"\u007f"}\n' },
  { name: 'U+2028 raw', contents: '\u2028', expected: '{"logType":"mongodb","contents":"\u2028"}\n' },
  { name: 'empty', contents: '', expected: '{"logType":"mongodb","contents":""}\n' },
];

for (const { name, contents, expected } of cases) {
  test(`encodes ${name}`, (t) => {
    t.is(encodeEntry('mongodb', contents), expected);
    t.deepEqual(JSON.parse(expected), { logType: 'mongodb', contents });
  });
}

test('a piece carries "partial":true after contents', (t) => {
  t.is(encodeEntry('mongodb', 'x', true), '{"logType":"mongodb","contents":"x","partial":true}\n');
});

test('every C0 control encodes as jq -c -R encodes it (DEL aside: jq escapes it, we keep it raw)', (t) => {
  const contents = Array.from({ length: 0x20 }, (_, code) => code)
    .filter((code) => code !== 0x0a)
    .map((code) => `x${String.fromCharCode(code)}y`);
  const jq = spawnSync('jq', ['-c', '-R', '{logType: "t", contents: .}'], { input: contents.join('\n') + '\n', encoding: 'utf8' });
  t.is(jq.status, 0, 'jq is needed (CI installs it)');
  t.deepEqual(
    contents.map((c) => encodeEntry('t', c)),
    jq.stdout.split(/(?<=\n)/),
  );
});

const entryCases: { line: string; expected: boolean }[] = [
  { line: '{"logType":"agent-launcher-script","contents":"x"}', expected: true },
  { line: '{"logType":"agent-launcher-script","contents":"x"}\r', expected: true },
  { line: '{"logType":"a","contents":"x","partial":true}', expected: true },
  { line: '{"logType":"a"}', expected: false },
  { line: '{"logType":"a","contents":1}', expected: false },
  { line: '{"logType":"a","contents":"x"', expected: false },
  { line: '{"logType": "a", "contents": "x"}', expected: false },
  { line: 'plain', expected: false },
  { line: '', expected: false },
];

for (const { line, expected } of entryCases) {
  test(`isEntryLine(${JSON.stringify(line)}) is ${String(expected)}`, (t) => {
    t.is(isEntryLine(line), expected);
  });
}

test('escapeAsciiJson gives JSON.stringify\'s bytes for every ASCII byte, and refuses non-ASCII', (t) => {
  for (let byte = 0; byte < 0x80; byte++) {
    const source = Buffer.from([0x61, byte, 0x62]);
    const target = Buffer.alloc(64);
    const end = escapeAsciiJson(source, 0, 3, target, 0);
    t.is(target.toString('utf8', 0, end), JSON.stringify(source.toString('latin1')).slice(1, -1), `byte 0x${byte.toString(16)}`);
  }
  t.is(escapeAsciiJson(Buffer.from('é'), 0, 2, Buffer.alloc(64), 0), -1);
});
