/**
 * A file of ours recognised by identity and first bytes (resume.ts: knownFile, isKnown), on real
 * files: also when a rotation renamed it between the directory's listing and the check, and the
 * name it was listed at now holds another file (soak seed 1740521276: a copytruncate copy, read
 * and retired, listed as `.1` just as the next rotation shifted it to `.2`, was taken for a file
 * nobody had read, and its 78 lines were sent again).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { isKnown, knownFile } from '../../src/follow/resume.js';
import { tailHashOf } from '../../src/follow/fingerprint.js';
import { tempDir } from '../_helpers/sidecar-process.js';

function copyAndListing(): { dir: string; name: string; listed: fs.Stats; known: NonNullable<ReturnType<typeof knownFile>> } {
  const dir = tempDir('known-file');
  const name = path.join(dir, 'mongodb.log.1');
  fs.writeFileSync(name, 'the copy: lines already delivered\n'.repeat(100));
  const listed = fs.statSync(name);
  const known = knownFile(name, listed, () => true);
  if (!known) throw new Error('knownFile gave nothing');
  return { dir, name, listed, known };
}

test('a known file is known at its name', (t) => {
  const { name, listed, known } = copyAndListing();
  t.true(isKnown(known, name, listed));
});

test('a known file renamed after the listing, another file now at the name it was listed at: still known, by its identity', (t) => {
  const { dir, name, listed, known } = copyAndListing();
  fs.renameSync(name, path.join(dir, 'mongodb.log.2'));
  fs.writeFileSync(name, 'the file rotated in after it: other bytes\n'.repeat(100));
  t.true(isKnown(known, name, listed));
});

test('the name now holds another file and ours is gone: not known (nothing of it is left to read)', (t) => {
  const { name, listed, known } = copyAndListing();
  fs.unlinkSync(name);
  fs.writeFileSync(name, 'another file\n'.repeat(100));
  t.false(isKnown(known, name, listed));
});

test('the same inode with other first bytes (reused): not known', (t) => {
  const { name, listed, known } = copyAndListing();
  const fd = fs.openSync(name, 'r+');
  fs.writeSync(fd, 'X', 0);
  fs.closeSync(fd);
  t.false(isKnown(known, name, fs.statSync(name)));
  t.truthy(listed);
});

// Soak seed 585793691: a retired `.1` whose first KiB was a banner, copied over in place by a file
// beginning with the same banner (`cp f f.1`: same inode, same birth, no shorter, same first KiB),
// was taken for the retired file: the copy was never read, and 621 lines only it held were lost.
test('a retired file copied over in place by a file with the same first KiB: not known, told by the bytes before where it was read to', (t) => {
  const dir = tempDir('known-banner');
  const name = path.join(dir, 'mongodb.log.1');
  const banner = `${'B'.repeat(1100)}\n`;
  fs.writeFileSync(name, `${banner}${'old line\n'.repeat(50)}`);
  const retired = knownFile(name, fs.statSync(name), () => true)!;
  // As a file retired after its read keeps it (HeldFile.savedFile): the hash of the bytes before its position.
  const fd = fs.openSync(name, 'r');
  const known = { ...retired, saved: { ...retired.saved, tailHash: tailHashOf(fd, retired.saved.position) } };
  fs.closeSync(fd);
  t.true(isKnown(known, name, fs.statSync(name)), 'itself, unchanged');
  fs.writeFileSync(name, `${banner}${'new line, not read\n'.repeat(50)}`);
  const stat = fs.statSync(name);
  t.is(stat.ino, retired.ino);
  t.false(isKnown(known, name, stat));
});

// Soak seed 1749087035: a rotated file held unread during a stall was looked at just as a copy
// made over it (`cp f f.1`) had emptied it; it was taken for drained at 0 bytes and retired, and
// the 855 KB the copy then wrote into the same inode were never read (4,292 lines lost).
test('a file retired read to its end at 0 bytes (empty then): once it holds bytes it is not known; one given up unread at 0 stays known', (t) => {
  const dir = tempDir('known-empty');
  const name = path.join(dir, 'mongodb.log.1');
  fs.writeFileSync(name, '');
  const found = knownFile(name, fs.statSync(name), () => true);
  if (!found) throw new Error('knownFile gave nothing');
  const empty = { ...found, saved: { ...found.saved, readToEnd: true } };
  const givenUp = { ...found, saved: { ...found.saved } };
  t.true(isKnown(empty, name, fs.statSync(name)), 'still empty: known');
  fs.writeFileSync(name, 'lines nobody read\n'.repeat(10));
  t.false(isKnown(empty, name, fs.statSync(name)));
  t.true(isKnown(givenUp, name, fs.statSync(name)), 'given up at 0: known, never read again');
});
