/** The parser for each log type. */
import type { EntrySource, LogRecord } from './log-record.js';
import { isAgentLog, parseAgentLine, parseAgentLineInBytes, parseLauncherLine } from './parse-agent-line.js';
import { parseAuditLine, parseEscapedAuditLine } from './parse-audit-line.js';
import { parseDiagnosticLine, parseOperatorLine } from './parse-operator-line.js';
import { parseServerLine, parseServerLineInBytes } from './parse-server-line.js';

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
 * literal as it stands in the input (still escaped), or from a raw line's bytes: most server
 * and agent lines and audit events are then read without decoding them. `source.contents`
 * decodes them when that is needed; like the entry's own contents, a record read so is used
 * while its input chunk is (the filter and summary do so).
 */
export function parseEntryRecord(logType: string, source: EntrySource): LogRecord | undefined {
  const record =
    source.literalStart >= 0
      ? recordInBytes(logType, source, source.literalStart + 1, source.literalEnd, true)
      : source.plainStart >= 0
        ? recordInBytes(logType, source, source.plainStart, source.plainEnd, false)
        : undefined;
  return record ?? parseRecord(logType, source.contents);
}

/** The record of the line in source.bytes[start, end), escaped in a literal or not; undefined: parse the contents. */
function recordInBytes(logType: string, source: EntrySource, start: number, end: number, escaped: boolean): LogRecord | undefined {
  if (logType === 'mongodb') return parseServerLineInBytes(source.bytes, start, end, escaped, source);
  if (isAgentLog(logType)) return parseAgentLineInBytes(source.bytes, start, end, source);
  const literal = escaped && logType === 'mongodb-audit' ? source.escapedContents : undefined;
  return literal === undefined ? undefined : parseEscapedAuditLine(literal, source);
}
