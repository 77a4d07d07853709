/**
 * Every log type logtype knows, as data, once: its names, its file or stream, its colours, its
 * `-o json` shape, its writer, its selection family and its summary section. The registry of
 * formats (log-formats.ts) adds how each is read; the sidecar (log-types.ts) reads only this,
 * so it never loads the parsers.
 */
import type { LogTypeFacts } from './log-format.js';

/** The operator's log: not a type the sidecar writes; its lines are recognised as they are. */
export const OPERATOR_LOG_TYPE = 'operator';
/** The database pod's version-change hook: recognised by its lines too. */
export const VERSION_HOOK_LOG_TYPE = 'versionhook';
/** The sidecar's own diagnostics on stderr. */
export const SIDECAR_LOG_TYPE = 'logtype-sidecar';
/** The pod script's (sidecar/logtype-pod.sh): the same pino shape, from its pipes and its launcher patch. */
export const POD_SCRIPT_LOG_TYPE = 'logtype-pod';

/** The agent's text logs: one summary section, records over several lines, their own file and badge each. */
const agentLog = { json: 'entry', writtenBy: 'agent', summary: 'messages', continuesRecords: true } as const;

/** In this order: the sidecar's files (its --help lists them so), its stream, then the logs read from elsewhere. */
export const LOG_TYPE_FACTS = [
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
    json: 'entry',
    writtenBy: 'agent',
    summary: 'messages',
  },
  // The agent's lines outside an entry are its stdout (`kubectl logs` of an agent container).
  { name: 'automation-agent-stdout', shortName: 'agent-stdout', color: 'cyan', chartColor: '#4fc3f7', stream: true, ...agentLog },
  {
    name: OPERATOR_LOG_TYPE,
    shortName: 'operator',
    color: 'magenta',
    chartColor: '#8e7cc3',
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
    json: 'entry',
    writtenBy: 'logtype',
    summary: 'messages',
  },
  {
    name: POD_SCRIPT_LOG_TYPE,
    shortName: 'logtype-pod',
    color: 'gray',
    chartColor: '#546e7a',
    json: 'entry',
    writtenBy: 'logtype',
    summary: 'messages',
  },
] as const satisfies readonly LogTypeFacts[];

/** A type logtype knows, by its name. */
export type LogTypeName = (typeof LOG_TYPE_FACTS)[number]['name'];

