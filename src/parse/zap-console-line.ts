/**
 * zap's console encoder, as the operator has written its log and the database pod's
 * version-change hook (`versionhook`) writes its own: the time, the level in capitals, the
 * logger's name and the caller where they are configured, the message, then the fields as one
 * JSON object written with `": "`; tabs between them, which text pasted into an issue turns
 * into runs of spaces (a tab at a tab stop becomes one space):
 *
 *   2020-09-13T08:33:14.361Z	INFO	operator/mongodbreplicaset_controller.go:61	-> ReplicaSet.Reconcile	{"ReplicaSet": "data/devops"}
 *
 * The time is ISO 8601 (zap's development default) or epoch seconds (`1.5798189394106023e+09`);
 * the level may be lower case, or coloured. A line that holds a second record glued to the
 * first (two writers on one stream) keeps the second as its `glued` attribute: shown, never
 * lost, never a crash.
 */
import { jsonObjectAt } from './json-members.js';
import { levelOf, type LogRecord } from './log-record.js';
import { parseLogTime } from './log-time.js';

const TIME = String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)?|\d{9,10}(?:\.\d+)?|\d\.\d+[eE]\+\d\d`;
const LEVEL = 'DEBUG|INFO|WARN|ERROR|DPANIC|PANIC|FATAL|debug|info|warn|error|dpanic|panic|fatal';
/** Colour codes zap's coloured level encoders put around the level. */
const ANSI = String.raw`(?:\x1b\[[0-9;]*m)*`;
/** The time and the level, then a separator (or the end: a record with an empty message). */
const HEAD = new RegExp(`^(${TIME})[\\t ]+${ANSI}(${LEVEL})${ANSI}(?:[\\t ]+|$)`);
/** Where a second record starts inside a line, glued on without its newline. */
const GLUED_HEAD = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)[\t ]+(?:DEBUG|INFO|WARN|ERROR|DPANIC|PANIC|FATAL)[\t ]/g;
/** A caller as zap writes it: `path/file.go:61`. */
const CALLER = /^[^\s:]+:\d+$/;
/** A logger's name (`controller-runtime.metrics`): one word of name characters. */
const NAME = /^[A-Za-z_][\w.\-/]*$/;

/** A zap console line's parts. */
export interface ZapConsoleParts {
  readonly timeText: string;
  readonly level: string;
  readonly name: string | undefined;
  readonly caller: string | undefined;
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
  /** What followed the record on its line: a second record glued on. */
  readonly glued: string | undefined;
}

/** True for a line that starts as zap's console encoder starts one: a time, then a level. */
export function isZapConsoleLine(line: string): boolean {
  const first = line.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && HEAD.test(line);
}

/** The line's parts; undefined when it does not start with zap's time and level. */
export function zapConsoleParts(line: string): ZapConsoleParts | undefined {
  const head = HEAD.exec(line);
  if (!head) return undefined;
  let rest = line.slice(head[0].length);
  let glued: string | undefined;
  GLUED_HEAD.lastIndex = 1;
  const second = GLUED_HEAD.exec(rest);
  if (second) {
    glued = rest.slice(second.index);
    rest = rest.slice(0, second.index);
  }
  const found = fieldsOf(rest);
  if (found) {
    rest = rest.slice(0, found.start);
    if (found.glued !== undefined) glued = glued === undefined ? found.glued : `${found.glued}${glued}`;
  }
  return { timeText: head[1]!, level: head[2]!, ...columnsOf(rest.trimEnd()), fields: found?.fields, glued };
}

/**
 * The fields object at the end of the rest: the first `{` after a blank from which a whole
 * object reads to the end of the line, or to a second record glued on.
 */
function fieldsOf(rest: string): { start: number; fields: Record<string, unknown>; glued: string | undefined } | undefined {
  for (let at = rest.indexOf('{'); at > 0; at = rest.indexOf('{', at + 1)) {
    const before = rest.charCodeAt(at - 1);
    if ((before !== 0x09 && before !== 0x20) || rest.charCodeAt(at + 1) !== 0x22) continue;
    const read = jsonObjectAt(rest, at);
    if (!read) continue;
    const tail = rest.slice(read.end).trim();
    if (tail === '') return { start: at, fields: read.object, glued: undefined };
    // A JSON record glued on after the fields.
    if (tail.startsWith('{') && jsonObjectAt(tail, 0)) return { start: at, fields: read.object, glued: tail };
  }
  return undefined;
}

/** The logger's name, the caller and the message, from the columns between the level and the fields. */
function columnsOf(text: string): { name: string | undefined; caller: string | undefined; message: string } {
  if (text.includes('\t')) {
    const columns = text.split('\t');
    if (columns.length > 1 && CALLER.test(columns[0]!)) return { name: undefined, caller: columns[0], message: columns.slice(1).join('\t') };
    if (columns.length > 2 && NAME.test(columns[0]!) && CALLER.test(columns[1]!)) return { name: columns[0], caller: columns[1], message: columns.slice(2).join('\t') };
    if (columns.length > 1 && NAME.test(columns[0]!)) return { name: columns[0], caller: undefined, message: columns.slice(1).join('\t') };
    return { name: undefined, caller: undefined, message: text };
  }
  // Pasted: the tabs became spaces. A caller is one word; a name is taken only where a caller
  // follows it, or two blanks do (a message's first word is followed by one).
  const first = /^(\S+)( +)(\S+)?( *)/.exec(text);
  if (!first) return { name: undefined, caller: CALLER.test(text) ? text : undefined, message: CALLER.test(text) ? '' : text };
  const [, word, gap, next, nextGap] = first;
  if (CALLER.test(word!)) return { name: undefined, caller: word, message: text.slice(word!.length + gap!.length) };
  if (NAME.test(word!) && next !== undefined && CALLER.test(next)) {
    return { name: word, caller: next, message: text.slice(word!.length + gap!.length + next.length + nextGap!.length) };
  }
  if (NAME.test(word!) && gap!.length >= 2) return { name: word, caller: undefined, message: text.slice(word!.length + gap!.length) };
  return { name: undefined, caller: undefined, message: text };
}

/**
 * The keys the operators name the resource they reconcile by, `namespace/name`: the kinds, the
 * Enterprise operator's Ops Manager and its application database (`OpsManager`, `ReplicaSet
 * (AppDB)`), its project config maps (`Project`), and controller-runtime's `request`.
 */
const RESOURCE_KEYS = [
  'ReplicaSet',
  'MongoDB',
  'ShardedCluster',
  'Standalone',
  'MongoDBOpsManager',
  'OpsManager',
  'ReplicaSet (AppDB)',
  'AppDB',
  'MongoDBUser',
  'MongoDBMultiCluster',
  'MongoDBCommunity',
  'Project',
  'resource',
  'request',
];

/** The fields that mark controller-runtime's own lines (`Reconciler error`), whose `name` and `namespace` are the resource's. */
const CONTROLLER_RUNTIME_KEYS = ['reconciler kind', 'reconcileID', 'controller'];

/** The resource a zap record is about, from its fields: `namespace/name` (or a name alone, where no namespace is said). */
export function resourceOf(fields: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!fields) return undefined;
  for (const key of RESOURCE_KEYS) {
    const value = fields[key];
    if (typeof value === 'string') return value;
    // controller-runtime 0.15+: the kind's key holds `{ name, namespace }`.
    if (typeof value === 'object' && value !== null) {
      const named = namespacedName(value as Record<string, unknown>);
      if (named !== undefined) return named;
    }
  }
  if (CONTROLLER_RUNTIME_KEYS.some((key) => key in fields)) return namespacedName(fields);
  return undefined;
}

function namespacedName(fields: Record<string, unknown>): string | undefined {
  const { name, namespace } = fields;
  if (typeof name !== 'string') return undefined;
  return typeof namespace === 'string' ? `${namespace}/${name}` : name;
}

/**
 * A console line as a record: its fields are its attributes, and its object is the one zap's
 * JSON encoder would have written (`level`, `ts`, `logger`, `caller`, `msg`, the fields), so
 * `--fields msg,ReplicaSet` means the same for both shapes of the log.
 */
export function parseZapConsoleLine(line: string): LogRecord | undefined {
  const parts = zapConsoleParts(line);
  if (!parts) return undefined;
  const attrs: Record<string, unknown> = { ...parts.fields };
  if (parts.glued !== undefined) attrs['glued'] = parts.glued;
  const object: Record<string, unknown> = { level: parts.level.toLowerCase(), ts: parts.timeText };
  if (parts.name !== undefined) object['logger'] = parts.name;
  if (parts.caller !== undefined) object['caller'] = parts.caller;
  object['msg'] = parts.message;
  Object.assign(object, attrs);
  return {
    time: parseLogTime(parts.timeText),
    severity: parts.level,
    level: levelOf(parts.level),
    component: parts.caller ?? parts.name,
    context: parts.caller === undefined ? undefined : parts.name,
    message: parts.message,
    attrs,
    resource: resourceOf(parts.fields),
    object,
  };
}
