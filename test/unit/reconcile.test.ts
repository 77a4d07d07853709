import test from 'ava';
import { drainIsOver, isTruncated, reconcilePath, type PathAction, type PathState, type TruncationFacts } from '../../src/follow/reconcile.js';

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
  { name: 'permission denied: said, not followed', path: { kind: 'denied', what: 'EACCES' }, expected: { kind: 'unreadable', what: 'EACCES' } },
];

for (const c of cases) {
  test(c.name, (t) => {
    t.deepEqual(reconcilePath(c.held, c.links ?? 1, c.path, c.first ?? false), c.expected);
  });
}

const facts = (position: number, size: number, more: Partial<TruncationFacts> = {}): TruncationFacts => ({
  position,
  seenSize: position,
  size,
  markerMatches: true,
  seenMarkerMatches: true,
  ...more,
});

const truncations: { name: string; facts: TruncationFacts; expected: boolean }[] = [
  { name: 'shorter than what was read', facts: facts(100, 50), expected: true },
  { name: 'the bytes before the position changed (truncated and regrown)', facts: facts(100, 150, { markerMatches: false }), expected: true },
  { name: 'grown, same bytes: not truncated', facts: facts(100, 150), expected: false },
  { name: 'unchanged', facts: facts(100, 100), expected: false },
  { name: 'shorter than what was seen while reading waited', facts: facts(0, 80, { seenSize: 200 }), expected: true },
  { name: 'the bytes before the seen size changed', facts: facts(0, 300, { seenSize: 200, seenMarkerMatches: false }), expected: true },
  { name: 'grown past what was seen, same bytes', facts: facts(0, 300, { seenSize: 200 }), expected: false },
];
for (const c of truncations) {
  test(`truncation: ${c.name}`, (t) => {
    t.is(isTruncated(c.facts), c.expected);
  });
}

test('a drain ends only at the end of the file, after the grace period, once its lines left', (t) => {
  t.true(drainIsOver(true, 5000, 5000));
  t.false(drainIsOver(true, 4999, 5000));
  t.false(drainIsOver(false, 9999, 5000));
  t.false(drainIsOver(true, 9999, 5000, false));
  t.true(drainIsOver(true, 9999, 5000, true));
});
