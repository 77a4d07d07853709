/** The parser for each log type. */
import type { EntrySource, LogRecord } from './log-record.js';
import { isAgentLog, parseAgentLine, parseEscapedAgentLine, parseLauncherLine } from './parse-agent-line.js';
import { parseAuditLine, parseEscapedAuditLine } from './parse-audit-line.js';
import { parseDiagnosticLine, parseOperatorLine } from './parse-operator-line.js';
import { parseEscapedServerLine, parseServerLine } from './parse-server-line.js';

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
      return isAgentLog(logType) ? parseAgentLine(contents) : undefined;
  }
}

/**
 * An entry's record. When the entry was read by its bytes, its line is read from its contents
 * literal as it stands in the input (still escaped): most server and agent lines and audit
 * events are then read without decoding them. `source.contents` decodes them when that is
 * needed; like the entry's own contents, a record read so is used while its input chunk is
 * (the filter and summary do so).
 */
export function parseEntryRecord(logType: string, source: EntrySource): LogRecord | undefined {
  if (source.literalStart >= 0) {
    if (logType === 'mongodb') {
      const record = parseEscapedServerLine(source.bytes, source.literalStart + 1, source.literalEnd, source);
      if (record) return record;
    } else if (isAgentLog(logType)) {
      const record = parseEscapedAgentLine(source.bytes, source.literalStart + 1, source.literalEnd, source);
      if (record) return record;
    } else if (logType === 'mongodb-audit') {
      const literal = source.escapedContents;
      const record = literal === undefined ? undefined : parseEscapedAuditLine(literal, source);
      if (record) return record;
    }
  }
  return parseRecord(logType, source.contents);
}
