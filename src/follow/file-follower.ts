/**
 * Follows one path by name, as `tail -F` does, without its losses: the file behind the name is
 * held open by descriptor, so lines written to it after a rename or an unlink are still read;
 * a rotated or deleted file drains until it has been quiet for the grace period, then closes
 * (a reader must not pin deleted files: the operator's issue #174); a file that shrinks, or
 * whose bytes before the read position change, is read again from 0.
 *
 * All file-system calls are synchronous: a pread of a page-cached log file takes microseconds,
 * and one decision at a time keeps rotation free of races between reads and checks.
 */
import fs from 'node:fs';
import { LineSplitter, type LineSink } from './split-lines.js';
import {
  drainIsOver,
  isTruncated,
  reconcilePath,
  type FileIdentity,
  type PathState,
} from './reconcile.js';

export type FollowEvent =
  | { readonly kind: 'waiting'; readonly path: string }
  | { readonly kind: 'opened'; readonly path: string; readonly position: number }
  | { readonly kind: 'rotated'; readonly path: string }
  | { readonly kind: 'deleted'; readonly path: string }
  | { readonly kind: 'truncated'; readonly path: string; readonly position: number }
  | { readonly kind: 'drained'; readonly path: string; readonly position: number }
  | { readonly kind: 'error'; readonly path: string; readonly message: string };

export interface FileFollowerOptions {
  readonly path: string;
  readonly maxLineBytes: number;
  readonly rotateWaitMs: number;
  /** Read a file found at the first look from its start instead of its end. */
  readonly fromStart: boolean;
  /** Receives every line (or piece) of every file behind the path, in file order. */
  readonly sink: LineSink;
  readonly onEvent: (event: FollowEvent) => void;
  /** Where a resumed follower starts (the state file, next issue); undefined: first start. */
  readonly resume?: HeldPosition;
}

/** A saved read position and the identity of the file it belongs to. */
export interface HeldPosition extends FileIdentity {
  readonly position: number;
}

/** Bytes read per pread: large enough for throughput, small enough to stay within memory. */
const READ_BYTES = 256 * 1024;
/** Bytes before the read position compared on each read, to see a truncate-and-regrow. */
const MARKER_BYTES = 16;

/** One read buffer for every follower: reads are synchronous and lines are copied or decoded
 * before the next read, so nothing outlives its turn in the buffer. */
const readBuffer = Buffer.allocUnsafe(READ_BYTES);
const markerBuffer = Buffer.allocUnsafe(MARKER_BYTES);

interface HeldFile extends FileIdentity {
  readonly fd: number;
  position: number;
  /** The last bytes before `position`, as read. */
  marker: Buffer;
  readonly splitter: LineSplitter;
  /** When the held file last grew (or began draining). */
  quietSince: number;
}

export class FileFollower {
  readonly path: string;
  readonly #options: FileFollowerOptions;
  #current: HeldFile | undefined;
  #draining: HeldFile[] = [];
  #firstLook = true;
  #lastError = '';

  constructor(options: FileFollowerOptions) {
    this.path = options.path;
    this.#options = options;
  }

  /** The file behind the name now, and how far it has been read. */
  get position(): HeldPosition | undefined {
    const held = this.#current;
    return held && { dev: held.dev, ino: held.ino, position: held.position };
  }

  get drainingCount(): number {
    return this.#draining.length;
  }

  /**
   * Reads what is new, up to `budget` bytes over all files behind the path, and follows the
   * name to whatever file it points at now. Returns true when it stopped at the budget with
   * more to read.
   */
  poll(now: number, budget: number): boolean {
    let left = budget;
    // Rotated files first: their lines were written before the new file's.
    for (const held of this.#draining) {
      left -= this.#readHeld(held, now, left);
      if (left <= 0) return true;
    }
    this.#closeQuietDrains(now);
    if (this.#current) {
      left -= this.#readHeld(this.#current, now, left);
      if (left <= 0) return true;
    }
    this.#followName(now);
    if (this.#current) {
      left -= this.#readHeld(this.#current, now, left);
      if (left <= 0) return true;
    }
    return false;
  }

  /** Emits held unfinished lines (shutdown, or `--once` at the end). */
  flushHeld(): void {
    for (const held of this.#draining) held.splitter.flush();
    this.#current?.splitter.flush();
  }

  /** Bytes on disk not yet read, over all files behind the path. */
  lag(): number {
    let lag = 0;
    for (const held of [...this.#draining, ...(this.#current ? [this.#current] : [])]) {
      lag += Math.max(0, fs.fstatSync(held.fd).size - held.position);
    }
    return lag;
  }

  close(): void {
    for (const held of this.#draining) fs.closeSync(held.fd);
    if (this.#current) fs.closeSync(this.#current.fd);
    this.#draining = [];
    this.#current = undefined;
  }

  #followName(now: number): void {
    const firstLook = this.#firstLook;
    this.#firstLook = false;
    const held = this.#current;
    const heldLinks = held ? fs.fstatSync(held.fd).nlink : 1;
    const action = reconcilePath(held, heldLinks, statPath(this.path), firstLook);
    switch (action.kind) {
      case 'keep':
        if (firstLook && !held) this.#options.onEvent({ kind: 'waiting', path: this.path });
        return;
      case 'unreadable':
        this.#reportOnce(`not a regular file (${action.what}); waiting for a file at this path`);
        return;
      case 'lost':
        this.#startDraining(now);
        this.#options.onEvent({ kind: action.unlinked ? 'deleted' : 'rotated', path: this.path });
        return;
      case 'open':
        this.#open(now, action.from === 'end' && !this.#options.fromStart, action.replaced);
        return;
    }
  }

  #open(now: number, atEnd: boolean, replaced: boolean): void {
    let fd: number;
    try {
      fd = fs.openSync(this.path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      // Gone between stat and open, or not readable: the next poll tries again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#reportOnce(errorMessage(error));
      return;
    }
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      fs.closeSync(fd);
      this.#reportOnce('not a regular file; waiting for a file at this path');
      return;
    }
    if (replaced) {
      this.#startDraining(now);
      this.#options.onEvent({ kind: 'rotated', path: this.path });
    }
    const resume = this.#options.resume;
    const resumed = resume && resume.dev === stat.dev && resume.ino === stat.ino && resume.position <= stat.size;
    const position = resumed ? resume.position : atEnd ? stat.size : 0;
    this.#current = {
      fd,
      dev: stat.dev,
      ino: stat.ino,
      position,
      marker: readMarker(fd, position),
      splitter: new LineSplitter(this.#options.maxLineBytes, this.#options.sink),
      quietSince: now,
    };
    this.#lastError = '';
    this.#options.onEvent({ kind: 'opened', path: this.path, position });
  }

  #startDraining(now: number): void {
    const held = this.#current;
    if (!held) return;
    held.quietSince = now;
    this.#draining.push(held);
    this.#current = undefined;
  }

  #closeQuietDrains(now: number): void {
    if (this.#draining.length === 0) return;
    this.#draining = this.#draining.filter((held) => {
      const atEnd = fs.fstatSync(held.fd).size <= held.position;
      if (!drainIsOver(atEnd, now - held.quietSince, this.#options.rotateWaitMs)) return true;
      held.splitter.flush();
      fs.closeSync(held.fd);
      this.#options.onEvent({ kind: 'drained', path: this.path, position: held.position });
      return false;
    });
  }

  /** Reads the held file from its position, up to `budget` bytes; returns the bytes read. */
  #readHeld(held: HeldFile, now: number, budget: number): number {
    const size = fs.fstatSync(held.fd).size;
    if (size === held.position) return 0;
    const markerMatches = size < held.position || readMarker(held.fd, held.position).equals(held.marker);
    if (isTruncated(held.position, size, markerMatches)) {
      held.splitter.flush();
      held.position = 0;
      held.marker = Buffer.alloc(0);
      this.#options.onEvent({ kind: 'truncated', path: this.path, position: 0 });
    }
    let total = 0;
    while (total < budget) {
      const read = fs.readSync(held.fd, readBuffer, 0, READ_BYTES, held.position);
      if (read === 0) break;
      held.position += read;
      total += read;
      held.splitter.push(readBuffer, 0, read);
      if (read < READ_BYTES) break;
    }
    if (total > 0) {
      held.quietSince = now;
      held.marker = readMarker(held.fd, held.position);
    }
    return total;
  }

  #reportOnce(message: string): void {
    if (message === this.#lastError) return;
    this.#lastError = message;
    this.#options.onEvent({ kind: 'error', path: this.path, message });
  }
}

function statPath(path: string): PathState {
  try {
    const stat = fs.statSync(path);
    if (stat.isFile()) return { kind: 'file', dev: stat.dev, ino: stat.ino, size: stat.size };
    return { kind: 'other', what: stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a directory' : 'a special file' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'other', what: errorMessage(error) };
  }
}

function readMarker(fd: number, position: number): Buffer {
  const start = Math.max(0, position - MARKER_BYTES);
  const read = position > 0 ? fs.readSync(fd, markerBuffer, 0, position - start, start) : 0;
  return Buffer.from(markerBuffer.subarray(0, read));
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
