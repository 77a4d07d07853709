/**
 * The launcher change and the sidecar's wiring, with real processes: `logtype-pod
 * patch-launcher` edits a launcher, the patched launcher starts an agent (a shell script) whose
 * stdout and stderr go to the named pipes `logtype-pod sidecar` made, and the real sidecar
 * delivers them with the log files. The launcher here is a stand-in: the operator's file is not
 * ours to copy, so it holds the lines the patch edits in the operator's own form (one
 * `tail -F -n0 ... | json_log` per file, the agent's two `>(json_log ...)` streams) around what
 * the patch must keep (no `set -e`, the agent's pid in agentPid, the SIGTERM trap and cleanup).
 */
import test, { type ExecutionContext } from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, SIDECAR_BIN, catchesSignal, cleanEnv, tempDir, waitUntil } from '../_helpers/sidecar-process.js';
import { sleep } from '../_helpers/numbered-writer.js';
import { JQ, findTool, testWithTool } from '../_helpers/system-tool.js';
import { POD_UID, asUser, testAsOtherUsers } from '../_helpers/other-users.js';

/** A uid that is not the pod's. */
const OTHER_UID = 1000;

const LOGTYPE_POD = path.join(REPO, 'sidecar/logtype-pod.sh');

/** Each operator log file the launcher tails, by the variable that names it. */
const LOG_FILES: Readonly<Record<string, string>> = {
  MDB_LOG_FILE_AUTOMATION_AGENT_VERBOSE: 'automation-agent-verbose',
  MDB_LOG_FILE_AUTOMATION_AGENT: 'automation-agent',
  MDB_LOG_FILE_MONITORING_AGENT: 'monitoring-agent',
  MDB_LOG_FILE_BACKUP_AGENT: 'backup-agent',
  MDB_LOG_FILE_MONGODB: 'mongodb',
  MDB_LOG_FILE_MONGODB_AUDIT: 'mongodb-audit',
};

const STAND_IN_LAUNCHER = `#!/usr/bin/env bash
# No "e": the operator's launcher runs commands that fail as a matter of course.
set -Eou pipefail
MMS_LOG_DIR=\${MMS_LOG_DIR:-/var/log/mongodb-mms-automation}
export MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT="\${MMS_LOG_DIR}/agent-launcher-script.log"
tail -F -n0 "\${MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT}" 2> /dev/null &
source "\${LAUNCHER_LIB}"
${Object.entries(LOG_FILES)
  .map(([variable, type]) => `tail -F -n0 "\${${variable}}" 2> /dev/null | json_log '${type}' &`)
  .join('\n')}
agentOpts=("-logLevel=INFO")
# The agent; its pid must be the one cleanup stops.
"\${AGENT_BINARY_PATH}" "\${agentOpts[@]}" 2> >(json_log "automation-agent-stderr") >> >(json_log "automation-agent-stdout") &
export agentPid=$!
script_log "Launched automation agent, pid=\${agentPid}"
trap cleanup SIGTERM
wait
`;

const STAND_IN_LIB = `#!/usr/bin/env bash
json_log() {
  jq --unbuffered --null-input -c --raw-input "inputs | {\\"logType\\": \\"$1\\", \\"contents\\": .}"
}
script_log() {
  echo "$1" | json_log 'agent-launcher-script' &>>"\${MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT}"
}
cleanup() {
  script_log "Caught SIGTERM signal. Passing the signal to the automation agent."
  kill -15 "\${agentPid:?}"
  wait "\${agentPid}"
  script_log "Automation agent processes are shutdown"
}
`;

/** Stands for the agent: one line on each stream, one more on SIGTERM. */
const STAND_IN_AGENT = `#!/usr/bin/env bash
trap 'echo "agent stopping on SIGTERM" >&2; exit 0' TERM
echo "agent started, pid $$"
echo "agent warning on stderr" >&2
while true; do sleep 0.05; done
`;

interface Pod {
  readonly dir: string;
  readonly logDir: string;
  readonly runDir: string;
  readonly launcher: string;
  readonly env: NodeJS.ProcessEnv;
}

function makePod(name: string): Pod {
  const dir = tempDir(name);
  const logDir = path.join(dir, 'logs');
  const runDir = path.join(dir, 'run');
  const scripts = path.join(dir, 'scripts');
  for (const d of [logDir, runDir, scripts]) fs.mkdirSync(d);
  const write = (file: string, text: string): string => {
    const target = path.join(scripts, file);
    fs.writeFileSync(target, text, { mode: 0o755 });
    return target;
  };
  const launcher = write('agent-launcher.sh', STAND_IN_LAUNCHER);
  // logtype-sidecar on PATH, as in the image.
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'logtype-sidecar'), `#!/bin/sh\nexec "${process.execPath}" "${SIDECAR_BIN}" "$@"\n`, { mode: 0o755 });
  const files = Object.fromEntries(Object.entries(LOG_FILES).map(([variable, type]) => [variable, path.join(logDir, `${type}.log`)]));
  for (const file of Object.values(files)) fs.writeFileSync(file, '');
  const env = cleanEnv({
    ...files,
    PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`,
    MMS_LOG_DIR: logDir,
    LOGTYPE_RUN_DIR: runDir,
    LAUNCHER_LIB: write('agent-launcher-lib.sh', STAND_IN_LIB),
    AGENT_BINARY_PATH: write('agent', STAND_IN_AGENT),
  });
  return { dir, logDir, runDir, launcher, env };
}

class Running {
  readonly child: ChildProcess;
  readonly closed: Promise<number | null>;
  stdout = '';
  stderr = '';

  constructor(command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    // Its own process group, so a test that fails leaves none of its children behind.
    this.child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    running.add(this);
    void this.closed.then(() => running.delete(this));
  }

  entries(): { logType: string; contents: string }[] {
    return this.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { logType: string; contents: string });
  }

  has(logType: string, contents: RegExp): boolean {
    return this.entries().some((e) => e.logType === logType && contents.test(e.contents));
  }

  killGroup(signal: NodeJS.Signals = 'SIGKILL'): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // already gone
    }
  }
}

const running = new Set<Running>();
process.on('exit', () => {
  for (const r of running) r.killGroup();
});

function patch(file: string): { status: number | null; diagnostics: Record<string, unknown>[] } {
  const run = spawnSync('bash', [LOGTYPE_POD, 'patch-launcher', file], { encoding: 'utf8' });
  return { status: run.status, diagnostics: run.stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

// From a platform trial: a wrong command printed a plain usage line, and a message with a
// backslash in it (a path) decoded with a control character in it.
test('logtype-pod: every diagnostic is one JSON line, a wrong command and a path with a backslash too', (t) => {
  const wrong = spawnSync('bash', [LOGTYPE_POD, 'bogus'], { encoding: 'utf8' });
  t.is(wrong.status, 2);
  t.like(JSON.parse(wrong.stderr) as Record<string, unknown>, { level: 50, logType: 'logtype-pod', event: 'usage' });
  const file = path.join(tempDir('launcher-backslash'), 'odd\\dir "x"\tlauncher.sh');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { diagnostics } = patch(file);
  t.true(diagnostics.length > 0);
  t.true(diagnostics.some((d) => String(d['msg']).includes(file)), JSON.stringify(diagnostics));
  for (const d of diagnostics) t.notRegex(String(d['msg']), /[\u0000-\u0008\u000b-\u001f]/);
});

/** The pids of the processes whose parent is `pid`, by command name. */
function children(pid: number): { pid: number; comm: string }[] {
  const found: { pid: number; comm: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === pid) found.push({ pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

test('patch-launcher: only the tail pipelines and the agent line change; run twice, it changes nothing more', (t) => {
  const { launcher } = makePod('patch');
  const original = fs.readFileSync(launcher, 'utf8');
  const first = patch(launcher);
  t.is(first.status, 0);
  t.like(first.diagnostics[0], { event: 'launcher-patched', level: 30 });
  t.regex(String(first.diagnostics[0]!['msg']), /7 tail pipelines made conditional, 1 agent start lines/);
  const patched = fs.readFileSync(launcher, 'utf8');
  t.is(spawnSync('bash', ['-n', launcher]).status, 0, 'the patched launcher is valid bash');
  t.is(fs.statSync(launcher).mode & 0o777, 0o755, 'still executable');
  // Every other line is the operator's, in order: set without -e, agentPid, the trap, wait.
  const edited = (line: string): boolean => line.startsWith('tail -F') || line.startsWith('"${AGENT_BINARY_PATH}"');
  const kept = original.split('\n').filter((line) => !edited(line));
  const patchedLines = patched.split('\n');
  let at = 0;
  for (const line of kept) {
    const found = patchedLines.indexOf(line, at);
    t.true(found >= at, `kept in order: ${line}`);
    at = found + 1;
  }
  t.true(patched.includes('set -Eou pipefail\n') && !/^set -\w*e/m.test(patched.replace('set -Eou', '')));
  // Each tail starts only without the sidecar; the agent line has a sidecar branch and the original.
  t.is(patched.match(/^if \[\[ -z "\$\{logtype_sidecar\}" \]\]; then tail -F .* & fi$/gm)?.length, 7);
  t.regex(patched, /^ {2}"\$\{AGENT_BINARY_PATH\}" "\$\{agentOpts\[@\]\}" 2<>"\$\{logtype_stderr_pipe\}" 1<>"\$\{logtype_stdout_pipe\}" &$/m);
  t.true(patched.includes(`else\n  ${original.split('\n').find((l) => l.startsWith('"${AGENT_BINARY_PATH}"'))}\nfi\nexport agentPid=$!`));

  const again = patch(launcher);
  t.is(again.status, 0);
  t.like(again.diagnostics[0], { event: 'launcher-already-patched' });
  t.is(fs.readFileSync(launcher, 'utf8'), patched);
});

test('patch-launcher: a launcher it does not know is left unchanged with a warning; no launcher is a warning naming the cause, and the pod starts', (t) => {
  const dir = tempDir('patch-unknown');
  const other = path.join(dir, 'agent-launcher.sh');
  fs.writeFileSync(other, '#!/usr/bin/env bash\nexec /agent/mongodb-agent "$@"\n');
  const unknown = patch(other);
  t.is(unknown.status, 0);
  t.like(unknown.diagnostics[0], { level: 40, event: 'launcher-not-recognised' });
  t.regex(String(unknown.diagnostics[0]!['msg']), /left unchanged.*shipped twice/);
  t.is(fs.readFileSync(other, 'utf8'), '#!/usr/bin/env bash\nexec /agent/mongodb-agent "$@"\n');
  t.deepEqual(fs.readdirSync(dir), ['agent-launcher.sh'], 'no temp file left');

  // The static architecture has no init-database container: the agent container links the
  // launcher when it starts, after the init containers. A failing init container would hold
  // every pod in Init; left unpatched, the launcher ships each line a second time instead.
  const missing = patch(path.join(dir, 'none.sh'));
  t.is(missing.status, 0, 'an init container that fails holds the database pod in Init');
  t.like(missing.diagnostics[0], { level: 40, event: 'launcher-missing' });
  t.regex(String(missing.diagnostics[0]!['msg']), /shipped twice.*static architecture.*sort after mongodb-kubernetes-init-database.*database-scripts/);
  t.deepEqual(fs.readdirSync(dir), ['agent-launcher.sh'], 'nothing made');
});

test('logtype-pod sidecar without its run directory: one error naming the fix, exit 1', (t) => {
  const run = spawnSync('bash', [LOGTYPE_POD, 'sidecar'], { env: cleanEnv({ LOGTYPE_RUN_DIR: '/nonexistent/logtype' }), encoding: 'utf8' });
  t.is(run.status, 1);
  const diagnostic = JSON.parse(run.stderr.trim()) as Record<string, unknown>;
  t.like(diagnostic, { level: 50, logType: 'logtype-pod', event: 'pipe-unavailable' });
  t.regex(String(diagnostic['msg']), /mount a writable emptyDir at \/nonexistent\/logtype/);
  t.is(spawnSync('bash', [LOGTYPE_POD], { encoding: 'utf8' }).status, 2);
});

testAsOtherUsers('logtype-pod sidecar finding pipes another user made (mode 0600): one JSON error naming the fix, not a shell error', async (t, setpriv) => {
  const run = tempDir('pod-foreign-pipes');
  fs.chmodSync(run, 0o755);
  for (const name of ['automation-agent-stdout.fifo', 'automation-agent-stderr.fifo']) spawnSync('mkfifo', ['-m', '0600', path.join(run, name)]);
  const { command, prefix } = asUser(setpriv, POD_UID);
  const result = spawnSync(command, [...prefix, 'bash', LOGTYPE_POD, 'sidecar'], { env: cleanEnv({ LOGTYPE_RUN_DIR: run }), encoding: 'utf8' });
  t.is(result.status, 1);
  const lines = result.stderr.trim().split('\n');
  t.is(lines.length, 1, result.stderr);
  const diagnostic = JSON.parse(lines[0]!) as Record<string, unknown>;
  t.like(diagnostic, { level: 50, logType: 'logtype-pod', event: 'pipe-unavailable' });
  t.regex(String(diagnostic['msg']), /or it is another user's \(uid 2000 may not read and write it\)/);
});

testWithTool(JQ, 'in the pod: the sidecar delivers the files and the agent streams, no tail runs, and cleanup still stops the agent by its pid', async (t) => {
  const pod = makePod('launcher-pod');
  t.is(patch(pod.launcher).status, 0);
  const sidecar = new Running('bash', [LOGTYPE_POD, 'sidecar', '--log-dir', pod.logDir, '--poll-interval', '0.2'], pod.env);
  t.teardown(() => sidecar.killGroup());
  const stderrPipe = path.join(pod.runDir, 'automation-agent-stderr.fifo');
  await waitUntil(() => sidecar.stderr.includes(`"path":${JSON.stringify(stderrPipe)}`) && sidecar.stderr.includes('"event":"opened"'), 10_000, `sidecar start: ${sidecar.stderr}`);
  t.true(fs.statSync(path.join(pod.runDir, 'automation-agent-stdout.fifo')).isFIFO() && fs.statSync(stderrPipe).isFIFO());

  const launcher = new Running('bash', [pod.launcher], pod.env);
  t.teardown(() => launcher.killGroup());
  await waitUntil(() => sidecar.has('automation-agent-stdout', /^agent started, pid \d+$/), 10_000, `agent stdout: ${sidecar.stdout}`);
  const agentPid = /pid (\d+)/.exec(sidecar.entries().find((e) => e.logType === 'automation-agent-stdout')!.contents)![1];
  await waitUntil(() => sidecar.has('automation-agent-stderr', /^agent warning on stderr$/), 10_000, 'agent stderr');
  // The launcher's own lines are entries already: they pass through, not wrapped again.
  await waitUntil(() => sidecar.has('agent-launcher-script', new RegExp(`^Launched automation agent, pid=${agentPid}$`)), 10_000, `launcher line: ${sidecar.stdout}`);
  fs.appendFileSync(path.join(pod.logDir, 'mongodb.log'), '{"t":{"$date":"2026-11-22T10:00:00.000Z"},"s":"I","msg":"from the file"}\n');
  await waitUntil(() => sidecar.has('mongodb', /from the file/), 10_000, 'mongodb line');

  // Beside the agent, only the idle process that keeps the launcher's last `wait` (see below).
  // A child of a moment (one of the launcher's own commands, seen once in a Node 24 run) is let
  // end; a tail or jq that stays is still there after the wait, and fails.
  const launcherChildren = () => children(launcher.child.pid!).map((c) => (c.comm === 'sleep' ? 'sleep' : c.pid)).sort();
  await waitUntil(() => launcherChildren().length === 2, 3000, 'the launcher down to its two children').catch(() => undefined);
  t.deepEqual(
    launcherChildren(),
    [Number(agentPid), 'sleep'].sort(),
    'the agent and one sleep are the only children of the launcher: no tail, jq or process substitution beside them',
  );
  t.is(launcher.stdout, '', 'the database container prints nothing of its own');

  // The launcher logs "Launched" before it sets its trap (the operator's order): a SIGTERM
  // sent in between would kill it outright. Sent once bash catches SIGTERM.
  await waitUntil(() => catchesSignal(launcher.child.pid!, 'SIGTERM'), 10_000, 'the launcher has set its trap');
  launcher.child.kill('SIGTERM');
  t.not(await launcher.closed, null, "the launcher ends by itself once cleanup has run");
  await waitUntil(() => sidecar.has('automation-agent-stderr', /^agent stopping on SIGTERM$/), 10_000, 'the agent got SIGTERM from cleanup');
  await waitUntil(() => sidecar.has('agent-launcher-script', /^Automation agent processes are shutdown$/), 10_000, 'cleanup finished');
  // As the kubelet stops a native sidecar: after the database container has exited. Its stdout
  // pipe, which it holds read-write, never ends: the stop takes what it holds, without waiting
  // out the 30 s stop timeout at every pod stop.
  const stopped = Date.now();
  sidecar.child.kill('SIGTERM');
  t.is(await sidecar.closed, 0);
  t.true(Date.now() - stopped < 5000, `the sidecar took ${Date.now() - stopped} ms to stop`);
  t.false(sidecar.stderr.includes('"event":"stop-timeout"'), sidecar.stderr);
  t.is(sidecar.entries().filter((e) => e.logType === 'automation-agent-stdout').length, 1, 'each line once');
});

// The operator's launcher ends with a bare `wait`, which its tail pipelines (they never end)
// kept waiting after the agent exits: mongod, which the agent started and the liveness probe
// accepts alone, goes on serving until the container is stopped, then cleanup shuts it down.
// Had the launcher ended, PID 1 would be gone and the kernel would SIGKILL mongod with the
// container. With the sidecar no tail runs, so something else must keep that `wait`.
testWithTool(JQ, 'in the pod: an agent that exits leaves the launcher running, as its tail pipelines did (mongod is not killed with the container)', async (t) => {
  for (const withSidecar of [true, false]) {
    const pod = makePod(withSidecar ? 'launcher-agent-exits' : 'launcher-agent-exits-fallback');
    t.is(patch(pod.launcher).status, 0);
    const env = withSidecar ? pod.env : { ...pod.env, LOGTYPE_RUN_DIR: path.join(pod.dir, 'not-mounted') };
    const sidecar = withSidecar ? new Running('bash', [LOGTYPE_POD, 'sidecar', '--log-dir', pod.logDir, '--poll-interval', '0.2'], env) : undefined;
    t.teardown(() => sidecar?.killGroup());
    if (sidecar) await waitUntil(() => sidecar.stderr.includes('automation-agent-stderr.fifo'), 10_000, `sidecar start: ${sidecar.stderr}`);
    const launcher = new Running('bash', [pod.launcher], env);
    t.teardown(() => launcher.killGroup());
    const output = sidecar ?? launcher;
    await waitUntil(() => output.has('automation-agent-stdout', /^agent started, pid \d+$/), 10_000, `agent stdout: ${output.stdout}`);
    await waitUntil(() => catchesSignal(launcher.child.pid!, 'SIGTERM'), 10_000, 'the launcher has set its trap');
    const agentPid = Number(/pid (\d+)/.exec(output.entries().find((e) => e.logType === 'automation-agent-stdout')!.contents)![1]);
    process.kill(agentPid, 'SIGKILL');
    await sleep(1000);
    t.is(launcher.child.exitCode, null, `${withSidecar ? 'with' : 'without'} the sidecar: the launcher ended when the agent did`);
    // SIGTERM still ends it, through cleanup (the fallback's tails hold its output open: its exit, not its close).
    launcher.child.kill('SIGTERM');
    await waitUntil(() => launcher.child.exitCode !== null, 10_000, 'the launcher ends on SIGTERM');
    launcher.killGroup();
  }
});

// A logtype container given a runAsUser of its own makes its pipes as that user, mode 0600: the
// database container (uid 2000) cannot open them. The agent, started with its output there,
// would not start at all; the launcher runs the pipelines instead, and says why.
const OTHER_USER_PIPES = 'the patched launcher, when the pipes were made by another user, starts the agent with its pipelines and says why';
const otherUserPipes = async (t: ExecutionContext, setpriv: string): Promise<void> => {
  const pod = makePod('launcher-other-user');
  t.is(patch(pod.launcher).status, 0);
  fs.chmodSync(pod.dir, 0o755);
  for (const dir of [pod.logDir, path.dirname(pod.launcher)]) {
    fs.chownSync(dir, POD_UID, POD_UID);
    for (const file of fs.readdirSync(dir)) fs.chownSync(path.join(dir, file), POD_UID, POD_UID);
  }
  fs.chmodSync(pod.runDir, 0o777);
  for (const pipe of ['automation-agent-stdout.fifo', 'automation-agent-stderr.fifo']) {
    const file = path.join(pod.runDir, pipe);
    t.is(spawnSync('mkfifo', ['-m', '0600', file]).status, 0);
    fs.chownSync(file, OTHER_UID, OTHER_UID);
  }
  const { command, prefix } = asUser(setpriv, POD_UID);
  const launcher = new Running(command, [...prefix, 'bash', pod.launcher], pod.env);
  t.teardown(() => launcher.killGroup());
  await waitUntil(() => launcher.has('automation-agent-stdout', /^agent started, pid \d+$/), 10_000, `the agent's stdout from the launcher: ${launcher.stdout} ${launcher.stderr}`);
  await waitUntil(() => launcher.has('automation-agent-stderr', /^agent warning on stderr$/), 10_000, 'agent stderr');
  t.regex(launcher.stderr, new RegExp(`logtype: uid ${POD_UID} cannot open the named pipes in .*runAsUser.*pipelines run instead`));
};
if (findTool(JQ)) testAsOtherUsers(OTHER_USER_PIPES, otherUserPipes);
else testWithTool(JQ, OTHER_USER_PIPES, () => undefined);

// The run directory mounted but no sidecar in the pod (removed from the template alone, say):
// its emptyDir is new and holds no pipe. Pipes the launcher made itself would have no reader, and
// the agent would block once 64 KiB of its output waited there; so it makes none and runs the
// pipelines.
testWithTool(JQ, 'the patched launcher with the run directory but no sidecar (no pipes) makes none and runs its pipelines', async (t) => {
  const pod = makePod('launcher-no-sidecar');
  t.is(patch(pod.launcher).status, 0);
  const launcher = new Running('bash', [pod.launcher], pod.env);
  try {
    await waitUntil(() => launcher.has('automation-agent-stdout', /^agent started/), 10_000, `agent stdout: ${launcher.stdout}`);
    await waitUntil(() => launcher.has('automation-agent-stderr', /^agent warning on stderr$/), 10_000, 'agent stderr');
    t.deepEqual(fs.readdirSync(pod.runDir), [], 'no pipe made');
  } finally {
    launcher.killGroup();
  }
});

testWithTool(JQ, 'the patched launcher without the logtype run directory runs its tail | jq pipelines as before', async (t) => {
  const pod = makePod('launcher-fallback');
  t.is(patch(pod.launcher).status, 0);
  const env = { ...pod.env, LOGTYPE_RUN_DIR: path.join(pod.dir, 'not-mounted') };
  const launcher = new Running('bash', [pod.launcher], env);
  try {
    await waitUntil(() => launcher.has('automation-agent-stdout', /^agent started/), 10_000, `agent stdout: ${launcher.stdout}`);
    await waitUntil(() => launcher.has('automation-agent-stderr', /^agent warning on stderr$/), 10_000, 'agent stderr');
    // tail -F -n0 shows only what is written after it started: write until one arrives.
    const mongodb = path.join(pod.logDir, 'mongodb.log');
    await waitUntil(
      () => {
        fs.appendFileSync(mongodb, 'a server line\n');
        return launcher.has('mongodb', /^a server line$/);
      },
      10_000,
      `tail pipeline: ${launcher.stdout}`,
    );
    t.false(fs.existsSync(path.join(pod.dir, 'not-mounted')), 'no directory or pipe made');
    // The launcher sets its SIGTERM trap after it logs the agent's start (as the operator's does):
    // a SIGTERM before the trap would end bash before cleanup exists (seen on a loaded machine).
    await waitUntil(() => catchesSignal(launcher.child.pid!, 'SIGTERM'), 10_000, 'the launcher has set its trap');
    launcher.child.kill('SIGTERM');
    await waitUntil(() => fs.readFileSync(path.join(pod.logDir, 'agent-launcher-script.log'), 'utf8').includes('shutdown'), 10_000, 'cleanup');
  } finally {
    launcher.killGroup();
  }
});
