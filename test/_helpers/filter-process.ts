/**
 * The real `logtype` command: stdin in, stdout and exit code out.
 */
import { spawnSync } from 'node:child_process';
import { FILTER_BIN, cleanEnv } from './sidecar-process.js';

export interface FilterRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runFilter(args: readonly string[], input: string | Buffer = '', env: NodeJS.ProcessEnv = {}): FilterRun {
  const result = spawnSync(process.execPath, [FILTER_BIN, ...args], {
    input,
    env: cleanEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, ...env }),
    maxBuffer: 1 << 30,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

/** Entry lines for a test input. */
export const entryLine = (logType: string, contents: string, partial = false): string =>
  JSON.stringify({ logType, contents, ...(partial ? { partial: true } : {}) });
