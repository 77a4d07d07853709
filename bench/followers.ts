/**
 * The two systems the loss benchmark compares, started the same way on the same files:
 * today's launcher (one `tail -F -n0 FILE | jq` pipeline per file, all into one pipe) and
 * `logtype-sidecar`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const SIDECAR_BIN = path.resolve(import.meta.dirname, '../bin/logtype-sidecar.js');

export interface RunningFollower {
  /** Ends it as a container stop does (SIGTERM), and returns what it wrote to stdout. */
  stop(): Promise<string>;
  /** Ends it with SIGKILL (a crash or OOM kill). */
  kill(): Promise<string>;
  readonly pid: number;
}

export interface FollowerSystem {
  readonly name: string;
  start(files: readonly { logType: string; path: string }[], extraArgs?: readonly string[]): Promise<RunningFollower>;
}

function collect(child: ChildProcess, killGroup: boolean): RunningFollower {
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<string>((resolve) => child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  const signal = (name: NodeJS.Signals): Promise<string> => {
    try {
      if (killGroup) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // already gone
    }
    return closed;
  };
  return { stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL'), pid: child.pid! };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Today's launcher as one bash script: its line for each file, verbatim but for the file and
 * type (docs/anchors.md §1), then `wait`. Run it detached: the pipelines are then one process
 * group, stopped and measured together.
 */
export function pipelineScript(files: readonly { logType: string; path: string }[]): string {
  const lines = files.map(
    (f) => `tail -F -n0 '${f.path}' 2>/dev/null | jq --unbuffered -n -c -R 'inputs | {"logType": "${f.logType}", "contents": .}' &`,
  );
  return `${lines.join('\n')}\nwait`;
}

/** The eight files of a log dir, as the launcher and the sidecar's --log-dir name them. */
export const LOG_TYPES = ['automation-agent-verbose', 'automation-agent-stderr', 'automation-agent', 'monitoring-agent', 'backup-agent', 'mongodb', 'mongodb-audit', 'agent-launcher-script'] as const;

export const logDirFiles = (dir: string): { logType: string; path: string }[] => LOG_TYPES.map((logType) => ({ logType, path: path.join(dir, `${logType}.log`) }));

/** The sidecar's arguments on a log dir as a pod runs it: the state file on the log volume. */
export const sidecarArgs = (dir: string): string[] => ['--log-dir', dir, '--state-file', path.join(dir, '.logtype-sidecar.state')];

export const pipelines: FollowerSystem = {
  name: 'tail -F | jq',
  async start(files) {
    const child = spawn('bash', ['-c', pipelineScript(files)], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    await settle(300);
    return collect(child, true);
  },
};

export const sidecar: FollowerSystem = {
  name: 'logtype-sidecar',
  async start(files, extraArgs = []) {
    // The state file sits on the log volume, as in a pod (MMS_LOG_DIR).
    const args = [
      ...files.flatMap((f) => ['--file', `${f.logType}=${f.path}`]),
      '--state-file',
      path.join(path.dirname(files[0]!.path), '.logtype-sidecar.state'),
    ];
    const child = spawn(process.execPath, [SIDECAR_BIN, ...args, '--stats-interval', '0', ...extraArgs], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Ready once it has looked at each of these files (it also reports on the default files:
    // counting any report let a scenario write before its file was opened, and a file found
    // at start is followed from its end, so the first lines were not the sidecar's to read).
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lookedAt = (file: string): boolean =>
      stderr.split('\n').some((line) => /"event":"(opened|waiting|resumed|resume-lost)"/.test(line) && line.includes(`"path":${JSON.stringify(file)}`));
    const deadline = Date.now() + 10_000;
    while (!files.every((f) => lookedAt(f.path)) && Date.now() < deadline) await settle(10);
    return collect(child, false);
  },
};
