/**
 * What the follower-scenario tests need beyond the sidecar helpers: a file created so that it
 * gets a deleted file's inode number back (ext4 hands freed numbers out again at once), a look
 * at the sidecar's descriptors in /proc, its entries decoded, and its state file read.
 */
import type { ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { checkNumbered } from './delivery.js';
import type { NumberedWriter } from './numbered-writer.js';
import { SIDECAR_BIN, SidecarProcess, followsPath, tempDir } from './sidecar-process.js';

/** The sidecar these tests run: $LOGTYPE_SIDECAR (another build's script), else this build's. */
export function sidecarBin(env: NodeJS.ProcessEnv = process.env): string {
  return env['LOGTYPE_SIDECAR'] || SIDECAR_BIN;
}

/** How long a start may take before the test gives up (a loaded machine is slow, not wrong). */
export const START_BOUND_MS = 30_000;

/** The sidecar with these arguments, killed at the test's teardown. */
export function startSidecar(t: ExecutionContext, args: readonly string[]): SidecarProcess {
  return killAtTeardown(t, new SidecarProcess(args, { bin: sidecarBin() }));
}

/** The writer's mongodb lines 1..count delivered once each, in order, whole; no other mongodb entry. */
export function assertDeliveredOnce(t: ExecutionContext, lines: readonly string[], writer: NumberedWriter, count: number): void {
  const result = checkNumbered(lines, 'mongodb', 'mongodb', count, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.outOfOrder, 0);
  t.is(result.wrongContents, 0);
}

/** A sidecar a failing test leaves running would keep the test worker alive: kill it at teardown. */
export function killAtTeardown(t: ExecutionContext, sidecar: SidecarProcess): SidecarProcess {
  t.teardown(() => {
    if (sidecar.child.exitCode === null && sidecar.child.signalCode === null) sidecar.child.kill('SIGKILL');
  });
  return sidecar;
}

/** A temp log dir holding an empty `<type>.log`, and the sidecar following it (killed at teardown). */
export async function followEmpty(
  t: ExecutionContext,
  name: string,
  type: string,
  args: readonly string[] = [],
): Promise<{ dir: string; file: string; sidecar: SidecarProcess }> {
  const dir = tempDir(name);
  const file = path.join(dir, `${type}.log`);
  fs.writeFileSync(file, '');
  const sidecar = startSidecar(t, ['--log-dir', dir, ...args]);
  // Generous: a start takes seconds when the machine runs a dozen processes on two cores.
  await sidecar.waitForDiagnostic(followsPath(file), START_BOUND_MS);
  return { dir, file, sidecar };
}

export interface Entry {
  readonly logType: string;
  readonly contents: string;
  readonly partial?: true;
}

/** Every complete output line as an entry (a line that is not JSON throws: the test fails on it). */
export function entriesOf(sidecar: SidecarProcess): Entry[] {
  return sidecar.lines().map((line) => JSON.parse(line) as Entry);
}

/** Contents of the entries of one type, pieces marked partial joined as the filter joins them. */
export function joinedContents(entries: readonly Entry[], logType: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const entry of entries) {
    if (entry.logType !== logType) continue;
    pending += entry.contents;
    if (!entry.partial) {
      lines.push(pending);
      pending = '';
    }
  }
  if (pending) lines.push(pending);
  return lines;
}

/**
 * Creates `file` (absent) so that it gets inode number `ino`, which a file deleted just before
 * had, by creating spare files beside it until one gets it. Returns true when it did; the file
 * exists either way.
 */
export function createWithInode(file: string, ino: number, tries = 200): boolean {
  const spares: string[] = [];
  let reused = false;
  for (let n = 0; n < tries && !reused; n++) {
    const spare = path.join(path.dirname(file), `.spare-${n}`);
    fs.writeFileSync(spare, '');
    if (fs.statSync(spare).ino === ino) {
      fs.renameSync(spare, file);
      reused = true;
    } else spares.push(spare);
  }
  for (const spare of spares) fs.unlinkSync(spare);
  if (!reused) fs.writeFileSync(file, '');
  return reused;
}

/** The targets of the process's open descriptors (`… (deleted)` for deleted files). */
export function openFiles(pid: number): string[] {
  return fs.readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

export interface SavedPosition {
  readonly ino: number;
  readonly position: number;
}

/** Every saved position in a state file, whatever its version (objects with `ino` and `position`). */
export function savedPositions(stateFile: string): SavedPosition[] {
  const found: SavedPosition[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (typeof record['ino'] === 'number' && typeof record['position'] === 'number') found.push({ ino: record['ino'], position: record['position'] });
      Object.values(record).forEach(walk);
    }
  };
  walk(JSON.parse(fs.readFileSync(stateFile, 'utf8')));
  return found;
}
