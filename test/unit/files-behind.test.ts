/**
 * FilesBehind's recognition of the files it holds or waits for, on real files: a waiting file
 * (past the bound on held files) has no descriptor that pins its inode, so a new file given
 * that inode once it is deleted is not it.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { FilesBehind, waitingFile } from '../../src/follow/files-behind.js';
import { HeldFile } from '../../src/follow/held-file.js';
import { birthtimeOf } from '../../src/follow/rotated-siblings.js';
import { tempDir } from '../_helpers/sidecar-process.js';

const lines = { maxLineBytes: 1 << 20, sink: (): void => undefined };

// From a field trial (stall-past-bound-silent-loss.py): 25 rotations during a stall, older
// rotated files deleted; a new rotated file took the inode of a deleted one still waiting its
// turn, was taken for it, and was never read nor said (4 or 5 files lost with no warning).
test('a waiting file is known by its inode and birth time: a new file with its inode but another birth time is not it', (t) => {
  const dir = tempDir('files-behind');
  const base = path.join(dir, 'mongodb.log');
  const held = `${base}.1`;
  const waiting = `${base}.2`;
  fs.writeFileSync(held, 'held\n');
  fs.writeFileSync(waiting, 'waiting\n');
  // Written again a moment later, as a log is: its ctime moves on from its birth time (a birth
  // time equal to the ctime is taken for a file system's stand-in, unknown).
  for (const until = Date.now() + 20; Date.now() < until; );
  fs.appendFileSync(waiting, 'more\n');
  const behind = new FilesBehind({
    path: base,
    rotateWaitMs: 1000,
    maxBehind: 1,
    onEvent: () => undefined,
    onGone: () => undefined,
    open: (file, now) => HeldFile.open(file.name, file.role, file.position, now, lines),
  });
  t.true(behind.hold(waitingFile(held, fs.statSync(held), 'rotated', 0), 0));
  const stat = fs.statSync(waiting);
  t.true(behind.hold(waitingFile(waiting, stat, 'rotated', 0), 0));
  t.is(behind.files.length, 1, 'the second waits: the bound is one held file');
  t.true(behind.knows(waiting, stat));
  if (birthtimeOf(stat) === 0) {
    t.pass('this file system keeps no birth time: only the inode can tell');
  } else {
    // What a reused inode looks like: the same device and inode, born later.
    const reused = Object.assign(Object.create(Object.getPrototypeOf(stat) as object) as fs.Stats, stat, { birthtimeMs: stat.birthtimeMs + 5000 });
    t.false(behind.knows(`${base}.3`, reused));
  }
  behind.close();
});
