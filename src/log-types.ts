/**
 * The log types a database pod writes, as the sidecar's configuration, its --help and the
 * README read them: a view of the log types' facts (formats/log-type-facts.ts), where each
 * type is declared once. Facts only: the sidecar loads no parser.
 */
import { LOG_TYPE_FACTS } from './formats/log-type-facts.js';
import type { LogTypeFacts } from './formats/log-format.js';

export { SIDECAR_LOG_TYPE } from './formats/log-type-facts.js';

const FACTS: readonly LogTypeFacts[] = LOG_TYPE_FACTS;

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

/** The files the sidecar follows, in the registry's order. */
export const FILE_LOG_TYPES: readonly FileLogType[] = FACTS.flatMap(({ name, file }) =>
  file ? [{ name, envVar: file.variable, defaultFile: file.defaultName, holdsEntries: file.holdsEntries }] : [],
);

/** Every type a source may carry: the files' types, and the streams' (the agent's stdout). */
export const KNOWN_LOG_TYPES: readonly string[] = [
  ...FILE_LOG_TYPES.map((t) => t.name),
  ...FACTS.filter((facts) => facts.stream).map((facts) => facts.name),
];

export function findFileLogType(name: string): FileLogType | undefined {
  return FILE_LOG_TYPES.find((t) => t.name === name);
}
