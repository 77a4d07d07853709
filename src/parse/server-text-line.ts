/**
 * The server's log before 4.4: text, `2022-07-29T06:09:45.380+0000 I  NETWORK  [listener]
 * connection accepted …` (time, severity, component padded, `[context]`, message). What the
 * 4.4+ log keeps in attributes is here in the message, read into the same names: an
 * operation's type, namespace, command (from the shell's notation, shell-document.ts), plan,
 * figures and duration; an applied oplog entry's; a transaction's.
 */
import { levelOf, type LogRecord } from './log-record.js';
import { parseLogTime } from './log-time.js';
import { shellDocumentAt } from './shell-document.js';
import { integerValue } from './json-value.js';

const TEXT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)\s+([FEWID]\d?)\s+(\S+)\s+\[([^\]]*)\]\s?(.*)$/;

/** A pre-4.4 line's head up to a fatal or error severity: `2020-03-12T00:05:01.372+0000 F `. */
const TEXT_FATAL_OR_ERROR = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?\s+[FE]\s/;
/** A server line's head: a pre-4.4 line's time, or a 4.4+ line's first key. */
const SERVER_HEAD = /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d|\{\s*"t"\s*:)/;

/**
 * Whether a pre-4.4 line is fatal or an error: its message may go on over the lines after it
 * that have no head (an invariant's `***aborting after invariant() failure`, a signal's
 * `BEGIN BACKTRACE` … `END BACKTRACE`). Lines of 4.4 and later never do: each is whole JSON.
 */
export const isTextFatalOrError = (line: string): boolean => TEXT_FATAL_OR_ERROR.test(line);

/** Whether a line has no server head (no pre-4.4 time, no 4.4+ `{"t":`): after a fatal or error text line, a line of its message. */
export const hasNoServerHead = (line: string): boolean => !SERVER_HEAD.test(line);

/** A pre-4.4 server line outside an entry (an old server's output, a copied log). */
export function isServerTextLine(line: string): boolean {
  const first = line.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && TEXT_LINE.test(line);
}

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
    attrs: textAttrs(text[5]!),
  };
}

/** `command shop.orders … planSummary: COLLSCAN … docsExamined:9 … 1234ms` */
const TEXT_OPERATION = /^(command|query|update|remove|insert|getmore|killcursors|delete|write) (\S+) .*?(\d+)ms$/;
/** `applied op: CRUD { ts: …, op: "u", ns: "shop.orders", … }, took 112ms` */
const APPLIED_OP = /^applied op: (\w+) .*?took (\d+)ms$/;
/** `transaction parameters:{ lsid: …, txnNumber: 1, … }, readTimestamp:… terminationCause:committed … 5ms` */
const TRANSACTION = /^transaction parameters:.*?(\d+)ms$/;
const TEXT_FIGURES =
  /\b(cursorid|docsExamined|keysExamined|nreturned|nReturned|nMatched|nModified|ninserted|ndeleted|numYields|reslen|queryHash|planCacheKey|terminationCause|timeActiveMicros|timeInactiveMicros):(\S+)/g;
const TEXT_PLAN = / planSummary: ([A-Z_]+(?: \{[^}]*\})?)/;
const TEXT_APP = / appName: "((?:[^"\\]|\\.)*)"/;

/** The attributes a text line's message holds, in the 4.4 log's names; undefined for a message without any. */
function textAttrs(message: string): Record<string, unknown> | undefined {
  const operation = TEXT_OPERATION.exec(message);
  if (operation) return operationAttrs(message, operation[1]!, operation[2]!, Number(operation[3]));
  const applied = APPLIED_OP.exec(message);
  if (applied) {
    // The entry is `CRUD` or `command`, as in 4.4's attributes; `{ ... }` (nothing logged) reads as none.
    const entry = documentAfter(message, `applied op: ${applied[1]} `);
    return { ...(entry ? { [applied[1] === 'CRUD' ? 'CRUD' : 'command']: entry } : {}), durationMillis: Number(applied[2]) };
  }
  const transaction = TRANSACTION.exec(message);
  if (transaction) {
    const parameters = documentAfter(message, 'transaction parameters:');
    return { ...(parameters ? { parameters } : {}), ...figures(message), durationMillis: Number(transaction[1]) };
  }
  return undefined;
}

function operationAttrs(message: string, type: string, ns: string, durationMillis: number): Record<string, unknown> {
  const attrs: Record<string, unknown> = { type, ns };
  const app = TEXT_APP.exec(message);
  if (app) attrs['appName'] = app[1];
  // `command: find { find: … }`, a statement's `command: { q: … }`, or a legacy `query: { … }`.
  const commandAt = message.indexOf(' command: ');
  if (commandAt >= 0) {
    const after = commandAt + ' command: '.length;
    const name = /^(\w+) \{/.exec(message.slice(after, after + 64));
    const document = shellDocumentAt(message, name ? after + name[0].length - 1 : after)?.value;
    attrs['command'] = document ?? (name ? { [name[1]!]: null } : undefined);
  } else {
    const query = documentAfter(message, ' query: ');
    if (query) attrs['command'] = query;
  }
  if (attrs['command'] === undefined) delete attrs['command'];
  const origin = documentAfter(message, ' originatingCommand: ');
  if (origin) attrs['originatingCommand'] = origin;
  const plan = TEXT_PLAN.exec(message);
  if (plan) attrs['planSummary'] = plan[1];
  Object.assign(attrs, figures(message));
  attrs['durationMillis'] = durationMillis;
  return attrs;
}

/** The shell document right after `label` in the message. */
function documentAfter(message: string, label: string): Record<string, unknown> | undefined {
  const at = message.indexOf(label);
  return at < 0 ? undefined : shellDocumentAt(message, at + label.length)?.value;
}

function figures(message: string): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const [, key, value] of message.matchAll(TEXT_FIGURES)) {
    found[key === 'nReturned' ? 'nreturned' : key!] = /^\d+$/.test(value!) ? integerValue(value!) : value;
  }
  return found;
}

/** `connection accepted from 10.0.0.1:5 #26705 (68 connections now open)`, `end connection 10.0.0.1:5 (67 connections now open)` */
const TEXT_CONNECTION = /^(connection accepted from|end connection) \S+(?: #\d+)? \((\d+) connections? now open\)/;

/** A text line's connection opened or ended, and how many were open after it. */
export function textConnectionEvent(message: string): { readonly opened: boolean; readonly open: number } | undefined {
  const event = TEXT_CONNECTION.exec(message);
  return event ? { opened: event[1] === 'connection accepted from', open: Number(event[2]) } : undefined;
}

/** A document in the shell's notation, cut from a template: `{ … }` says one was there. */
const BRACES = /\{[^{}]*\}/g;
const DOCUMENT_MARK = '\u0001';
const OPERATION_TEMPLATE = /^(command|query|update|remove|insert|getmore|killcursors|delete|write) (\S+)(?: appName: "(?:[^"\\]|\\.)*")? (?:command: (\w+)|command:|query:)/;

/**
 * The words a text line's message is made of, without what varies from line to line (its
 * documents; its numbers are masked by the caller): what groups text messages as 4.4's ids
 * do. An operation is its type, namespace and command (`command config.$cmd command: update`);
 * an applied entry and a transaction their kind; empty: the message says nothing.
 */
export function textMessageTemplate(message: string): string {
  const operation = OPERATION_TEMPLATE.exec(message);
  if (operation) return `${operation[1]} ${operation[2]}${operation[3] ? ` command: ${operation[3]}` : ''}`;
  const applied = APPLIED_OP.exec(message);
  if (applied) return `applied op: ${applied[1]}`;
  const transaction = TRANSACTION.exec(message);
  if (transaction) {
    const cause = /terminationCause:(\w+)/.exec(message);
    return cause ? `transaction ${cause[1]}` : 'transaction';
  }
  let template = message.trim();
  // Innermost documents first, each left as a mark without braces, until none is left.
  for (let before = ''; before !== template; ) {
    before = template;
    template = template.replace(BRACES, DOCUMENT_MARK);
  }
  return template.replaceAll(DOCUMENT_MARK, '{…}');
}
