/**
 * How much summary holds, whatever the input's size: memory is bounded by these, never by
 * lines. Past a limit, new keys are counted together ("other"), events only counted, values
 * sampled: the report says so where it shows them.
 */

/**
 * Log types with a row of their own, in the order first seen; the entries of the types beyond
 * share one row, OTHER_TYPES (a stream of 100,000 made-up logType values once made 100,004 rows).
 */
export const MAX_TYPES = 100;
/** The row the types beyond MAX_TYPES share. */
export const OTHER_TYPES = '(other types)';
/** Names of the types beyond MAX_TYPES counted one by one; past this the count says "at least". */
export const MAX_OTHER_TYPE_NAMES = 10_000;
/** Server severities (F, E, W, I, D1-D5 and what else a line writes). */
export const MAX_SEVERITIES = 50;
/** Server components. */
export const MAX_COMPONENTS = 200;
/** Server messages, by id (by shape for text lines without one). */
export const MAX_SERVER_MESSAGES = 2000;
/**
 * Client IPs with a row of their own (connections opened and ended); past it, the lightest half
 * share "(other)" (heavy-rows.ts). As many as the hosts known by their bytes (client-connections.ts):
 * an application tier of a few thousand pods keeps exact rows, where past the limit every new
 * address makes a row that a fold soon takes back (docs/performance.md, the twenty-first part).
 */
export const MAX_CLIENT_IPS = 4096;
/** Drivers by name, version and appName with a row of their own; past it, the lightest half share "(other)". */
export const MAX_CLIENT_DRIVERS = 200;
/** IPs named per driver row (more are said as "…"). */
export const MAX_DRIVER_IPS = 10;
/** Server warning and error messages, by id (by template for text lines), each in a row of its own; past it, the least severe and frequent half share "(other)". */
export const MAX_SERVER_PROBLEMS = 500;
/** Slow-operation groups (namespace, operation, shape). */
export const MAX_SLOW_GROUPS = 2000;
/** Groups of applied oplog entries (namespace, operation). */
export const MAX_APPLIED_GROUPS = 2000;
/** Points of the slow-operation plot for the operations that are no COLLSCAN: a uniform sample of them. */
export const MAX_SLOW_POINTS = 2000;
/** The slowest operations, always drawn in the plot. */
export const MAX_SLOWEST_POINTS = 100;
/** COLLSCANs in the plot: all of them up to this many (a page of about 1.5 MB with them all), beyond it a uniform sample of this many. */
export const MAX_COLLSCAN_POINTS = 10_000;
/** The slowest single operations listed, each with its line. */
export const MAX_SLOWEST_OPERATIONS = 20;
/** The slowest single transactions listed, each with its parameters. */
export const MAX_SLOWEST_TRANSACTIONS = 20;
/** A slowest operation's line is cut here (a server line can be 10 KB and more). */
export const MAX_SLOWEST_LINE_CHARS = 2000;
/** A server message as reported (most are a few words; one a program wrote whole, megabytes, is cut at this). */
export const MAX_MESSAGE_CHARS = 1000;
/** Characters kept of a slow transaction's parameter (a readConcern as written, a session id, how it ended): a damaged line's may be any size. */
export const MAX_PARAMETER_CHARS = 200;
/** Durations a slow-operation group keeps for exact quantiles: a sketch within 1% beyond (duration-quantiles.ts). */
export const MAX_GROUP_DURATIONS = 1024;
/** Namespaces, appNames and client IPs with a row of their own in the response sizes (each); past it, those with the fewest bytes share "(other)". As many as MAX_CLIENT_IPS, for the client IPs'. */
export const MAX_RESPONSE_SIZE_KEYS = MAX_CLIENT_IPS;
/** Connections followed while open, to know how long each lived; beyond, new ones are only counted. */
export const MAX_OPEN_CONNECTIONS = 20_000;
/** The longest-lived connections listed. */
export const MAX_LONG_LIVED_CONNECTIONS = 20;
/** Replica-set state changes and elections listed in time order (the rest are counted). */
export const MAX_REPLICATION_EVENTS = 200;
/** Shutdowns of the server listed (the rest are counted); a member's last one is known beyond, for its next restart. */
export const MAX_SHUTDOWNS = 200;
/** Log rotations of the server listed, with the version and member state each said (the rest are counted). */
export const MAX_LOG_ROTATIONS = 200;
/** Audit event types. */
export const MAX_ATYPES = 200;
/** Failed logins, by user and source. */
export const MAX_FAILED_LOGINS = 2000;
/** Other failed audit events, by type. */
export const MAX_OTHER_FAILURES = 200;
/** Error and warning messages of one agent or operator log, by shape. */
export const MAX_PROBLEM_MESSAGES = 2000;
/** Notable events of each agent's, the operator's and the audit log, kept to mark on the time axis (the rest are counted). */
export const MAX_TYPE_MARKS = 500;
/** Buckets of the activity strip and plots: a week of minutes (wider buckets beyond). */
export const MAX_ACTIVITY_BUCKETS = 7 * 24 * 60;
/** Members (pods, or inputs without a pod's prefix) with a lane of their own; the rest share OTHER_MEMBERS. */
export const MAX_MEMBERS = 64;
/** The lane the members beyond MAX_MEMBERS share. */
export const OTHER_MEMBERS = '(other members)';
/** State changes, restarts, elections and errors kept per member for its lane (the rest are counted). */
export const MAX_MEMBER_EVENTS = 1000;
/** Of those, errors marked per member (all are counted). */
export const MAX_MEMBER_ERROR_MARKS = 100;

/** A query's pattern in the text's table of slow operations at the most (--json and the page have it whole). */
export const MAX_PATTERN_CHARS = 48;
