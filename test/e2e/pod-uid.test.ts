/**
 * The database pod's file permissions, for real: mongod runs as uid 2000 with a umask that
 * leaves its log files 0600, and the pod's fsGroup 2000 owns the log volume. The sidecar run as
 * the pod's user reads them; run as any other uid (here 1000, in group 2000 as fsGroup would
 * put it) it cannot, and must say so with the fix, not keep a fresh heartbeat and ship nothing.
 * Changing uid takes root and setpriv (test/_helpers/other-users.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SidecarProcess, cleanEnv, followsPath, tempDir, waitUntil, waitsForPath } from '../_helpers/sidecar-process.js';
import { POD_UID, asUser, testAsOtherUsers } from '../_helpers/other-users.js';
import { sleep } from '../_helpers/numbered-writer.js';

const OTHER_UID = 1000;

/** Writes as mongod does: as the pod's user, with group and others masked off. */
function writeAsMongod(setpriv: string, file: string, text: string): void {
  const run = spawnSync(setpriv, [...asUser(setpriv, POD_UID).prefix, 'sh', '-c', 'umask 077; printf "%s" "$1" >> "$2"', 'sh', text, file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`cannot write as uid ${POD_UID}: ${run.stderr}`);
}

/** A log directory as the pod mounts it: owned by fsGroup 2000, setgid, group-writable. */
function podLogDir(name: string): string {
  const dir = tempDir(name);
  fs.chmodSync(dir, 0o755);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs);
  fs.chownSync(logs, POD_UID, POD_UID);
  fs.chmodSync(logs, 0o2770);
  return logs;
}

function sidecarAs(setpriv: string, uid: number, logs: string): SidecarProcess {
  const { command, prefix } = asUser(setpriv, uid);
  return new SidecarProcess(['--log-dir', logs, '--poll-interval', '0.2'], { launcher: { command, prefix }, env: cleanEnv() });
}

testAsOtherUsers('as the pod user (uid 2000) the sidecar reads the 0600 files mongod writes', async (t, setpriv) => {
  const logs = podLogDir('uid-pod');
  const server = path.join(logs, 'mongodb.log');
  writeAsMongod(setpriv, server, 'written before the sidecar started\n');
  const stat = fs.statSync(server);
  t.is(stat.uid, POD_UID);
  t.is(stat.mode & 0o777, 0o600, 'mongod-like umask: 0600');

  const sidecar = sidecarAs(setpriv, POD_UID, logs);
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  await sidecar.waitForDiagnostic(followsPath(server));
  const audit = path.join(logs, 'mongodb-audit.log');
  await sidecar.waitForDiagnostic(waitsForPath(audit));
  writeAsMongod(setpriv, server, 'a line mongod wrote\n');
  writeAsMongod(setpriv, audit, '{"atype":"authenticate","result":0}\n');
  await sidecar.waitForLines(2);
  const entries = sidecar.lines().map((l) => JSON.parse(l) as { logType: string; contents: string });
  t.deepEqual(
    entries.sort((a, b) => a.logType.localeCompare(b.logType)),
    [
      { logType: 'mongodb', contents: 'a line mongod wrote' },
      { logType: 'mongodb-audit', contents: '{"atype":"authenticate","result":0}' },
    ],
  );
  t.false(sidecar.diagnostics().some((d) => d['level'] !== 30), sidecar.stderr);
  t.deepEqual(await sidecar.stop(), { code: 0, signal: null });
  // Its read positions were saved on the log volume, as the pod's user.
  t.is(fs.statSync(path.join(logs, '.logtype-sidecar.state')).uid, POD_UID);
});

testAsOtherUsers('as another uid (1000, in group 2000) the sidecar says the file is unreadable and how to fix it', async (t, setpriv) => {
  const logs = podLogDir('uid-other');
  const server = path.join(logs, 'mongodb.log');
  writeAsMongod(setpriv, server, 'a line the sidecar cannot read\n');

  const sidecar = sidecarAs(setpriv, OTHER_UID, logs);
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  // The diagnostic the sidecar gives for EACCES: who it runs as, who owns the file, its mode,
  // and the fix in msg (run as the file's owner: the pod's uid, no runAsUser of its own).
  const unreadable = (d: Record<string, unknown>): boolean => d['event'] === 'unreadable' && d['path'] === server;
  await waitUntil(() => sidecar.diagnostics().some(unreadable), 5000, 'an "unreadable" diagnostic').catch(() => undefined);
  const diagnostic = sidecar.diagnostics().find(unreadable);
  if (!diagnostic) {
    t.fail(`no "unreadable" diagnostic for ${server}; the sidecar said:\n${sidecar.stderr}`);
    return;
  }
  t.like(diagnostic, { logType: 'logtype-sidecar', path: server, uid: OTHER_UID, fileUid: POD_UID, fileMode: '0600' });
  t.true(typeof diagnostic['level'] === 'number' && diagnostic['level'] >= 40, 'a warning or an error');
  t.regex(String(diagnostic['msg']), /runAsUser|uid 2000|user 2000/, 'names the fix');
  t.is(sidecar.stdout(), '', 'nothing delivered');
  await sidecar.stop();
});

testAsOtherUsers('a log directory the sidecar cannot watch (another user\'s, mode 0700): said once, with how late lines may come (the poll alone)', async (t, setpriv) => {
  const dir = tempDir('unwatchable');
  fs.chmodSync(dir, 0o755);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs, { mode: 0o700 });
  const sidecar = sidecarAs(setpriv, POD_UID, logs);
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  await waitUntil(() => sidecar.diagnostics().some((d) => d['event'] === 'watch-unavailable'), 5000, 'a watch-unavailable warning');
  await sleep(1000); // several polls, each retrying the watch
  await sidecar.stop();
  const said = sidecar.diagnostics().filter((d) => d['event'] === 'watch-unavailable');
  t.is(said.length, 1);
  t.like(said[0], { level: 40, path: logs, code: 'EACCES' });
  t.regex(String(said[0]!['msg']), /noticed by the poll alone, up to 0\.2 s late/);
});

testAsOtherUsers('a file of ours back at the name that cannot be opened yet (mode 000 to the pod user) is read on from where it was read once it can be, not from 0', async (t, setpriv) => {
  const dir = tempDir('back-unreadable');
  fs.chmodSync(dir, 0o755);
  const logs = path.join(dir, 'logs');
  const data = path.join(dir, 'data');
  fs.mkdirSync(logs);
  fs.mkdirSync(data);
  fs.chownSync(logs, POD_UID, POD_UID);
  const a = path.join(data, 'a.log');
  const b = path.join(data, 'b.log');
  const link = path.join(logs, 'mongodb.log');
  fs.writeFileSync(a, '', { mode: 0o644 });
  fs.symlinkSync(a, link);
  const { command, prefix } = asUser(setpriv, POD_UID);
  const sidecar = new SidecarProcess(['--log-dir', logs, '--poll-interval', '0.2', '--rotate-wait', '1', '--missing-warning', '0'], { launcher: { command, prefix }, env: cleanEnv() });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  await sidecar.waitForDiagnostic(followsPath(link));
  for (let i = 1; i <= 100; i++) fs.appendFileSync(a, `a ${i}\n`);
  await sidecar.waitForLines(100);
  // The link moves to b.log; a.log is drained and closed (rotate-wait 1 s): retired, remembered as read to its end.
  fs.writeFileSync(b, '', { mode: 0o644 });
  fs.symlinkSync(b, `${link}.new`);
  fs.renameSync(`${link}.new`, link);
  for (let i = 1; i <= 10; i++) fs.appendFileSync(b, `b ${i}\n`);
  await sidecar.waitForLines(110);
  await sidecar.waitForDiagnostic((d) => d['event'] === 'drained', 10_000);
  // Back at the name, but the pod user cannot open it yet: stat works, open fails (EACCES).
  fs.chmodSync(a, 0o000);
  fs.symlinkSync(a, `${link}.new`);
  fs.renameSync(`${link}.new`, link);
  await waitUntil(() => sidecar.diagnostics().some((d) => d['event'] === 'unreadable' && d['path'] === link), 5000, 'an "unreadable" diagnostic');
  fs.chmodSync(a, 0o644);
  for (let i = 101; i <= 110; i++) fs.appendFileSync(a, `a ${i}\n`);
  await sidecar.waitForLines(120);
  await sleep(1000);
  await sidecar.stop();
  const contents = sidecar.lines().map((l) => (JSON.parse(l) as { contents: string }).contents);
  t.is(contents.length, 120, 'nothing sent again');
  t.deepEqual(contents.slice(-10), Array.from({ length: 10 }, (_, i) => `a ${101 + i}`));
});
