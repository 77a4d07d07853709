import test from 'ava';
import { LineSplitter, utf8CutPoint } from '../../src/follow/split-lines.js';

interface Piece {
  readonly text: string;
  readonly partial: boolean;
}

function split(chunks: readonly (string | Buffer)[], max = 1024, flush = false, reuseHeldBuffer = false): Piece[] {
  const pieces: Piece[] = [];
  const splitter = new LineSplitter(
    max,
    (bytes, start, end, partial) => {
      pieces.push({ text: bytes.toString('utf8', start, end), partial });
    },
    { reuseHeldBuffer },
  );
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  if (flush) splitter.flush();
  return pieces;
}

const whole = (...texts: string[]): Piece[] => texts.map((text) => ({ text, partial: false }));

const cases: { name: string; chunks: (string | Buffer)[]; max?: number; flush?: boolean; expected: Piece[] }[] = [
  { name: 'lines in one chunk', chunks: ['a\nb\n'], expected: whole('a', 'b') },
  { name: 'an unfinished line is held', chunks: ['a\nb'], expected: whole('a') },
  { name: 'an unfinished line is emitted at flush', chunks: ['a\nb'], flush: true, expected: whole('a', 'b') },
  { name: 'a line across three chunks', chunks: ['ab', 'cd', 'ef\n'], expected: whole('abcdef') },
  { name: 'CRLF keeps the \\r', chunks: ['a\r\nb\r\n'], expected: whole('a\r', 'b\r') },
  { name: 'empty lines are lines', chunks: ['\n\n'], expected: whole('', '') },
  { name: 'a newline alone completes a held line', chunks: ['held', '\n'], expected: whole('held') },
  { name: 'nothing to flush is nothing', chunks: ['a\n'], flush: true, expected: whole('a') },
  {
    name: 'a multi-byte character split across chunks',
    chunks: [Buffer.from([0xc3]), Buffer.from([0xa9, 0x0a])],
    expected: whole('é'),
  },
  { name: 'a line of exactly max bytes is whole', chunks: ['abcd\n'], max: 4, expected: whole('abcd') },
  {
    name: 'a line over max in one chunk leaves in pieces',
    chunks: ['abcdefghij\n'],
    max: 4,
    expected: [
      { text: 'abcd', partial: true },
      { text: 'efgh', partial: true },
      { text: 'ij', partial: false },
    ],
  },
  {
    name: 'a held line over max leaves pieces as it grows',
    chunks: ['abc', 'def', 'ghi', '\n'],
    max: 4,
    expected: [
      { text: 'abcd', partial: true },
      { text: 'efgh', partial: true },
      { text: 'i', partial: false },
    ],
  },
  {
    name: 'pieces are cut before a character, never inside it',
    chunks: ['aé€😀\n'],
    max: 4,
    expected: [
      { text: 'aé', partial: true },
      { text: '€', partial: true },
      { text: '😀', partial: false },
    ],
  },
  {
    name: 'a long line then short ones in the same chunk',
    chunks: ['abcdef\nx\n'],
    max: 4,
    expected: [{ text: 'abcd', partial: true }, ...whole('ef', 'x')],
  },
];

for (const { name, chunks, max, flush, expected } of cases) {
  test(name, (t) => {
    t.deepEqual(split(chunks, max, flush), expected);
    t.deepEqual(split(chunks, max, flush, true), expected, 'with the reused held buffer');
  });
}

test('invalid bytes where a cut would fall: cut at the limit', (t) => {
  const bytes = Buffer.from([0x61, 0x80, 0x80, 0x80, 0x80, 0x80]);
  t.is(utf8CutPoint(bytes, 0, 5), 5);
});

test('every split of a random text into chunks gives the same lines (against String.split)', (t) => {
  const alphabet = ['a', 'é', '€', '😀', '\n', '\r', ' '];
  for (let round = 0; round < 200; round++) {
    let text = '';
    for (let i = 0; i < 80; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + Math.floor(Math.random() * 10);
      chunks.push(bytes.subarray(at, at + size));
      at += size;
    }
    const expected = text.split('\n');
    const tail = expected.pop()!;
    for (const reuse of [false, true]) {
      const lines = split(chunks, 1 << 20, true, reuse).map((p) => p.text);
      t.deepEqual(lines, tail === '' ? expected : [...expected, tail]);
    }
  }
});

test('a splitter refuses a limit that cannot hold one character', (t) => {
  t.throws(() => new LineSplitter(3, () => undefined), { instanceOf: RangeError });
});

/** Every piece with its end offset, as a follower saves it. */
function withOffsets(chunks: readonly string[], max = 1024, options: { startOffset?: number; pieceOpen?: boolean } = {}) {
  const pieces: { text: string; partial: boolean; endOffset: number }[] = [];
  const splitter = new LineSplitter(max, (bytes, start, end, partial, endOffset) => pieces.push({ text: bytes.toString('utf8', start, end), partial, endOffset }), {
    reuseHeldBuffer: true,
    ...options,
  });
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  return { pieces, splitter };
}

test('end offsets: past each newline, counted from the start offset, across chunks and held lines', (t) => {
  const { pieces } = withOffsets(['ab\ncd', 'e\n\nfg'], 1024, { startOffset: 100 });
  t.deepEqual(pieces, [
    { text: 'ab', partial: false, endOffset: 103 },
    { text: 'cde', partial: false, endOffset: 107 },
    { text: '', partial: false, endOffset: 108 },
  ]);
});

test('end offsets of pieces: where each piece ends in the stream', (t) => {
  const { pieces } = withOffsets(['abc', 'defghij\nk'], 4);
  t.deepEqual(pieces, [
    { text: 'abcd', partial: true, endOffset: 4 },
    { text: 'efgh', partial: true, endOffset: 8 },
    { text: 'ij', partial: false, endOffset: 11 },
  ]);
});

test('flushPiece: held bytes leave as a partial piece, a character not yet whole stays held', (t) => {
  const { pieces, splitter } = withOffsets(['one\ntwo é'.slice(0, 8)]);
  const bytes = Buffer.from('two é');
  splitter.push(bytes.subarray(4, 5)); // the first byte of é
  t.true(splitter.flushPiece());
  t.deepEqual(pieces.at(-1), { text: 'two ', partial: true, endOffset: 8 });
  t.is(splitter.heldBytes, 1);
  splitter.push(Buffer.from([0xa9, 0x0a])); // the rest of é, and the newline
  t.deepEqual(pieces.at(-1), { text: 'é', partial: false, endOffset: 11 });
});

test('a stream resumed inside a line: its first newline ends the line\'s last piece', (t) => {
  const { pieces } = withOffsets(['rest of it\nnext\n'], 1024, { startOffset: 50, pieceOpen: true });
  t.deepEqual(pieces, [
    { text: 'rest of it', partial: false, endOffset: 61 },
    { text: 'next', partial: false, endOffset: 66 },
  ]);
});

test('end: held bytes leave whole; an open line with nothing held is closed by an empty last piece', (t) => {
  const held = withOffsets(['a\nbc']);
  held.splitter.end();
  t.deepEqual(held.pieces.at(-1), { text: 'bc', partial: false, endOffset: 4 });
  const open = withOffsets([], 1024, { startOffset: 9, pieceOpen: true });
  open.splitter.end();
  t.deepEqual(open.pieces, [{ text: '', partial: false, endOffset: 9 }]);
});

test('abandon: held bytes are dropped and counted; an open line is closed', (t) => {
  const { pieces, splitter } = withOffsets(['abcdef'], 4);
  t.is(splitter.abandon(), 2);
  t.deepEqual(pieces, [
    { text: 'abcd', partial: true, endOffset: 4 },
    { text: '', partial: false, endOffset: 4 },
  ]);
});

test('skip passes over bytes at a line start: later lines end at their offsets in the stream; inside a line it refuses', (t) => {
  const ends: [string, number][] = [];
  const splitter = new LineSplitter(1024, (bytes, start, end, _partial, endOffset) => ends.push([bytes.toString('latin1', start, end), endOffset]));
  splitter.push(Buffer.from('one\n'));
  splitter.skip(100);
  splitter.push(Buffer.from('two\n'));
  t.deepEqual(ends, [['one', 4], ['two', 108]]);
  t.is(splitter.offset, 108);
  splitter.push(Buffer.from('thr'));
  t.throws(() => splitter.skip(1), { message: /start of a line/ });
});

test('a reused store past its doubling sizes: a long line held over many pushes leaves as the same pieces, offsets and rest', (t) => {
  // 300 KiB pushed in 7 KiB reads, against a 128 KiB limit: the store doubles to 64 KiB, then
  // grows once to its largest with bytes held; pieces cut inside one push and across pushes.
  const max = 128 * 1024;
  const line = Buffer.alloc(300 * 1024);
  for (let i = 0; i < line.length; i++) line[i] = 0x61 + (i % 26);
  const pieces: { text: string; partial: boolean; endOffset: number }[] = [];
  const splitter = new LineSplitter(max, (bytes, start, end, partial, endOffset) => pieces.push({ text: bytes.toString('latin1', start, end), partial, endOffset }), { reuseHeldBuffer: true });
  const stream = Buffer.concat([line, Buffer.from('\nnext\n')]);
  for (let at = 0; at < stream.length; at += 7 * 1024) splitter.push(stream, at, Math.min(stream.length, at + 7 * 1024));
  t.deepEqual(
    pieces.map(({ partial, endOffset, text }) => ({ partial, endOffset, length: text.length })),
    [
      { partial: true, endOffset: max, length: max },
      { partial: true, endOffset: 2 * max, length: max },
      { partial: false, endOffset: line.length + 1, length: line.length - 2 * max },
      { partial: false, endOffset: line.length + 6, length: 4 },
    ],
  );
  t.is(pieces.slice(0, 3).map((piece) => piece.text).join(''), line.toString('latin1'));
  t.is(pieces[3]!.text, 'next');
});
