/**
 * The log types a database pod writes: one table that feeds the sidecar's configuration,
 * its --help and the README, so a type is named in one place only.
 */
export interface FileLogType {
  /** The `logType` written in each entry. */
  readonly name: string;
  /** The operator's environment variable that names the file. */
  readonly envVar: string;
  /** The file name under `$MMS_LOG_DIR` when the variable is unset. */
  readonly defaultFile: string;
  /** The file's lines are already entries (the launcher's `script_log` wraps them). */
  readonly holdsEntries: boolean;
}

export const DEFAULT_LOG_DIR = '/var/log/mongodb-mms-automation';

const fileType = (name: string, holdsEntries = false): FileLogType => ({
  name,
  envVar: `MDB_LOG_FILE_${name.toUpperCase().replaceAll('-', '_')}`,
  defaultFile: `${name}.log`,
  holdsEntries,
});

export const FILE_LOG_TYPES: readonly FileLogType[] = [
  fileType('automation-agent-verbose'),
  fileType('automation-agent-stderr'),
  fileType('automation-agent'),
  fileType('monitoring-agent'),
  fileType('backup-agent'),
  fileType('mongodb'),
  fileType('mongodb-audit'),
  fileType('agent-launcher-script', true),
];

/** The type of the sidecar's own diagnostics on stderr. */
export const SIDECAR_LOG_TYPE = 'logtype-sidecar';

/** Every type a source may carry: the files' types, and the agent's stdout, a stream only. */
export const KNOWN_LOG_TYPES: readonly string[] = [
  ...FILE_LOG_TYPES.map((t) => t.name),
  'automation-agent-stdout',
];

export function findFileLogType(name: string): FileLogType | undefined {
  return FILE_LOG_TYPES.find((t) => t.name === name);
}
