/**
 * The server's log before 4.4: text, `2022-07-29T06:09:45.380+0000 I  NETWORK  [listener]
 * connection accepted …` (time, severity, component padded, `[context]`, message); an
 * operation's figures are in its message.
 */
import { levelOf, parseLogTime, type LogRecord } from './log-record.js';

const TEXT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\s+([FEWID]\d?)\s+(\S+)\s+\[([^\]]*)\]\s?(.*)$/;

export function parseServerTextLine(line: string): LogRecord | undefined {
  const text = TEXT_LINE.exec(line);
  if (!text) return undefined;
  return {
    time: parseLogTime(text[1]),
    severity: text[2],
    level: levelOf(text[2]),
    component: text[3],
    context: text[4],
    message: text[5]!,
    attrs: textOperationAttrs(text[5]!),
  };
}

/** `command shop.orders … planSummary: COLLSCAN … docsExamined:9 … 1234ms`, in the 4.4 attributes' names. */
const TEXT_OPERATION = /^(command|query|update|remove|insert|getmore|killcursors|delete|write) (\S+) .*?(\d+)ms$/;
const TEXT_FIGURES = /\b(docsExamined|keysExamined|nreturned|nReturned|nMatched|queryHash|planCacheKey):(\S+)/g;
const TEXT_PLAN = / planSummary: ([A-Z_]+(?: \{[^}]*\})?)/;
const TEXT_COMMAND = / command: (\w+)/;

function textOperationAttrs(message: string): Record<string, unknown> | undefined {
  const operation = TEXT_OPERATION.exec(message);
  if (!operation) return undefined;
  const attrs: Record<string, unknown> = { type: operation[1], ns: operation[2] };
  const command = TEXT_COMMAND.exec(message);
  if (command) attrs['command'] = { [command[1]!]: null };
  const plan = TEXT_PLAN.exec(message);
  if (plan) attrs['planSummary'] = plan[1];
  for (const [, key, value] of message.matchAll(TEXT_FIGURES)) {
    attrs[key === 'nReturned' ? 'nreturned' : key!] = /^\d+$/.test(value!) ? Number(value) : value;
  }
  attrs['durationMillis'] = Number(operation[3]);
  return attrs;
}
