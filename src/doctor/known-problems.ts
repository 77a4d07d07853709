/**
 * The known problems of these pods and their operator (docs/formats.md §7, from the operator's
 * troubleshooting guide, and the agents' full disk, §5), each as data: what recognises it,
 * what it means, how to fix it. A new problem is one more entry here, and one more row in the
 * table of lines that must and must not match in the tests.
 */
import { logTypesWrittenBy, POD_SCRIPT_LOG_TYPE, SIDECAR_LOG_TYPE } from '../formats/log-formats.js';

export interface KnownProblem {
  /** A stable name, for `--json` and scripts. */
  readonly id: string;
  readonly title: string;
  /** Where it shows, as the guide says. */
  readonly where: string;
  /** Types whose lines are looked at (globs); none: every line, entries and other lines alike. */
  readonly types?: readonly string[];
  /** Types whose lines are not looked at (globs): left to a problem of their own. */
  readonly exceptTypes?: readonly string[];
  /**
   * Recognises the problem in a line's contents, as they came: where its message quotes a name,
   * the quote may be written `\"`, as a JSON line (the operator's zap lines, a status as JSON)
   * writes it inside a string.
   */
  readonly matches: RegExp;
  /** A line that matches this is left to a more precise problem. */
  readonly unless?: RegExp;
  /** Informational: worth knowing, nothing to fix. */
  readonly informational?: boolean;
  /**
   * A line that says the problem is over for its subject (`subjectOf` names it, for a line of
   * either): a finding none of whose subjects is still open after the last line is dropped (a
   * log the sidecar missed for minutes that then appeared).
   */
  readonly resolvedBy?: RegExp;
  readonly subjectOf?: (text: string) => string | undefined;
  readonly meaning: string;
  readonly remedy: string;
  /**
   * The remedy for where it was seen (its types, as the finding lists them), when the commands
   * that show the evidence depend on it: a command that would show nothing is not suggested.
   * Undefined: `remedy`.
   */
  readonly remedyIn?: (types: readonly string[]) => string | undefined;
  /**
   * The remedy beside other problems found (their ids), when one of them is the likelier cause
   * and its evidence is where to start. Undefined: as without them.
   */
  readonly remedyBeside?: (found: ReadonlySet<string>) => string | undefined;
  /**
   * Found by a witness of several lines, not line by line (`unlogged-stops.ts` for a server
   * killed or crashed: its `matches` is one of the signs it reads); the finder is told each event.
   */
  readonly witnessed?: true;
  /**
   * One event is written by each of these types (a failed login: the server's line and the audit
   * log's event): the problem is counted as the most lines any one type shows, not their sum.
   */
  readonly oneEventIn?: readonly string[];
  /**
   * One event writes several lines close together (a crash: the fatal assertion, the abort, the
   * fatal message): a pod's lines at most `ms` after its last one count as one event; `lines`
   * says so where the count is given beside the lines.
   */
  readonly oneEventWithin?: { readonly ms: number; readonly lines: string };
}

/** The remedy a finding gets: beside the other problems `found` (their ids), and for where it was seen, where the problem says so. */
export function remedyOf(problem: KnownProblem, types: readonly string[], found: ReadonlySet<string> = new Set()): string {
  return problem.remedyBeside?.(found) ?? problem.remedyIn?.(types) ?? problem.remedy;
}

/**
 * The commands that list failed logins: the server's lines of every version by their message
 * (5.0+ 'Failed to authenticate', 4.4 'Authentication failed', before it 'authentication failed
 * for'), the audit log's events.
 */
const SERVER_FAILED_LOGINS = 'logtype -t mongodb -m "authentication failed|failed to authenticate" -i -o pretty';
const AUDIT_FAILED_LOGINS = 'logtype --atype authenticate --failed';
const FIX_CREDENTIALS = "Fix that client's credentials; for the agent's user, check the operator's agent password secret and that the member took the latest automation config.";

/** The server's fatal lines with those before them, where it says why it stopped. */
const FATAL_LINES = 'logtype -t mongodb -l fatal -B 20 -o pretty';
const UNCLEAN_SHUTDOWN_REMEDY =
  "See what ended it: kubectl describe pod (Last State: OOMKilled, exit code 137), and logtype -t mongodb -l warn -o pretty around the start for the server's last lines before it; raise the memory limit, or the grace period if the server had no time to shut down.";

/** The agent's modules' logs and its launcher's. */
const AGENT_TYPES = logTypesWrittenBy('agent');
/**
 * A full disk that is the node's, not a volume of the pod's: the container runtime's or the
 * kubelet's own place (an image pull, a container's writable layer), or its words for it; not a
 * volume the kubelet mounts (`/var/lib/kubelet/pods/…/volumes/…`: a PVC, an emptyDir).
 */
const NODE_DISK = /containerd|\/var\/lib\/docker|\/var\/lib\/kubelet(?!\/pods\/\S*\/volumes)|failed to pull|pulling image|ErrImagePull|overlayfs|ephemeral.storage|DiskPressure/i;
/** The server's log (the audit log names no disk). */
export const SERVER_TYPES = ['mongodb'];

/** logtype's own diagnostics: pino lines whose `event` names what happened (docs/following.md, Diagnostics). */
const SIDECAR_TYPES = [SIDECAR_LOG_TYPE];
const POD_SCRIPT_TYPES = [POD_SCRIPT_LOG_TYPE];
/**
 * A diagnostic line's event, as pino writes it (`"event":"resume-lost"`), or as a store wrote it
 * again (`"event": "resume-lost"`): one of `events`.
 */
const diagnosticEvent = (...events: string[]): RegExp => new RegExp(`"event"\\s*:\\s*"(?:${events.join('|')})"`);
/** The events of logtype's own that the problems below name, each in its own; any other warning is the catch-all's. */
const KNOWN_DIAGNOSTIC_EVENTS = [
  'resume-lost', 'gave-up', 'compressed-unread', 'truncated', 'unreadable', 'heartbeat-held', 'missing', 'missing-dir', 'state-unwritable', 'state-unreadable',
  'state-in-use', 'heartbeat-unwritable', 'compressed', 'stop-timeout', 'pipe-unavailable', 'launcher-missing', 'launcher-not-recognised',
  'previous-run-killed', 'lock-left',
];
/**
 * A `missing` for a log every database pod writes (the server's, the agent's two; the audit log,
 * the monitoring and backup agents' are written only where they are turned on), or no log
 * directory at all: a path that does not match the pod, not a log it never writes.
 */
const ALWAYS_WRITTEN_MISSING = new RegExp(
  String.raw`"event"\s*:\s*"missing-dir"|^(?=.*"event"\s*:\s*"missing")(?=.*"source"\s*:\s*"(?:mongodb|automation-agent|automation-agent-verbose)")`,
);
/** The followed log a diagnostic names, and the path (missing-dir's). */
const DIAGNOSTIC_SOURCE = /"source"\s*:\s*"([^"]*)"/;
const DIAGNOSTIC_PATH = /"path"\s*:\s*"([^"]*)"/;
/** The command that lists the sidecar's warnings with what each names (file, sizes, the fix). */
const SIDECAR_WARNINGS = 'logtype -t sidecar -l warn -o pretty';

/**
 * A server line that quotes what a client sent: a slow operation's command, filter or documents
 * (4.4+ ids 51803 and 51802; before 4.4, a COMMAND, WRITE or QUERY line). Its words are the
 * clients' data, which may say anything ("No space left on device" in a ticket's subject), so
 * no problem is found in it. Anchored in the line's head.
 */
export const QUOTES_CLIENT_DATA = /^\{"t":\{"\$date":"[^"]{1,40}"\},"s":"[A-Z0-9]{1,2}", *"c":"[A-Z_]{1,20}", *"id":5180[23],|^\S{1,40} [A-Z]\s{1,2}(?:COMMAND|WRITE|QUERY) +\[/;

export const KNOWN_PROBLEMS: readonly KnownProblem[] = [
  {
    id: 'tls-certificate-name',
    title: 'A member TLS certificate has the wrong name',
    where: 'agent logs, operator log',
    matches: /TLS attempt failed\s*:\s*x509: certificate is valid for .+, not \S+/,
    meaning: "A member's certificate does not name the pod it is served by, so the other members and the agents refuse the connection.",
    remedy: "Reissue each member's certificate with the Common Name or a SAN of <pod>.<service>.<namespace>.svc.cluster.local.",
  },
  {
    id: 'version-not-available',
    title: 'The database version is not available to the platform (local mode)',
    where: 'operator log; the resource status.message',
    matches: /Status: 400 \(Bad Request\).*Detail: Invalid config: .+ is not available/,
    meaning: 'The platform runs in local mode and has no archive for the version the resource asks for, so it rejects the deployment.',
    remedy: "Put the version's archive into the platform's version directory, or ask for a version that is there.",
  },
  {
    id: 'platform-rejects-deployment',
    title: 'The platform rejects the deployment',
    where: 'operator log; status.message with phase Failed',
    matches: /Status: 400 \(Bad Request\)/,
    unless: /Invalid config: .+ is not available/,
    meaning: 'The platform refused the automation configuration the operator sent; the resource stays in phase Failed.',
    remedy: 'Read the Detail in the message, fix the resource spec accordingly; the operator retries by itself.',
  },
  {
    id: 'pvc-not-found',
    title: 'The pod and its volume claim were both deleted',
    where: 'events, operator log',
    matches: /pvc not found to schedule the pod|persistentvolumeclaim \\?"[^"\\]+\\?" not found/i,
    meaning: 'The StatefulSet cannot schedule the pod: the claim it expects is gone with the pod.',
    remedy: 'Create a claim named data-<replicaset-pod-name> by hand; the pod then schedules.',
  },
  {
    id: 'pod-pending-resources',
    title: 'A pod is stuck Pending: the nodes lack memory or CPU',
    where: 'events (kubectl describe pod)',
    // `FailedScheduling … Insufficient memory` or `3 Insufficient cpu`. Written to start with its
    // words, looking behind from them: the same matches, 65 against 740 ns a line (a leading
    // \d+ was tried at every digit of every line).
    matches: /Insufficient(?<=(?:FailedScheduling.*|\d )Insufficient) (?:memory|cpu)/,
    meaning: 'No node has room for the resource requests of the database pod.',
    remedy: 'Give the nodes room or lower the resource requests; then delete the Pending pod so it is scheduled again.',
  },
  {
    id: 'validation-webhook-missing',
    title: 'The validation webhook is missing',
    where: 'operator log (a warning only)',
    matches: /failed to (create|update) the validating webhook configuration|(Failed to configure admission webhooks|validating webhook).*(forbidden|clusterrole|rolebinding)/i,
    informational: true,
    meaning: 'The operator could not install its admission webhook; it still validates resources during reconciliation.',
    remedy: 'Nothing is broken. Grant the operator the cluster role for webhook configurations if you want resources checked when applied.',
  },
  {
    id: 'admission-denied',
    title: 'An invalid resource was rejected when applied',
    where: 'kubectl apply output',
    matches: /admission webhook \\?"[^"\\]+\\?" denied the request/,
    meaning: 'The operator\'s webhook found the resource invalid, and the API server did not store it.',
    remedy: 'Fix the field the reason after "denied the request:" names, and apply again.',
  },
  {
    id: 'operator-upgrade-kubectl',
    title: 'Operator upgrade with kubectl failed on an immutable field',
    where: 'kubectl apply output',
    // The fields Kubernetes lists grew with its versions: 'replicas', 'template', and
    // 'updateStrategy' at first, then 'minReadySeconds', 'ordinals', 'revisionHistoryLimit' and
    // 'persistentVolumeClaimRetentionPolicy' among them; the list always starts with 'replicas'.
    matches: /updates to statefulset spec for fields other than 'replicas', .*'updateStrategy'.* are forbidden/,
    meaning: 'The new operator manifest changes a field Kubernetes does not allow to change in place.',
    remedy: 'Delete the operator deployment (the database resources are not affected) and apply the manifest again.',
  },
  {
    id: 'operator-upgrade-chart',
    title: 'Operator upgrade with a chart tool failed on an immutable field',
    where: 'chart tool (helm) output',
    matches: /UPGRADE FAILED: cannot patch \\?"[^"\\]+\\?" with kind Deployment: .*field is immutable/,
    meaning: 'The chart changes the operator deployment\'s selector or another field that cannot be patched.',
    remedy: 'Delete the operator deployment, then run the upgrade again.',
  },
  {
    id: 'agent-api-key',
    title: "The agents' API key was deleted or changed",
    where: 'agent logs',
    types: AGENT_TYPES,
    // A 401 as an HTTP status, in the words the agent writes it (`HTTP 401`, `Expected status
    // code to be 200, but was 401`, `statusCode=401`, `401 Unauthorized`), never any 401: a
    // time's milliseconds (`.401]`) or a source line (`go:401]`) on a line with the server's
    // own `(Unauthorized)` (a database user's rights, not the key) is no API key problem.
    matches: /(?:\bHTTP(?:\/[\d.]+)? |\bstatus ?(?:code)?[ =:]{0,2}|\bbut was )401\b|\b401 unauthori[sz]ed\b|invalid (?:agent )?api ?key|unauthori[sz]ed.*\bapi ?key\b/i,
    meaning: 'The platform refuses the agents: their key is no longer valid. The replica set shows as down until they have a new one.',
    remedy: 'Create a new agent API key, update the secret the agents read it from, and restart the agents (the database pods).',
  },
  {
    id: 'agent-disk-full',
    title: "The agents' log disk is full",
    where: 'automation-agent-stderr',
    // The server's own words are server-disk-full's: its data volume, not the agents' logs.
    exceptTypes: SERVER_TYPES,
    matches: /no space left on device/i,
    // The node's own disk (an image pull: `write /var/lib/containerd/…`) is node-disk-full's.
    unless: NODE_DISK,
    meaning: 'The volume that holds the logs (and perhaps the data) has no space left; the agent cannot write its log, and the server may stop next.',
    remedy: 'Free or grow the volume (expand the PVC); lower the agents\' -maxLogFiles/-maxLogFileSize and the server\'s log retention.',
  },
  {
    id: 'node-disk-full',
    title: "A node's disk is full",
    where: "operator log (the container runtime's words)",
    exceptTypes: SERVER_TYPES,
    // Its words and the runtime's place on one line, in either order: anchored, so each is
    // looked for once from the line's start (unanchored, every position scanned the rest of the
    // line again: a 64 MiB line took minutes).
    matches: new RegExp(`^(?=[\\s\\S]*no space left on device)(?=[\\s\\S]*(?:${NODE_DISK.source}))`, 'i'),
    meaning: "The node's disk that holds the container runtime's images and containers is full: images cannot be pulled and pods cannot start or restart there. The pod's volumes may have room.",
    remedy: "Free space on the node (kubectl describe node NODE: DiskPressure; remove unused images, crictl rmi --prune) or move the pod to another node; the kubelet's image garbage collection thresholds keep it from happening again. Growing the pod's PVC does not help.",
  },
  {
    id: 'server-disk-full',
    title: "The server's disk is full",
    where: 'mongodb (the server log)',
    types: SERVER_TYPES,
    // WiredTiger's error 28 (ENOSPC), in its own words: `WiredTiger error`, `…: No space left on device`.
    matches: /no space left on device/i,
    meaning: 'The server could not write its data files or journal: WiredTiger stops the server on a failed write (a fatal assertion), and the member stays down until there is room.',
    remedy: 'Grow the data volume (expand the PVC, where its storage class allows it) or free space on it, then let the member start again; a member that resyncs needs room for a full copy.',
  },
  {
    id: 'server-fatal',
    title: 'The server stopped itself on a fatal error',
    where: 'mongodb (the server log): its last lines before it stopped',
    types: SERVER_TYPES,
    // Severity F in the line's head: 4.4+ JSON (`"s":"F"`), and the text before it (`F STORAGE [thread1]`,
    // `F -        [conn1] Got signal: 11`). A fatal assertion, an invariant failure or a signal: the server exits.
    // The text form starts with its ISO time: a JSON line fails it at its first byte (every server line is tried).
    matches: /^\{"t":\{"\$date":"[^"]{1,40}"\},"s":"F"|^\d{4}-\d\d-\d\dT\S{1,36} F\s{1,2}[A-Z_-]{1,20} +\[/,
    // A fatal assertion writes three F lines in a millisecond or two (the assertion, the abort, the fatal message).
    oneEventWithin: { ms: 5000, lines: 'a stop writes several, counted once' },
    meaning: 'The server ended itself: a fatal assertion, an invariant failure or a signal it could not handle, each with its message (and a stack trace) just before it exits. Kubernetes starts the container again; the same error at each start is a crash loop.',
    remedy: `Read the fatal line and the lines before it: ${FATAL_LINES}. A write that failed (No space left on device) needs room (server-disk-full); a data file WiredTiger cannot read needs the member resynced (its data volume emptied, to sync from the others); otherwise look up the message's id in MongoDB's issue tracker (jira.mongodb.org).`,
  },
  {
    id: 'authentication-failed',
    title: 'Authentications to the server fail',
    where: 'mongodb (the server log), mongodb-audit',
    types: ['mongodb', 'mongodb-audit'],
    // An audit `authenticate` event whose result is not 0 (18: AuthenticationFailed); the server's
    // ACCESS line id 5286307 (5.0+, `Failed to authenticate`; its success is 5286306) or 20249
    // (4.4, `Authentication failed`), or before 4.4 its text `authentication failed for`. Every alternative is anchored in the line's head, so the long lines (slow operations)
    // fail at once instead of being searched to their end.
    matches: /^\{ ?"atype" ?: ?"authenticate"(?=.*"result" ?: ?[1-9])|^\{"t":\{"\$date":"[^"]{1,40}"\},"s":"[A-Z0-9]{1,2}", *"c":"ACCESS", *"id":(?:20249|5286307),|^\S{1,40} [A-Z]\s{1,2}ACCESS +\[[^\]]{1,80}\] (?=.*authentication failed for )/,
    meaning: 'Clients, or the agents, are refused by the server: a wrong password, a user that does not exist, or a password secret changed without the user. A failing agent user (mms-automation-agent) cannot manage the member.',
    remedy: `See who and from where: ${AUDIT_FAILED_LOGINS} (the audit log's events), or ${SERVER_FAILED_LOGINS} (the server's lines, with the error). ${FIX_CREDENTIALS}`,
    remedyIn: (types) => {
      const server = types.includes('mongodb');
      const audit = types.includes('mongodb-audit');
      if (server === audit) return undefined;
      return server
        ? `See who and from where: ${SERVER_FAILED_LOGINS} (the server's lines: user, remote, error). ${FIX_CREDENTIALS}`
        : `See who and from where: ${AUDIT_FAILED_LOGINS} (the audit log's events: user, remote, result). ${FIX_CREDENTIALS}`;
    },
    // With auditing on, the server writes its line and the audit log its event for each failure.
    oneEventIn: ['mongodb', 'mongodb-audit'],
  },
  {
    id: 'server-unclean-shutdown',
    title: 'The server was killed or crashed',
    where: 'mongodb (the server log), at its next start: a start with no shutdown logged before it, or its storage engine saying so',
    types: SERVER_TYPES,
    // The storage engine's lock file was not emptied by a clean shutdown: 4.4+ id 22271
    // (`Detected unclean shutdown - Lock file is not empty`), before it the text with the path.
    // A start after lines with no shutdown logged since is the other sign (unlogged-stops.ts).
    // Anchored in the line's head (its message): a slow operation's filter may say the same words.
    matches: /^\{"t":\{"\$date":"[^"]{1,40}"\},"s":"[A-Z0-9]{1,2}", *"c":"[A-Z_]{1,20}", *"id":\d{1,9}, *"ctx":"[^"]{1,200}", *"msg":"Detected unclean shutdown - |^\S{1,40} [A-Z]\s{1,2}[A-Z_]{1,20} +\[[^\]]{1,200}\] Detected unclean shutdown - /,
    witnessed: true,
    meaning: 'The server stopped without a clean shutdown: killed (the container OOM-killed at its memory limit, a SIGKILL after the grace period, the node lost) or crashed. It recovered its data from the journal as it started.',
    remedy: UNCLEAN_SHUTDOWN_REMEDY,
    // A fatal error logged is the server ending itself: where to start, before the signs of a kill.
    remedyBeside: (found) => (found.has('server-fatal') ? `It logged a fatal error (server-fatal, above): start there. ${UNCLEAN_SHUTDOWN_REMEDY}` : undefined),
  },
  {
    id: 'sidecar-lines-lost',
    title: 'The log sidecar could not deliver some lines',
    where: 'logtype-sidecar (its diagnostics, in its container log)',
    types: SIDECAR_TYPES,
    // A copytruncate's `truncated` loses lines only when it says lostBytes above zero; a stats
    // line's givenUpBytes above zero says bytes were given up even where the warnings that said
    // so were dropped (stderr on stdout's stalled pipe).
    matches: /"event"\s*:\s*"(?:resume-lost|gave-up|compressed-unread)"|"event"\s*:\s*"(?:truncated|stats)".*"(?:lostBytes|givenUpBytes)"\s*:\s*[1-9]/,
    // Truncated or rewritten in place while it was down: its own problem (sidecar-lines-repeated);
    // after a kill, or for a rotated file read to its end at the stop, what was lost is not known
    // (sidecar-lines-maybe-lost).
    unless: /"(?:inPlace|afterKill|readToEnd)"\s*:\s*true/,
    meaning:
      'Lines of a log were not shipped: a file the sidecar had not finished was deleted, compressed or cut by a copytruncate while it was down (resume-lost), a file was rotated and compressed before the sidecar could read it (compressed-unread: it was stopped, frozen or behind a stalled reader), a copytruncate emptied the file before its last lines were read (truncated, lostBytes), or rotated files were deleted before they could be read, behind a stalled reader or a sidecar short of CPU (gave-up). Each line names the file and how much.',
    remedy: `See which files and how much: ${SIDECAR_WARNINGS}. Read what was not shipped where the line says (a compressed rotation: logtype --as TYPE FILE); keep one rotation uncompressed (logrotate's delaycompress) so a restart finds it; for gave-up, find why the log shipper or kubectl logs -f stopped reading, or whether the sidecar's CPU limit throttles it (kubectl top pod --containers), and keep more rotated files (logrotate's rotate).`,
  },
  {
    id: 'sidecar-lines-maybe-lost',
    title: 'A file the log sidecar may not have finished was gone at its restart: some lines may not have been delivered',
    where: 'logtype-sidecar (resume-lost with afterKill, after previous-run-killed; or with readToEnd)',
    types: SIDECAR_TYPES,
    matches: /"event"\s*:\s*"resume-lost".*"(?:afterKill|readToEnd)"\s*:\s*true/,
    meaning:
      'Either the sidecar was killed (afterKill) and had delivered lines past its last save before it died, how many is not known; or the file was a rotated one read to its end when the sidecar stopped (readToEnd) whose writer may still have added lines after that. The file was deleted, compressed or cut while the sidecar was down, so what it held past the saved position (nothing, or up to the rest of the file) may never have been shipped.',
    remedy: `See which file: ${SIDECAR_WARNINGS}; compare its last lines with the last of that log the store has (a compressed rotation: logtype --as TYPE FILE), and keep one rotation uncompressed (logrotate's delaycompress) so a restart finds it.`,
  },
  {
    id: 'sidecar-lines-repeated',
    title: 'A log was truncated or rewritten while the log sidecar was down: lines sent again, and some lost',
    where: 'logtype-sidecar (resume-lost with inPlace)',
    types: SIDECAR_TYPES,
    matches: /"event"\s*:\s*"resume-lost".*"inPlace"\s*:\s*true/,
    meaning:
      'The file the sidecar had read is at its name but shorter, or other, than it was: it read it again from its start, so the lines it still holds from before the restart appear twice downstream, and the lines written after the last one delivered and before the cut were never shipped.',
    remedy: `See which file, its size and what was delivered: ${SIDECAR_WARNINGS}. Count with care around that time; rotate by rename (logrotate without copytruncate) so a file is never cut in place.`,
  },
  {
    id: 'sidecar-unreadable',
    title: 'The log sidecar cannot read a log file (permission denied)',
    where: 'logtype-sidecar (unreadable, heartbeat-held)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('unreadable', 'heartbeat-held'),
    meaning: 'A log the pod writes is not shipped. While it lasts the sidecar holds its heartbeat back, so its liveness probe fails and the kubelet restarts its container.',
    remedy: `Run the sidecar as the file's owner: in the pod, do not set runAsUser on its container (the database pod's user is uid 2000, fsGroup 2000). A file root owns was made by hand or by a job run as root: chown it to the pod's user. The line names the sidecar's uid and gid, the file's owner and mode, and the fix: ${SIDECAR_WARNINGS}.`,
  },
  {
    id: 'sidecar-log-missing',
    title: "The server's or the agent's log has not appeared where the sidecar looks",
    where: 'logtype-sidecar (missing, for mongodb, automation-agent or automation-agent-verbose; missing-dir)',
    types: SIDECAR_TYPES,
    matches: ALWAYS_WRITTEN_MISSING,
    // At a pod's first start the server's log may come later than the warning (the agent
    // downloads the server first): over once the sidecar follows it.
    resolvedBy: diagnosticEvent('opened', 'resumed'),
    subjectOf: (text) => DIAGNOSTIC_SOURCE.exec(text)?.[1] ?? DIAGNOSTIC_PATH.exec(text)?.[1],
    meaning:
      "Every database pod the operator runs writes the server's log and the agent's: when the sidecar finds none at the path it follows, or no log directory at all (missing-dir, with --once), the path or the directory does not match what the pod writes, and that log is not shipped.",
    remedy: `Check the path the line names against the pod's files (kubectl exec POD -- ls LOG_DIR) and the variable that sets it (MDB_LOG_FILE_*), or --log-dir: the sidecar must read the variables the database container gets, on the same volume.`,
  },
  {
    id: 'sidecar-file-missing',
    title: 'A log file the sidecar follows has not appeared',
    where: 'logtype-sidecar (missing)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('missing', 'missing-dir'),
    unless: ALWAYS_WRITTEN_MISSING,
    // A pod without auditing or a backup agent never writes those logs: worth knowing, and a
    // problem only where the log is one the pod writes.
    informational: true,
    meaning:
      'The sidecar waits for a file at a path where nothing was written (missing), or found no log directory at all (missing-dir, with --once): a log this pod never writes (auditing off, no backup agent: harmless), or a log name or directory that does not match what the pod writes (then that log is not shipped).',
    remedy: `Check the path the line names against the pod's files (kubectl exec POD -- ls LOG_DIR) and the variable that sets it (MDB_LOG_FILE_*), or --log-dir. --missing-warning 0 silences the warning for every file: use it only where the missing logs are ones the pod never writes.`,
  },
  {
    id: 'sidecar-state',
    title: 'The log sidecar cannot keep its place in the logs',
    where: 'logtype-sidecar (state-unwritable, state-unreadable, state-in-use, heartbeat-unwritable, lock-left)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('state-unwritable', 'state-unreadable', 'state-in-use', 'heartbeat-unwritable', 'lock-left'),
    meaning:
      'Its state file (where each log was delivered to) cannot be read or written, or another sidecar holds it: at its next restart it cannot resume where it stopped, so lines are sent again or skipped. A heartbeat file it cannot write fails its liveness probe.',
    remedy: `The line names the fix for its cause (a full volume, a read-only one, permissions, a second sidecar on the same file): ${SIDECAR_WARNINGS}. Keep --state-file and --heartbeat-file on a writable volume the container owns.`,
  },
  {
    id: 'sidecar-compressed',
    title: 'A log file the sidecar follows is compressed',
    where: 'logtype-sidecar (compressed)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('compressed'),
    meaning: 'A followed path (or a rotation beside it) holds gzip, xz, zstd, bzip2 or lz4 data: its bytes are not shipped, as they would leave as lines of garbage.',
    remedy: `Point the path at the log as it is written, not a compressed rotation; read a compressed copy with logtype --as TYPE FILE. The line names the file: ${SIDECAR_WARNINGS}.`,
  },
  {
    id: 'sidecar-stop-timeout',
    title: 'The log sidecar stopped before its reader took everything',
    where: 'logtype-sidecar (stop-timeout)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('stop-timeout'),
    informational: true,
    meaning:
      "At its stop, --stop-timeout ran out before the reader of its output (kubectl logs, a shipper) took all that was read (with a state file the next start delivers the rest; without one, that rest is not shipped), or before its stdin's writer closed it (what it sent was delivered).",
    remedy: 'Nothing to do when a state file is kept (the pod manifests keep one). Otherwise give the pod a terminationGracePeriodSeconds above --stop-timeout and keep a --state-file.',
  },
  {
    id: 'sidecar-killed',
    title: 'The log sidecar was killed',
    where: 'logtype-sidecar (previous-run-killed, said by the next run as it starts)',
    types: SIDECAR_TYPES,
    matches: diagnosticEvent('previous-run-killed'),
    informational: true,
    meaning:
      "A run of the sidecar ended without its stop (SIGKILL at the end of the grace period, the OOM killer at its memory limit, a lost node, or a crash), as its lock left beside the state file showed the next run: nothing of the log files was lost, but their lines it had sent since its last save (a second or so) were sent again; what it had read of a stream (the agent's stdout and stderr, which keep no position) and not yet written out was lost.",
    remedy: "See what ended it: kubectl describe pod (the logtype container's Last State: OOMKilled, exit code 137) and kubectl logs --previous; a stop that outlasts the grace period needs terminationGracePeriodSeconds above --stop-timeout.",
  },
  {
    id: 'pod-pipes-unavailable',
    title: "The logtype container cannot make the agent's named pipes",
    where: 'logtype-pod (pipe-unavailable), in the logtype container',
    types: POD_SCRIPT_TYPES,
    matches: diagnosticEvent('pipe-unavailable'),
    meaning: "The agent's stdout and stderr cannot reach the sidecar: the container exits, and the kubelet restarts it until the pipes can be made.",
    remedy: 'Mount a writable emptyDir at /run/logtype (LOGTYPE_RUN_DIR) in the logtype container and in the database container, as sidecar/replica-set.yaml does (sidecar/README.md).',
  },
  {
    id: 'pod-launcher-not-patched',
    title: "The agent launcher was not patched: each line is shipped twice",
    where: 'logtype-pod (launcher-missing, launcher-not-recognised), in the override-agent-launcher init container',
    types: POD_SCRIPT_TYPES,
    matches: diagnosticEvent('launcher-missing', 'launcher-not-recognised'),
    meaning:
      "The database container still runs the operator's own tail | jq pipelines beside the sidecar, so every log line reaches kubectl logs twice. In the operator's static architecture the launcher is linked only when the agent container starts, so it is never there to patch: that architecture is not supported (sidecar/README.md).",
    remedy: "The line says why: run the init container after the operator's init-database container (its name must sort after mongodb-kubernetes-init-database) with the database-scripts volume mounted, in the non-static architecture; for a launcher it does not recognise, report the operator version, or remove the logtype container.",
  },
  {
    id: 'logtype-other-warning',
    title: 'logtype warned of something else',
    where: 'logtype-sidecar, logtype-pod: a warning or an error of an event no problem above covers',
    types: [...SIDECAR_TYPES, ...POD_SCRIPT_TYPES],
    matches: /"level"\s*:\s*(?:40|50|60)\s*[,}]/,
    // The events the problems above name (a copytruncate whose copy was read is a warning with
    // nothing lost: said by the sidecar, no problem).
    unless: diagnosticEvent(...KNOWN_DIAGNOSTIC_EVENTS),
    meaning: "A warning or an error of the sidecar or the pod script (a wrong flag that keeps its container restarting, a log directory moved, a read error, a last line without a newline…): its line says what happened and, where there is one, the fix.",
    remedy: `Read the lines: ${SIDECAR_WARNINGS} (logtype -t logtype-pod -o pretty for the pod script's); docs/following.md lists every event the sidecar writes.`,
  },
  {
    id: 'automatic-recovery',
    title: 'The operator ran its automatic recovery',
    where: 'operator log',
    matches: /automatic recovery|MDB_AUTOMATIC_RECOVERY_BACKOFF_TIME_S/i,
    informational: true,
    meaning: 'A resource stayed Pending or Failed longer than MDB_AUTOMATIC_RECOVERY_BACKOFF_TIME_S, so the operator pushed the automation configuration again to unblock the rollout.',
    remedy: 'Nothing to do if the resource then reaches Running; otherwise look for the problem that kept it Failed (above).',
  },
];
