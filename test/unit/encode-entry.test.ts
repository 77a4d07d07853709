import test from 'ava';
import { spawnSync } from 'node:child_process';
import { encodeEntry, isEntryLine } from '../../src/encode/encode-entry.js';
import { MAX_ESCAPE_BYTES, escapeAsciiJson, leaseKernelOutputChunk } from '../../src/kernels/json-kernels.js';
import { unescapeJsonBytes } from '../../src/kernels/unescape-json.js';
import { JQ, testWithTool } from '../_helpers/system-tool.js';

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

testWithTool(JQ, 'every C0 control encodes as jq -c -R encodes it (DEL aside: jq escapes it, we keep it raw)', (t, jqCommand) => {
  const contents = Array.from({ length: 0x20 }, (_, code) => code)
    .filter((code) => code !== 0x0a)
    .map((code) => `x${String.fromCharCode(code)}y`);
  const jq = spawnSync(jqCommand, ['-c', '-R', '{logType: "t", contents: .}'], { input: contents.join('\n') + '\n', encoding: 'utf8' });
  t.is(jq.status, 0, jq.stderr);
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

/** JSON.stringify's escapes of an ASCII string are jq's: the reference for the module. */
const reference = (bytes: Buffer): string => JSON.stringify(bytes.toString('latin1')).slice(1, -1);

test('escapeAsciiJson: a byte to escape at every place of the 16-byte windows, in lines of every length up to 70', (t) => {
  const target = Buffer.alloc(6 * 80 + 16);
  for (let length = 0; length <= 70; length++) {
    for (let place = 0; place < length; place++) {
      for (const special of [0x22, 0x5c, 0x0a, 0x01, 0x1f, 0x7f]) {
        const source = Buffer.alloc(length, 0x61);
        source[place] = special;
        const end = escapeAsciiJson(source, 0, length, target, 0);
        if (target.toString('latin1', 0, end) !== reference(source)) return t.fail(`length ${length}, 0x${special.toString(16)} at ${place}`);
      }
      const nonAscii = Buffer.alloc(length, 0x61);
      nonAscii[place] = 0xc3;
      if (escapeAsciiJson(nonAscii, 0, length, target, 0) !== -1) return t.fail(`non-ASCII at ${place} of ${length}`);
    }
  }
  t.pass();
});

test('escapeAsciiJson: random ASCII lines, written at an offset, from an offset, up to the longest a call takes', (t) => {
  let seed = 7;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const target = Buffer.alloc(6 * MAX_ESCAPE_BYTES + 64);
  for (let round = 0; round < 300; round++) {
    const length = round === 0 ? MAX_ESCAPE_BYTES : Math.floor(random() * 3000);
    // Mostly printable, with quotes, backslashes and controls sprinkled in.
    const source = Buffer.from(Array.from({ length: length + 10 }, () => (random() < 0.9 ? 0x20 + Math.floor(random() * 0x5f) : Math.floor(random() * 0x80))));
    const end = escapeAsciiJson(source, 5, 5 + length, target, 3);
    t.is(target.toString('latin1', 3, end), reference(source.subarray(5, 5 + length)));
  }
  t.throws(() => escapeAsciiJson(Buffer.alloc(MAX_ESCAPE_BYTES + 1, 0x61), 0, MAX_ESCAPE_BYTES + 1, target, 0), { instanceOf: RangeError });
});

test('escapeAsciiJson and unescapeJsonBytes write straight into an output chunk in the kernels\' memory, up to its end', (t) => {
  const chunk = leaseKernelOutputChunk();
  if (!chunk) return t.fail('no output chunk to lease');
  const line = Buffer.from('{"t":{"$date":"2026-11-22T10:00:00.000Z"},"msg":"a \\"quoted\\" word\ttab"}');
  const expected = reference(line);
  for (const at of [0, 1, 15, 16, 17, chunk.length - expected.length]) {
    const end = escapeAsciiJson(line, 0, line.length, chunk, at);
    t.is(chunk.toString('latin1', at, end), expected, `escape at ${at}`);
    const literal = Buffer.from(expected);
    const decodedEnd = unescapeJsonBytes(literal, 0, literal.length, chunk, at);
    t.is(chunk.toString('latin1', at, decodedEnd), line.toString('latin1'), `unescape at ${at}`);
  }
});
