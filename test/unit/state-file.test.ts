import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../src/diag/logger.js';
import { Checkpointer } from '../../src/state/checkpointer.js';
import { loadState, parseState, saveState, seenUntil, type SidecarState } from '../../src/state/state-file.js';
import { tempDir } from '../_helpers/sidecar-process.js';

const file = { dev: 1, ino: 2, position: 30, fingerprint: '0123456789abcdef', fingerprintBytes: 30 };

test('a version 1 state loads as version 2: positions kept, saved at the file\'s mtime', (t) => {
  const loaded = parseState({ version: 1, files: { '/l/mongodb.log': [file] } }, 1234);
  t.deepEqual(loaded, { kind: 'loaded', state: { version: 2, savedAt: 1234, files: { '/l/mongodb.log': [file] } }, upgradedFrom: 1 });
});

test('a version 2 state loads with its fields', (t) => {
  const v2 = { ...file, tailHash: 'fedcba9876543210', birthtimeMs: 1795000000000.5, midLine: true, retired: false };
  const loaded = parseState({ version: 2, savedAt: 99, files: { '/l/x.log': [v2] } }, 1234);
  t.deepEqual(loaded, { kind: 'loaded', state: { version: 2, savedAt: 99, files: { '/l/x.log': [v2] } } });
});

test('a version 2 state keeps its past files (not ours, changed near the save); a malformed past is left out, the positions kept', (t) => {
  const past = { '/l/x.log': [{ ino: 7, mtimeMs: 98.5 }] };
  t.deepEqual(parseState({ version: 2, savedAt: 99, files: { '/l/x.log': [file] }, past }, 0), {
    kind: 'loaded',
    state: { version: 2, savedAt: 99, files: { '/l/x.log': [file] }, past },
  });
  for (const malformed of [3, { '/l/x.log': [{ ino: 'x', mtimeMs: 1 }] }, { '/l/x.log': {} }]) {
    t.deepEqual(parseState({ version: 2, savedAt: 99, files: { '/l/x.log': [file] }, past: malformed }, 0), {
      kind: 'loaded',
      state: { version: 2, savedAt: 99, files: { '/l/x.log': [file] } },
    });
  }
});

const bad: [string, unknown][] = [
  ['not an object', 3],
  ['another version', { version: 3, files: {} }],
  ['a position that is not a number', { version: 2, savedAt: 1, files: { x: [{ ...file, position: 'x' }] } }],
  ['a negative inode', { version: 1, files: { x: [{ ...file, ino: -1 }] } }],
  ['a tail that is not a string', { version: 2, savedAt: 1, files: { x: [{ ...file, tailHash: 5 }] } }],
];
for (const [name, value] of bad) {
  test(`not a state file: ${name}`, (t) => {
    t.is(parseState(value, 0).kind, 'unreadable');
  });
}

test('saved atomically; no temp file left when the rename fails (a directory in the way)', (t) => {
  const dir = tempDir('state-unit');
  const state: SidecarState = { version: 2, savedAt: 5, files: { '/l/m.log': [file] } };
  const good = path.join(dir, 'state');
  saveState(good, state);
  t.deepEqual(loadState(good), { kind: 'loaded', state });
  const blocked = path.join(dir, 'blocked');
  fs.mkdirSync(blocked);
  t.throws(() => saveState(blocked, state));
  t.deepEqual(fs.readdirSync(dir).sort(), ['blocked', 'state']);
  t.is(loadState(path.join(dir, 'none')).kind, 'none');
});

test('a version 2 state keeps each path\'s last look (seenUntil); a path without one, or a malformed field, falls back to savedAt', (t) => {
  const lookedAt = { '/l/x.log': 90, '/l/y.log': 95.5 };
  const loaded = parseState({ version: 2, savedAt: 99, files: { '/l/x.log': [file] }, lookedAt }, 0);
  t.deepEqual(loaded, { kind: 'loaded', state: { version: 2, savedAt: 99, files: { '/l/x.log': [file] }, lookedAt } });
  if (loaded.kind !== 'loaded') return;
  t.is(seenUntil(loaded.state, '/l/x.log'), 90);
  t.is(seenUntil(loaded.state, '/l/z.log'), 99);
  for (const malformed of [3, { '/l/x.log': 'soon' }, { '/l/x.log': Number.NaN }]) {
    const without = parseState({ version: 2, savedAt: 99, files: {}, lookedAt: malformed }, 0);
    t.deepEqual(without, { kind: 'loaded', state: { version: 2, savedAt: 99, files: {} } });
  }
});

// From a field trial (rotation-in-stop-window.py) and, for the per-path time, a run on Node 24
// of the 2,000-rotated-files scenario: one save time for every path took the oldest look of all,
// older than where a busier path had let its list of others' files go, and a restart read 343
// of those old files.
test('a save keeps each path\'s own last look; a path not looked at yet keeps the loaded one', (t) => {
  const stateFile = path.join(tempDir('checkpointer'), 'st.json');
  const loaded: SidecarState = { version: 2, savedAt: 1000, files: { '/l/quiet.log': [file] }, lookedAt: { '/l/quiet.log': 900 } };
  const sources = [
    { path: '/l/busy.log', lookedAt: 5000, savedFiles: () => [], pastFiles: () => [] },
    { path: '/l/quiet.log', lookedAt: undefined, savedFiles: () => undefined, pastFiles: () => [] },
  ];
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
  const checkpointer = new Checkpointer(stateFile, quiet, () => sources, loaded);
  checkpointer.save(true);
  const saved = loadState(stateFile);
  if (saved.kind !== 'loaded') return t.fail(saved.kind);
  t.deepEqual(saved.state.lookedAt, { '/l/busy.log': 5000, '/l/quiet.log': 900 });
  t.deepEqual(saved.state.files['/l/quiet.log'], [file], 'the path not looked at keeps its files');
  t.true(saved.state.savedAt >= 5000);
  checkpointer.close();
});

// From a platform trial: a later version's state file (a downgrade) read as "not ours".
test('a state file of a later version says it was written by a newer sidecar; its time still stands', (t) => {
  const loaded = parseState({ version: 99, savedAt: 5, files: {} }, 1234);
  t.like(loaded, { kind: 'unreadable' });
  t.regex((loaded as { reason: string }).reason, /version 99, written by a newer logtype-sidecar than this one \(version 2\): a downgrade/);
  const dir = tempDir('state-v99');
  const file = path.join(dir, 'state.json');
  fs.writeFileSync(file, JSON.stringify({ version: 99, savedAt: 5, files: {} }));
  t.is(typeof (loadState(file) as { writtenAt?: number }).writtenAt, 'number');
  // Not a state file at all: said so.
  t.like(parseState({ hello: 1 }, 0), { kind: 'unreadable', reason: 'not a logtype-sidecar state file' });
  // From a field trial: files as an array (hand-edited) was taken for a state knowing no file, in silence.
  t.like(parseState({ version: 2, savedAt: 5, files: [] }, 0), { kind: 'unreadable', reason: 'not a logtype-sidecar state file' });
});
