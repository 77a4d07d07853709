/**
 * klog's lines, as Kubernetes' client library (client-go) writes them inside the operator:
 * `E1122 10:00:02.000000       1 reflector.go:138] … is forbidden: …`: the level's letter, the
 * month and day, the time, the thread, the file and line, then the message. The year is not
 * written, so the line has no time of its own (kubectl's stamp places it).
 */
import type { Level, LogRecord } from './log-record.js';

const KLOG_LINE = /^([IWEF])(\d{4}) (\d\d:\d\d:\d\d\.\d{6})\s+(\d+) ([^\s\]]+:\d+)\] ?(.*)$/s;
const LEVELS: Readonly<Record<string, Level>> = { I: 'info', W: 'warn', E: 'error', F: 'fatal' };

export function isKlogLine(line: string): boolean {
  return KLOG_LINE.test(line);
}

export function parseKlogLine(line: string): LogRecord | undefined {
  const match = KLOG_LINE.exec(line);
  if (!match) return undefined;
  return { level: LEVELS[match[1]!]!, severity: match[1]!, component: match[5]!, message: match[6]! };
}
