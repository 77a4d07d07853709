/**
 * The sidecar: every source's lines become entries through one writer. Sources are polled
 * when inotify or the slow poll says something changed, each up to a byte budget a turn so
 * one busy file cannot starve the others, and not at all while the output is full.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../diag/logger.js';
import { entryPrefix, isEntryLine } from '../encode/encode-entry.js';
import type { FileSource } from '../config/sidecar-config.js';
import { FileFollower, errorMessage, type FollowEvent } from '../follow/file-follower.js';
import type { LineSink } from '../follow/split-lines.js';
import { StreamSource, isFifo, openFifo } from '../follow/stream-source.js';
import { wakeOnChanges, type Waker } from '../follow/wake.js';
import { EntryWriter } from '../output/entry-writer.js';
import { loadState, saveState, type SavedFile, type SidecarState } from '../state/state-file.js';

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
}

/** Positions are saved at most this often while lines flow. */
const SAVE_EVERY_MS = 1000;

export interface SidecarIO {
  readonly stdout: Writable;
  readonly stdin: Readable;
  readonly log: Logger;
}

/** Per-source counters for the health lines. */
interface SourceStats {
  lines: number;
  bytes: number;
  rotations: number;
  truncations: number;
}

interface FollowedFile {
  readonly source: FileSource;
  readonly follower: FileFollower;
  readonly stats: SourceStats;
}

interface FollowedStream {
  readonly logType: string;
  readonly name: string;
  readonly source: StreamSource;
  readonly stats: SourceStats;
}

/** Bytes one file may be read for in one turn. */
const TURN_BUDGET = 1024 * 1024;
/** Time left after SIGTERM to read what is left, before the output gets what remains. */
const STOP_READ_MS = 1200;
const STOP_TOTAL_MS = 1800;

export class Sidecar {
  readonly #options: SidecarOptions;
  readonly #io: SidecarIO;
  readonly #writer: EntryWriter;
  readonly #files: FollowedFile[] = [];
  readonly #streams: FollowedStream[] = [];
  #waker: Waker | undefined;
  #statsTimer: NodeJS.Timeout | undefined;
  #tickScheduled = false;
  #waitingForDrain = false;
  #stopping = false;
  #lastSave = 0;
  #lastBeat = 0;
  #stateFailed = false;
  #finished: Promise<number>;
  #finish!: (code: number) => void;

  constructor(options: SidecarOptions, io: SidecarIO) {
    this.#options = options;
    this.#io = io;
    this.#writer = new EntryWriter(io.stdout);
    this.#finished = new Promise((resolve) => {
      this.#finish = resolve;
    });
    io.stdout.on('error', (error: NodeJS.ErrnoException) => {
      // The reader went away (`| head`): nothing more can be delivered; a quiet, clean end.
      if (error.code !== 'EPIPE') io.log.error({ event: 'output-error', error: error.message }, 'cannot write entries');
      this.#end(error.code === 'EPIPE' ? 0 : 1);
    });
  }

  /** Starts following; resolves with the exit code once stopped (signal, `--once`, EPIPE). */
  run(): Promise<number> {
    const saved = this.#loadState();
    for (const source of this.#options.files) this.#addFile(source, saved?.files[source.path] ?? (saved ? [] : undefined));
    if (this.#options.stdinType) {
      this.#addStream(this.#options.stdinType, 'stdin', this.#io.stdin);
    }
    if (!this.#options.once) {
      this.#waker = wakeOnChanges({
        directories: this.#files.map((f) => path.dirname(f.source.path)),
        pollMs: this.#options.pollMs,
        onWake: () => {
          this.#beat();
          this.#scheduleTick();
        },
      });
      if (this.#options.statsIntervalMs > 0) {
        this.#statsTimer = setInterval(() => this.#logStats(), this.#options.statsIntervalMs);
        this.#statsTimer.unref();
      }
    }
    this.#beat();
    this.#scheduleTick();
    return this.#finished;
  }

  /** SIGTERM/SIGINT: read what is left, emit held partial lines, deliver, and end. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#waker?.close();
    clearInterval(this.#statsTimer);
    const start = Date.now();
    while (Date.now() - start < STOP_READ_MS && !this.#writer.closed) {
      if (this.#writer.full) {
        await this.#writer.settle(STOP_READ_MS - (Date.now() - start));
        continue;
      }
      if (!this.#pollFiles(Date.now())) break;
      this.#writer.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.#complete(STOP_TOTAL_MS - (Date.now() - start));
  }

  async #complete(settleMs: number): Promise<void> {
    for (const stream of this.#streams) stream.source.finish();
    for (const file of this.#files) file.follower.flushHeld();
    const settled = await this.#writer.settle(Math.max(100, settleMs));
    // Saved only once everything read was delivered: a restart then neither loses nor repeats.
    if (settled) this.#saveState(this.#snapshot());
    this.#logStats();
    for (const file of this.#files) file.follower.close();
    this.#end(0);
  }

  #end(code: number): void {
    this.#stopping = true;
    this.#waker?.close();
    clearInterval(this.#statsTimer);
    this.#finish(code);
  }

  /** At most once a second, on a wake the event loop already has: the loop is alive. */
  #beat(): void {
    const file = this.#options.heartbeatFile;
    const now = Date.now();
    if (!file || now - this.#lastBeat < 1000) return;
    this.#lastBeat = now;
    try {
      fs.utimesSync(file, now / 1000, now / 1000);
    } catch {
      try {
        fs.writeFileSync(file, '');
      } catch (error) {
        this.#io.log.warn({ event: 'heartbeat-unwritable', path: file, error: errorMessage(error) }, 'cannot touch the heartbeat file');
      }
    }
  }

  #loadState(): SidecarState | undefined {
    const file = this.#options.stateFile;
    if (!file) return undefined;
    const loaded = loadState(file);
    if (loaded.kind === 'loaded') return loaded.state;
    if (loaded.kind === 'unreadable') {
      this.#io.log.warn({ event: 'state-unreadable', path: file, error: loaded.reason }, 'state file unreadable; starting afresh');
    }
    return undefined;
  }

  #snapshot(): SidecarState {
    const files: Record<string, SavedFile[]> = {};
    for (const { source, follower } of this.#files) files[source.path] = follower.savedFiles();
    return { version: 1, files };
  }

  #saveState(state: SidecarState): void {
    const file = this.#options.stateFile;
    if (!file || this.#writer.closed) return;
    try {
      saveState(file, state);
      this.#stateFailed = false;
    } catch (error) {
      // Say so once, keep following: positions are lost at a restart, lines are not lost now.
      if (!this.#stateFailed) this.#io.log.warn({ event: 'state-unwritable', path: file, error: errorMessage(error) }, 'cannot save read positions');
      this.#stateFailed = true;
    }
  }

  /** At most every second while lines flow: a snapshot now, saved once this batch left us. */
  #maybeSave(now: number): void {
    if (!this.#options.stateFile || now - this.#lastSave < SAVE_EVERY_MS) return;
    this.#lastSave = now;
    const snapshot = this.#snapshot();
    this.#writer.afterWritten(() => this.#saveState(snapshot));
  }

  #addFile(source: FileSource, resume: readonly SavedFile[] | undefined): void {
    const stats = newStats();
    if (isFifo(source.path)) {
      const { readable, fd } = openFifo(source.path);
      this.#addStream(source.logType, source.path, readable, fd, stats);
      this.#io.log.info({ event: 'opened', source: source.logType, path: source.path }, 'reading named pipe');
      return;
    }
    const follower = new FileFollower({
      path: source.path,
      maxLineBytes: this.#options.maxLineBytes,
      rotateWaitMs: this.#options.rotateWaitMs,
      fromStart: this.#options.fromStart,
      resume,
      sink: this.#sinkFor(source.logType, source.passThroughEntries, stats),
      onEvent: (event) => this.#onFollowEvent(source.logType, event, stats),
    });
    this.#files.push({ source, follower, stats });
  }

  #addStream(logType: string, name: string, readable: Readable, fd?: number, stats = newStats()): void {
    const source = new StreamSource({
      readable,
      ...(fd === undefined ? {} : { fd }),
      maxLineBytes: this.#options.maxLineBytes,
      sink: this.#sinkFor(logType, false, stats),
      onProgress: () => this.#afterStreamProgress(),
      onError: (message) => this.#io.log.warn({ event: 'error', source: logType, path: name, error: message }, 'read error'),
    });
    this.#streams.push({ logType, name, source, stats });
  }

  #sinkFor(logType: string, passThroughEntries: boolean, stats: SourceStats): LineSink {
    const text = entryPrefix(logType);
    const prefix = { text, bytes: Buffer.from(text) };
    const writer = this.#writer;
    return (bytes, start, end, partial) => {
      stats.lines++;
      stats.bytes += end - start;
      if (passThroughEntries && !partial) {
        const line = bytes.toString('utf8', start, end);
        if (isEntryLine(line)) {
          writer.writeEntry(line + '\n');
          return;
        }
      }
      writer.writeLine(prefix, bytes, start, end, partial);
    };
  }

  #onFollowEvent(logType: string, event: FollowEvent, stats: SourceStats): void {
    const log = this.#io.log;
    const fields = { event: event.kind, source: logType, path: event.path };
    switch (event.kind) {
      case 'waiting':
        log.info(fields, 'file not there yet; waiting for it');
        return;
      case 'opened':
        log.info({ ...fields, position: event.position }, 'following file');
        return;
      case 'resumed':
        log.info({ ...fields, file: event.file, position: event.position }, 'resuming where the last run stopped');
        return;
      case 'resume-lost':
        log.warn({ ...fields, position: event.position }, 'a file read before the restart is gone; its unread lines cannot be delivered');
        return;
      case 'rotated':
      case 'deleted':
        stats.rotations++;
        log.info(fields, event.kind === 'rotated' ? 'file rotated; draining the old one' : 'file deleted; draining it');
        return;
      case 'truncated':
        stats.truncations++;
        log.warn(
          event.copy ? { ...fields, copy: event.copy } : fields,
          event.copy ? 'file truncated (copytruncate); read the rest from its copy, now from its start' : 'file truncated; reading from its start',
        );
        return;
      case 'drained':
        log.info({ ...fields, position: event.position }, 'rotated file read to its end and closed');
        return;
      case 'error':
        log.warn({ ...fields, error: event.message }, 'cannot read file; retrying');
        return;
    }
  }

  #afterStreamProgress(): void {
    if (this.#writer.full) this.#pauseUntilDrain();
    this.#scheduleTick();
  }

  #scheduleTick(): void {
    if (this.#tickScheduled || this.#stopping) return;
    this.#tickScheduled = true;
    setImmediate(() => this.#tick());
  }

  #tick(): void {
    this.#tickScheduled = false;
    if (this.#stopping) return;
    if (this.#writer.full) {
      this.#pauseUntilDrain();
      return;
    }
    const now = Date.now();
    const linesBefore = this.#writer.lines;
    const more = this.#pollFiles(now);
    if (this.#writer.lines > linesBefore) this.#maybeSave(now);
    this.#writer.flush();
    if (more) this.#scheduleTick();
    else if (this.#options.once && this.#streams.every((s) => s.source.ended || s.name !== 'stdin')) {
      this.#stopping = true;
      void this.#complete(10_000);
    }
  }

  /** One turn over every file; true when some file has more to read. */
  #pollFiles(now: number): boolean {
    let more = false;
    for (const { follower, source } of this.#files) {
      try {
        more = follower.poll(now, TURN_BUDGET) || more;
      } catch (error) {
        this.#io.log.warn({ event: 'error', source: source.logType, path: source.path, error: errorMessage(error) }, 'read error');
      }
      if (this.#writer.full) return true;
    }
    return more;
  }

  #pauseUntilDrain(): void {
    if (this.#waitingForDrain) return;
    this.#waitingForDrain = true;
    for (const stream of this.#streams) stream.source.pause();
    this.#writer.onDrain(() => {
      this.#waitingForDrain = false;
      for (const stream of this.#streams) stream.source.resume();
      this.#scheduleTick();
    });
  }

  #logStats(): void {
    for (const { source, follower, stats } of this.#files) {
      let lag: number | undefined;
      try {
        lag = follower.lag();
      } catch {
        lag = undefined;
      }
      this.#io.log.info(
        { event: 'stats', source: source.logType, path: source.path, ...stats, position: follower.position ?? null, lag },
        'file stats',
      );
    }
    for (const { logType, name, stats } of this.#streams) {
      this.#io.log.info({ event: 'stats', source: logType, path: name, ...stats }, 'stream stats');
    }
  }
}

function newStats(): SourceStats {
  return { lines: 0, bytes: 0, rotations: 0, truncations: 0 };
}
