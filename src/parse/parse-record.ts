/** The parser for each log type. */
import type { LogRecord } from './log-record.js';
import { parseAgentLine, parseLauncherLine } from './parse-agent-line.js';
import { parseAuditLine } from './parse-audit-line.js';
import { parseDiagnosticLine, parseOperatorLine } from './parse-operator-line.js';
import { parseServerLine } from './parse-server-line.js';

/** The operator's log is not a type the sidecar writes: its lines are recognised as they are. */
export const OPERATOR_LOG_TYPE = 'operator';

export function parseRecord(logType: string, contents: string): LogRecord | undefined {
  switch (logType) {
    case 'mongodb':
      return parseServerLine(contents);
    case 'mongodb-audit':
      return parseAuditLine(contents);
    case 'logtype-sidecar':
      return parseDiagnosticLine(contents);
    case OPERATOR_LOG_TYPE:
      return parseOperatorLine(contents);
    case 'agent-launcher-script':
      return parseLauncherLine(contents);
    default:
      return logType.endsWith('-agent') || logType.startsWith('automation-agent') ? parseAgentLine(contents) : undefined;
  }
}
