/**
 * Doctor reads logtype's own diagnostics as it reads the pod's logs: the sidecar's and the pod
 * script's warnings, as their container logs hold them (stdout's entries and stderr's lines
 * together), are known problems with their fix.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { runFilter } from '../_helpers/filter-process.js';
import { REPO, SidecarProcess, readState, tempDir, waitUntil, waitsForPath } from '../_helpers/sidecar-process.js';

const agentLine = (n: number): string => `[2026-11-27T10:00:0${n}.000+0000] [.info] [main/components/agent.go:LoadClusterConfig:259] [10:00:0${n}.000] line ${n}`;

interface DoctorJson {
  readonly problems: readonly { readonly id: string; readonly count: number; readonly informational: boolean }[];
}

test('doctor: a file deleted while the sidecar was down, with lines it had not shipped, is "lines lost" with its fix', async (t) => {
  const dir = tempDir('doctor-sidecar');
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs);
  const agent = path.join(logs, 'automation-agent.log');
  fs.writeFileSync(agent, '');
  const args = ['--log-dir', logs, '--file', `automation-agent=${agent}`, '--state-file', path.join(dir, 'state.json'), '--missing-warning', '0'];
  const first = new SidecarProcess(args);
  await first.waitForDiagnostic((d) => d['event'] === 'opened');
  fs.appendFileSync(agent, `${[1, 2, 3].map(agentLine).join('\n')}\n`);
  await first.waitForLines(3);
  t.is((await first.stop()).code, 0);
  // While it is down: three lines more, then the file is gone.
  fs.appendFileSync(agent, `${[4, 5, 6].map(agentLine).join('\n')}\n`);
  fs.rmSync(agent);
  const second = new SidecarProcess(args);
  await second.waitForDiagnostic(waitsForPath(agent));
  t.is((await second.stop()).code, 0);
  // The container log: each run's entries and its diagnostics, as kubectl logs shows them.
  const containerLog = [first.stdout(), first.stderr, second.stdout(), second.stderr].join('');
  const text = runFilter(['doctor', '--color', 'never'], containerLog);
  t.is(text.status, 1, text.stdout);
  t.regex(text.stdout, /The log sidecar could not deliver some lines {2}\[sidecar-lines-lost\]/);
  t.regex(text.stdout, /logtype -t sidecar -l warn -o pretty/);
  const json = JSON.parse(runFilter(['doctor', '--json'], containerLog).stdout) as DoctorJson;
  t.deepEqual(json.problems.map((f) => [f.id, f.count]), [['sidecar-lines-lost', 1]]);
});

test('doctor: the pod script\'s pipes that cannot be made and a launcher left unpatched are found, each with its fix', (t) => {
  const dir = tempDir('doctor-pod-script');
  const script = path.join(REPO, 'sidecar/logtype-pod.sh');
  const patch = spawnSync('bash', [script, 'patch-launcher', path.join(dir, 'no-launcher.sh')], { encoding: 'utf8' });
  const pipes = spawnSync('bash', [script, 'sidecar'], { encoding: 'utf8', env: { ...process.env, LOGTYPE_RUN_DIR: path.join(dir, 'not-a-dir', 'run') } });
  t.not(pipes.status, 0);
  const json = JSON.parse(runFilter(['doctor', '--json'], patch.stderr + pipes.stderr).stdout) as DoctorJson;
  t.deepEqual(json.problems.map((f) => f.id), ['pod-pipes-unavailable', 'pod-launcher-not-patched']);
  const summary = runFilter(['summary', '--color', 'never'], patch.stderr + pipes.stderr);
  // Read as the sidecar's lines are: a level (an error and a warning), not unparsed lines of a type logtype does not know.
  t.regex(summary.stdout, /logtype-pod +2 .* 1 +1 +0\n/);
});

test('doctor: killed while reading a file that is then compressed while down: "may not have been delivered", not a certain loss', async (t) => {
  const dir = tempDir('doctor-killed-compressed');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const args = ['--log-dir', dir, '--missing-warning', '0', '--stats-interval', '0'];
  const first = new SidecarProcess(args);
  await first.waitForDiagnostic((d) => d['event'] === 'opened' && d['path'] === file);
  fs.appendFileSync(file, Array.from({ length: 300 }, (_, i) => `line ${i}\n`).join(''));
  fs.renameSync(file, `${file}.1`);
  await first.waitForLines(300);
  // A save after them (one a second while lines flow), so the next start knows the file read.
  await waitUntil(() => JSON.stringify(readState(path.join(dir, '.logtype-sidecar.state')) ?? {}).includes('"position":'), 10_000, 'a save');
  await new Promise((resolve) => setTimeout(resolve, 1200));
  first.child.kill('SIGKILL');
  await first.exited;
  // While down: its writer adds lines (a compression no larger than the position saved would
  // show nothing lost: compressed-read), the rotation is compressed, the log made again.
  fs.appendFileSync(`${file}.1`, 'a line after the kill\n'.repeat(5));
  fs.writeFileSync(`${file}.1.gz`, zlib.gzipSync(fs.readFileSync(`${file}.1`)));
  fs.rmSync(`${file}.1`);
  fs.writeFileSync(file, '');
  const second = new SidecarProcess(args);
  await second.waitForDiagnostic((d) => d['event'] === 'resume-lost');
  await second.stop();
  t.like(second.diagnostics().find((d) => d['event'] === 'resume-lost'), { afterKill: true });
  const json = JSON.parse(runFilter(['doctor', '--json'], first.stderr + second.stderr).stdout) as DoctorJson;
  t.deepEqual(json.problems.map((f) => f.id).sort(), ['sidecar-killed', 'sidecar-lines-maybe-lost']);
});
