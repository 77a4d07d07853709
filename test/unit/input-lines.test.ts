import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { LineSplitter } from '../../src/follow/split-lines.js';
import { inputLines, startsWithByteOrderMark } from '../../src/read/input-lines.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Real agent lines (kubectl logs of an agent container). */
const AGENT = fs.readFileSync(path.join(REAL_DATA, 'agent-community-operator.log'), 'utf8').split('\n').filter(Boolean);

type Got = { line: string } | { other: string };

/** The input through a splitter of `max` bytes a line, in chunks of 5 bytes. */
function split(input: Buffer, max: number): Got[] {
  const got: Got[] = [];
  const splitter = new LineSplitter(
    max,
    inputLines(
      (bytes, start, end) => got.push({ line: bytes.toString('utf8', start, end) }),
      (bytes, start, end) => got.push({ other: bytes.toString('utf8', start, end) }),
    ),
  );
  for (let at = 0; at < input.length; at += 5) splitter.push(input.subarray(at, at + 5));
  splitter.flush();
  return got;
}

test('a byte order mark before the first line is no part of it; one before a later line is (it is that line\'s text)', (t) => {
  const [first, second] = AGENT as [string, string];
  const input = Buffer.concat([BOM, Buffer.from(`${first}\n`), BOM, Buffer.from(`${second}\n`)]);
  t.deepEqual(split(input, 1 << 20), [{ line: first }, { line: `\ufeff${second}` }]);
  t.deepEqual(split(Buffer.concat([BOM, Buffer.from('\n')]), 1 << 20), [{ line: '' }]);
});

test('a line longer than the splitter holds: every piece of it is another line, its last piece too; the lines around it are lines', (t) => {
  const [first, second, third] = AGENT as [string, string, string];
  const long = second.length;
  const max = Math.ceil(long / 3);
  const got = split(Buffer.from(`${first.slice(0, max)}\n${second}\n${third.slice(0, max)}\n`), max);
  const pieces = got.filter((g) => 'other' in g).map((g) => (g as { other: string }).other);
  t.is(pieces.join(''), second);
  t.true(pieces.length >= 3);
  t.deepEqual(got[0], { line: first.slice(0, max) });
  t.deepEqual(got.at(-1), { line: third.slice(0, max) });
});

test('startsWithByteOrderMark: the three bytes of U+FEFF at the start, nothing else', (t) => {
  const cases: [Buffer, boolean][] = [
    [Buffer.concat([BOM, Buffer.from('{')]), true],
    [BOM, true],
    [BOM.subarray(0, 2), false],
    [Buffer.from('\ufffe{'), false],
    [Buffer.from(AGENT[0]!), false],
  ];
  for (const [bytes, expected] of cases) t.is(startsWithByteOrderMark(bytes, 0, bytes.length), expected, bytes.toString('hex'));
});
