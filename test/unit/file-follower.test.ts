/**
 * FileFollower's look and save windows, driven turn by turn on real files (no process, no timer).
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { FileFollower, type FollowEvent } from '../../src/follow/file-follower.js';
import { tempDir } from '../_helpers/sidecar-process.js';

/** A follower of `file` from its start, every line taken as delivered, its events to `onEvent`; driven by hand. */
const followerOf = (file: string, onEvent: (event: FollowEvent) => void): FileFollower =>
  new FileFollower({
    path: file,
    maxLineBytes: 1 << 20,
    rotateWaitMs: 60_000,
    fromStart: true,
    sink: (_bytes, _start, end, _partial, _fileEnd, checkpoint) => void (checkpoint.delivered = end),
    onEvent,
  });

// From a review: a rotated file let go as rewritten is out of the held files until the next
// listing holds it again; a save in the turn between kept neither it nor a look time before its
// change, so a restart after a SIGKILL then took it for the past and never read it.
test('after a rotated file is let go as rewritten, the look time a save keeps is no later than its change, until the next listing', (t) => {
  const dir = tempDir('follower-let-go');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, 'first line\n'.repeat(100));
  const events: string[] = [];
  const follower = followerOf(file, (event) => void events.push(event.kind));
  let now = Date.now();
  follower.observe(now);
  follower.read(now, 1 << 20);
  fs.renameSync(file, `${file}.1`);
  fs.writeFileSync(file, 'second line\n');
  follower.observe((now += 100));
  follower.read(now, 1 << 20);
  t.deepEqual(events.filter((e) => e !== 'opened'), ['rotated']);
  // Rewritten shorter with other lines: let go at the read.
  fs.writeFileSync(`${file}.1`, 'other line\n');
  const changed = fs.statSync(`${file}.1`).mtimeMs;
  follower.read((now += 100), 1 << 20);
  t.true(events.includes('truncated'));
  t.true(follower.lookedAt! <= changed, `looked at ${follower.lookedAt}, changed at ${changed}`);
  follower.observe((now += 100));
  t.true(follower.lookedAt! >= now - 1, 'the listing held it again: the look time moves on');
  follower.close();
});

// From a field trial: a copytruncate while reading waited was told at a wait (noteSeen), its copy
// read on from where it was; a second wait in the turn took the size looked at before the cut
// for the new file's, and said a second truncation with the whole old file "lost".
test('a truncation told while reading waits: once, its copy found, and no loss said at the next wait', (t) => {
  const dir = tempDir('follower-cut-at-wait');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, 'a line of the file before the cut\n'.repeat(3000));
  const events: { kind: string; copy?: string; lostBytes?: number }[] = [];
  const follower = followerOf(file, (event) => void events.push({ kind: event.kind, ...('copy' in event && event.copy !== undefined ? { copy: event.copy } : {}), ...('lostBytes' in event && event.lostBytes !== undefined ? { lostBytes: event.lostBytes } : {}) }));
  let now = Date.now();
  follower.observe(now);
  follower.read(now, 4096); // the output fills: reading waits
  follower.observe((now += 100)); // the size looked at: the whole file
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, 'a line after the cut\n');
  follower.noteSeen((now += 100));
  follower.noteSeen((now += 100));
  follower.observe((now += 100));
  follower.noteSeen((now += 100));
  follower.observe((now += 100));
  t.deepEqual(events.filter((e) => e.kind === 'truncated'), [{ kind: 'truncated', copy: `${file}.1` }]);
  follower.close();
});
