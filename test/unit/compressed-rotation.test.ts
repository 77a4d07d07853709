import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { compressedVerdict, lookIntoGzip, type KnownHead } from '../../src/follow/compressed-rotation.js';
import { FINGERPRINT_BYTES, fingerprintOfBytes } from '../../src/follow/fingerprint.js';

const text = (tag: string, lines: number): Buffer => Buffer.from(Array.from({ length: lines }, (_, i) => `{"t":{"$date":"2026-11-28T04:00:00Z"},"s":"I","msg":"${tag} line ${i + 1}"}\n`).join(''));
const headOf = (bytes: Buffer, readTo: number, length = FINGERPRINT_BYTES): KnownHead => ({ ...fingerprintOfBytes(bytes, length), readTo });
const look = (bytes: Buffer, sizeKnown = true): { head: Buffer; size: number; sizeKnown: boolean } => ({ head: bytes.subarray(0, FINGERPRINT_BYTES), size: bytes.length, sizeKnown });

const a = text('a', 100);
const b = text('b', 100);
const small = text('small', 2);

const cases: { name: string; file: Buffer; known: KnownHead[]; expected: ReturnType<typeof compressedVerdict> }[] = [
  { name: 'no file known: every byte unread', file: a, known: [], expected: { kind: 'unread', bytes: a.length } },
  { name: 'a file held (read through its descriptor): read', file: a, known: [headOf(a, Infinity)], expected: { kind: 'read' } },
  { name: 'a file read and closed at its size: read', file: a, known: [headOf(b, Infinity), headOf(a, a.length)], expected: { kind: 'read' } },
  { name: 'read and closed, written past that before the compression: the rest', file: a, known: [headOf(a, a.length - 300)], expected: { kind: 'rest', bytes: 300 } },
  { name: 'another file starting otherwise: unread', file: b, known: [headOf(a, Infinity)], expected: { kind: 'unread', bytes: b.length } },
  { name: 'a file known while it was short (its first 200 bytes hashed): read', file: a, known: [headOf(a, Infinity, 200)], expected: { kind: 'read' } },
  { name: 'a file shorter than the head known: not that file', file: small, known: [headOf(a, Infinity)], expected: { kind: 'unread', bytes: small.length } },
  { name: 'an empty head known tells nothing', file: a, known: [{ ...fingerprintOfBytes(a, 0), readTo: Infinity }], expected: { kind: 'unread', bytes: a.length } },
  { name: 'read to past 4 GiB: the size, modulo 2^32, is not compared', file: a, known: [headOf(a, 2 ** 32 + 10)], expected: { kind: 'read' } },
  { name: 'the same first KiB (a long banner), no larger than a file read: taken for it (a warning missed, never a false one)', file: Buffer.concat([a.subarray(0, 1500), b]), known: [headOf(a, Infinity)], expected: { kind: 'read' } },
];

for (const c of cases) {
  test(`compressed verdict: ${c.name}`, (t) => {
    t.deepEqual(compressedVerdict(look(c.file), c.known), c.expected);
  });
}

test('compressed verdict: a size that may have wrapped at 4 GiB (a compressed file of 4 MiB or more) is not compared: a file known is read', (t) => {
  t.deepEqual(compressedVerdict(look(a, false), [headOf(a, 10)]), { kind: 'read' });
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-compressed-rotation-'));
test.after.always(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a look into gzip: the first KiB unpacked from a few KiB read, and the size from the trailer', (t) => {
  const big = Buffer.concat(Array.from({ length: 200 }, (_, i) => text(`big${i}`, 50)));
  const file = path.join(dir, 'big.log.1.gz');
  fs.writeFileSync(file, zlib.gzipSync(big));
  const found = lookIntoGzip(file, FINGERPRINT_BYTES);
  t.deepEqual(found?.head, big.subarray(0, FINGERPRINT_BYTES));
  t.is(found?.size, big.length);
  t.true(found?.sizeKnown);
});

test('a look into gzip: a file smaller than a KiB whole; a high ratio (zeros) still bounded', (t) => {
  const file = path.join(dir, 'small.log.1.gz');
  fs.writeFileSync(file, zlib.gzipSync(small));
  t.deepEqual(lookIntoGzip(file, FINGERPRINT_BYTES), { head: small, size: small.length, sizeKnown: true });
  const zeros = path.join(dir, 'zeros.log.1.gz');
  fs.writeFileSync(zeros, zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024)));
  t.deepEqual(lookIntoGzip(zeros, FINGERPRINT_BYTES), { head: Buffer.alloc(FINGERPRINT_BYTES), size: 20 * 1024 * 1024, sizeKnown: true });
});

test('a look into what is not gzip, or not whole at its start: nothing', (t) => {
  const plain = path.join(dir, 'plain.log.1.gz');
  fs.writeFileSync(plain, a);
  t.is(lookIntoGzip(plain, FINGERPRINT_BYTES), undefined);
  const cut = path.join(dir, 'cut.log.1.gz');
  fs.writeFileSync(cut, zlib.gzipSync(a).subarray(0, 12));
  t.is(lookIntoGzip(cut, FINGERPRINT_BYTES), undefined, 'too short to be a gzip file');
  const garbled = path.join(dir, 'garbled.log.1.gz');
  const bytes = zlib.gzipSync(a);
  bytes.fill(0xff, 10, 40);
  fs.writeFileSync(garbled, bytes);
  t.is(lookIntoGzip(garbled, FINGERPRINT_BYTES), undefined);
  t.is(lookIntoGzip(path.join(dir, 'none.gz'), FINGERPRINT_BYTES), undefined);
});
