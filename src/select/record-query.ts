/**
 * Selection by what a line says, not only by its type: one set of filters whose meaning is the
 * same for every log (level, time), and the ones that belong to one log (the server's
 * component, id, context, namespace, slow operations and plans; the audit's event types,
 * users and failures; the operator's resource). A filter that belongs to one log keeps only
 * that log's lines (the types whose format names its family): `--slow` shows slow operations,
 * nothing else.
 */
import type { LogFormat, QueryFamily } from '../formats/log-format.js';
import { LOG_FORMATS, logFormat } from '../formats/log-formats.js';
import { levelRank, type Level, type LogRecord } from '../parse/log-record.js';
import { serverOperationOf } from '../parse/server-operation.js';
import { slowOperationOf } from '../parse/slow-operation.js';
import { textNamespacesOf } from '../parse/text-namespaces.js';
import { localInstants, type LocalInstants } from './local-time.js';
import { globToRegExp, typePatterns } from './type-matcher.js';

export interface RecordQuery {
  /** This level and worse. */
  readonly level?: Level | undefined;
  /**
   * With level debug, how deep: the server's `D1`-`D5` (`-l D2` keeps D1 and D2, not D3-D5).
   * A debug line with no depth (an agent's `debug`, `D`) counts as D1.
   */
  readonly debugDepth?: number | undefined;
  /** The parsed message matches (a line that does not parse: its text). */
  readonly message?: RegExp | undefined;
  readonly since?: Date | undefined;
  readonly until?: Date | undefined;
  readonly components?: readonly string[] | undefined;
  readonly ids?: readonly number[] | undefined;
  readonly contexts?: readonly string[] | undefined;
  readonly namespaces?: readonly string[] | undefined;
  /** Operations that took at least this many milliseconds. */
  readonly slowMillis?: number | undefined;
  /** A plan summary's start: `COLLSCAN`, `IXSCAN`. */
  readonly plan?: string | undefined;
  readonly atypes?: readonly string[] | undefined;
  readonly users?: readonly string[] | undefined;
  readonly failed?: boolean | undefined;
  readonly resources?: readonly string[] | undefined;
}

/** The filters that belong to one log's records, by the family its format names (LogFormat.query). */
const FAMILY_FILTERS: Readonly<Record<QueryFamily, readonly (keyof RecordQuery)[]>> = {
  server: ['components', 'ids', 'contexts', 'namespaces', 'slowMillis', 'plan'],
  audit: ['atypes', 'users', 'failed'],
  operator: ['resources'],
};

const isAsked = (value: unknown): boolean => value !== undefined && value !== false;

/** Each filter's flag, as a person typed it: what a contradiction names. */
const FILTER_FLAGS: Readonly<Partial<Record<keyof RecordQuery, string>>> = {
  components: '-c',
  ids: '--id',
  contexts: '--ctx',
  namespaces: '--ns',
  slowMillis: '--slow',
  plan: '--plan',
  atypes: '--atype',
  users: '--user',
  failed: '--failed',
  resources: '--resource',
};

/**
 * A selection that can select nothing, said before anything is read (an empty output reads as
 * "nothing happened"): one log's filters with -t naming none of that log's types, two logs'
 * filters together (no line is of both), or -t and -x naming the same types. Undefined when
 * it may select something. `typeTest`: whether a -t/-x pattern names a type (type-matcher.ts).
 */
export function contradiction(types: readonly string[], exclude: readonly string[], query: RecordQuery, typeNames: (patterns: readonly string[]) => readonly string[] | undefined): string | undefined {
  const asked = (family: QueryFamily): string[] => FAMILY_FILTERS[family].filter((key) => isAsked(query[key])).map((key) => FILTER_FLAGS[key]!);
  const families = queriedFamilies(query);
  const familyTypes = (family: QueryFamily): string[] => LOG_FORMATS.filter((format) => format.query === family).map((format) => format.name);
  if (families.length > 1) {
    const [a, b] = families.map((family) => `${asked(family).join(' ')} (${familyTypes(family).join(', ')})`);
    return `${a} and ${b} select nothing together: no line is of both logs; give one log's filters, or run logtype once for each`;
  }
  const chosen = types.length > 0 ? typeNames(types) : undefined;
  const left = exclude.length > 0 ? typeNames(exclude) : undefined;
  // Types the patterns name, when every pattern names known types only (a stream may carry
  // others), and -t names them by name: a glob may match a type logtype does not know.
  const globbed = types.some((value) => value.includes('*') || value.includes('?'));
  if (chosen && left && !globbed && chosen.length > 0 && chosen.every((type) => left.includes(type))) {
    return `-t ${types.join(',')} and -x ${exclude.join(',')} leave no type to select; leave out one of them`;
  }
  const family = families[0];
  if (family !== undefined && chosen && !chosen.some((type) => familyTypes(family).includes(type))) {
    return `${asked(family).join(' ')} keep${asked(family).length === 1 ? 's' : ''} only ${familyTypes(family).join(', ')} lines, and -t ${types.join(',')} leaves them out; add -t ${familyTypes(family)[0]}, or leave out ${asked(family).join(' ')}`;
  }
  // The same with -x leaving out every type of that log (`--slow -x mongodb`).
  if (family !== undefined && left && familyTypes(family).every((type) => left.includes(type))) {
    return `${asked(family).join(' ')} keep${asked(family).length === 1 ? 's' : ''} only ${familyTypes(family).join(', ')} lines, and -x ${exclude.join(',')} leaves them out; leave out one of them`;
  }
  return undefined;
}

/** True when the query asks anything of a line's record (so records must be read). */
export function queriesRecords(query: RecordQuery): boolean {
  return Object.values(query).some(isAsked);
}

/** The families whose filters the query asks for. */
function queriedFamilies(query: RecordQuery): QueryFamily[] {
  return (Object.keys(FAMILY_FILTERS) as QueryFamily[]).filter((family) => FAMILY_FILTERS[family].some((key) => isAsked(query[key])));
}

/**
 * True for a type whose lines the family's filters may keep, decided once a type (a stream
 * holds a handful): filters of two families keep nothing, as no line is of both.
 */
function familyTest(families: readonly QueryFamily[]): (logType: string) => boolean {
  const decided = new Map<string, boolean>();
  let lastType: string | undefined;
  let lastDecision = false;
  return (logType) => {
    if (logType === lastType) return lastDecision;
    let decision = decided.get(logType);
    if (decision === undefined) {
      const format: LogFormat | undefined = logFormat(logType);
      decision = families.length === 1 && format?.query === families[0];
      // Bounded: a stream can hold any number of distinct types.
      if (decided.size < 1024) decided.set(logType, decision);
    }
    lastType = logType;
    lastDecision = decision;
    return decision;
  };
}

/**
 * The test a line that is not an entry must pass, as grep would apply the same options to it:
 * `--grep` (and `-v`) and `--message` on its text. It has no level, time or record of a log,
 * so `--level`, `--since`, `--until` and one log's filters never keep it. Undefined when
 * nothing is asked: every such line passes.
 */
export function otherLinePredicate(grep: RegExp | undefined, invertGrep: boolean, query: RecordQuery): ((text: string) => boolean) | undefined {
  const { message, ...rest } = query;
  if (Object.values(rest).some(isAsked)) return () => false;
  if (!grep && !message) return undefined;
  return (text) => (!grep || grep.test(text) !== invertGrep) && (!message || message.test(text));
}

/** A case-insensitive glob (`conn*`, `app.*`) as a test. */
/**
 * Names the server reads in any case (components, threads, event types) by default; user names
 * are case-sensitive, as the server's (`Alice` is not `alice`). `lists`: a value may be a comma list.
 */
function globTest(patterns: readonly string[], flags: '' | 'i' = 'i', lists = true): (value: string | undefined) => boolean {
  const regexps = (lists ? typePatterns(patterns) : patterns.map((p) => p.trim()).filter(Boolean)).map((glob) => globToRegExp(glob, flags));
  return (value) => value !== undefined && regexps.some((re) => re.test(value));
}

/** A text line (no attributes: before 4.4) whose message names a matching namespace (`createCollection: app.orders with …`). */
function textNamespaceMatches(record: LogRecord, namespace: (ns: string | undefined) => boolean): boolean {
  return record.attrs === undefined && record.attributes === undefined && textNamespacesOf(record.message).some(namespace);
}

/** A debug line's depth: the digit of the server's `D1`-`D5`; 1 for a debug line that writes none. */
export function debugDepthOf(severity: string | undefined): number {
  const digit = severity !== undefined && severity.length === 2 && (severity[0] === 'D' || severity[0] === 'd') ? severity.charCodeAt(1) - 48 : 0;
  return digit >= 1 && digit <= 5 ? digit : 1;
}

/**
 * The query as one predicate over a line's type, record and the time kubectl stamped it with.
 * `untimed`, when given, counts the lines --since/--until left out only for having no time (a Go
 * panic, an agent's stderr line): every other part of the query kept them, so they are said.
 */
export function recordPredicate(
  query: RecordQuery,
  untimed?: { untimedLeftOut: number; timesRead?: TimesRead },
): (logType: string, record: LogRecord | undefined, stampedAt?: number, contents?: string) => boolean {
  const families = queriedFamilies(query);
  const ofFamily = families.length > 0 ? familyTest(families) : undefined;
  const component = query.components && globTest(query.components);
  const context = query.contexts && globTest(query.contexts);
  const namespace = query.namespaces && globTest(query.namespaces);
  const atype = query.atypes && globTest(query.atypes);
  // A user name may hold commas (an X.509 subject, `CN=client,OU=apps`): each --user is one name, not a list.
  const user = query.users && globTest(query.users, '', false);
  const resource = query.resources && globTest(query.resources);
  const ids = query.ids && new Set(query.ids);
  const plan = query.plan?.toUpperCase();
  const maxRank = query.level === undefined ? undefined : levelRank(query.level);
  const since = query.since?.getTime();
  const until = query.until?.getTime();
  const timeBound = since !== undefined || until !== undefined;
  // The server's line another log holds (an agent passing one on) is selected by the server's filters.
  const serverQuery = families.length === 1 && families[0] === 'server';
  return (logType, record, stampedAt, contents) => {
    if (ofFamily && !ofFamily(logType) && !(serverQuery && record?.family === 'server')) return false;
    if (maxRank !== undefined && (record?.level === undefined || levelRank(record.level) > maxRank)) return false;
    if (query.debugDepth !== undefined && record?.level === 'debug' && debugDepthOf(record.severity) > query.debugDepth) return false;
    if (query.message && !query.message.test(record?.message ?? contents ?? '')) return false;
    if (timeBound) {
      const time = record?.time ?? stampedAt;
      if (time === undefined) {
        if (untimed && (!ofFamily || (record !== undefined && passesRecordQuery(record)))) untimed.untimedLeftOut++;
        return false;
      }
      if (untimed) noteTime(untimed, time);
      if ((since !== undefined && time < since) || (until !== undefined && time > until)) return false;
    }
    if (!ofFamily) return true;
    if (!record) return false;
    return passesRecordQuery(record);
  };

  /** The parts of the query one log's records answer (component, id, namespace, …). */
  function passesRecordQuery(record: LogRecord): boolean {
    if (component && !component(record.component)) return false;
    if (ids && (record.id === undefined || !ids.has(record.id))) return false;
    if (context && !context(record.context)) return false;
    if (namespace || query.slowMillis !== undefined || plan) {
      const slow = slowOperationOf(record);
      const ns = slow?.ns ?? (typeof record.attrs?.['namespace'] === 'string' ? record.attrs['namespace'] : undefined);
      // Also the collection a command on db.$cmd names, and an applied oplog entry's namespace.
      if (namespace && !namespace(ns) && !(slow && namespace(serverOperationOf(record, slow).ns)) && !textNamespaceMatches(record, namespace)) return false;
      if (query.slowMillis !== undefined && (!slow || slow.durationMillis < query.slowMillis)) return false;
      if (plan && !slow?.plan?.toUpperCase().startsWith(plan)) return false;
    }
    if (atype && !atype(record.component)) return false;
    // `alice` matches `alice@admin`; `alice@admin` matches only it.
    if (user && !(record.users ?? []).some((name) => user(name) || user(name.slice(0, name.lastIndexOf('@'))))) return false;
    if (query.failed && (record.result === undefined || record.result === 0)) return false;
    if (resource && !resource(record.resource) && !resource(record.resource?.slice(record.resource.indexOf('/') + 1))) return false;
    return true;
  }
}

/** The first and last time of the entries --since/--until looked at: said when they left out every one (a --since 15m on last week's file). */
export interface TimesRead {
  first: number;
  last: number;
}

function noteTime(counts: { timesRead?: TimesRead }, time: number): void {
  const times = counts.timesRead;
  if (!times) counts.timesRead = { first: time, last: time };
  else if (time < times.first) times.first = time;
  else if (time > times.last) times.last = time;
}

/** One part of a span: a number and its unit (`1h`, `30m`, `1.5d`). */
const SPAN_PART = /(\d+(?:\.\d+)?)\s*(s|m|h|d|w)\s*/y;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A span's milliseconds: parts one after another, as kubectl's --since takes them (`15m`, `1h30m`, `1d12h`); undefined when it is none. */
export function spanMs(text: string): number | undefined {
  const span = text.trim();
  let total = 0;
  let at = 0;
  while (at < span.length) {
    SPAN_PART.lastIndex = at;
    const part = SPAN_PART.exec(span);
    if (!part) return undefined;
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
    at = SPAN_PART.lastIndex;
  }
  return at === 0 ? undefined : total;
}

/**
 * `--until`: as parseTimeBound, and a time names all of its last unit, so a time copied from
 * the output (which shows seconds) keeps that second's lines: `10:05:44` is up to 10:05:44.999,
 * `10:05` up to 10:05:59.999, a date alone up to the end of its day, `10:05:44.5` up to
 * 10:05:44.599. A span back from now is that moment.
 */
export function parseUntilBound(text: string, now: Date, utc = false): Date | undefined {
  const start = parseTimeBound(text, now, utc, 'last');
  if (!start || spanMs(text) !== undefined) return start;
  // A local time the clocks skipped: everything before the skip, and nothing of its unit after it.
  const local = utc ? undefined : localClockInstants(text);
  if (local && local.instants.length === 0) return new Date(local.gapEnd! - 1);
  const clock = /^\d{4}-\d\d-\d\d(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?)?/i.exec(text.trim());
  if (!clock) return start;
  const [, hours, , seconds, fraction] = clock;
  if (hours === undefined) {
    // The day's last moment, in the zone it was read in (a day may be 23 or 25 hours long).
    const next = utc ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1)) : new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1);
    return new Date(next.getTime() - 1);
  }
  const rest = seconds === undefined ? 59_999 : fraction === undefined ? 999 : fraction.length >= 3 ? 0 : 10 ** (3 - fraction.length) - 1;
  return new Date(start.getTime() + rest);
}

/** A time's zone at its end: `Z`, `+01:00`, `+0100`, `-05`. */
const ZONE = /(?:Z|[+-]\d\d(?::?\d\d)?)$/i;

/**
 * `--since`/`--until`: RFC 3339, or a span back from now (`15m`, `2h`, `1h30m`, `1d`). A time without a
 * zone (`2026-11-22 10:00:00`, a date alone: its midnight) is read in the zone times are shown
 * in: local, or UTC with `utc` (--utc), so a time copied from the output selects what it says.
 * Undefined when it is none of these.
 */
export function parseTimeBound(text: string, now: Date, utc = false, which: 'first' | 'last' = 'first'): Date | undefined {
  const span = spanMs(text);
  if (span !== undefined) return new Date(now.getTime() - span);
  const day = /^(\d{4})-(\d\d)-(\d\d)/.exec(text);
  if (!day) return undefined;
  // A day the calendar does not have (2024-02-30) is refused, not rolled over into the next month.
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const calendar = new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== dayOfMonth) return undefined;
  if (text.length === 10) return utc ? calendar : new Date(year, month - 1, dayOfMonth);
  // The output's `2026-11-22 10:00:00`, with a space: read as RFC 3339's T. Without a zone, a date-time is local time.
  // An offset of hours alone (`-05`, as agent 10.x writes `-00`) is `-05:00`.
  const iso = text.replace(' ', 'T').replace(/(T[^+-]*[+-]\d\d)$/, '$1:00');
  const date = new Date(utc && !ZONE.test(iso) ? `${iso}Z` : iso);
  if (Number.isNaN(date.getTime())) return undefined;
  // A local time in the hour the clocks skip is the skip's end; in the hour they repeat, its
  // first instant (`which`: --since) or its second (--until), so that neither leaves lines out.
  const local = utc ? undefined : localClockInstants(text);
  if (!local) return date;
  const instant = local.instants.length === 0 ? local.gapEnd! : which === 'first' ? local.instants[0]! : local.instants.at(-1)!;
  return new Date(instant);
}

/** Whether a date-time without a zone names no local instant (the hour the clocks skip). */
export function inSkippedTime(text: string): boolean {
  return localClockInstants(text)?.instants.length === 0;
}

/** A date-time without a zone (`2026-03-29T02:30`, `… 02:30:15.5`): the instants it names in the local zone. */
function localClockInstants(text: string): LocalInstants | undefined {
  const clock = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d{1,3})\d*)?)?$/i.exec(text.trim());
  if (!clock) return undefined;
  const [year, month, day, hours, minutes, seconds, fraction] = clock.slice(1).map((part, i) => (i === 6 ? Number((part ?? '').padEnd(3, '0')) : Number(part ?? 0)));
  return localInstants({ year: year!, month: month!, day: day!, hours: hours!, minutes: minutes!, seconds: seconds!, millis: fraction! });
}
