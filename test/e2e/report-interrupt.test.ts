/**
 * `kubectl logs -f POD | logtype summary`, then Ctrl-C: the terminal sends SIGINT to the whole
 * pipeline's process group, kubectl ends, and summary (or doctor) writes what it read, exit 130.
 * Here the writer is a shell that writes real entries and then waits (as kubectl -f does), in a
 * process group of its own that the test sends SIGINT to, as a terminal would.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { FILTER_BIN, cleanEnv, tempDir, waitUntil } from '../_helpers/sidecar-process.js';

const ENTRIES = 5000;

/** The process's kernel wait channel: `pipe_read` (or `anon_pipe_read`) while blocked on an empty pipe. */
const waitChannel = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/wchan`, 'utf8');
  } catch {
    return '';
  }
};

/** The pids whose parent is `parent`, from /proc. */
function childrenOf(parent: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(fs.readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

for (const command of ['summary', 'doctor'] as const) {
  test(`Ctrl-C during ${command} on a stream that never ends: what was read is written, exit 130`, async (t) => {
    const dir = tempDir('logtype-interrupt-');
    const input = path.join(dir, 'entries.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < ENTRIES; i++) {
      const contents = `{"t":{"$date":"2026-11-23T10:${String(Math.floor(i / 100) % 60).padStart(2, '0')}:00.000+00:00"},"s":"${i % 50 === 0 ? 'E' : 'I'}","c":"NETWORK","id":22943,"ctx":"listener","msg":"Connection accepted","attr":{"connectionId":${i}}}`;
      lines.push(JSON.stringify({ logType: 'mongodb', contents }));
    }
    fs.writeFileSync(input, `${lines.join('\n')}\n`);
    const shell = spawn('bash', ['-c', `{ cat "${input}"; exec sleep 60; } | "${process.execPath}" "${FILTER_BIN}" ${command}`], {
      env: cleanEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => shell.on('close', (code) => resolve(code)));
    try {
      // Everything written and read: the writer is down to its sleep, and logtype waits on the empty pipe.
      let logtype = 0;
      await waitUntil(
        () => {
          const children = childrenOf(shell.pid!);
          logtype = children.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(FILTER_BIN)) ?? 0;
          const writer = children.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'));
          return logtype > 0 && writer !== undefined && waitChannel(logtype).includes('pipe_read');
        },
        20_000,
        'logtype to read the whole input and wait for more',
      );
      process.kill(-shell.pid!, 'SIGINT');
      const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
      t.is(code, 130, `exit status; stderr: ${stderr}`);
      t.regex(stderr, new RegExp(`logtype ${command}: interrupted`));
      if (command === 'summary') {
        t.regex(stdout, new RegExp(`^logtype summary: ${ENTRIES.toLocaleString('en-US')} entries read, ${ENTRIES.toLocaleString('en-US')} selected`, 'm'));
        t.regex(stdout, /^ {2}mongodb +5,000 /m);
        t.regex(stdout, /^incomplete: interrupted \(Ctrl-C\) before the end of the input; this summary covers what was read until then$/m);
      } else {
        t.regex(stdout, new RegExp(`in ${ENTRIES.toLocaleString('en-US')} lines`));
      }
    } finally {
      try {
        process.kill(-shell.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
