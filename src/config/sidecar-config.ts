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
  /** The operator's variable that names this type's file. */
  readonly variable?: string | undefined;
  /** What chose the path: `--file`, the variable, or the log dir. */
  readonly origin?: 'flag' | 'variable' | 'log-dir' | undefined;
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

/** Known types that are not files: streams (the agent's stdout), fed on stdin or a named pipe. */
const isStreamType = (type: string): boolean => KNOWN_LOG_TYPES.includes(type) && !findFileLogType(type);

export function resolveSources(env: NodeJS.ProcessEnv, flags: SourceFlags): Parsed<ResolvedSources> {
  const logDir = flags.logDir ?? nonEmpty(env['MMS_LOG_DIR']) ?? DEFAULT_LOG_DIR;
  const overrides = new Map<string, string>();
  for (const spec of flags.files ?? []) {
    const eq = spec.indexOf('=');
    const type = eq > 0 ? spec.slice(0, eq) : '';
    const file = eq > 0 ? spec.slice(eq + 1) : '';
    if (!type || !file) return { ok: false, error: `--file takes TYPE=PATH, not "${spec}"` };
    if (isStreamType(type)) {
      return {
        ok: false,
        error: `--file: ${type} is a stream (the agent's stdout), not a file: pipe it in (agent | logtype-sidecar --stdin-type ${type}), or give a named pipe as stdin (logtype-sidecar --stdin-type ${type} 0<>PIPE)`,
      };
    }
    if (!findFileLogType(type)) return { ok: false, error: unknownType(type, '--file') };
    const earlier = overrides.get(type);
    if (earlier !== undefined) return { ok: false, error: `--file: ${type} is given twice ("${earlier}" and "${file}"); one file per type` };
    overrides.set(type, file);
  }
  if (flags.stdinType !== undefined && !KNOWN_LOG_TYPES.includes(flags.stdinType)) {
    return { ok: false, error: unknownType(flags.stdinType, '--stdin-type') };
  }
  const files = FILE_LOG_TYPES.map((type): FileSource => {
    const flag = overrides.get(type.name);
    const variable = nonEmpty(env[type.envVar]);
    return {
      logType: type.name,
      path: flag ?? variable ?? path.join(logDir, type.defaultFile),
      passThroughEntries: type.holdsEntries,
      variable: type.envVar,
      origin: flag !== undefined ? 'flag' : variable !== undefined ? 'variable' : 'log-dir',
    };
  });
  // One file under two types (`--file mongodb-audit=…/mongodb.log`, the server's own path too):
  // its lines would leave twice, under each type. Told by the paths as written, made absolute.
  const byPath = new Map<string, FileSource>();
  for (const file of files) {
    const resolved = path.resolve(file.path);
    const other = byPath.get(resolved);
    if (other) return { ok: false, error: `${resolved} is followed as ${other.logType} (${sourceWords(other)}) and as ${file.logType} (${sourceWords(file)}): its lines would be sent twice; give each type its own file` };
    byPath.set(resolved, file);
  }
  return { ok: true, value: { logDir, files, stdinType: flags.stdinType } };
}

/** Where a file's path came from, to name in a message. */
function sourceWords(file: FileSource): string {
  return file.origin === 'flag' ? `--file ${file.logType}=${file.path}` : file.origin === 'variable' ? `$${file.variable}` : '--log-dir';
}

function unknownType(type: string, flag: string): string {
  return `${flag}: unknown log type "${type}" (known: ${KNOWN_LOG_TYPES.join(', ')})`;
}

/**
 * A variable's value, spaces around it taken off (a value pasted into a manifest with a space
 * before the path named a relative path ` /var/log/x.log`); undefined when nothing is left.
 */
function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
