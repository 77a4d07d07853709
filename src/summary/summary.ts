/**
 * What `logtype summary` finds, as one plain object: the text, the JSON and the HTML page are
 * three renderings of it. Times are ISO 8601 strings, so the JSON is this object as it is.
 */
import type { Level } from '../parse/log-record.js';
import type { TimeSteps } from './time-order.js';

export interface Summary {
  /**
   * Entries read, selected (a line Docker or the sidecar split into pieces is one, joined) and
   * lines that were not entries; `selectedAsRead`: the selected in entries as read, each piece
   * counted, when pieces were joined (absent otherwise).
   */
  readonly lines: {
    readonly entries: number;
    readonly selected: number;
    readonly notEntries: number;
    readonly selectedAsRead?: number | undefined;
    /** With no entry read: what the input seems to be, and how to give it (not-logs-hint.ts). */
    readonly notLogs?: string | undefined;
    /** With none selected: the first and last time of the entries --since/--until looked at (ISO 8601). */
    readonly timesRead?: { readonly first: string; readonly last: string } | undefined;
  };
  readonly first?: string | undefined;
  readonly last?: string | undefined;
  /** Every type's counts, the most entries first; past MAX_TYPES types, the rest share a last row, `(other types)`. */
  readonly types: readonly TypeSummary[];
  /** How many types share the `(other types)` row (`atLeast`: more were not counted one by one). */
  readonly otherTypes?: { readonly names: number; readonly atLeast: boolean } | undefined;
  readonly server?: ServerSummary | undefined;
  readonly audit?: AuditSummary | undefined;
  /** Agents and operator: their errors and warnings, most frequent first. */
  readonly problems: readonly TypeProblems[];
  readonly activity: Activity;
  /**
   * The notable events of the logs, in time order, to mark on the time axis: agents' and the
   * operator's errors and warnings, the server's errors, the audit log's failed events (at
   * most MAX_TYPE_MARKS of each type); absent when there is none.
   */
  readonly marks?: readonly TypeMark[] | undefined;
  /** Marks past MAX_TYPE_MARKS of their type: counted, not kept. */
  readonly marksNotKept?: number | undefined;
  /** Present when the summary covers only part of its input: the page or JSON attached to a ticket says so itself. */
  readonly incomplete?: Incomplete | undefined;
  /**
   * Present when the input runs newest first (time-order.ts): its steps back and forward in time.
   * The counts stand; what is read in order (restarts, shutdowns, states, lifetimes) does not.
   */
  readonly newestFirst?: TimeSteps | undefined;
}

export interface Incomplete {
  /** Each input not read to its end, and why (`read rs1.log.gz up to where its gzip data ends early (the file was cut short)`). */
  readonly unread: readonly string[];
  /** Reading was stopped by Ctrl-C (SIGINT) before the input's end. */
  readonly interrupted: boolean;
  /** Lines counted but not read into the report (a defect of logtype's), and the first of them with why. */
  readonly failedLines?: number;
  readonly firstFailure?: string;
}

export interface TypeMark {
  readonly logType: string;
  readonly time: string;
  /** An error or a warning (agents, operator), a failed event (audit). */
  readonly kind: 'error' | 'warning' | 'failure';
  /** What happened: the record's first line (cut at 200 characters), an audit event's type, result and user. */
  readonly label: string;
}

export interface TypeSummary {
  readonly logType: string;
  readonly entries: number;
  readonly first?: string | undefined;
  readonly last?: string | undefined;
  /** Entries per minute between the first and last time. */
  readonly perMinute?: number | undefined;
  readonly errors: number;
  readonly warnings: number;
  /** Entries whose contents did not parse as this type's log (shown as they are). */
  readonly unparsed: number;
}

export interface Counted {
  readonly key: string;
  readonly count: number;
}

export interface ServerSummary {
  readonly bySeverity: readonly Counted[];
  readonly byComponent: readonly Counted[];
  /**
   * Every message, by id (text lines' by template), the most frequent first (the text lists the
   * first 15); once MAX_SERVER_MESSAGES ids are held, the less frequent half is folded into an
   * "(other)" row (bounded-counts.ts), and a row made after that may miss a few of its lines.
   * `members`: how many of its lines each member wrote, the most first, when the input holds
   * several (a message all members write, or one member's alone, reads apart only so).
   */
  readonly messages: readonly { readonly id: number | null; readonly msg: string; readonly count: number; readonly severity: string; readonly members?: readonly MemberCount[] }[];
  /**
   * Every warning and error message (W, E, F), by id (text lines' by template), the worst first,
   * then the most frequent; `members`: how many of its lines each member wrote, when the input
   * holds several (not on the `(other)` row); `example`: what the group's first line says beyond
   * its message (its attributes, each `name: JSON`; a text line as written), where it says more.
   */
  readonly problems: readonly { readonly id: number | null; readonly msg: string; readonly example?: string; readonly severity: string; readonly count: number; readonly first: string | null; readonly last: string | null; readonly missedAtMost?: number; readonly members?: readonly MemberCount[] }[];
  /**
   * Connections opened and closed over every member; `peak`: the most a server said it had open
   * at once, each counting its own (with several members, no sum over them): `peakMember`, whose.
   */
  readonly connections: { readonly opened: number; readonly closed: number; readonly peak: number | null; readonly peakMember?: string };
  /**
   * Each start of the server (two start lines within 10 s are one), with the version it started
   * when its build info says; `atLogStart`: its member's log begins with it (no restart seen).
   */
  readonly restarts: readonly { readonly time: string | null; readonly version: string | null; readonly member?: string; readonly atLogStart?: true; readonly shutdownBefore?: boolean }[];
  /**
   * Each shutdown of the server, in time order: from the line that began it (a signal, the
   * `shutdown` command) or, without one, its last line (`Shutting down`, `shutting down with
   * code:N`, `dbexit: rc: N`); `cause`: what began it (`signal 15 (Terminated)`, `shutdown
   * command`); `exitCode` and `exited`: its last line's, when seen. At most MAX_SHUTDOWNS, the
   * rest counted in `shutdownsNotKept`. A restart's `shutdownBefore` says whether its member
   * logged one since its start before (a start without: the process was killed or crashed).
   */
  readonly shutdowns: readonly { readonly time: string | null; readonly cause: string | null; readonly exitCode: number | null; readonly exited: string | null; readonly member?: string }[];
  readonly shutdownsNotKept: number;
  /**
   * Each log rotation the server logged (before 4.4: `pid=N port=N …` on CONTROL), in time order,
   * with what it wrote then: its version (`db version`), and its member state in a replica set
   * (`Replica Set Member State:`); null: not written. `atLogStart`: its member's log begins with
   * it (a rotated log has no start lines: this is what says its version and state). At most
   * MAX_LOG_ROTATIONS, the rest counted in `logRotationsNotKept`.
   */
  readonly logRotations: readonly { readonly time: string | null; readonly version: string | null; readonly memberState: string | null; readonly member?: string; readonly atLogStart?: true }[];
  readonly logRotationsNotKept: number;
  /**
   * Connections opened and ended by client IP, the most opened first; past MAX_CLIENT_IPS, the
   * lightest rows folded into one `(other)` row, last. In this table and the others with an
   * `(other)` row (drivers, response sizes, warnings and errors): `missedAtMost`, on a row made
   * after rows were folded, is the most it may miss (counted in `(other)` before it had a row).
   */
  readonly clients: readonly { readonly ip: string; readonly opened: number; readonly ended: number; readonly missedAtMost?: number }[];
  /**
   * Drivers by name, version and appName (client metadata), the most connections first, with
   * the IPs they came from (`moreIps`: more than those named); past MAX_CLIENT_DRIVERS, one `(other)` row.
   */
  readonly drivers: readonly { readonly driver: string; readonly version: string; readonly appName: string; readonly connections: number; readonly ips: readonly string[]; readonly moreIps: boolean; readonly missedAtMost?: number }[];
  /** State changes and elections, in time order (`member`: whose log said it, when the input holds several). */
  readonly replication: readonly { readonly time: string | null; readonly event: string; readonly member?: string }[];
  /**
   * The members when the input holds two or more (pods by their prefix, else one per input),
   * by name: each one's counts, its lane and its events; absent for one member.
   */
  readonly members?: readonly MemberSummary[] | undefined;
  /** The server's own failed logins by user (`user@db`) and client address, the most first (server-logins.ts); empty: none. */
  readonly failedAuthentications: readonly { readonly user: string; readonly source: string; readonly count: number }[];
  /**
   * Members whose log holds lines twice (the same log given twice, a copy that overlaps), and
   * about how many (repeated-lines.ts): every count includes them twice. Absent when none does.
   */
  readonly repeatedLines?: readonly { readonly member: string; readonly lines: number; readonly sameAs?: string }[] | undefined;
  /**
   * Members whose lines' times step back by a minute or more (its clock set back, or set right
   * after a jump forward; or its lines out of order): the first (`at`: the line after the step),
   * the largest step and how many. Lanes and who was primary when are unsure there. Absent when none.
   */
  readonly clockSteps?: readonly { readonly member: string; readonly at: string; readonly backMillis: number; readonly count: number }[] | undefined;
  /**
   * Inputs that are one server, by the host their start lines name (a pod's previous and current
   * logs saved as two files): read as members of their own. Absent when none.
   */
  readonly sameServer?: readonly { readonly host: string; readonly members: readonly string[] }[] | undefined;
  /** Who was primary when, from the members' own state changes (member-lanes.ts); with `members`. */
  readonly primaries?: readonly { readonly from: string; readonly to: string; readonly primaries: readonly string[]; readonly unknown: readonly string[]; readonly uncovered?: true }[] | undefined;
  /** Clients' slow operations and slow transactions, costliest first. */
  readonly slowOperations: readonly SlowGroup[];
  /**
   * Oplog entries a secondary applied slowly (51801, `applied op:`), the replication-apply
   * signal, by namespace and operation, costliest first.
   */
  readonly appliedOperations: readonly AppliedGroup[];
  /**
   * Slow operations, transactions and applied entries for the plot over time, in time order:
   * the slowest, every COLLSCAN (beyond a budget, a uniform sample of them) and a uniform
   * sample of the rest (slow-points.ts).
   */
  readonly slowPoints: readonly SlowPoint[];
  /** The slowest single operations (clients' and transactions), slowest first, each with its line. */
  readonly slowest: readonly SlowestOperation[];
  /** The slowest single transactions, slowest first, each with its parameters (as mloginfo --transactions). */
  readonly slowestTransactions: readonly SlowestTransaction[];
  /**
   * Response sizes (`reslen`) of clients' slow operations, by namespace (as their groups name
   * it), by appName (`-`: none said) and by client IP (lines that name their `remote`, 4.4+),
   * the most bytes first; past MAX_RESPONSE_SIZE_KEYS, one `(other)` row each.
   */
  readonly responseSizes: { readonly byNamespace: readonly ResponseSize[]; readonly byAppName: readonly ResponseSize[]; readonly byClient: readonly ResponseSize[] };
  /**
   * The longest-lived client connections (22943 to 22944; a text line's `connection accepted
   * from` to `end connection`), the longest first: those ended, those a shutdown or a restart ended, and
   * those still open at the last server line.
   */
  readonly longLivedConnections: readonly LongLivedConnection[];
  /** Connections not followed because MAX_OPEN_CONNECTIONS were open at once (their lifetimes are not known). */
  readonly connectionsNotFollowed: number;
  /** Points offered to the plot: every slow line with a time. */
  readonly slowPointsSeen: number;
  /** COLLSCANs offered to the plot: all drawn when they fit its budget, else a uniform sample of them. */
  readonly collscansSeen: number;
}

/** How many of a row's lines one member wrote (a group's, a message's: the input holds several members). */
export interface MemberCount {
  /** As in MemberSummary. */
  readonly name: string;
  readonly count: number;
}

export interface MemberSummary {
  /** The pod (kubectl's or stern's prefix), else the input's file name. */
  readonly name: string;
  readonly from: 'pod' | 'input';
  readonly first: string | null;
  readonly last: string | null;
  readonly lines: number;
  readonly warnings: number;
  readonly errors: number;
  readonly slowOperations: number;
  readonly restarts: number;
  readonly elections: number;
  readonly stateChanges: number;
  /** As its last state change said; null: none said. */
  readonly lastState: string | null;
  /** Its state from its first line to its last (`unknown`, `down` between a pause and a restart), in time order. */
  readonly lane: readonly { readonly from: string; readonly to: string; readonly state: string }[];
  /** Its restarts, shutdowns, elections and errors with a time, in time order (at most MAX_MEMBER_EVENTS, errors MAX_MEMBER_ERROR_MARKS). */
  readonly events: readonly { readonly time: string; readonly kind: 'restart' | 'shutdown' | 'election' | 'error'; readonly label: string }[];
  /** Events and state changes past those limits: counted, not kept (the lane may be unsure past them). */
  readonly eventsNotKept: number;
}

export interface ResponseSize {
  readonly key: string;
  readonly count: number;
  readonly totalBytes: number;
  readonly maxBytes: number;
  /** The most bytes it may miss (a row made after rows were folded into `(other)`). */
  readonly missedAtMost?: number;
}

export interface LongLivedConnection {
  /** The server's number for it (`conn123`'s 123). */
  readonly connectionId: number;
  /** The client's address and port. */
  readonly remote: string;
  /** As its client metadata said; null when none was read. */
  readonly appName: string | null;
  readonly opened: string;
  /**
   * When it ended: its end line's time, the server's exit that ended it (a shutdown's last line),
   * or the restart that ended it (no exit logged before); null: still open at the end.
   */
  readonly closed: string | null;
  readonly end: 'closed' | 'shutdown' | 'restart' | 'still open';
  /** To `closed`, or to the last server line when still open. */
  readonly durationMillis: number;
  /** The member whose connection it was, when the input holds several (see `members`). */
  readonly member?: string;
}

export interface SlowestOperation {
  readonly time: string | null;
  /** The server's thread that ran it (`conn123`). */
  readonly connection: string | null;
  readonly appName: string | null;
  /** As in SlowGroup. */
  readonly ns: string;
  readonly operation: string;
  readonly plan: string | null;
  readonly durationMillis: number;
  readonly keysExamined: number | null;
  readonly docsExamined: number | null;
  /** The line as read, cut at MAX_SLOWEST_LINE_CHARS with `…`; null when summary was not given it. */
  readonly line: string | null;
  /** The member whose line it is, when the input holds several (see `members`): a quoted line has no prefix. */
  readonly member?: string;
}

export interface SlowestTransaction {
  readonly time: string | null;
  /** The server's thread that ran it. */
  readonly connection: string | null;
  readonly durationMillis: number;
  /** Its session's id (the UUID of `lsid.id`). */
  readonly lsid: string | null;
  readonly txnNumber: number | null;
  readonly autocommit: boolean | null;
  /** Its readConcern's level (`snapshot`), else the readConcern as written. */
  readonly readConcern: string | null;
  /** How it ended: `committed`, `aborted`. */
  readonly terminationCause: string | null;
  readonly timeActiveMicros: number | null;
  readonly timeInactiveMicros: number | null;
  readonly numYields: number | null;
  /** The member whose line it is, when the input holds several (see `members`). */
  readonly member?: string;
}

export interface SlowPoint {
  readonly time: string;
  readonly durationMillis: number;
  readonly ns: string;
  readonly collscan: boolean;
  /** Why it is drawn: one of the slowest; a COLLSCAN (every one, or in their own sample); null: in the sample of the rest. */
  readonly outlier: 'slowest' | 'collscan' | null;
}

/** A group's durations: how many, their total, p50, p95 and max (milliseconds). */
export interface DurationFigures {
  readonly count: number;
  readonly totalMillis: number;
  readonly p50Millis: number;
  readonly p95Millis: number;
  readonly maxMillis: number;
  /** Whether p50 and p95 are exact; else within 1% (a sketch, duration-quantiles.ts). */
  readonly exactQuantiles: boolean;
}

export interface SlowGroup extends DurationFigures {
  /** `operation`: a client's (find, update, …); `transaction`: a slow transaction (its shape says how it ended). */
  readonly kind: 'operation' | 'transaction';
  /**
   * The namespace (a command on `db.$cmd` names its collection); where the line has none, why:
   * `(truncated)` (the server cut the attribute that held it), `(not logged)`, `-` (a transaction).
   */
  readonly ns: string;
  /** As the server names it: the command (`find`, `update`, `delete`, `getMore`, …), else the type (`update`, `remove`, `query`). */
  readonly operation: string;
  /** queryHash, else the plan summary; a transaction's: how it ended (`committed`, `aborted`). */
  readonly shape: string;
  /**
   * The query's pattern as mtools shows it: the filter's keys with values replaced, then its
   * sort and projection (`{status: 1} sort {created: -1}`); null for an operation that runs
   * no query (an insert, a server command).
   */
  readonly pattern: string | null;
  readonly plan: string | null;
  readonly collscan: boolean;
  /** Documents examined per document returned (null when none was returned). */
  readonly examinedPerReturned: number | null;
  /**
   * How many of its operations each member ran, the most first, when the input holds several
   * (a group is one shape over all members: this says whether it is one member's or all of them);
   * not on the `(other shapes)` row.
   */
  readonly members?: readonly MemberCount[];
}

export interface AppliedGroup extends DurationFigures {
  /** The entry's namespace (a command's: the collection it names); `(truncated)`, `(not logged)` where the line has none. */
  readonly ns: string;
  /** `insert`, `update`, `delete`, or the command applied (`create`, `drop`, …). */
  readonly operation: string;
  /**
   * How many of its entries each member applied, the most first, when the input holds several
   * (a secondary that lags applies slowly alone); not on the `(other namespaces)` row.
   */
  readonly members?: readonly MemberCount[];
}

export interface AuditSummary {
  readonly byAtype: readonly Counted[];
  readonly failedAuthentications: readonly { readonly user: string; readonly source: string; readonly count: number }[];
  /** Other events with a non-zero result, by type. */
  readonly otherFailures: readonly Counted[];
}

export interface TypeProblems {
  readonly logType: string;
  readonly errors: number;
  readonly warnings: number;
  /** Each group of messages by shape (`message`, numbers masked), with its first message as written (`example`). */
  /** `members`: each pod's count, the most first, when the input holds several pods' lines of the log. */
  readonly messages: readonly { readonly message: string; readonly level: Level; readonly count: number; readonly example: string; readonly members?: readonly MemberCount[] }[];
  /** Warnings' groups past the ten listed, and their lines; `ungrouped`: lines past the groups held (summary-limits.ts), counted here too. Absent when every one is listed. */
  readonly notListed?: { readonly messages: number; readonly lines: number; readonly ungrouped: number } | undefined;
}

export interface Activity {
  /** The first bucket's start (ISO), and one bucket every `bucketMinutes` from it to the last. */
  readonly start: string | null;
  /** 1, unless the lines span more than a week: then buckets widen to keep their number bounded. */
  readonly bucketMinutes: number;
  readonly buckets: readonly MinuteActivity[];
  /** Where most lines are, when a few lie far from them (time-focus.ts); absent otherwise. */
  readonly focus?: TimeFocus | undefined;
}

/** The shortest run of minutes holding most of the timed lines, and the lines outside it. */
export interface TimeFocus {
  /** The run's first minute's start and last minute's end (ISO). */
  readonly from: string;
  readonly to: string;
  /** Timed lines in the run, and before and after it. */
  readonly lines: number;
  readonly before: number;
  readonly after: number;
}

export interface MinuteActivity {
  readonly lines: number;
  readonly errors: number;
  readonly warnings: number;
  readonly byType: Readonly<Record<string, number>>;
}
