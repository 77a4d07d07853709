/**
 * The registry of log formats: every type logtype knows (its facts, log-type-facts.ts) with how
 * its lines are read, declared here; log-format.ts says what each field means. The readers,
 * pretty's badges, the selection options, `-o json`, summary's sections and doctor's rules all
 * read it (the sidecar reads the facts alone); none names a type of its own.
 */
import { agentLogRecordReader, agentRecordReader, isAgentContinuation, isAgentLine, launcherRecordReader } from '../parse/parse-agent-line.js';
import { auditRecordReader, isAuditObject } from '../parse/parse-audit-line.js';
import {
  diagnosticRecordReader,
  isOperatorConsoleLine,
  isOperatorObject,
  isVersionHookLine,
  operatorRecordReader,
  versionHookRecordReader,
} from '../parse/parse-operator-line.js';
import { isGoTraceLine } from '../parse/go-trace-line.js';
import { isServerObject, serverRecordReader } from '../parse/parse-server-line.js';
import { hasNoServerHead, isServerTextLine, isTextFatalOrError } from '../parse/server-text-line.js';

/** A digit: the first byte of a pre-4.4 line (its time); a 4.4+ line's is `{`. */
const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;
const textFatalOrError = (firstByte: number, contents: () => string): boolean => isDigit(firstByte) && isTextFatalOrError(contents());
import type { LogFormat, LogReading, Writer } from './log-format.js';
import { LOG_TYPE_FACTS, type LogTypeName } from './log-type-facts.js';

export { OPERATOR_LOG_TYPE, POD_SCRIPT_LOG_TYPE, SIDECAR_LOG_TYPE, VERSION_HOOK_LOG_TYPE } from './log-type-facts.js';

/** The agents' own log files, which their logger writes: one reader for all of them. */
const agentLogReading: LogReading = { reader: agentLogRecordReader };

/** How each type is read: every type of the facts has exactly one entry (the compiler checks). */
const READING: Readonly<Record<LogTypeName, LogReading>> = {
  'automation-agent-verbose': agentLogReading,
  // What the agent writes to stderr: its lines, and a Go program's free text (a panic, `Error:`).
  'automation-agent-stderr': { reader: agentRecordReader },
  'automation-agent': agentLogReading,
  'monitoring-agent': agentLogReading,
  'backup-agent': agentLogReading,
  // A pre-4.4 fatal or error line goes on with the lines of no head after it (a backtrace).
  mongodb: { reader: serverRecordReader, recognizesObject: isServerObject, recognizesLine: isServerTextLine, holdsRecordAfter: textFatalOrError, continuesWith: hasNoServerHead },
  'mongodb-audit': { reader: auditRecordReader, recognizesObject: isAuditObject },
  'agent-launcher-script': { reader: launcherRecordReader },
  'automation-agent-stdout': { reader: agentRecordReader, recognizesLine: isAgentLine, continuesWith: isAgentContinuation },
  // zap's console records go on only with a stack trace or a panic's report.
  operator: { reader: operatorRecordReader, recognizesObject: isOperatorObject, recognizesLine: isOperatorConsoleLine, continuesWith: isGoTraceLine },
  versionhook: { reader: versionHookRecordReader, recognizesLine: isVersionHookLine, continuesWith: isGoTraceLine },
  'logtype-sidecar': { reader: diagnosticRecordReader },
  'logtype-pod': { reader: diagnosticRecordReader },
};

/** In the facts' order: the sidecar's files (its --help lists them so), its stream, then the logs read from elsewhere. */
export const LOG_FORMATS: readonly LogFormat[] = LOG_TYPE_FACTS.map((facts) => ({ ...facts, ...READING[facts.name] }));

const byName = new Map(LOG_FORMATS.map((format) => [format.name, format]));

/**
 * The format of a type, by its exact name; undefined for a type logtype does not know (its
 * lines are shown as they are). A map lookup: callers on a per-line path resolve a type once
 * and keep the answer.
 */
export function logFormat(logType: string): LogFormat | undefined {
  return byName.get(logType);
}

const byAnyName = new Map(LOG_FORMATS.flatMap((format) => [[format.shortName, format] as const, [format.name, format] as const]));

/** The format a person named, by its name or its short name (`audit`, `agent`, `sidecar`). */
export function findLogFormat(name: string): LogFormat | undefined {
  return byAnyName.get(name);
}

/** The formats whose JSON lines are recognised without the sidecar's wrapper. */
export const OBJECT_RECOGNIZING_FORMATS: readonly LogFormat[] = LOG_FORMATS.filter((format) => format.recognizesObject !== undefined);

/** The formats whose text lines are recognised without the sidecar's wrapper. */
export const LINE_RECOGNIZING_FORMATS: readonly LogFormat[] = LOG_FORMATS.filter((format) => format.recognizesLine !== undefined);

/** The names of the types one program writes. */
export function logTypesWrittenBy(writer: Writer): string[] {
  return LOG_FORMATS.filter((format) => format.writtenBy === writer).map((format) => format.name);
}
