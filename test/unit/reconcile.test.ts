import test from 'ava';
import { drainIsOver, isTruncated, reconcilePath, type PathAction, type PathState } from '../../src/follow/reconcile.js';

const held = { dev: 1, ino: 10 };
const same: PathState = { kind: 'file', dev: 1, ino: 10, size: 100 };
const other: PathState = { kind: 'file', dev: 1, ino: 11, size: 0 };
const missing: PathState = { kind: 'missing' };

const cases: { name: string; held?: typeof held; links?: number; path: PathState; first?: boolean; expected: PathAction }[] = [
  { name: 'same file: keep reading', held, path: same, expected: { kind: 'keep' } },
  { name: 'waiting, still missing', path: missing, expected: { kind: 'keep' } },
  { name: 'renamed away: drain, wait for the name', held, links: 1, path: missing, expected: { kind: 'lost', unlinked: false } },
  { name: 'deleted: drain, wait for the name', held, links: 0, path: missing, expected: { kind: 'lost', unlinked: true } },
  { name: 'rotated: drain, open the new file from its start', held, path: other, expected: { kind: 'open', from: 'start', replaced: true } },
  { name: 'appeared after start: from its start', path: other, expected: { kind: 'open', from: 'start', replaced: false } },
  { name: 'there at start: from its end', path: same, first: true, expected: { kind: 'open', from: 'end', replaced: false } },
  { name: 'a named pipe is not followed as a file', held, path: { kind: 'other', what: 'a named pipe' }, expected: { kind: 'unreadable', what: 'a named pipe' } },
];

for (const c of cases) {
  test(c.name, (t) => {
    t.deepEqual(reconcilePath(c.held, c.links ?? 1, c.path, c.first ?? false), c.expected);
  });
}

test('truncation: shorter than the position, or the bytes before it changed', (t) => {
  t.true(isTruncated(100, 50, true));
  t.true(isTruncated(100, 150, false));
  t.false(isTruncated(100, 150, true));
  t.false(isTruncated(100, 100, true));
});

test('a drain ends only at the end of the file and after the grace period', (t) => {
  t.true(drainIsOver(true, 5000, 5000));
  t.false(drainIsOver(true, 4999, 5000));
  t.false(drainIsOver(false, 9999, 5000));
});
