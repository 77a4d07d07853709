/**
 * HeldFile's checks that a file was changed under it, on real files: appends are never taken
 * for a rewrite, whatever the head read at open holds; a rewrite to the size read, lines ending
 * alike, is.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { FINGERPRINT_BYTES, TAIL_BYTES, fnv1a64, tailHashOf } from '../../src/follow/fingerprint.js';
import { HeldFile } from '../../src/follow/held-file.js';
import { tempDir } from '../_helpers/sidecar-process.js';

/** A file held at `from`, its lines collected as text. */
function held(file: string, from: number | 'end'): { file: HeldFile; lines: string[] } {
  const lines: string[] = [];
  const sink = (bytes: Buffer, start: number, end: number): void => {
    lines.push(bytes.toString('utf8', start, end));
  };
  return { file: HeldFile.open(file, 'current', from, 0, { maxLineBytes: 1 << 20, sink }), lines };
}

/** A modification time the file has not had: a look compares its bytes again. */
const touchLater = (file: string, seconds: number): void => fs.utimesSync(file, new Date(), new Date(Date.now() + seconds * 1000));

// From a review: resumed at a position within its first KiB, the head read at open held bytes
// past the position; a file cut back to the position was taken for one rewritten, and its
// delivered lines read again.
test('resumed within its first KiB, then cut back to the position: not rewritten; lines appended after it are read on', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb.log');
  const first = 'line 1\nline 2\nline 3\n';
  fs.writeFileSync(file, `${first}${'unread line\n'.repeat(20)}`);
  const { file: resumed, lines } = held(file, Buffer.byteLength(first));
  fs.truncateSync(file, Buffer.byteLength(first));
  touchLater(file, 5);
  const stat = fs.statSync(file);
  t.false(resumed.rewrittenInPlace(stat.size, stat.mtimeMs, Date.now()));
  fs.appendFileSync(file, 'line 4\nline 5\n');
  t.false(resumed.truncated(fs.statSync(file).size));
  t.true(resumed.read(1 << 20, Date.now()) > 0);
  t.deepEqual(lines, ['line 4', 'line 5']);
  resumed.close();
});

test('appended to from empty, from its end and from a position within its first KiB: never taken for rewritten', (t) => {
  const dir = tempDir('held-file');
  for (const [name, initial, from] of [
    ['empty', '', 0],
    ['end', 'a\nb\n', 'end'],
    ['inside', 'a\nb\nc\nd\n', 2],
  ] as const) {
    const file = path.join(dir, `${name}.log`);
    fs.writeFileSync(file, initial);
    const { file: h } = held(file, from);
    for (let i = 0; i < 200; i++) {
      fs.appendFileSync(file, `${name} line ${i} ${'x'.repeat(i % 50)}\n`);
      const stat = fs.statSync(file);
      t.false(h.truncated(stat.size), `${name}: append ${i} taken for a truncation`);
      t.not(h.read(1 << 20, Date.now()), -1, `${name}: append ${i} read as changed under us`);
      const after = fs.statSync(file);
      t.false(h.rewrittenInPlace(after.size, after.mtimeMs + 1, Date.now()), `${name}: append ${i} taken for a rewrite`);
    }
    h.close();
  }
});

test('written again to exactly the size read, lines ending alike: rewritten', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb.log');
  const line = (prefix: string, n: number): string => `${prefix} ${String(n).padStart(6, '0')} ${'x'.repeat(900)}\n`;
  fs.writeFileSync(file, Array.from({ length: 20 }, (_, i) => line('old', i)).join(''));
  const { file: h, lines } = held(file, 0);
  h.read(1 << 22, Date.now());
  t.is(lines.length, 20);
  fs.writeFileSync(file, Array.from({ length: 20 }, (_, i) => line('new', i)).join(''));
  touchLater(file, 5);
  const stat = fs.statSync(file);
  t.is(stat.size, h.position);
  t.true(h.rewrittenInPlace(stat.size, stat.mtimeMs, Date.now()));
  h.close();
});

// Torture seed 363544977: a file opened at 0 behind a rotated backlog was copytruncated and
// written again before its first read; the head read at the open was the old file's, and the
// read after the new lines took them for a rewrite and read them again.
test('opened at 0, truncated and written again before its first read: the new lines are read once, appends after them read on', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb.log');
  const line = (prefix: string, n: number): string => `${prefix} line ${String(n).padStart(4, '0')} ${'x'.repeat(40)}\n`;
  const lines = (prefix: string, count: number): string => Array.from({ length: count }, (_, i) => line(prefix, i)).join('');
  fs.writeFileSync(file, lines('old', 40)); // past the head's KiB
  const { file: h, lines: read } = held(file, 0);
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, lines('new', 10));
  t.true(h.read(1 << 20, Date.now()) > 0);
  t.deepEqual(read, lines('new', 10).trimEnd().split('\n'));
  const stat = fs.statSync(file);
  t.false(h.rewrittenInPlace(stat.size, stat.mtimeMs + 1, Date.now()), 'the new lines taken for a rewrite at a look');
  fs.appendFileSync(file, line('more', 0));
  const size = fs.statSync(file).size;
  t.false(h.truncated(size));
  t.not(h.read(1 << 20, Date.now(), size), -1, 'the new lines taken for a rewrite at the next read');
  t.is(read.at(-1), line('more', 0).trimEnd());
  h.close();
});

// From a review: the state a save wrote was taken from the file as it was at the save, not as
// read. A file truncated and written again between a read and the save (its first KiB alike: a
// banner) was saved as the file read, with its new bytes' tail: a restart took it for the same
// file and skipped its new lines up to the saved position.
test('saved from the bytes as read: a file written again before the save, its first KiB alike, is not saved as the file read', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb.log');
  const banner = `${'B'.repeat(1100)}\n`;
  const old = `${banner}${Array.from({ length: 40 }, (_, i) => `old line ${i} ${'o'.repeat(30)}\n`).join('')}`;
  fs.writeFileSync(file, old);
  const lines: string[] = [];
  const h = HeldFile.open(file, 'current', 0, 0, {
    maxLineBytes: 1 << 20,
    // The writer's part: each line, once out, moves the checkpoint.
    sink: (bytes, start, end, _partial, endOffset, checkpoint) => {
      lines.push(bytes.toString('utf8', start, end));
      checkpoint.delivered = endOffset;
    },
  });
  t.true(h.read(1 << 20, Date.now()) > 0);
  t.is(lines.length, 41);
  const asRead = { fingerprint: fnv1a64(Buffer.from(old), 0, FINGERPRINT_BYTES), tailHash: fnv1a64(Buffer.from(old), Buffer.byteLength(old) - TAIL_BYTES, Buffer.byteLength(old)) };
  // Truncated and written again, longer, before anything looked: the same banner, new lines.
  fs.writeFileSync(file, `${banner}${Array.from({ length: 80 }, (_, i) => `new line ${i} ${'n'.repeat(30)}\n`).join('')}`);
  const saved = h.savedFile();
  t.is(saved.position, Buffer.byteLength(old));
  t.like(saved, asRead);
  // What a restart compares it with: the file now, whose tail there differs.
  const fd = fs.openSync(file, 'r');
  t.not(tailHashOf(fd, saved.position), saved.tailHash);
  fs.closeSync(fd);
  h.close();
});

// The soak, on the change above: a file rotated (behind the name) reads on without keeping its
// recent bytes, so they no longer ended at its position; its tail saved from them matched no
// file at the restart, which read it again (7,015 lines twice after a SIGTERM).
test('rotated, read on and saved: its tail is the bytes before its position, as a restart reads them from the file', (t) => {
  const file = path.join(tempDir('held-file'), 'backup-agent.log');
  fs.writeFileSync(file, Array.from({ length: 50 }, (_, i) => `before the rotation ${i} ${'b'.repeat(40)}\n`).join(''));
  const h = HeldFile.open(file, 'current', 0, 0, {
    maxLineBytes: 1 << 20,
    sink: (_bytes, _start, _end, _partial, endOffset, checkpoint) => {
      checkpoint.delivered = endOffset;
    },
  });
  t.true(h.read(1 << 20, Date.now()) > 0);
  t.truthy(h.savedFile().tailHash);
  // Renamed away: the follower makes it a rotated file, which drains what the writer still adds.
  fs.renameSync(file, `${file}.1`);
  h.role = 'rotated';
  fs.appendFileSync(`${file}.1`, Array.from({ length: 30 }, (_, i) => `after the rotation ${i} ${'a'.repeat(40)}\n`).join(''));
  // Read to the size a look found, as the files behind are.
  t.true(h.read(1 << 20, Date.now(), fs.statSync(`${file}.1`).size) > 0);
  const saved = h.savedFile();
  t.is(saved.position, fs.statSync(`${file}.1`).size);
  const fd = fs.openSync(`${file}.1`, 'r');
  t.is(saved.tailHash, tailHashOf(fd, saved.position));
  fs.closeSync(fd);
  h.close();
});

// The bytes before the position alone are compared when they hold the whole last line
// (byte-marker.ts holdsLineStart); else the file's first bytes are compared too. Both ways a
// rewrite past the position is told at the next read, and appends are not.
for (const [kind, line] of [
  ['lines shorter than the bytes compared', (prefix: string, n: number): string => `${prefix} ${String(n).padStart(6, '0')} ${'x'.repeat(60)}\n`],
  ['padded lines longer than the bytes compared, ending alike', (prefix: string, n: number): string => `${prefix} ${String(n).padStart(6, '0')} ${'x'.repeat(900)}\n`],
] as const) {
  test(`truncated and written again past the read position, ${kind}: told at the next read; appends read on`, (t) => {
    const file = path.join(tempDir('held-file'), 'mongodb.log');
    const many = (prefix: string, count: number): string => Array.from({ length: count }, (_, i) => line(prefix, i)).join('');
    fs.writeFileSync(file, many('old', 30));
    const { file: h, lines } = held(file, 0);
    t.true(h.read(1 << 22, Date.now()) > 0);
    fs.appendFileSync(file, many('app', 5));
    t.true(h.read(1 << 22, Date.now(), fs.statSync(file).size) > 0, 'an append read on');
    t.is(lines.length, 35);
    // The new file's lines stand at the old one's offsets, and run past the position.
    fs.writeFileSync(file, many('new', 60));
    t.is(h.read(1 << 22, Date.now(), fs.statSync(file).size), -1);
    t.is(lines.length, 35, 'nothing of the new file read as the old one');
    h.close();
  });
}

// Soak seed 1939787848: a restart resumed the file at its saved position behind a stalled
// reader; copytruncate cut it before the sidecar looked, and the periodic save in between hashed
// the tail from the file, now too short: the entry was saved without one, the next restart could
// not find the copy by it, and read the copy from its start (17 lines twice).
test('resumed at its saved position, then cut by copytruncate before a look: the save keeps the saved tail', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb-audit.log');
  const text = Array.from({ length: 60 }, (_, i) => `audit line ${i} ${'a'.repeat(i % 17)}\n`).join('');
  fs.writeFileSync(file, text);
  const position = Buffer.byteLength(text);
  const fd = fs.openSync(file, 'r');
  const tailHash = tailHashOf(fd, position)!;
  fs.closeSync(fd);
  const resumed = HeldFile.open(file, 'current', position, 0, { maxLineBytes: 1 << 20, sink: () => undefined }, { tailHash });
  fs.truncateSync(file, 0);
  t.is(resumed.savedFile().tailHash, tailHash);
  resumed.close();
});

test('resumed, a few lines read and delivered, then cut before a look: the save hashes the tail from the bytes as read', (t) => {
  const file = path.join(tempDir('held-file'), 'mongodb.log');
  const before = Array.from({ length: 60 }, (_, i) => `before ${i} ${'b'.repeat(i % 23)}\n`).join('');
  const after = 'after 1\nafter 2\n';
  fs.writeFileSync(file, before);
  const h = HeldFile.open(file, 'current', Buffer.byteLength(before), 0, {
    maxLineBytes: 1 << 20,
    sink: (_bytes, _start, _end, _partial, endOffset, checkpoint) => {
      checkpoint.delivered = endOffset;
    },
  });
  fs.appendFileSync(file, after);
  t.true(h.read(1 << 20, Date.now(), fs.statSync(file).size) > 0);
  const whole = Buffer.from(before + after);
  const expected = fnv1a64(whole, whole.length - TAIL_BYTES, whole.length);
  fs.truncateSync(file, 0);
  t.is(h.savedFile().tailHash, expected);
  h.close();
});

// From CI: a rotated file of other lines padded as ours, the size read, was taken for our copy
// (the 256 bytes before the position are padding in both); let go, then listed as unseen again,
// at every listing: its lines never left.
test('matchesCopy: a copy of the file as read is one; other lines ending alike at the position are not', (t) => {
  const dir = tempDir('held-file');
  const file = path.join(dir, 'mongodb.log');
  const padded = (tag: string, from: number, count: number): string =>
    Array.from({ length: count }, (_, i) => `${tag}-${String(from + i).padStart(8, '0')} ${'x'.repeat(980)}\n`).join('');
  fs.writeFileSync(file, padded('mongodb', 1, 100));
  const { file: h } = held(file, 0);
  t.true(h.read(1 << 20, Date.now()) > 0);
  const cases: ReadonlyArray<readonly [string, string, boolean]> = [
    ['a copy of it', padded('mongodb', 1, 100), true],
    ['a copy of it, lines written after the read too', padded('mongodb', 1, 103), true],
    ['other lines, the same padding and size', padded('mongodb', 301, 100), false],
    ['other lines, another tag', padded('others0', 1, 100), false],
    ['shorter than read', padded('mongodb', 1, 99), false],
  ];
  for (const [name, text, expected] of cases) {
    const other = path.join(dir, `${name.replaceAll(/\W+/g, '-')}.log`);
    fs.writeFileSync(other, text);
    const fd = fs.openSync(other, 'r');
    t.is(h.matchesCopy(fd, fs.fstatSync(fd).size), expected, name);
    fs.closeSync(fd);
  }
  h.close();
});
