/**
 * A file is known by its device and inode together: the same inode number on another device
 * is another file (a log volume mounted anew, an overlay's upper and lower layers), read
 * from its start, the held one drained. (A mutant that compared inodes alone survived the
 * other tests: docs/mutation.md.)
 */
import test from 'ava';
import { reconcilePath } from '../../src/index.js';

const held = { dev: 2049, ino: 131 };

test('the same inode on another device is another file: drain the held one, open this one from its start', (t) => {
  t.deepEqual(reconcilePath(held, 1, { kind: 'file', dev: 2050, ino: 131, size: 10 }, false), { kind: 'open', from: 'start', replaced: true });
});

test('the same device and inode is the held file, whatever its size', (t) => {
  for (const size of [0, 10, 1 << 30]) t.deepEqual(reconcilePath(held, 1, { kind: 'file', dev: 2049, ino: 131, size }, false), { kind: 'keep' });
});

test('another inode on the same device is another file', (t) => {
  t.deepEqual(reconcilePath(held, 1, { kind: 'file', dev: 2049, ino: 132, size: 10 }, false), { kind: 'open', from: 'start', replaced: true });
});
