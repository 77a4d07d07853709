import test from 'ava';
import { compareBirthtimes, continuationOf, unseenSiblings, MTIME_SLACK_MS, type Comparison, type Continuation } from '../../src/follow/identity.js';

const same: Comparison = { sameInode: true, birthtime: 'same', longEnough: true, fingerprintMatches: true, tailMatches: true };

const cases: { name: string; position?: number; comparison: Partial<Comparison>; expected: Continuation }[] = [
  { name: 'same inode, same bytes: resume', comparison: {}, expected: 'resume' },
  { name: 'another device, same inode and bytes (a volume attached elsewhere): resume', comparison: {}, expected: 'resume' },
  { name: 'birth times unknown (the file system keeps none): the bytes decide', comparison: { birthtime: 'unknown' }, expected: 'resume' },
  { name: 'a version 1 save (no tail): inode and first KiB decide', comparison: { tailMatches: undefined }, expected: 'resume' },
  { name: 'reused inode, another birth time: a new file', comparison: { birthtime: 'differs' }, expected: 'other' },
  { name: 'reused inode, same first KiB, other bytes before the position: a new file', comparison: { tailMatches: false }, expected: 'other' },
  { name: 'reused inode, shorter than the position: a new file (or truncated: read from 0)', comparison: { longEnough: false }, expected: 'other' },
  { name: 'same inode, other first KiB: a new file', comparison: { fingerprintMatches: false }, expected: 'other' },
  { name: 'another inode with the same bytes up to the position: copytruncate\'s copy', comparison: { sameInode: false, birthtime: 'differs' }, expected: 'copy' },
  { name: 'another inode, no tail saved: a copy cannot be proved', comparison: { sameInode: false, tailMatches: undefined }, expected: 'other' },
  { name: 'another inode, other bytes before the position: not a copy', comparison: { sameInode: false, tailMatches: false }, expected: 'other' },
  { name: 'another inode, saved at 0: nothing to continue', position: 0, comparison: { sameInode: false }, expected: 'other' },
  { name: 'a copy shorter than the position: not it', comparison: { sameInode: false, longEnough: false }, expected: 'other' },
];

for (const c of cases) {
  test(`identity: ${c.name}`, (t) => {
    t.is(continuationOf(c.position ?? 100, { ...same, ...c.comparison }), c.expected);
  });
}

test('birth times: 0 or missing is unknown', (t) => {
  t.is(compareBirthtimes(undefined, 5), 'unknown');
  t.is(compareBirthtimes(5, 0), 'unknown');
  t.is(compareBirthtimes(5, 5), 'same');
  t.is(compareBirthtimes(5, 6), 'differs');
});

test('unseen rotated files: not known, changed since the last look (with clock slack), oldest first', (t) => {
  const since = 10_000;
  const siblings = [
    { name: 'f.3', mtimeMs: 2_000, known: false }, // rotated long before: read then
    { name: 'f.2', mtimeMs: 12_000, known: false },
    { name: 'f.1', mtimeMs: 11_000, known: false },
    { name: 'f.held', mtimeMs: 13_000, known: true },
    { name: 'f.edge', mtimeMs: since - MTIME_SLACK_MS, known: false }, // the kernel's coarse clock
  ];
  t.deepEqual(unseenSiblings(siblings, since).map((s) => s.name), ['f.edge', 'f.1', 'f.2']);
});
