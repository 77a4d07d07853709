import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { lockPathOf, lockState } from '../../src/state/state-lock.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO, tempDir } from '../_helpers/sidecar-process.js';

const execFileAsync = promisify(execFile);

/** This process's start time, as the lock keeps it (field 22 of /proc/self/stat). */
const ownStart = (): string => {
  const stat = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

const OTHER_PID = 2 ** 30; // above any pid_max: no such process

const cases: { name: string; lock: () => string | undefined; expected: 'held' | 'taken' }[] = [
  { name: 'no lock: made', lock: () => undefined, expected: 'held' },
  { name: 'a live process that started when the lock says: taken', lock: () => `${process.pid} ${ownStart()}\n`, expected: 'taken' },
  { name: "a live process's id with another start time (the id reused after a restart): stale, taken over", lock: () => `${process.pid} 1\n`, expected: 'held' },
  { name: 'a process that is gone: stale, taken over', lock: () => `${OTHER_PID} 5\n`, expected: 'held' },
  { name: 'not a lock (garbage): taken over', lock: () => 'not a pid\n', expected: 'held' },
];

for (const { name, lock, expected } of cases) {
  test(`state lock: ${name}`, (t) => {
    const state = path.join(tempDir('state-lock'), 'state');
    const text = lock();
    if (text !== undefined) fs.writeFileSync(lockPathOf(state), text);
    // The caller is another process than the test (whose id the lock may hold).
    const result = lockState(state, OTHER_PID - 1);
    t.is(result.kind, expected);
    if (result.kind === 'taken') t.is(result.pid, process.pid);
    if (result.kind === 'held') {
      t.regex(fs.readFileSync(lockPathOf(state), 'utf8'), new RegExp(`^${OTHER_PID - 1}`));
      result.release();
      t.false(fs.existsSync(lockPathOf(state)));
    }
  });
}

test('state lock: release leaves a lock another process took over since', (t) => {
  const state = path.join(tempDir('state-lock'), 'state');
  const lock = lockState(state, OTHER_PID - 1);
  if (lock.kind !== 'held') return t.fail(lock.kind);
  fs.writeFileSync(lockPathOf(state), `${process.pid} ${ownStart()}\n`);
  lock.release();
  t.true(fs.existsSync(lockPathOf(state)));
});

test('state lock: where none can be made (no such directory), none, and why', (t) => {
  const lock = lockState(path.join(tempDir('state-lock'), 'missing', 'state'));
  t.is(lock.kind, 'none');
});

// From a review: two sidecars finding one stale lock (or none) at the same instant both held it.
test('state lock: four processes at the same instant, on a stale lock or none: exactly one holds it', async (t) => {
  const module = path.join(REPO, 'dist/src/state/state-lock.js');
  for (const stale of [true, false, true, false, true]) {
    const state = path.join(tempDir('state-lock-race'), 'state');
    if (stale) fs.writeFileSync(lockPathOf(state), `${2 ** 30} 5\n`);
    const startAt = Date.now() + 600;
    // Each waits for the same instant, tries, says what it got, and lives on a moment (a holder is alive).
    const script = `import { lockState } from ${JSON.stringify(module)}; while (Date.now() < ${startAt}) {} console.log(lockState(${JSON.stringify(state)}).kind); setTimeout(() => {}, 800);`;
    const runs = Array.from({ length: 4 }, () => execFileAsync(process.execPath, ['--input-type=module', '-e', script]));
    const kinds = (await Promise.all(runs)).map((r) => r.stdout.trim()).sort();
    t.deepEqual(kinds, ['held', 'taken', 'taken', 'taken'], `stale lock: ${stale}`);
  }
});

// From a field trial: a clean stop on a volume gone read-only could not remove its lock, and the
// next run said the last one was killed. The stop now hears why (and says lock-left).
test('state lock: release tells the error when its own lock cannot be removed (a directory made immutable, as a read-only volume)', async (t) => {
  const dir = tempDir('state-lock');
  const state = path.join(dir, 'state');
  const lock = lockState(state, OTHER_PID - 1);
  if (lock.kind !== 'held') return t.fail(lock.kind);
  try {
    await execFileAsync('chattr', ['+i', dir]);
  } catch (error) {
    // Not root, or a file system without the flag: nothing to make the removal fail with.
    t.log(`skipped: chattr +i failed (${(error as Error).message.split('\n')[0]})`);
    return t.pass();
  }
  try {
    const error = lock.release();
    t.truthy(error);
    t.true(['EPERM', 'EACCES', 'EROFS'].includes(error!.code ?? ''), String(error?.code));
    t.true(fs.existsSync(lockPathOf(state)));
  } finally {
    await execFileAsync('chattr', ['-i', dir]);
  }
  t.is(lock.release(), undefined);
  t.false(fs.existsSync(lockPathOf(state)));
});
