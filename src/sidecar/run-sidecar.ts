/**
 * The sidecar: every source's lines become entries through one writer. This file wires the
 * parts and runs the stop: followers (src/follow) hold and read the files, the scheduler
 * (scheduler.ts) takes fair turns and waits out backpressure, the writer (src/output) knows what
 * has left the process, the checkpointer (src/state) saves that, and the event log says what
 * happened (event-log.ts).
 *
 * Stopping (SIGTERM, SIGINT, SIGHUP): for up to `stopTimeoutMs` it goes on reading what is left
 * (stdin from a pipe or FIFO until its writer closes it: the agent stops with the pod too; a
 * FIFO held read-write, which never ends, for what it holds) and
 * offering it to the reader; held unfinished lines leave as partial pieces (positions kept)
 * or whole (none kept); once the reader took everything, positions are saved and it ends with 0.
 * At the deadline nothing more is offered: if the pipe took part of an entry, that one entry is
 * finished (a write that waits for the reader: the one case the timeout does not bound), the
 * positions of what the reader took are saved, and it ends with 0. The next start delivers
 * exactly the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { DiagnosticRoute, Logger } from '../diag/logger.js';
import { entryPrefix, isEntryLine } from '../encode/encode-entry.js';
import { LongEntryLine } from '../encode/long-entry-line.js';
import type { FileSource } from '../config/sidecar-config.js';
import { errorMessage } from '../follow/error-message.js';
import { FileFollower } from '../follow/file-follower.js';
import { linkTarget } from '../follow/rotated-siblings.js';
import type { FileCheckpoint } from '../follow/file-checkpoint.js';
import type { FileLineSink } from '../follow/line-stream.js';
import { StreamSource, fifoHeldReadWrite, isFifo, openFifo } from '../follow/stream-source.js';
import { wakeOnChanges, type Waker } from '../follow/wake.js';
import { EntryWriter } from '../output/entry-writer.js';
import { Checkpointer } from '../state/checkpointer.js';
import { loadState, seenUntil, type SidecarState } from '../state/state-file.js';
import { lockState } from '../state/state-lock.js';
import { danglingLink, statOrNone, statPath } from '../follow/path-state.js';
import { movedPaths } from '../state/moved-paths.js';
import { logFollowEvent } from './event-log.js';
import { Heartbeat } from './heartbeat.js';
import { octalMode } from './unreadable-fix.js';
import { Scheduler } from './scheduler.js';
import { logStats, newStats, type SourceStats, type StatsSource } from './source-stats.js';
import { missingReports, type DirectoryState } from './once-missing.js';

export interface SidecarOptions {
  readonly files: readonly FileSource[];
  readonly stdinType?: string | undefined;
  readonly maxLineBytes: number;
  readonly rotateWaitMs: number;
  readonly pollMs: number;
  readonly fromStart: boolean;
  /** Read what is there, then exit. */
  readonly once: boolean;
  /** Per-file health lines every so often; 0: only at shutdown. */
  readonly statsIntervalMs: number;
  /** Where read positions are kept across restarts; undefined: not kept. */
  readonly stateFile?: string | undefined;
  /** A file whose mtime the poll refreshes: a liveness probe checks that it is recent. */
  readonly heartbeatFile?: string | undefined;
  /** After a stop signal, how long to go on reading and offering entries [default 30 s]. */
  readonly stopTimeoutMs?: number | undefined;
  /** A followed file still missing after this long is warned about, then hourly; 0: never [default 3 min]. */
  readonly missingWarningMs?: number | undefined;
}

export interface SidecarIO {
  readonly stdout: Writable;
  readonly stdin: Readable;
  /** stdin's descriptor when it is the process's own (0): tells a FIFO held read-write. */
  readonly stdinFd?: number | undefined;
  readonly log: Logger;
  /** The version the `started` line names (the command's package version). */
  readonly version?: string | undefined;
  /**
   * Set when stderr is stdout's pipe (sameStream): `log`'s lines then go through the entry
   * writer while it runs, between whole entries, and straight to stderr again at the end.
   */
  readonly diagnosticRoute?: DiagnosticRoute | undefined;
  /** stdout is a terminal (run by hand): entries are escaped for it (EntryWriterOptions.terminal). */
  readonly stdoutIsTTY?: boolean | undefined;
  /** stdout is the null device (null-output.ts): said at the start, as every entry is lost there. */
  readonly stdoutIsNull?: boolean | undefined;
}

/** Exit codes: stopped cleanly (0), output failed (1), `--once` with a followed file missing (3), the state file in use (4). */
export const EXIT_OK = 0;
export const EXIT_OUTPUT_FAILED = 1;
export const EXIT_ONCE_MISSING = 3;
/** Another running sidecar holds the state file's lock (state-lock.ts). */
export const EXIT_STATE_IN_USE = 4;

/** pino's level of a warning: lines at it or above have the most room when stderr is stdout's pipe. */
const WARN_LEVEL = 40;

const DEFAULT_STOP_TIMEOUT_MS = 30_000;

interface FollowedFile extends StatsSource {
  readonly source: FileSource;
  readonly follower: FileFollower;
  /** A file is there (or was found) now; false while waiting for the name. */
  present: boolean;
  /** A file it holds holds compressed data: not read (HeldFile's look at its first bytes), until another file is opened. */
  compressed: boolean;
}

interface FollowedStream extends StatsSource {
  readonly source: StreamSource;
}

export class Sidecar {
  readonly #options: SidecarOptions;
  readonly #io: SidecarIO;
  readonly #writer: EntryWriter;
  readonly #files: FollowedFile[] = [];
  readonly #streams: FollowedStream[] = [];
  #scheduler: Scheduler | undefined;
  #checkpointer: Checkpointer | undefined;
  /** Removes the state file's lock, once the last save is made. */
  #releaseLock: (() => NodeJS.ErrnoException | undefined) | undefined;
  /** No lock could be made at the start (its directory not there yet): tried again, once a second at the most, until one is. */
  #lockRetryAt: number | undefined;
  #waker: Waker | undefined;
  #statsTimer: NodeJS.Timeout | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #stopping = false;
  /** The run before this one was killed (its lock was left): saved positions are its last save's. */
  #afterKill = false;
  /** Log directories that may not be searched, said once for all the logs in each (event-log.ts). */
  readonly #unsearchable = new Map<string, number>();
  /** What stopped it, for the `stopped` line: the signal, or why it ended by itself. */
  #stopCause: string | undefined;
  readonly #startedAt = Date.now();
  #finishing = false;
  #ended = false;
  #finished: Promise<number>;
  #finish!: (code: number) => void;
  /**
   * Whether a name beside a followed path is one of ours, never its rotation whatever its name
   * looks like: the state file and its temporary files, the heartbeat file, and every followed
   * path (a user's `--file` may name one like another's rotation: `mongodb-1.log`).
   */
  readonly #ownFile: (name: string) => boolean;

  constructor(options: SidecarOptions, io: SidecarIO) {
    this.#options = options;
    const stateFile = options.stateFile ? path.resolve(options.stateFile) : undefined;
    const own = new Set([...options.files.map((f) => path.resolve(f.path)), ...(options.heartbeatFile ? [path.resolve(options.heartbeatFile)] : []), ...(stateFile ? [stateFile] : [])]);
    this.#ownFile = (name) => {
      const resolved = path.resolve(name);
      return own.has(resolved) || (stateFile !== undefined && resolved.startsWith(`${stateFile}.`));
    };
    this.#io = io;
    this.#writer = new EntryWriter(io.stdout, { onDelivered: () => this.#checkpointer?.changed(), terminal: io.stdoutIsTTY === true });
    const route = io.diagnosticRoute;
    if (route) route.write = (line, level) => void this.#writer.writeDiagnostic(line, level >= WARN_LEVEL);
    this.#finished = new Promise((resolve) => {
      this.#finish = resolve;
    });
    io.stdout.on('error', (error: NodeJS.ErrnoException) => {
      // The reader went away (`| head`): nothing more can be delivered; a quiet, clean end.
      if (error.code !== 'EPIPE') io.log.error({ event: 'output-error', error: error.message, code: error.code }, outputErrorWords(error.code));
      this.#stopCause ??= error.code === 'EPIPE' ? 'reader-gone' : 'output-failed';
      this.#end(error.code === 'EPIPE' ? EXIT_OK : EXIT_OUTPUT_FAILED);
    });
  }

  /** Starts following; resolves with the exit code once stopped (signal, `--once`, EPIPE). */
  run(): Promise<number> {
    // Each run's first line and (stopped, in #end) its last: a restart reads as one in the
    // container log, and a run with no `stopped` line before the next `started` was killed.
    this.#io.log.info(
      { event: 'started', version: this.#io.version, pid: process.pid, node: process.version, files: this.#options.files.length, stateFile: this.#options.stateFile ?? null },
      `logtype-sidecar${this.#io.version ? ` ${this.#io.version}` : ''} started (pid ${process.pid})`,
    );
    if (this.#io.stdoutIsNull) {
      this.#io.log.warn(
        { event: 'output-discarded' },
        'stdout is /dev/null: every entry is thrown away, yet counted delivered and its position saved, so a restart does not send it again. If stdout was closed (>&-), Node put /dev/null in its place: give the sidecar a stdout (the container log, a pipe, a file)',
      );
    }
    if (this.#options.stateFile) {
      const lock = lockState(path.resolve(this.#options.stateFile));
      if (lock.kind === 'taken') {
        this.#stateInUse(lock.path, lock.pid);
        return this.#finished;
      }
      if (lock.kind === 'held') {
        this.#releaseLock = lock.release;
        // A lock left behind: the run that held it ended without its stop, and its last save is
        // where this one resumes (what it delivered after that save is sent again).
        if (lock.staleHolder !== undefined) {
          this.#afterKill = true;
          // A warning: lines are sent again (and what a stream had read is gone), which a count downstream must know.
          this.#io.log.warn(
            { event: 'previous-run-killed', path: this.#options.stateFile, pid: lock.staleHolder },
            `the last run (pid ${lock.staleHolder}) ended without its stop (killed: SIGKILL after the grace period, the OOM killer, a lost node; or crashed; or its stop could not remove its lock, which it said as lock-left): resuming from its last save, so the files' lines it delivered after that save are sent again`,
          );
        }
      } else {
        this.#io.log.info({ event: 'state-unlocked', path: this.#options.stateFile, lock: lock.path, error: lock.reason }, 'the state file is not locked (no lock can be made beside it yet): tried again each second; meanwhile a second sidecar on it would not be refused');
        this.#lockRetryAt = Date.now() + 1000;
      }
    }
    const saved = this.#loadState();
    const moved = saved ? this.#movedPaths(saved) : new Map<string, string>();
    for (const source of this.#options.files) this.#addFile(source, saved, moved.get(source.path));
    if (this.#options.stdinType) {
      // stdin from a pipe or FIFO is read to its end at a stop. Not from a terminal (nobody
      // closes it), nor from a FIFO we hold read-write (the pod's `0<>PIPE`: we are a writer
      // too, so it never ends): that one is drained at the stop, as a FIFO given as a file is.
      const held = this.#io.stdinFd === undefined ? undefined : fifoHeldReadWrite(this.#io.stdinFd);
      const heldOpen = held?.readWrite === true;
      const drainFd = heldOpen && held.drainable ? this.#io.stdinFd : undefined;
      this.#addStream(this.#options.stdinType, 'stdin', this.#io.stdin, drainFd, newStats(), !heldOpen && !(this.#io.stdin as { isTTY?: boolean }).isTTY);
    }
    if (this.#options.stateFile) {
      // A path resumed under its new name (state-path-moved) is not saved under the old one any
      // more: a run under the old name again (the directory's other spelling) would resume from
      // that stale entry and send again what was delivered since.
      const followed = new Set(this.#options.files.map((f) => f.path));
      const stale = [...moved.values()].filter((before) => !followed.has(before));
      this.#checkpointer = new Checkpointer(this.#options.stateFile, this.#io.log, () => this.#files.map((f) => f.follower), saved && withoutPaths(saved, stale));
    }
    const heartbeat = this.#options.heartbeatFile ? new Heartbeat(this.#options.heartbeatFile, this.#io.log) : undefined;
    const scheduler = new Scheduler({
      followers: this.#files.map((f) => f.follower),
      streams: this.#streams.map((s) => s.source),
      writer: this.#writer,
      onError: (follower, error) => {
        const file = this.#files.find((f) => f.follower === follower);
        this.#io.log.warn({ event: 'error', source: file?.logType, path: follower.path, error: errorMessage(error) }, 'read error');
      },
      ...(heartbeat ? { onWake: (now: number) => heartbeat.beat(now, () => this.#files.filter((f) => f.follower.denied(now)).map((f) => f.follower.path)) } : {}),
    });
    this.#scheduler = scheduler;
    if (this.#options.once) {
      scheduler.onCaughtUp = () => {
        if (this.#openAllWaiting()) scheduler.wake();
        else if (this.#streams.every((s) => s.source.ended || s.path !== 'stdin')) void this.#drainAndFinish();
      };
    } else {
      // Each followed name's directory, and, for a name that is a symbolic link, its target's:
      // the writes and rotations of a link's target happen there (a target it is pointed to
      // later, in another directory, is seen by the poll).
      const byDirectory = new Map<string, FollowedFile[]>();
      const followedNames = new Map<string, Set<string>>();
      const watch = (file: FollowedFile, name: string): void => {
        const directory = path.resolve(path.dirname(name));
        const files = byDirectory.get(directory) ?? [];
        if (!files.includes(file)) byDirectory.set(directory, [...files, file]);
        followedNames.set(directory, (followedNames.get(directory) ?? new Set()).add(path.basename(name)));
      };
      for (const file of this.#files) {
        watch(file, file.source.path);
        const target = linkTarget(file.source.path);
        if (target !== undefined) watch(file, target);
      }
      // Most events name a followed file (each write to it): none is a rotation of another's
      // (#ownFile), so they ask no follower.
      this.#waker = wakeOnChanges({
        directories: [...byDirectory.keys()],
        pollMs: this.#options.pollMs,
        onName: (directory, name) => {
          if (followedNames.get(directory)?.has(name)) return;
          for (const file of byDirectory.get(directory) ?? []) file.follower.nameChanged(name);
        },
        onWake: () => {
          const now = Date.now();
          if (this.#lockRetryAt !== undefined) this.#retryLock(now);
          this.#checkpointer?.checkStillThere(now);
          scheduler.wake();
        },
        onUnwatchable: (directory, error) =>
          this.#io.log.warn(
            { event: 'watch-unavailable', path: directory, code: error.code, error: error.message, pollMs: this.#options.pollMs },
            error.code === 'EMFILE' || error.code === 'ENOSPC'
              ? `cannot watch ${directory}: inotify's instances or watches are used up for this user (${error.code}), so new lines are noticed by the poll alone, up to ${this.#options.pollMs / 1000} s late; raise fs.inotify.max_user_instances and fs.inotify.max_user_watches on the node`
              : `cannot watch ${directory} (${error.message}): new lines are noticed by the poll alone, up to ${this.#options.pollMs / 1000} s late`,
          ),
      });
      if (this.#options.statsIntervalMs > 0) {
        this.#statsTimer = setInterval(() => this.#logStats(), this.#options.statsIntervalMs);
        this.#statsTimer.unref();
      }
    }
    scheduler.wake();
    return this.#finished;
  }

  /**
   * SIGTERM/SIGINT/SIGHUP: read what is left and offer it for the stop timeout, then save and
   * end (see the module's comment).
   */
  stop(signal?: NodeJS.Signals): void {
    if (this.#stopping || this.#ended) return;
    this.#stopping = true;
    this.#stopCause = signal ?? 'stop';
    const scheduler = this.#scheduler;
    if (!scheduler) {
      this.#end(EXIT_OK);
      return;
    }
    this.#waker?.close();
    this.#deadline = setTimeout(() => this.#atDeadline(), this.#options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
    // Files read to their end, and stdin to its end (its writer closes it as it stops too).
    scheduler.onCaughtUp = () => {
      if (this.#openAllWaiting()) scheduler.wake();
      else if (this.#streams.every((s) => s.source.ended || !s.source.readsToEnd)) void this.#drainAndFinish();
    };
    scheduler.wake();
  }

  /** At the end: rotated files still waiting for room (past the bound on held files) are opened, to be read first. */
  #openAllWaiting(): boolean {
    const now = Date.now();
    let opened = false;
    for (const file of this.#files) opened = file.follower.openAllWaiting(now) || opened;
    return opened;
  }

  /** Everything was read: held lines out, then wait for the reader to take it all. */
  async #drainAndFinish(): Promise<void> {
    if (this.#finishing || this.#ended) return;
    this.#finishing = true;
    this.#scheduler?.stop();
    for (const stream of this.#streams) stream.source.finish();
    // With positions kept, an unfinished line leaves as a piece and the restart sends its rest.
    const asPiece = this.#options.stateFile !== undefined;
    for (const file of this.#files) {
      const unterminated = file.follower.emitHeld(asPiece);
      if (unterminated === 0) continue;
      // Without a state file no piece can be finished later: the line leaves as it is, and is
      // said to (`--once` on a file being written may have caught a line half-written).
      const fields = { event: 'unterminated-line', source: file.logType, path: file.path, bytes: unterminated };
      const said = `the file ends without a newline: its last ${unterminated} bytes left as a whole line (a writer may have been in the middle of it; with --state-file it would leave as a "partial":true piece, finished at the next start)`;
      if (this.#options.once) this.#io.log.warn(fields, said);
      else this.#io.log.info(fields, said);
    }
    await this.#writer.whenIdle();
    if (this.#ended) return;
    clearTimeout(this.#deadline);
    let code = EXIT_OK;
    if (this.#options.once && !this.#stopping) {
      // A compressed file was there, and was said to be so when found: not "not there", but not read either.
      const missing = this.#files
        .filter((f) => !f.present && !f.compressed)
        .map((f) => {
          const state = statPath(f.path);
          return { logType: f.logType, path: f.path, variable: f.source.variable, origin: f.source.origin, what: state.kind === 'other' ? state.what : undefined, dangling: danglingLink(f.path) };
        });
      const compressed = this.#files.filter((f) => f.compressed).length;
      const present = this.#files.length - missing.length - compressed + this.#streams.length;
      for (const { fields, message } of missingReports(missing, present, EXIT_ONCE_MISSING, directoryState)) this.#io.log.warn(fields, message);
      if (missing.length > 0 || compressed > 0) code = EXIT_ONCE_MISSING;
    }
    this.#end(code);
  }

  /** Another sidecar holds the state file's lock: this one stops, exit 4 (at the start, or when a lock could first be tried). */
  #stateInUse(lockPath: string, pid: number): void {
    this.#io.log.error(
      { event: 'state-in-use', path: this.#options.stateFile, lock: lockPath, pid },
      `the state file is in use by another logtype-sidecar (pid ${pid}): two on one state file resume from each other's positions, and each loses the lines only the other delivered; give this one a --state-file of its own (or run --once without --state-file, which saves nothing)`,
    );
    this.#stopCause = 'state-in-use';
    this.#end(EXIT_STATE_IN_USE);
  }

  /**
   * The lock no one could make at the start (the log volume's directory not there yet), tried
   * again: held from then on; held by another sidecar that got there first, this one stops (it
   * never held it), as it would have at its start.
   */
  #retryLock(now: number): void {
    if (this.#lockRetryAt === undefined || now < this.#lockRetryAt || this.#ended) return;
    this.#lockRetryAt = now + 1000;
    const lock = lockState(path.resolve(this.#options.stateFile!));
    if (lock.kind === 'none') return;
    this.#lockRetryAt = undefined;
    if (lock.kind === 'taken') {
      // Its state file now: this one's positions are not saved over it.
      this.#checkpointer?.abandon();
      return this.#stateInUse(lock.path, lock.pid);
    }
    this.#releaseLock = lock.release;
    this.#io.log.info({ event: 'state-locked', path: this.#options.stateFile, lock: lock.path }, 'the state file is locked now: a second sidecar on it is refused');
  }

  /** The stop timeout is over: nothing more is offered; an entry the pipe cut is finished. */
  #atDeadline(): void {
    if (this.#ended) return;
    this.#scheduler?.stop();
    // The writer hands nothing more out: a diagnostic on stdout's pipe (DiagnosticRoute) waits in
    // it until the entry the pipe has part of is finished (#diagnosticsStraight).
    const cut = this.#writer.stopAtDeadline();
    if (cut.kind === 'cut') {
      // Saved first: if the reader never takes the rest, the pod's kill at the end of its grace
      // period finds the positions before that entry, and the restart sends it again whole.
      this.#checkpointer?.save(true);
      // Said before the blocking write that may wait for the reader to the end (on stdout's pipe, it waits in the writer until after it).
      this.#io.log.warn(
        { event: 'stop-timeout', stopTimeoutMs: this.#options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, cutEntryBytes: cut.rest },
        'the reader did not take everything before the stop timeout; finishing the one entry the pipe has part of, then stopping',
      );
      cut.finish();
    } else if (this.#streams.some((s) => s.source.readsToEnd && !s.source.ended)) {
      this.#io.log.warn(
        { event: 'stop-timeout', stopTimeoutMs: this.#options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS },
        'stdin did not end before the stop timeout (its writer kept it open); what it sent was delivered',
      );
    } else {
      this.#io.log.warn(
        { event: 'stop-timeout', stopTimeoutMs: this.#options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS },
        'the reader did not take everything before the stop timeout; the next start delivers the rest',
      );
    }
    this.#end(EXIT_OK);
  }

  /**
   * The writer hands nothing more to the stream: the diagnostics waiting in it (stderr on
   * stdout's pipe) go to stderr as they are, in the order said, and later ones straight there.
   * Everything that left before ends with a whole entry: the stop finished a cut one.
   */
  #diagnosticsStraight(): void {
    const route = this.#io.diagnosticRoute;
    if (!route?.write) return;
    route.write = undefined;
    const waiting = this.#writer.takeDiagnostics();
    if (waiting !== '') route.direct?.(waiting);
  }

  /** The end: positions saved, health lines, descriptors closed, the exit code out. */
  #end(code: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#diagnosticsStraight();
    this.#scheduler?.stop();
    this.#waker?.close();
    clearInterval(this.#statsTimer);
    clearTimeout(this.#deadline);
    this.#checkpointer?.close();
    const lockLeft = this.#releaseLock?.();
    // The next run takes a lock left for a kill's: said here, where the stop was clean.
    if (lockLeft) {
      this.#io.log.warn(
        { event: 'lock-left', path: this.#options.stateFile, code: lockLeft.code },
        `could not remove the state file's lock at this stop (${lockLeft.code ?? lockLeft.message}: a volume gone read-only?): the next run will say this run was killed (previous-run-killed); it was not`,
      );
    }
    this.#logStats();
    for (const file of this.#files) file.follower.close();
    const cause = this.#stopCause ?? (this.#options.once ? 'once' : 'end');
    const dropped = this.#writer.droppedDiagnostics;
    const once = code === EXIT_ONCE_MISSING ? '--once: what was there read; a followed file or the log directory is missing' : '--once: everything read';
    const said = `stopped (${cause === 'once' ? once : cause === 'reader-gone' ? 'the reader of stdout went away' : cause}), exit ${code}`;
    const fields = { event: 'stopped', cause, code, uptimeMs: Date.now() - this.#startedAt };
    // Diagnostics dropped (stderr on stdout's pipe, the reader stalled): a warning, as what they said may have been.
    if (dropped > 0) {
      this.#io.log.warn(
        { ...fields, diagnosticsDropped: dropped },
        `${said}; ${dropped} diagnostic lines were dropped while the reader of stdout (which stderr shares) stalled: the stats lines' givenUpBytes say what was not read`,
      );
    } else this.#io.log.info(fields, said);
    this.#finish(code);
  }

  #loadState(): (SidecarState & { readonly positionsLost?: boolean }) | undefined {
    const file = this.#options.stateFile;
    if (!file) return undefined;
    const loaded = loadState(file);
    if (loaded.kind === 'loaded') {
      if (loaded.upgradedFrom) this.#io.log.info({ event: 'state-upgraded', path: file, from: loaded.upgradedFrom }, 'state file of an earlier version: positions kept');
      return loaded.state;
    }
    if (loaded.kind === 'unreadable' && loaded.writtenAt !== undefined) {
      // Its positions are lost, not its time: a file changed since it was written has lines no
      // save covers, read again from its start (a repeat is seen; a skipped line is not).
      const { denied } = loaded;
      const uid = process.getuid?.() ?? -1;
      const why = denied
        ? `state file ${file} may not be read by uid ${uid} (it is uid ${denied.uid}'s, gid ${denied.gid}, mode ${octalMode(denied.mode)}): run the sidecar as the user that saves it, or remove the file (the next save writes it as ours)`
        : `state file unreadable (${loaded.reason.startsWith('a state file of version') ? loaded.reason : 'empty, cut short or not ours'})`;
      this.#io.log.warn(
        { event: 'state-unreadable', path: file, error: loaded.reason, writtenAt: new Date(loaded.writtenAt).toISOString(), ...(denied ? { uid, fileUid: denied.uid, fileGid: denied.gid, fileMode: octalMode(denied.mode) } : {}) },
        `${why}; files changed since it was written are read again from their start, the others from their end`,
      );
      return { version: 2, savedAt: loaded.writtenAt, files: {}, positionsLost: true };
    }
    if (loaded.kind === 'unreadable') {
      this.#io.log.warn(
        { event: 'state-unreadable', path: file, error: loaded.reason },
        `state file unreadable (${loaded.reason}); starting afresh (files there now are read from their end): point --state-file at a file the sidecar may read and write`,
      );
    }
    return undefined;
  }

  /**
   * Followed paths the state knows under another name (moved-paths.ts), said; and when it knows
   * none of them and none moved, that is said: files changed since its save are read again from
   * their start (lines repeat), never skipped.
   */
  #movedPaths(saved: SidecarState): Map<string, string> {
    const paths = this.#options.files.map((f) => f.path);
    const moved = movedPaths(saved, paths, statOrNone);
    for (const [now, before] of moved) {
      this.#io.log.warn({ event: 'state-path-moved', path: now, savedAs: before }, `the state file knows this file under ${before} (the same inode): resuming from there (the log directory moved or was renamed?)`);
    }
    const known = Object.keys(saved.files);
    if (known.length > 0 && moved.size === 0 && !paths.some((name) => saved.files[name] !== undefined)) {
      this.#io.log.warn(
        { event: 'state-paths-unknown', path: this.#options.stateFile, known: known.slice(0, 8) },
        `the state file knows none of the followed paths, nor their files (it knows ${known.slice(0, 3).join(', ')}${known.length > 3 ? ', …' : ''}): saved for another --log-dir? Files changed since its save are read from their start, so lines delivered from them before may repeat; another --log-dir wants a --state-file of its own`,
      );
    }
    return moved;
  }

  #addFile(source: FileSource, saved: (SidecarState & { readonly positionsLost?: boolean }) | undefined, savedAs?: string): void {
    const stats = newStats();
    if (isFifo(source.path)) {
      const { readable, fd } = openFifo(source.path);
      this.#addStream(source.logType, source.path, readable, fd, stats);
      this.#io.log.info({ event: 'opened', source: source.logType, path: source.path }, 'reading named pipe');
      return;
    }
    const context = { log: this.#io.log, source, stats, once: this.#options.once, afterKill: this.#afterKill, unsearchable: this.#unsearchable };
    const file: FollowedFile = {
      logType: source.logType,
      path: source.path,
      stats,
      source,
      present: false,
      compressed: false,
      follower: new FileFollower({
        path: source.path,
        maxLineBytes: this.#options.maxLineBytes,
        rotateWaitMs: this.#options.rotateWaitMs,
        fromStart: this.#options.fromStart,
        resume: saved
          ? {
              files: saved.files[savedAs ?? source.path] ?? [],
              savedAt: seenUntil(saved, savedAs ?? source.path),
              past: saved.past?.[savedAs ?? source.path],
              positionsLost: saved.positionsLost,
            }
          : undefined,
        sink: this.#fileSink(source.logType, source.passThroughEntries, stats),
        ignore: this.#ownFile,
        ...(this.#options.missingWarningMs === undefined ? {} : { missingWarningMs: this.#options.missingWarningMs || Infinity }),
        onEvent: (event) => {
          if (event.kind === 'opened' || event.kind === 'resumed') file.present = true;
          else if (event.kind === 'waiting' || event.kind === 'rotated' || event.kind === 'deleted') file.present = false;
          file.compressed = event.kind === 'compressed' || (file.compressed && event.kind !== 'opened' && event.kind !== 'resumed');
          if (event.kind === 'missing' && this.#options.missingWarningMs === 0) return;
          logFollowEvent(event, context);
          if (event.kind !== 'waiting' && event.kind !== 'missing' && event.kind !== 'error') this.#checkpointer?.changed();
        },
      }),
      progress: () => {
        let lag: number | undefined;
        try {
          lag = file.follower.lag();
        } catch {
          lag = undefined;
        }
        return { position: file.follower.position ?? null, delivered: file.follower.delivered ?? null, lag };
      },
    };
    this.#files.push(file);
  }

  #addStream(logType: string, name: string, readable: Readable, fd?: number, stats = newStats(), readsToEnd = false): void {
    const source = new StreamSource({
      readable,
      readsToEnd,
      ...(fd === undefined ? {} : { fd }),
      maxLineBytes: this.#options.maxLineBytes,
      sink: this.#streamSink(logType, stats),
      onProgress: () => this.#scheduler?.wake(),
      onError: (message) => this.#io.log.warn({ event: 'error', source: logType, path: name, error: message }, 'read error'),
    });
    this.#streams.push({ logType, path: name, source, stats });
  }

  #fileSink(logType: string, passThroughEntries: boolean, stats: SourceStats): FileLineSink {
    const text = entryPrefix(logType);
    const prefix = { text, bytes: Buffer.from(text) };
    const writer = this.#writer;
    // A line already an entry but longer than a line may be: its pieces unwrapped (long-entry-line.ts).
    const long = passThroughEntries ? new LongEntryLine() : undefined;
    return (bytes: Buffer, start: number, end: number, partial: boolean, endOffset: number, checkpoint: FileCheckpoint) => {
      stats.lines++;
      stats.bytes += end - start;
      if (long) {
        if (!partial && !long.inLine) {
          const line = bytes.toString('utf8', start, end);
          if (isEntryLine(line)) {
            writer.writeEntry(line + '\n', checkpoint, endOffset);
            return;
          }
        } else {
          const entry = long.piece(bytes.toString('utf8', start, end), partial);
          if (entry !== undefined) {
            writer.writeEntry(entry, checkpoint, endOffset, partial);
            return;
          }
        }
      }
      writer.writeLine(prefix, bytes, start, end, partial, checkpoint, endOffset);
    };
  }

  #streamSink(logType: string, stats: SourceStats): (bytes: Buffer, start: number, end: number, partial: boolean) => void {
    const text = entryPrefix(logType);
    const prefix = { text, bytes: Buffer.from(text) };
    const writer = this.#writer;
    return (bytes, start, end, partial) => {
      stats.lines++;
      stats.bytes += end - start;
      writer.writeLine(prefix, bytes, start, end, partial);
    };
  }

  #logStats(): void {
    logStats(this.#io.log, [...this.#files, ...this.#streams]);
  }
}

/** What is at a missing file's directory's path (to say so once for its files). */
function directoryState(dir: string): DirectoryState {
  try {
    return fs.statSync(dir).isDirectory() ? 'directory' : 'not a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'not searchable' : 'missing';
  }
}

/** The state without what it says of `paths`. */
function withoutPaths<S extends SidecarState>(state: S, paths: readonly string[]): S {
  if (paths.length === 0) return state;
  const drop = <V>(byPath: Readonly<Record<string, V>> | undefined): Record<string, V> | undefined =>
    byPath && Object.fromEntries(Object.entries(byPath).filter(([name]) => !paths.includes(name)));
  return { ...state, files: drop(state.files)!, past: drop(state.past), lookedAt: drop(state.lookedAt) };
}

/** What a failed write to stdout means, and what to change: the container's stdout is a pipe the runtime reads; anything else is a redirection. */
function outputErrorWords(code: string | undefined): string {
  const what = 'cannot write entries to stdout';
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `${what}: the file or device it goes to is full; free space there, or give stdout to a reader (in a pod: the container runtime's log)`;
    case 'EBADF':
      return `${what}: it is closed; start the sidecar with stdout open (in a pod, the runtime gives it one)`;
    default:
      return `${what}; nothing more is read (positions saved are those delivered): fix where stdout goes`;
  }
}
