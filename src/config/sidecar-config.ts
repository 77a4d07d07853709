/**
 * The sidecar's sources from the operator's environment and the command line, as the pod's
 * launcher sets them: `--file TYPE=PATH` > `MDB_LOG_FILE_<TYPE>` > `--log-dir` > `MMS_LOG_DIR`
 * > /var/log/mongodb-mms-automation, each file at `<dir>/<type>.log`.
 */
import path from 'node:path';
import { DEFAULT_LOG_DIR, FILE_LOG_TYPES, KNOWN_LOG_TYPES, findFileLogType } from '../log-types.js';
import type { Parsed } from './parse-size.js';

export interface FileSource {
  readonly logType: string;
  readonly path: string;
  /** Lines that are already entries pass through unwrapped (the launcher's own file). */
  readonly passThroughEntries: boolean;
}

export interface SourceFlags {
  readonly logDir?: string | undefined;
  /** `TYPE=PATH` overrides, in the order given. */
  readonly files?: readonly string[] | undefined;
  readonly stdinType?: string | undefined;
}

export interface ResolvedSources {
  readonly logDir: string;
  readonly files: readonly FileSource[];
  readonly stdinType: string | undefined;
}

export function resolveSources(env: NodeJS.ProcessEnv, flags: SourceFlags): Parsed<ResolvedSources> {
  const logDir = flags.logDir ?? nonEmpty(env['MMS_LOG_DIR']) ?? DEFAULT_LOG_DIR;
  const overrides = new Map<string, string>();
  for (const spec of flags.files ?? []) {
    const eq = spec.indexOf('=');
    const type = eq > 0 ? spec.slice(0, eq) : '';
    const file = eq > 0 ? spec.slice(eq + 1) : '';
    if (!type || !file) return { ok: false, error: `--file takes TYPE=PATH, not "${spec}"` };
    if (!findFileLogType(type)) return { ok: false, error: unknownType(type, '--file') };
    overrides.set(type, file);
  }
  if (flags.stdinType !== undefined && !KNOWN_LOG_TYPES.includes(flags.stdinType)) {
    return { ok: false, error: unknownType(flags.stdinType, '--stdin-type') };
  }
  const files = FILE_LOG_TYPES.map((type) => ({
    logType: type.name,
    path: overrides.get(type.name) ?? nonEmpty(env[type.envVar]) ?? path.join(logDir, type.defaultFile),
    passThroughEntries: type.holdsEntries,
  }));
  return { ok: true, value: { logDir, files, stdinType: flags.stdinType } };
}

function unknownType(type: string, flag: string): string {
  return `${flag}: unknown log type "${type}" (known: ${KNOWN_LOG_TYPES.join(', ')})`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
