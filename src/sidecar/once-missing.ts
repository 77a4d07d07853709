/**
 * What `--once` says of the followed files that were not there: a line a file, or, where
 * their directory itself is not there (a mistyped --log-dir, a volume not mounted), one line for
 * the directory and its files; and whether anything else was read, as it was.
 */
import path from 'node:path';
import { danglingFields, danglingLink, danglingWords, type DanglingLink } from '../follow/path-state.js';

export interface MissingFile {
  readonly logType: string;
  readonly path: string;
  /** The variable that sets its path (the launcher's MDB_LOG_FILE_*). */
  readonly variable: string | undefined;
  /** What chose its path: `--file`, its variable, or the log dir (config/sidecar-config.ts). */
  readonly origin?: 'flag' | 'variable' | 'log-dir' | undefined;
  /** Something other than a file is at the path (`a directory`); undefined: nothing is. */
  readonly what?: string | undefined;
  /** A symbolic link, the path or a directory on its way, to what is not there (danglingLink). */
  readonly dangling?: DanglingLink | undefined;
}

/** What to check for a directory that is not there: whatever named its files' paths. */
function directoryFix(files: readonly MissingFile[]): string {
  const named = files.map((file) =>
    file.origin === 'variable' && file.variable ? file.variable : file.origin === 'flag' ? `--file ${file.logType}=PATH` : '--log-dir or MMS_LOG_DIR',
  );
  return `Check ${[...new Set(named)].join(', ')}`;
}

export interface MissingReport {
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** What is at a missing file's directory's path. */
export type DirectoryState = 'directory' | 'missing' | 'not a directory' | 'not searchable';

/**
 * `present`: how many followed files were there and read. `directoryState`: what is at a
 * directory's path (asked once a directory).
 */
export function missingReports(missing: readonly MissingFile[], present: number, exitCode: number, directoryState: (dir: string) => DirectoryState): MissingReport[] {
  const rest = present > 0 ? 'the other files were read' : 'nothing was read';
  const byDir = new Map<string, MissingFile[]>();
  for (const file of missing) {
    const dir = path.dirname(file.path);
    const files = byDir.get(dir);
    if (files) files.push(file);
    else byDir.set(dir, [file]);
  }
  const reports: MissingReport[] = [];
  for (const [dir, files] of byDir) {
    const state = directoryState(dir);
    if (state !== 'directory') {
      const dangling = state === 'missing' ? danglingLink(dir) : undefined;
      reports.push({
        fields: { event: 'missing-dir', path: dir, files: files.map((file) => path.basename(file.path)), ...danglingFields(dir, dangling) },
        message: `--once: ${state === 'missing' ? `the directory ${dir} is not there${dangling ? ` (${danglingWords(dir, dangling)})` : ''}` : state === 'not searchable' ? `the directory ${dir} may not be searched by this user` : `${dir} is not a directory`} (${files.length === 1 ? 'the file' : `the ${files.length} files`} followed in it: ${files.map((file) => path.basename(file.path)).join(', ')}); ${rest} (exit ${exitCode}). ${directoryFix(files)}`,
      });
      continue;
    }
    for (const file of files) {
      // What set the path: a --file's path is not the variable's to fix.
      const setBy = file.origin === 'flag' ? { flag: `--file ${file.logType}` } : { variable: file.variable };
      reports.push({
        fields: { event: 'missing', source: file.logType, path: file.path, ...setBy, ...(file.what ? { what: file.what } : {}), ...danglingFields(file.path, file.dangling) },
        message: `--once: ${file.path} is ${file.what ? `${file.what}, not a file` : file.dangling !== undefined ? danglingWords(file.path, file.dangling) : 'not there'}; ${rest} (exit ${exitCode})`,
      });
    }
  }
  return reports;
}
