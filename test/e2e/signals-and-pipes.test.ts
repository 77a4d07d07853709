import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NumberedWriter, sleep } from '../_helpers/numbered-writer.js';
import { FILTER_BIN, REPO, SIDECAR_BIN, SidecarProcess, cleanEnv, followsPath, tempDir, waitUntil, waitsForPath, followEmptyFile, readState } from '../_helpers/sidecar-process.js';
import { FILE_LOG_TYPES } from '../../src/log-types.js';
import { checkNumbered } from '../_helpers/delivery.js';

test('a last line without newline leaves as a partial piece at SIGTERM, exit 0 without waiting out the 30 s stop timeout; the restart sends its rest', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('sigterm', 'mongodb');
  fs.appendFileSync(file, 'whole\nno newline yet');
  await sidecar.waitForLines(1);
  const started = Date.now();
  const exit = await sidecar.stop('SIGTERM');
  t.is(exit.code, 0);
  // Nothing waits to be taken: no wait for the stop timeout (30 s). Loose, for a loaded machine.
  t.true(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'stop-timeout'));
  // Not a whole line: its writer may finish it. The piece is marked, and its end saved.
  t.deepEqual(sidecar.lines(), [
    '{"logType":"mongodb","contents":"whole"}',
    '{"logType":"mongodb","contents":"no newline yet","partial":true}',
  ]);
  t.true(sidecar.diagnostics().some((d) => d['event'] === 'stats' && d['source'] === 'mongodb' && d['lines'] === 2));
  fs.appendFileSync(file, ', now finished\nnext\n');
  const second = new SidecarProcess(['--log-dir', dir]);
  await second.waitForLines(2);
  await second.stop();
  t.deepEqual(second.lines(), ['{"logType":"mongodb","contents":", now finished"}', '{"logType":"mongodb","contents":"next"}']);
  // The filter joins the pieces: the line is whole again.
  const joined = spawnSync(process.execPath, [FILTER_BIN, '-o', 'raw'], { input: [...sidecar.lines(), ...second.lines()].join('\n') + '\n', encoding: 'utf8' });
  t.is(joined.stdout, 'whole\nno newline yet, now finished\nnext\n');
});

for (const signal of ['SIGINT', 'SIGHUP'] as const) {
  test(`${signal} drains and ends like SIGTERM: what was written arrives, exit 0`, async (t) => {
    const { file, sidecar } = await followEmptyFile(signal.toLowerCase(), 'mongodb', ['--state-file', '']);
    const writer = new NumberedWriter(file, 'mongodb');
    writer.write(2000);
    const exit = await sidecar.stop(signal);
    writer.close();
    t.deepEqual(exit, { code: 0, signal: null });
    const result = checkNumbered(sidecar.lines(), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
    t.deepEqual(result.lost, []);
    t.is(result.duplicated, 0);
    t.is(result.wrongContents, 0);
    // A run's first line says it started (its version and pid), its last what stopped it.
    const events = sidecar.diagnostics();
    t.like(events[0], { event: 'started', pid: sidecar.child.pid, version: JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version });
    t.like(events.at(-1), { event: 'stopped', cause: signal, code: 0 });
  });
}

test('the last line of a --once run, and of a run whose reader went away, says why it stopped', (t) => {
  const dir = tempDir('stopped-cause');
  fs.writeFileSync(path.join(dir, 'mongodb.log'), Array.from({ length: 20000 }, (_, i) => `line ${i}`).join('\n') + '\n');
  const lastEvent = (stderr: string): Record<string, unknown> => JSON.parse(stderr.trim().split('\n').at(-1)!) as Record<string, unknown>;
  const once = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--file', `mongodb=${path.join(dir, 'mongodb.log')}`, '--state-file', ''], { env: cleanEnv(), encoding: 'utf8' });
  // (The seven other files are not in the directory: --once ends with 3, and the line says so.)
  t.like(lastEvent(once.stderr), { event: 'stopped', cause: 'once', code: once.status });
  const gone = spawnSync('bash', ['-c', `"${process.execPath}" "${SIDECAR_BIN}" --log-dir "${dir}" --from-start --state-file '' 2>"${dir}/err" | head -1 > /dev/null`], { env: cleanEnv(), timeout: 20_000 });
  t.is(gone.status, 0);
  t.like(lastEvent(fs.readFileSync(path.join(dir, 'err'), 'utf8')), { event: 'stopped', cause: 'reader-gone', code: 0 });
});

test('| head -1: EPIPE is a quiet exit 0', async (t) => {
  const dir = tempDir('epipe');
  const file = path.join(dir, 'mongodb.log');
  const lines = Array.from({ length: 20000 }, (_, i) => `line ${i}`).join('\n') + '\n';
  fs.writeFileSync(file, lines);
  const result = spawnSync(
    'bash',
    ['-c', `"${process.execPath}" "${SIDECAR_BIN}" --log-dir "${dir}" --from-start 2>"${dir}/err" | head -1; echo "\${PIPESTATUS[0]}"`],
    { env: cleanEnv(), encoding: 'utf8', timeout: 20_000 },
  );
  // The sidecar follows forever unless the pipe closes: the exit status proves it ended on EPIPE.
  const [first, status] = result.stdout.trim().split('\n');
  t.is(first, '{"logType":"mongodb","contents":"line 0"}');
  t.is(status, '0');
  t.false(fs.readFileSync(`${dir}/err`, 'utf8').includes('EPIPE'));
  t.false(fs.readFileSync(`${dir}/err`, 'utf8').includes('"level":50'));
  // The last stats line says how far lines were delivered, as the state file keeps it, beside
  // how far they were read (a platform trial: only the read position was said, far past the save).
  const stats = fs.readFileSync(`${dir}/err`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((d) => d['event'] === 'stats' && d['path'] === file).at(-1)!;
  const saved = readState(path.join(dir, '.logtype-sidecar.state'))!.files[file]!.at(-1)!;
  t.is(stats['delivered'], saved.position);
  t.true((stats['position'] as number) >= saved.position);
});

test('the reader closes stdout while the sidecar is quiet: the line whose write met EPIPE is not counted delivered; the restart sends it', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('epipe-resume', 'mongodb');
  const writer = new NumberedWriter(file, 'mongodb');
  writer.write(300);
  await sidecar.waitForLines(300);
  // The reader goes (a shipper restarted, `| head` done) and the sidecar does not know yet.
  sidecar.child.stdout!.destroy();
  writer.write(1);
  const exit = await sidecar.exited;
  t.deepEqual(exit, { code: 0, signal: null });
  // Its write failed at once: the pipe took none of it (it used to be saved as delivered, and lost).
  const second = new SidecarProcess(['--log-dir', dir]);
  writer.write(1);
  await second.waitForLines(2);
  await second.stop();
  writer.close();
  const result = checkNumbered([...sidecar.lines(), ...second.lines()], 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
});

test('a reader stopped with SIGSTOP: reading pauses, memory stays bounded, nothing is lost', async (t) => {
  const dir = tempDir('sigstop');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, '');
  const out = path.join(dir, 'delivered');
  const pipeline = spawn('bash', ['-c', `"${process.execPath}" "${SIDECAR_BIN}" --log-dir "${dir}" 2>"${dir}/err" | (cat > "${out}")`], {
    env: cleanEnv(),
    stdio: 'ignore',
  });
  await waitUntil(() => fs.existsSync(`${dir}/err`) && fs.readFileSync(`${dir}/err`, 'utf8').includes('"opened"'), 10_000, 'sidecar start');
  const pids = childrenOf(pipeline.pid!);
  const sidecarPid = pids.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('logtype-sidecar'))!;
  const readerPid = pids.find((pid) => pid !== sidecarPid)!;
  const startKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${sidecarPid}/status`, 'utf8'))?.[1]);
  // RSS sampled while the sidecar runs (the kernel's peak, VmHWM, is read before it stops too).
  let peakSampledKb = 0;
  const sampling = setInterval(() => {
    try {
      peakSampledKb = Math.max(peakSampledKb, Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${sidecarPid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // ended meanwhile
    }
  }, 25);
  process.kill(readerPid, 'SIGSTOP');
  const writer = new NumberedWriter(file, 'mongodb', 200);
  // 60 MB while the reader is stopped: far more than the pipe and the writer's buffer hold.
  for (let i = 0; i < 60; i++) {
    writer.write(5000);
    await sleep(20);
  }
  await sleep(500);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${sidecarPid}/status`, 'utf8'))?.[1]);
  process.kill(readerPid, 'SIGCONT');
  writer.close();
  await waitUntil(
    () => fs.existsSync(out) && fs.readFileSync(out, 'utf8').split('\n').length > writer.written,
    30_000,
    'delivery after SIGCONT',
  );
  clearInterval(sampling);
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${sidecarPid}/status`, 'utf8'))?.[1]);
  process.kill(sidecarPid, 'SIGTERM');
  await new Promise((resolve) => pipeline.on('close', resolve));
  const result = checkNumbered(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean), 'mongodb', 'mongodb', writer.written, (n) => writer.line(n));
  t.log(`sidecar RSS at its start ${Math.round(startKb / 1024)} MB, while the reader was stopped ${Math.round(rssKb / 1024)} MB; peak sampled ${Math.round(peakSampledKb / 1024)} MB, VmHWM ${Math.round(peakKb / 1024)} MB; ${writer.written} lines written`);
  t.deepEqual(result.lost, []);
  t.is(result.duplicated, 0);
  t.is(result.wrongContents, 0);
  // Bounded: the 60 MB written while stopped are not held in memory. What the sidecar holds is
  // what it adds to its own RSS at the start (the runtime's share differs between Node majors:
  // Node 24's binary maps more of its code than Node 20's as the JIT warms). The absolute budget
  // (under 64 MB) is a benchmark's figure (npm run bench -- memory), measured beside the anchor.
  // The kernel updates VmHWM lazily (it can trail VmRSS by a few pages): the peak is the larger.
  const peak = Math.max(peakKb, peakSampledKb);
  t.true(peakSampledKb > 0, 'RSS sampled');
  const grownKb = peak - startKb;
  t.true(grownKb < 24 * 1024, `grew ${grownKb} kB over its start's ${startKb} kB (peak ${peak} kB: VmHWM ${peakKb} kB, sampled ${peakSampledKb} kB, at the stopped reader ${rssKb} kB)`);
});

test('a named pipe is read as a stream, across writers that come and go', async (t) => {
  const dir = tempDir('fifo');
  const fifo = path.join(dir, 'automation-agent-stderr.log');
  spawnSync('mkfifo', [fifo]);
  const sidecar = new SidecarProcess(['--log-dir', dir]);
  await sidecar.waitForDiagnostic(followsPath(fifo));
  for (const word of ['first', 'second']) fs.writeFileSync(fifo, `${word} writer\n`);
  fs.writeFileSync(fifo, 'unterminated');
  await sidecar.waitForLines(2);
  await sidecar.stop();
  t.deepEqual(sidecar.lines(), [
    '{"logType":"automation-agent-stderr","contents":"first writer"}',
    '{"logType":"automation-agent-stderr","contents":"second writer"}',
    '{"logType":"automation-agent-stderr","contents":"unterminated"}',
  ]);
});

test('--stdin-type makes stdin one more source through the same writer', async (t) => {
  const { dir, file, sidecar } = await followEmptyFile('stdin', 'mongodb', ['--stdin-type', 'automation-agent-stdout']);
  sidecar.child.stdin!.write('agent says hi\n');
  fs.appendFileSync(file, 'server says hi\n');
  await sidecar.waitForLines(2);
  sidecar.child.stdin!.end('last words');
  await sidecar.waitForLines(3);
  await sidecar.stop();
  t.deepEqual(new Set(sidecar.lines()), new Set([
    '{"logType":"automation-agent-stdout","contents":"agent says hi"}',
    '{"logType":"mongodb","contents":"server says hi"}',
    '{"logType":"automation-agent-stdout","contents":"last words"}',
  ]));
});

// The pod's way (its launcher): the agent's stdout through a FIFO on stdin, its stderr through a
// FIFO given as the file. At SIGTERM the agent is still writing; its last words, and what the
// pipes hold, arrive before the exit.
test('at SIGTERM stdin from a FIFO is read until its writer closes it; a FIFO given with --file is drained', async (t) => {
  const dir = tempDir('stdin-fifo');
  const stdout = path.join(dir, 'agent-stdout');
  const stderr = path.join(dir, 'agent-stderr');
  spawnSync('mkfifo', [stdout, stderr]);
  // The agent's end of its stdout pipe, open before the sidecar's (a FIFO's read open waits for a writer).
  const agentOut = fs.createWriteStream(stdout);
  const sidecar = new SidecarProcess(
    ['-c', 'exec "$0" "$@" < "$AGENT_STDOUT"', process.execPath, SIDECAR_BIN, '--log-dir', dir, '--stdin-type', 'automation-agent-stdout', '--file', `automation-agent-stderr=${stderr}`],
    { command: ['sh'], bin: '--', env: cleanEnv({ AGENT_STDOUT: stdout }) },
  );
  await sidecar.waitForDiagnostic(followsPath(stderr));
  agentOut.write('first from stdout\n');
  fs.writeFileSync(stderr, 'from stderr\n');
  await sidecar.waitForLines(2);
  sidecar.child.kill('SIGTERM');
  await sleep(300);
  agentOut.write('written after the SIGTERM\n');
  agentOut.end('last words');
  const exit = await sidecar.exited;
  t.deepEqual(exit, { code: 0, signal: null });
  // The two sources' first lines may come in either order.
  t.deepEqual([...sidecar.lines()].sort(), [
    '{"logType":"automation-agent-stderr","contents":"from stderr"}',
    '{"logType":"automation-agent-stdout","contents":"first from stdout"}',
    '{"logType":"automation-agent-stdout","contents":"last words"}',
    '{"logType":"automation-agent-stdout","contents":"written after the SIGTERM"}',
  ]);
});

// The pod's actual wiring (logtype-pod sidecar): the agent's stdout pipe opened read-write as
// stdin (`0<>PIPE`), so that the open never waits and the agent's restarts never end it. The
// sidecar is then a writer of its own stdin, which never ends: at SIGTERM (the agent has already
// exited, a native sidecar is signalled after the database container) what the pipe holds is
// delivered and the stop is prompt, not a wait for the whole stop timeout.
test('at SIGTERM stdin from a FIFO held read-write (the pod\'s 0<>PIPE) is drained, not waited for until the stop timeout', async (t) => {
  const dir = tempDir('stdin-fifo-rw');
  const stdout = path.join(dir, 'automation-agent-stdout.fifo');
  spawnSync('mkfifo', [stdout]);
  const sidecar = new SidecarProcess(
    ['-c', 'exec "$0" "$@" 0<> "$AGENT_STDOUT"', process.execPath, SIDECAR_BIN, '--log-dir', dir, '--stdin-type', 'automation-agent-stdout', '--stop-timeout', '20s'],
    { command: ['sh'], bin: '--', env: cleanEnv({ AGENT_STDOUT: stdout }) },
  );
  await sidecar.waitForDiagnostic(waitsForPath(path.join(dir, 'mongodb.log')));
  // An agent run: it opens the pipe, writes, and exits.
  fs.writeFileSync(stdout, 'agent started\n');
  await sidecar.waitForLines(1);
  // The last words are still in the pipe when the signal comes.
  fs.writeFileSync(stdout, 'agent stopping\nlast words');
  const started = Date.now();
  sidecar.child.kill('SIGTERM');
  const exit = await sidecar.exited;
  const tookMs = Date.now() - started;
  t.deepEqual(exit, { code: 0, signal: null });
  t.true(tookMs < 5000, `took ${tookMs} ms of a 20 s stop timeout`);
  t.deepEqual(sidecar.lines(), [
    '{"logType":"automation-agent-stdout","contents":"agent started"}',
    '{"logType":"automation-agent-stdout","contents":"agent stopping"}',
    '{"logType":"automation-agent-stdout","contents":"last words"}',
  ]);
  t.false(sidecar.diagnostics().some((d) => d['event'] === 'stop-timeout'), sidecar.stderr);
});

test('--once reads every file whole and exits 0', async (t) => {
  const dir = tempDir('once');
  for (const type of FILE_LOG_TYPES) fs.writeFileSync(path.join(dir, type.defaultFile), '');
  fs.writeFileSync(path.join(dir, 'mongodb.log'), 'one\ntwo\n');
  fs.writeFileSync(path.join(dir, 'automation-agent.log'), 'agent\nno newline');
  const result = spawnSync(process.execPath, [SIDECAR_BIN, '--once', '--log-dir', dir], { env: cleanEnv(), encoding: 'utf8' });
  t.is(result.status, 0);
  t.deepEqual(result.stdout.trim().split('\n').sort(), [
    '{"logType":"automation-agent","contents":"agent"}',
    '{"logType":"automation-agent","contents":"no newline"}',
    '{"logType":"mongodb","contents":"one"}',
    '{"logType":"mongodb","contents":"two"}',
  ]);
});

test('--heartbeat-file is refreshed while the sidecar runs, for a liveness probe', async (t) => {
  const dir = tempDir('heartbeat');
  const heartbeat = path.join(dir, 'alive');
  const sidecar = new SidecarProcess(['--log-dir', dir, '--poll-interval', '0.2', '--heartbeat-file', heartbeat]);
  await waitUntil(() => fs.existsSync(heartbeat), 5000, 'heartbeat file created');
  const first = fs.statSync(heartbeat).mtimeMs;
  await waitUntil(() => fs.statSync(heartbeat).mtimeMs > first, 5000, 'heartbeat refreshed');
  t.true(fs.statSync(heartbeat).mtimeMs > first);
  await sidecar.stop();
});

/** The children of `pid`, from /proc (what `pgrep -P` prints, without needing procps). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The fields after the command's closing parenthesis: state, then the parent's pid.
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('SIGUSR1 and SIGUSR2 are inert: no debugger starts (no "Debugger listening", no listening socket), following goes on', async (t) => {
  const { file, sidecar } = await followEmptyFile('sigusr1', 'mongodb', ['--state-file', '']);
  const pid = sidecar.child.pid!;
  sidecar.child.kill('SIGUSR1');
  // From a field trial: SIGUSR2's default killed it (exit 140), nothing saved.
  sidecar.child.kill('SIGUSR2');
  await sleep(500);
  fs.appendFileSync(file, 'still following\n');
  await sidecar.waitForLines(1);
  const listening = listeningSockets(pid);
  const exit = await sidecar.stop();
  t.deepEqual(listening, [], 'a debug port is a listening TCP socket');
  t.false(sidecar.stderr.includes('Debugger listening'));
  t.deepEqual(sidecar.nonJsonStderr(), []);
  t.deepEqual(exit, { code: 0, signal: null });
});

test('SIGTERM as soon as the handlers are in, before the rest is loaded: a clean stop, exit 0', async (t) => {
  const dir = tempDir('early-term');
  const sidecar = new SidecarProcess(['--log-dir', dir]);
  const pid = sidecar.child.pid!;
  // Node catches SIGTERM and SIGINT itself (to reset the terminal, then die by them); SIGHUP it
  // does not: the moment SigCgt shows SIGHUP (bit 0), the bin's three handlers are in.
  await waitUntil(() => {
    try {
      const mask = /SigCgt:\s+([0-9a-f]+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
      return (BigInt(`0x${mask}`) & 1n) !== 0n;
    } catch {
      return false;
    }
  }, 10_000, 'the stop handlers installed');
  const exit = await sidecar.stop('SIGTERM');
  t.deepEqual(exit, { code: 0, signal: null });
  t.deepEqual(sidecar.nonJsonStderr(), []);
});

/** The process's TCP sockets in LISTEN state (from /proc: its socket inodes, the kernel's tables). */
function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const listening: string[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.trim().split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) listening.push(`${table} ${fields[1]}`);
    }
  }
  return listening;
}

// From a field trial: a burst on a stream (the agent's stdout) whose one read made more entries
// than the writer's high-water mark froze the sidecar: nothing was written again, from the
// stream or from any file, until the stop timeout dropped the stream's lines.
test('a burst on stdin larger than the writer holds: every line of it arrives, and the files go on being read', async (t) => {
  const dir = tempDir('stdin-burst');
  const fifo = path.join(dir, 'automation-agent-stdout.fifo');
  const file = path.join(dir, 'mongodb.log');
  spawnSync('mkfifo', [fifo]);
  fs.writeFileSync(file, '');
  const sidecar = new SidecarProcess(
    ['-c', 'exec "$0" "$@" 0<> "$AGENT_STDOUT"', process.execPath, SIDECAR_BIN, '--log-dir', dir, '--stdin-type', 'automation-agent-stdout', '--state-file', ''],
    { command: ['sh'], bin: '--', env: cleanEnv({ AGENT_STDOUT: fifo }) },
  );
  await sidecar.waitForDiagnostic(followsPath(file));
  fs.appendFileSync(file, 'before the burst\n');
  await sidecar.waitForLines(1);
  const burst = Array.from({ length: 20000 }, (_, i) => `agent ${i}\n`).join('');
  // Written without blocking this process, which reads the sidecar's stdout: the burst is
  // larger than the FIFO, the sidecar's stdout pipe and its writer hold together, so a
  // synchronous write here waited for a reader that waited for it (a deadlock of the test's
  // own, seen on Node 24). A sidecar that freezes never takes the rest: waitForLines says so.
  const written = fs.promises.writeFile(fifo, burst);
  await sidecar.waitForLines(20001);
  await written;
  fs.appendFileSync(file, 'after the burst\n');
  await sidecar.waitForLines(20002);
  await sidecar.stop();
  const lines = sidecar.lines();
  t.is(lines.length, 20002);
  t.deepEqual(
    lines.filter((l) => l.includes('"automation-agent-stdout"')),
    Array.from({ length: 20000 }, (_, i) => `{"logType":"automation-agent-stdout","contents":"agent ${i}"}`),
  );
  t.true(lines.includes('{"logType":"mongodb","contents":"after the burst"}'));
});
