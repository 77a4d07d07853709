import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { compressionOf, mayStartCompression, otherCompression } from '../../src/read/other-compression.js';
import { REPO } from '../_helpers/sidecar-process.js';

const COMPRESSED = path.join(REPO, 'test/fixtures/compressed');

/** Files the real tools wrote (test/fixtures/compressed/SOURCES.md). */
const FILES: [file: string, name: string, command: string][] = [
  ['mongodb.log.xz', 'xz', 'xz -dc'],
  ['mongodb.log.bz2', 'bzip2', 'bzip2 -dc'],
  ['mongodb.log.zst', 'zstd', 'zstd -dc'],
  ['mongodb.log.lz4', 'lz4', 'lz4 -dc'],
];

for (const [file, name, command] of FILES) {
  test(`other compression: ${file} is ${name}, read by ${command}`, (t) => {
    t.deepEqual(otherCompression(fs.readFileSync(path.join(COMPRESSED, file))), { name, command });
  });
}

/** UTF-16 text as iconv writes it: with a byte order mark, or without one in either byte order. */
const ENTRY = '{"logType":"mongodb","contents":"x"}\n';
const AGENT = '[2026-11-22T10:00:00.000+0000] [.info] [a.go:1] [10:00:00.000] x\n';
const UTF16: [title: string, bytes: Buffer, command: string][] = [
  ['with a byte order mark (little-endian)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ENTRY, 'utf16le')]), 'iconv -f UTF-16 -t UTF-8'],
  ['with a byte order mark (big-endian)', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(ENTRY, 'utf16le').swap16()]), 'iconv -f UTF-16 -t UTF-8'],
  ['an entry, little-endian, no mark', Buffer.from(ENTRY, 'utf16le'), 'iconv -f UTF-16LE -t UTF-8'],
  ['an agent line, little-endian, no mark', Buffer.from(AGENT, 'utf16le'), 'iconv -f UTF-16LE -t UTF-8'],
  ['an entry, big-endian, no mark', Buffer.from(ENTRY, 'utf16le').swap16(), 'iconv -f UTF-16BE -t UTF-8'],
  ['a text server line (before 4.4), little-endian, no mark', Buffer.from('2020-03-12T00:00:01.935+0000 I  CONTROL  [main] x\n', 'utf16le'), 'iconv -f UTF-16LE -t UTF-8'],
];

for (const [title, bytes, command] of UTF16) {
  test(`other compression: UTF-16 text ${title}, read by ${command}`, (t) => {
    t.deepEqual(otherCompression(bytes), { name: 'UTF-16 text', command, encoding: true });
  });
}

const NOT: [title: string, bytes: Buffer][] = [
  ['gzip (logtype reads it)', gzipSync('a line\n')],
  ['an entry', Buffer.from('{"logType":"mongodb","contents":"x"}\n')],
  ['a text line that starts as bzip2 does', Buffer.from('BZh91 is a word, not a block\n')],
  ['the first bytes of xz, cut short', Buffer.from([0xfd, 0x37, 0x7a])],
  ['nothing', Buffer.alloc(0)],
];

for (const [title, bytes] of NOT) {
  test(`other compression: not for ${title}`, (t) => {
    t.is(otherCompression(bytes), undefined);
  });
}

const STARTS: [title: string, bytes: number[], expected: boolean][] = [
  ["xz's first 3 bytes", [0xfd, 0x37, 0x7a], true],
  ["bzip2's first 2 bytes ('BZ')", [0x42, 0x5a], true],
  ["bzip2's first 4 bytes ('BZh9')", [0x42, 0x5a, 0x68, 0x39], true],
  ["zstd's whole magic: told already, not only begun", [0x28, 0xb5, 0x2f, 0xfd], false],
  ['text', [0x7b, 0x22], false],
  ['nothing', [], false],
];

for (const [title, bytes, expected] of STARTS) {
  test(`may start a compression: ${title}`, (t) => {
    t.is(mayStartCompression(Buffer.from(bytes)), expected);
  });
}

test('any compression, gzip too (what the sidecar does not follow): gzip by its magic, the others as above, text none', (t) => {
  t.deepEqual(compressionOf(gzipSync('a line\n')), { name: 'gzip', command: 'gzip -dc' });
  t.deepEqual(compressionOf(fs.readFileSync(path.join(REPO, 'test/fixtures/real/mongod-replica-rs1.log.gz')).subarray(0, 10)), { name: 'gzip', command: 'gzip -dc' });
  for (const [file, name, command] of FILES) t.deepEqual(compressionOf(fs.readFileSync(path.join(COMPRESSED, file)).subarray(0, 10)), { name, command });
  for (const text of ['{"t":{"$date":"2026-11-22T10:00:00.000+00:00"}}\n', '[2026-11-22T10:00:00.123+0000] [.info] x\n', '\x1f', '']) t.is(compressionOf(Buffer.from(text)), undefined, JSON.stringify(text));
});
