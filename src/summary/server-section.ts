/**
 * The server's section of the summary: severities, components, messages by id (a pre-4.4 text
 * line's by its template, numbers masked), connections (and how long each lived:
 * connection-lifetimes.ts), restarts, replica-set events and slow work (slow-operations.ts). Most lines are counted by their head alone: only slow
 * operations', events' and connections' attributes are read.
 */
import { levelRank, type Level, type LogRecord } from '../parse/log-record.js';
import { ConnectionAttributes, readConnectionAttributes } from '../parse/connection-attributes.js';
import { attrNumber, attrValue } from '../parse/record-attributes.js';
import { TextPlace } from '../parse/text-place.js';
import { firstLineOf } from '../parse/continued-record.js';
import { CONNECTION_ACCEPTED_ID, CONNECTION_ENDED_ID, connectionEventOf, threadConnectionNumber } from '../parse/server-connection.js';
import { isSlowOperationId } from '../parse/slow-operation.js';
import { DOWN_STATE } from './member-lanes.js';
import { isSampled, sampledLineKey } from './repeated-lines.js';
import { failedLoginOf, ServerLogins } from './server-logins.js';
import { textMessageTemplate } from '../parse/server-text-line.js';
import { BoundedCounts } from './bounded-counts.js';
import { CLIENT_METADATA_ID, ClientConnections, type RemoteText } from './client-connections.js';
import { ConnectionLifetimes, type OpenBudget } from './connection-lifetimes.js';
import { counted } from './counted.js';
import { isElectionMessage } from './election-message.js';
import { isoString } from './iso-string.js';
import { MemberCounts } from './member-counts.js';
import { messageShape } from './message-shape.js';
import { ReplicaMembers, type MemberStats } from './replica-members.js';
import { ReplicationEvents } from './replication-events.js';
import { ServerProblems, serverLineWords } from './server-problems.js';
import { LogRotations, rotationLine } from './log-rotations.js';
import { isRestartMessage, isShutdownMessage, isStartMessage, ServerShutdowns, shutdownLine, startHost } from './server-shutdowns.js';
import { shutdownLabel } from './chart-markers.js';
import { SlowOperations } from './slow-operations.js';
import { cutLine, type RecordSource } from './slowest-operations.js';
import type { LongLivedConnection, ServerSummary } from './summary.js';
import { MAX_COMPONENTS, MAX_LONG_LIVED_CONNECTIONS, MAX_MESSAGE_CHARS, MAX_SERVER_MESSAGES, MAX_SEVERITIES } from './summary-limits.js';
import type { SectionCounter } from './section-counter.js';

const NO_BYTES = Buffer.alloc(0);
/** A text line's `connection accepted from 10.0.0.1:5 #26705 (…)`: the connection's number. */
const TEXT_ACCEPTED_NUMBER = / #(\d+) /;

/**
 * A connection line's connection number: 22943 and 22944's `connectionId`; a text line's
 * `#N` when accepted, its thread's (`connN`) when ended.
 */
function connectionIdOf(record: LogRecord, opened: boolean): number | undefined {
  if (record.id === CONNECTION_ACCEPTED_ID || record.id === CONNECTION_ENDED_ID) return attrNumber(record, 'connectionId');
  if (!opened) return threadConnectionNumber(record);
  const number = TEXT_ACCEPTED_NUMBER.exec(record.message)?.[1];
  return number === undefined ? undefined : Number(number);
}

/**
 * A pre-4.4 fatal or error line's message without the lines that went on after it (a
 * backtrace is no part of its group); where its own line says nothing (`F - [conn13] ` before
 * `***aborting after invariant() failure`), the first of them that does.
 */
function headMessage(record: LogRecord): string {
  const first = firstLineOf(record);
  if (first.trim() !== '') return first;
  return record.continuation?.find((line) => line.trim() !== '')?.trim() ?? first;
}

/** The version a server started: 4.4+'s build info (id 23403), a text line's `db version v4.0.10`. */
const BUILD_INFO_ID = 23403;
const TEXT_VERSION = /^db version v(\S+)/;
/** Two "starting" lines closer than this are one restart (4.4+ servers write two). */
const RESTART_MERGE_MS = 10_000;
/** An unclean-shutdown warning this close to a start line is that start's (a slow start's recovery comes first). */
const UNCLEAN_AFTER_START_MS = 120_000;
const WARN_RANK = levelRank('warn');
const ERROR_RANK = levelRank('error');
/** Components and message ids looked at before their maps: a busy server's lines are of a few, interleaved. */
const RECENT_KEYS = 4;

interface MessageMeaning {
  readonly restart: boolean;
  readonly election: boolean;
  readonly shutdown: boolean;
}

/**
 * A message as counted by id, and what it means (one id, one message: tested once); how many
 * of its lines each member wrote (a line costs one comparison: a member's lines come in runs).
 */
interface MessageStats {
  readonly id: number | null;
  readonly msg: string;
  readonly severity: string;
  readonly meaning: MessageMeaning;
  readonly members: MemberCounts;
}

const messageMeaning = (message: string): MessageMeaning => ({ restart: isRestartMessage(message), election: isElectionMessage(message), shutdown: isShutdownMessage(message) });

/** A start of the server as counted; `shutdownBefore`: whether its member logged a shutdown since its start before (a restart only). */
interface Restart {
  readonly at: number;
  version: string | null;
  readonly member: MemberStats;
  readonly atLogStart: boolean;
  readonly shutdownBefore: boolean;
}

export class ServerSection implements SectionCounter {
  readonly #severities = new BoundedCounts(MAX_SEVERITIES);
  readonly #components = new BoundedCounts(MAX_COMPONENTS, RECENT_KEYS);
  readonly #messages = new BoundedCounts<MessageStats | undefined, number | string>(MAX_SERVER_MESSAGES, RECENT_KEYS);
  /** `peakMember`: whose own count the peak was (each server counts its own connections). */
  readonly #connections: { opened: number; closed: number; peak: number; peakMember: MemberStats | undefined } = { opened: 0, closed: 0, peak: Number.NEGATIVE_INFINITY, peakMember: undefined };
  readonly #restarts: Restart[] = [];
  readonly #shutdowns = new ServerShutdowns();
  readonly #rotations = new LogRotations();
  readonly #clients = new ClientConnections();
  readonly #logins = new ServerLogins();
  readonly #problems = new ServerProblems();
  readonly #replication = new ReplicationEvents();
  /** The servers the lines come from (several pods or files: the replica set's members). */
  readonly #members: ReplicaMembers;
  readonly #slow = new SlowOperations();
  /**
   * Each member's connections apart: a member's restart ends its own, and two members' numbers
   * never meet (the last member's kept at hand: lines come in runs of one member).
   */
  readonly #lifetimes = new Map<MemberStats, ConnectionLifetimes>();
  #lastLifetimes: { member: MemberStats; lifetimes: ConnectionLifetimes } | undefined;
  /** The connections followed at once, over all members (MAX_OPEN_CONNECTIONS in all). */
  readonly #openBudget: OpenBudget = { open: 0 };
  /** A connection line's attributes and remote where they stand, reused from line to line. */
  readonly #connection = new ConnectionAttributes();
  readonly #readConnection = (bytes: Buffer, headEnd: number, end: number, escaped: boolean): boolean => readConnectionAttributes(bytes, headEnd, end, escaped, this.#connection);
  readonly #remote = new TextPlace();

  constructor(members = new ReplicaMembers()) {
    this.#members = members;
  }

  add(record: LogRecord, time: number | undefined, _level: Level | undefined, rank: number, source?: RecordSource): void {
    const member = this.#members.of(source);
    member.line(time, rank === WARN_RANK);
    if (time !== undefined && Number.isFinite(time)) {
      const sampled = isSampled(time, record.id);
      if (sampled || member.dense) this.#members.sampledLine(member, sampledLineKey(time, record.id, record.context, source?.contents ?? record.message), time, sampled);
    }
    // None, or an empty one ("s":""), is counted as '?': an empty key would show as a blank.
    const severity = record.severity || '?';
    this.#severities.add(severity);
    if (record.component) this.#components.add(record.component);
    const id = record.id ?? null;
    const message = record.continuation === undefined ? record.message : headMessage(record);
    // Pre-4.4 text lines have no id: their messages group by template, numbers masked (a
    // message that says nothing, as the blank lines between startup warnings, is no group).
    const template = id === null ? messageShape(textMessageTemplate(message)) : undefined;
    const held = template === '' ? undefined : this.#messages.add(id ?? `text:${template}`);
    const meaning = id !== null && held?.value?.msg === message ? held.value.meaning : messageMeaning(message);
    if (held) (held.value ??= { id, msg: template ?? message, severity, meaning, members: new MemberCounts() }).members.add(member);
    if (rank <= WARN_RANK && template !== '') this.#problems.add(id ?? `text:${template}`, id, template ?? message, severity, rank, time, member, record, message, template);
    if (rank <= ERROR_RANK) member.error(time, serverLineWords(id, message));
    const login = failedLoginOf(record);
    if (login) this.#logins.add(login);
    const connection = id === CONNECTION_ACCEPTED_ID || id === CONNECTION_ENDED_ID ? this.#connectionInBytes(record) : undefined;
    if (connection) this.#connectionAt(connection, id === CONNECTION_ACCEPTED_ID, member, time);
    else if (this.#connectionLine(record, member, time)) {
      // Counted, read one attribute at a time.
    } else if (meaning.restart) {
      const at = time ?? Number.NaN;
      // The unclean-shutdown warning of a start comes after its first line, seconds later on a slow start.
      const merge = isStartMessage(message) ? RESTART_MERGE_MS : UNCLEAN_AFTER_START_MS;
      if (!(Math.abs(at - member.lastRestartLine) < merge)) {
        // Nothing of this member's log before its start lines: the log begins with the start
        // (a container's log does), which is no restart seen in the input.
        const atLogStart = at - member.first < RESTART_MERGE_MS;
        const shutdownBefore = member.lastShutdown !== undefined && this.#sinceStart(member, member.lastShutdown.at);
        const restart: Restart = { at, version: null, member, atLogStart, shutdownBefore };
        this.#restarts.push(restart);
        member.restart(time, restart);
      }
      member.lastRestartLine = at;
      member.host ??= startHost(record);
      // Its connections ended when it went down (its last line before the start), not at the start.
      const down = member.downSince(at);
      this.#lifetimesOf(member).restart(Number.isNaN(down) ? time : down);
    } else if (meaning.shutdown) {
      const line = shutdownLine(record);
      const last = member.lastShutdown;
      if (line) {
        const shutdown = this.#shutdowns.add(line, time, member.name, last, last !== undefined && this.#sinceStart(member, last.at));
        // Marked on its lane once, where it began (its first line: a signal, or the end alone).
        if (shutdown !== last) member.shutdown(time, shutdownLabel(line.kind === 'begin' ? line.cause : null, line.kind === 'end' ? line.exitCode : null));
        member.lastShutdown = shutdown;
      }
      // The server's exit ends its connections, as a restart would (one scan of those open, on a shutdown's last line).
      if (line?.kind === 'end') {
        this.#lifetimesOf(member).shutdown(time);
        // It exited: down from then (its last state, and its lane's, until a start says more).
        member.stateSaid(time, DOWN_STATE);
      }
    } else if (id === CLIENT_METADATA_ID || (id === null && record.component === 'NETWORK')) {
      const client = this.#clients.add(record);
      if (client?.appName !== undefined) this.#lifetimesOf(member).appName(threadConnectionNumber(record), client.remote, client.appName);
      this.#clients.lineDone();
    } else if (id === BUILD_INFO_ID) this.#startedVersion(record, time, member);
    else if (id === null && record.component === 'CONTROL') this.#textControl(record, time, member);
    const replication = this.#replication.add(record, time, meaning.election, member.name);
    if (replication?.kind === 'state') member.state(time, replication.from, replication.to!);
    else if (replication?.kind === 'election') member.election(time, message);
    // Other lines' attributes are never read: most lines are counted by their head alone.
    if (id !== null && !isSlowOperationId(id)) return;
    if (this.#slow.add(record, time, source, member)) member.slowOperations++;
  }

  /** Whether a time of `member` is at or after its last start (any, without one). */
  #sinceStart(member: MemberStats, at: number): boolean {
    return member.lastRestart === undefined || at >= member.lastRestart.at;
  }

  /** A 4.4+ connection line's attributes read in one pass over its bytes; undefined when they can't be read so. */
  #connectionInBytes(record: LogRecord): ConnectionAttributes | undefined {
    return record.attributes?.inBytes?.(this.#readConnection) === true ? this.#connection : undefined;
  }

  /** A connection line read by readConnectionAttributes: what #connectionLine does, from its places. */
  #connectionAt(connection: ConnectionAttributes, opened: boolean, member: MemberStats, time: number | undefined): void {
    this.#clients.connectionAt(connection.bytes, connection.remoteStart, connection.hostEnd, opened);
    const remote = this.#remote;
    remote.set(connection.bytes, connection.remoteStart, connection.remoteEnd);
    this.#connectionEvent(opened, connection.connectionCount, connection.connectionId, remote, member, time);
    // The line's bytes are let go: its input chunk is not held until the next connection line.
    remote.clear();
    connection.bytes = NO_BYTES;
  }

  /** A connection line read one attribute at a time (any line the connection events know); false for another line. */
  #connectionLine(record: LogRecord, member: MemberStats, time: number | undefined): boolean {
    const connection = connectionEventOf(record);
    if (!connection) return false;
    const remote = this.#clients.connection(record, connection.opened);
    this.#connectionEvent(connection.opened, connection.open, connectionIdOf(record, connection.opened), remote, member, time);
    return true;
  }

  /** A connection opened or ended, however its line was read: counted, and its lifetime followed on its member. */
  #connectionEvent(opened: boolean, open: number | undefined, connectionId: number | undefined, remote: RemoteText, member: MemberStats, time: number | undefined): void {
    if (opened) this.#connections.opened++;
    else this.#connections.closed++;
    if (open !== undefined && open > this.#connections.peak) {
      this.#connections.peak = open;
      this.#connections.peakMember = member;
    }
    const lifetimes = this.#lifetimesOf(member);
    if (opened) lifetimes.opened(connectionId, remote, time);
    else lifetimes.ended(connectionId, remote, time);
  }

  /** The version a restart started: build info written within RESTART_MERGE_MS of its start lines (else it is a log rotation's, not a start's). Whether it was a start's. */
  #startedVersion(record: LogRecord, time: number | undefined, member: MemberStats): boolean {
    const restart = member.lastRestart;
    if (!restart || restart.version !== null || !(Math.abs((time ?? Number.NaN) - member.lastRestartLine) < RESTART_MERGE_MS)) return false;
    const buildInfo = record.id === BUILD_INFO_ID ? attrValue(record, 'buildInfo') : undefined;
    const version = record.id === BUILD_INFO_ID ? (typeof buildInfo === 'object' && buildInfo !== null ? (buildInfo as Record<string, unknown>)['version'] : undefined) : TEXT_VERSION.exec(record.message)?.[1];
    if (typeof version === 'string') restart.version = version;
    return true;
  }

  /**
   * A pre-4.4 CONTROL line (a few at a start or a rotation, rare otherwise): a start's version, or
   * a log rotation's lines (log-rotations.ts), whose member state is the member's from then.
   */
  #textControl(record: LogRecord, time: number | undefined, member: MemberStats): void {
    const line = rotationLine(record);
    if (!line) return;
    if (line.kind === 'rotation') {
      member.lastRotation = this.#rotations.begin(time, member.name, member.first);
      return;
    }
    if (line.kind === 'version' && this.#startedVersion(record, time, member)) return;
    const rotation = member.lastRotation;
    if (!this.#rotations.add(line, time, rotation) || line.kind !== 'state') return;
    // From the rotation's first line: its lines are written at once, and say what it was then.
    member.stateSaid(rotation!.at, line.state);
    this.#replication.said(rotation!.at, `this member: ${line.state} (said at a log rotation)`, member.name);
  }

  #lifetimesOf(member: MemberStats): ConnectionLifetimes {
    const cached = this.#lastLifetimes;
    if (cached?.member === member) return cached.lifetimes;
    let lifetimes = this.#lifetimes.get(member);
    if (!lifetimes) {
      lifetimes = new ConnectionLifetimes(this.#openBudget);
      this.#lifetimes.set(member, lifetimes);
    }
    this.#lastLifetimes = { member, lifetimes };
    return lifetimes;
  }

  /** The longest-lived over every member (each still open to its own member's last line, or `last`). */
  #lifetimesSummary(last: number, several: boolean): Pick<ServerSummary, 'longLivedConnections' | 'connectionsNotFollowed'> {
    const longLived: LongLivedConnection[] = [];
    let notFollowed = 0;
    for (const [member, lifetimes] of this.#lifetimes) {
      const { longLivedConnections, connectionsNotFollowed } = lifetimes.summary(several && Number.isFinite(member.last) ? member.last : last);
      notFollowed += connectionsNotFollowed;
      for (const connection of longLivedConnections) longLived.push(several ? { ...connection, member: member.name } : connection);
    }
    longLived.sort((a, b) => b.durationMillis - a.durationMillis);
    return { longLivedConnections: longLived.slice(0, MAX_LONG_LIVED_CONNECTIONS), connectionsNotFollowed: notFollowed };
  }

  /** `last`: the last server line's time (connections still open lived to it). */
  summary(last: number): ServerSummary {
    const several = this.#members.several;
    const slow = this.#slow.summary(several);
    // Each made once: a list of the members' (repeats, clock steps, one server's files), kept when there is one.
    const repeated = this.#members.repeated();
    const clockSteps = this.#members.clockSteps();
    const sameServer = this.#members.sameServer();
    return {
      bySeverity: counted(this.#severities),
      byComponent: counted(this.#components),
      messages: [
        ...this.#messages.top().map(({ count, value }) => ({ id: value!.id, msg: cutLine(value!.msg, MAX_MESSAGE_CHARS), severity: value!.severity, count, ...(several ? { members: value!.members.summary() } : {}) })),
        ...(this.#messages.other > 0 ? [{ id: null, msg: '(other)', severity: '', count: this.#messages.other }] : []),
      ],
      connections: {
        opened: this.#connections.opened,
        closed: this.#connections.closed,
        peak: Number.isFinite(this.#connections.peak) ? this.#connections.peak : null,
        ...(several && this.#connections.peakMember ? { peakMember: this.#connections.peakMember.name } : {}),
      },
      restarts: this.#restarts.map(({ at, version, member, atLogStart, shutdownBefore }) => ({
        time: isoString(at) ?? null,
        version,
        ...(several ? { member: member.name } : {}),
        ...(atLogStart ? { atLogStart } : { shutdownBefore }),
      })),
      ...this.#shutdowns.summary(several),
      ...this.#rotations.summary(several),
      ...this.#clients.summary(),
      problems: this.#problems.summary(several),
      failedAuthentications: this.#logins.summary(),
      replication: this.#replication.summary(several),
      ...this.#members.summary(),
      ...(repeated.length > 0 ? { repeatedLines: repeated } : {}),
      ...(clockSteps.length > 0 ? { clockSteps } : {}),
      ...(sameServer.length > 0 ? { sameServer } : {}),
      ...slow,
      ...this.#lifetimesSummary(last, several),
    };
  }
}
