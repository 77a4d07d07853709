import type { Stats } from 'node:fs';
import test from 'ava';
import { movedPaths } from '../../src/state/moved-paths.js';
import type { SavedFile, SidecarState } from '../../src/state/state-file.js';

const saved = (ino: number, position: number, retired = false): SavedFile => ({ dev: 1, ino, position, fingerprint: 'f', fingerprintBytes: 10, ...(retired ? { retired } : {}) });
const file = (ino: number, size: number): Stats => ({ ino, size, isFile: () => true }) as Stats;
const state = (files: Record<string, SavedFile[]>): SidecarState => ({ version: 2, savedAt: 0, files });

const cases: { name: string; files: Record<string, SavedFile[]>; followed: string[]; disk: Record<string, Stats>; expected: [string, string][] }[] = [
  {
    name: 'a log directory renamed: each file found by its inode under its old path',
    files: { '/old/mongodb.log': [saved(11, 100)], '/old/backup-agent.log': [saved(12, 50)] },
    followed: ['/new/mongodb.log', '/new/backup-agent.log'],
    disk: { '/new/mongodb.log': file(11, 120), '/new/backup-agent.log': file(12, 50) },
    expected: [['/new/mongodb.log', '/old/mongodb.log'], ['/new/backup-agent.log', '/old/backup-agent.log']],
  },
  { name: 'a path the state knows: not moved', files: { '/a/mongodb.log': [saved(11, 100)] }, followed: ['/a/mongodb.log'], disk: { '/a/mongodb.log': file(11, 120) }, expected: [] },
  { name: 'another inode: another file, nothing resumed', files: { '/old/mongodb.log': [saved(11, 100)] }, followed: ['/new/mongodb.log'], disk: { '/new/mongodb.log': file(99, 120) }, expected: [] },
  { name: 'shorter than the delivered position: not that file as saved', files: { '/old/mongodb.log': [saved(11, 100)] }, followed: ['/new/mongodb.log'], disk: { '/new/mongodb.log': file(11, 10) }, expected: [] },
  { name: 'an old path still followed is not taken from its own path', files: { '/a/x.log': [saved(11, 100)] }, followed: ['/a/x.log', '/b/x.log'], disk: { '/a/x.log': file(11, 100), '/b/x.log': file(11, 100) }, expected: [] },
  { name: 'a retired current file is not resumed', files: { '/old/mongodb.log': [saved(11, 100, true)] }, followed: ['/new/mongodb.log'], disk: { '/new/mongodb.log': file(11, 120) }, expected: [] },
  { name: 'nothing at the new path yet', files: { '/old/mongodb.log': [saved(11, 100)] }, followed: ['/new/mongodb.log'], disk: {}, expected: [] },
];

for (const { name, files, followed, disk, expected } of cases) {
  test(`moved paths: ${name}`, (t) => {
    t.deepEqual([...movedPaths(state(files), followed, (p) => disk[p])], expected);
  });
}
