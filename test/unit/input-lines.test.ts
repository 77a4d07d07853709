import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { LineSplitter } from '../../src/follow/split-lines.js';
import { criPiece } from '../../src/read/cri-line.js';
import { inputLines, isTailHeader, startsWithByteOrderMark } from '../../src/read/input-lines.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Real agent lines (kubectl logs of an agent container). */
const AGENT = fs.readFileSync(path.join(REAL_DATA, 'agent-community-operator.log'), 'utf8').split('\n').filter(Boolean);

type Got = { line: string } | { other: string } | { overlong: true };

/** The input through a splitter of `max` bytes a line, in chunks of 5 bytes. */
function split(input: Buffer, max: number, maxJoined?: number): Got[] {
  const got: Got[] = [];
  const lines = inputLines(
    (bytes, start, end) => got.push({ line: bytes.toString('utf8', start, end) }),
    (bytes, start, end) => got.push({ other: bytes.toString('utf8', start, end) }),
    maxJoined,
    () => got.push({ overlong: true }),
  );
  const splitter = new LineSplitter(max, lines);
  for (let at = 0; at < input.length; at += 5) splitter.push(input.subarray(at, at + 5));
  splitter.flush();
  lines.end();
  return got;
}

// A mark before a later line was once kept as that line's text; files joined with `cat`, each
// saved with a mark, then lost their first entries (a field trial): no line keeps one.
test('a byte order mark before a line is no part of it, the first line or a later one (files joined with cat)', (t) => {
  const [first, second] = AGENT as [string, string];
  const input = Buffer.concat([BOM, Buffer.from(`${first}\n`), BOM, Buffer.from(`${second}\n`)]);
  t.deepEqual(split(input, 1 << 20), [{ line: first }, { line: second }]);
  t.deepEqual(split(Buffer.concat([BOM, Buffer.from('\n')]), 1 << 20), [{ line: '' }]);
});

test('a line longer than the splitter holds: one line that is no entry (its first piece), told as overlong; the rest of it is no line; the lines around it are lines', (t) => {
  const [first, second, third] = AGENT as [string, string, string];
  const long = second.length;
  const max = Math.ceil(long / 3);
  const got = split(Buffer.from(`${first.slice(0, max)}\n${second}\n${third.slice(0, max)}\n`), max);
  t.deepEqual(got, [{ line: first.slice(0, max) }, { overlong: true }, { other: second.slice(0, max) }, { line: third.slice(0, max) }]);
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

/** A CRI log file's line: the runtime's time, the stream, F (a line's last piece) or P (a piece of a longer one). */
const cri = (tag: 'F' | 'P', text: string, stream = 'stdout') => `2026-11-22T09:58:00.024117905Z ${stream} ${tag} ${text}`;

test('criPiece: the CRI head, in every shape the runtime writes; anything else has none', (t) => {
  const cases: [line: string, expected: { text: string; partial: boolean } | undefined][] = [
    [cri('F', AGENT[0]!), { text: AGENT[0]!, partial: false }],
    [cri('P', '{"logType":"mongodb","con', 'stderr'), { text: '{"logType":"mongodb","con', partial: true }],
    ['2026-11-22T09:58:00Z stdout F ', { text: '', partial: false }],
    ['2026-11-22T10:58:00.1+01:00 stderr F x', { text: 'x', partial: false }],
    ['2026-11-22T09:58:00.024117905Z {"logType":"mongodb","contents":""}', undefined],
    ['2026-11-22T09:58:00.024117905Z stdin F x', undefined],
    ['2026-11-22T09:58:00.024117905Z stdout X x', undefined],
    ['2020-09-13T08:33:14.361Z\tINFO\toperator/x.go:61\tReconcile', undefined],
    [AGENT[0]!, undefined],
  ];
  for (const [line, expected] of cases) {
    const bytes = Buffer.from(line);
    const piece = criPiece(bytes, 0, bytes.length);
    t.deepEqual(piece && { text: bytes.toString('utf8', piece.textStart), partial: piece.partial }, expected, line);
  }
});

test("a CRI line the runtime cut in pieces (P … F) is one line: the first piece's head (tagged F: the line is whole), every piece's text; others pass as they are", (t) => {
  const line = AGENT[1]!;
  const pieces = [line.slice(0, 10), line.slice(10, 40), line.slice(40)];
  const input = [cri('F', AGENT[0]!), cri('P', pieces[0]!), cri('P', pieces[1]!), cri('F', pieces[2]!), cri('F', AGENT[2]!), cri('P', 'cut at the end')].join('\n') + '\n';
  t.deepEqual(split(Buffer.from(input), 1 << 20), [{ line: cri('F', AGENT[0]!) }, { line: cri('F', line) }, { line: cri('F', AGENT[2]!) }, { line: cri('P', 'cut at the end') }]);
});

test("a CRI line's pieces with the other stream's lines between them (the runtime writes stdout and stderr into one file): each stream's line joined apart", (t) => {
  const line = AGENT[1]!;
  const input = [cri('P', line.slice(0, 10)), cri('F', 'an error', 'stderr'), cri('P', line.slice(10, 40)), cri('P', 'cut ', 'stderr'), cri('F', line.slice(40)), cri('F', 'in two', 'stderr')].join('\n') + '\n';
  t.deepEqual(split(Buffer.from(input), 1 << 20), [{ line: cri('F', 'an error', 'stderr') }, { line: cri('F', line) }, { line: cri('F', 'cut in two', 'stderr') }]);
});

test("a CRI line in pieces past the longest line held: what was held is one line that is no entry, told as overlong; the pieces after it, up to its F, are no lines", (t) => {
  const input = [cri('P', 'a'.repeat(40)), cri('P', 'b'.repeat(40)), cri('P', 'c'.repeat(10)), cri('F', 'the tail'), cri('F', 'next line')].join('\n') + '\n';
  const got = split(Buffer.from(input), 1 << 20, 100);
  t.deepEqual(got, [{ overlong: true }, { other: cri('P', 'a'.repeat(40) + 'b'.repeat(40)) }, { line: cri('F', 'next line') }]);
});

test("tail -f of several CRI files: a line's pieces in two sections of its file, another file's lines between (pieces too), each file's line joined apart", (t) => {
  const [a, b] = [AGENT[1]!, AGENT[2]!];
  const input = [
    '==> /var/log/containers/rs-0_mongodb_agent-1.log <==',
    cri('P', a.slice(0, 10)),
    '',
    '==> /var/log/containers/rs-1_mongodb_agent-2.log <==',
    cri('F', 'a whole line of rs-1'),
    cri('P', b.slice(0, 20)),
    '',
    '==> /var/log/containers/rs-0_mongodb_agent-1.log <==',
    cri('F', a.slice(10)),
    '',
    '==> /var/log/containers/rs-1_mongodb_agent-2.log <==',
    cri('F', b.slice(20)),
  ].join('\n') + '\n';
  const lines = split(Buffer.from(input), 1 << 20).filter((got) => 'line' in got && got.line.startsWith('2'));
  t.deepEqual(lines, [{ line: cri('F', 'a whole line of rs-1') }, { line: cri('F', a) }, { line: cri('F', b) }]);
});

test('isTailHeader: tail\'s header naming a file, nothing else', (t) => {
  const header = (text: string): boolean => isTailHeader(Buffer.from(text), 0, text.length);
  t.true(header('==> /var/log/pods/ns_rs-0_uid/mongodb-agent/0.log <=='));
  t.true(header('==> a.log <=='));
  t.false(header('==>  <=='));
  t.false(header('==> a.log'));
  t.false(header('a.log <=='));
  t.false(header('{"logType":"mongodb","contents":"==> a.log <=="}'));
});
