/**
 * The registry of log formats: every type logtype knows, once, with all that differs between
 * them (log-format.ts says what each field means). The sidecar's files (log-types.ts), the
 * readers, pretty's badges, the selection options, `-o json`, summary's sections and doctor's
 * rules all read it; none names a type of its own.
 */
import { agentRecordReader, isAgentLine, launcherRecordReader } from '../parse/parse-agent-line.js';
import { auditRecordReader, isAuditObject } from '../parse/parse-audit-line.js';
import {
  diagnosticRecordReader,
  isOperatorConsoleLine,
  isOperatorObject,
  isVersionHookLine,
  operatorRecordReader,
  versionHookRecordReader,
} from '../parse/parse-operator-line.js';
import { isServerObject, serverRecordReader } from '../parse/parse-server-line.js';
import { isServerTextLine } from '../parse/server-text-line.js';
import type { LogFormat, Writer } from './log-format.js';

/** The operator's log: not a type the sidecar writes; its lines are recognised as they are. */
export const OPERATOR_LOG_TYPE = 'operator';
/** The database pod's version-change hook: recognised by its lines too. */
export const VERSION_HOOK_LOG_TYPE = 'versionhook';
/** The sidecar's own diagnostics on stderr. */
export const SIDECAR_LOG_TYPE = 'logtype-sidecar';

/** The agent's text logs: one reader, one summary section, records over several lines, their own file and badge each. */
const agentLog = { reader: agentRecordReader, json: 'entry', writtenBy: 'agent', summary: 'messages', continuesRecords: true } as const;

/** In this order: the sidecar's files (its --help lists them so), its stream, then the logs read from elsewhere. */
export const LOG_FORMATS: readonly LogFormat[] = [
  {
    name: 'automation-agent-verbose',
    shortName: 'agent-verbose',
    color: 'blue',
    chartColor: '#1565c0',
    file: { variable: 'MDB_LOG_FILE_AUTOMATION_AGENT_VERBOSE', defaultName: 'automation-agent-verbose.log', holdsEntries: false },
    ...agentLog,
  },
  {
    name: 'automation-agent-stderr',
    shortName: 'agent-stderr',
    color: 'red',
    chartColor: '#6d4c41',
    file: { variable: 'MDB_LOG_FILE_AUTOMATION_AGENT_STDERR', defaultName: 'automation-agent-stderr.log', holdsEntries: false },
    ...agentLog,
  },
  {
    name: 'automation-agent',
    shortName: 'agent',
    color: 'cyan',
    chartColor: '#00838f',
    file: { variable: 'MDB_LOG_FILE_AUTOMATION_AGENT', defaultName: 'automation-agent.log', holdsEntries: false },
    ...agentLog,
  },
  {
    name: 'monitoring-agent',
    shortName: 'monitoring',
    color: 'yellow',
    chartColor: '#9e9d24',
    file: { variable: 'MDB_LOG_FILE_MONITORING_AGENT', defaultName: 'monitoring-agent.log', holdsEntries: false },
    ...agentLog,
  },
  {
    name: 'backup-agent',
    shortName: 'backup',
    color: 'yellow',
    chartColor: '#7cb342',
    file: { variable: 'MDB_LOG_FILE_BACKUP_AGENT', defaultName: 'backup-agent.log', holdsEntries: false },
    ...agentLog,
  },
  {
    name: 'mongodb',
    shortName: 'mongodb',
    color: 'green',
    chartColor: '#2e7d32',
    file: { variable: 'MDB_LOG_FILE_MONGODB', defaultName: 'mongodb.log', holdsEntries: false },
    reader: serverRecordReader,
    recognizesObject: isServerObject,
    recognizesLine: isServerTextLine,
    json: 'line',
    writtenBy: 'database',
    query: 'server',
    summary: 'server',
  },
  {
    name: 'mongodb-audit',
    shortName: 'audit',
    color: 'magenta',
    chartColor: '#6a1b9a',
    file: { variable: 'MDB_LOG_FILE_MONGODB_AUDIT', defaultName: 'mongodb-audit.log', holdsEntries: false },
    reader: auditRecordReader,
    recognizesObject: isAuditObject,
    json: 'line',
    writtenBy: 'database',
    query: 'audit',
    summary: 'audit',
  },
  {
    name: 'agent-launcher-script',
    shortName: 'launcher',
    color: 'gray',
    chartColor: '#37474f',
    file: { variable: 'MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT', defaultName: 'agent-launcher-script.log', holdsEntries: true },
    reader: launcherRecordReader,
    json: 'entry',
    writtenBy: 'agent',
    summary: 'messages',
  },
  // The agent's lines outside an entry are its stdout (`kubectl logs` of an agent container).
  { name: 'automation-agent-stdout', shortName: 'agent-stdout', color: 'cyan', chartColor: '#4fc3f7', stream: true, recognizesLine: isAgentLine, ...agentLog },
  {
    name: OPERATOR_LOG_TYPE,
    shortName: 'operator',
    color: 'magenta',
    chartColor: '#8e7cc3',
    reader: operatorRecordReader,
    recognizesObject: isOperatorObject,
    recognizesLine: isOperatorConsoleLine,
    // zap's console format prints an error's stack trace on the lines after it.
    continuesRecords: true,
    json: 'entry',
    writtenBy: 'operator',
    query: 'operator',
    summary: 'messages',
    problemsFirst: true,
  },
  {
    // The post-start hook the operator puts into the database pods (zap console, in the
    // server's container): its lines tell why a pod restarted itself for a version change.
    name: VERSION_HOOK_LOG_TYPE,
    shortName: 'versionhook',
    color: 'gray',
    chartColor: '#a1887f',
    reader: versionHookRecordReader,
    recognizesLine: isVersionHookLine,
    continuesRecords: true,
    json: 'entry',
    writtenBy: 'operator',
    summary: 'messages',
  },
  {
    name: SIDECAR_LOG_TYPE,
    shortName: 'sidecar',
    color: 'gray',
    chartColor: '#78909c',
    reader: diagnosticRecordReader,
    json: 'entry',
    writtenBy: 'logtype',
    summary: 'messages',
  },
];

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
