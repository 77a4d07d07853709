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
import path from 'node:path';
import { FINGERPRINT_BYTES, fingerprintOf, type SavedFile } from '../state/state-file.js';
import { LineSplitter, type LineSink } from './split-lines.js';
import {
  drainIsOver,
  isTruncated,
  reconcilePath,
  sameFile,
  type FileIdentity,
  type PathState,
} from './reconcile.js';

export type FollowEvent =
  | { readonly kind: 'waiting'; readonly path: string }
  | { readonly kind: 'opened'; readonly path: string; readonly position: number }
  | { readonly kind: 'resumed'; readonly path: string; readonly file: string; readonly position: number }
  | { readonly kind: 'resume-lost'; readonly path: string; readonly position: number }
  | { readonly kind: 'rotated'; readonly path: string }
  | { readonly kind: 'deleted'; readonly path: string }
  | { readonly kind: 'truncated'; readonly path: string; readonly position: number; readonly copy?: string }
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
  /**
   * The files behind this path at the last save. Undefined on a first start (no state): a file
   * there is read from its end. Defined, even empty: a file not among them appeared while the
   * sidecar was down and is read from its start.
   */
  readonly resume?: readonly SavedFile[] | undefined;
}

/** Compressed rotations are never followed: their bytes are not the log's lines. */
const COMPRESSED = /\.(gz|bz2|xz|zst|lz4|z)$/i;

/** Bytes read per pread: large enough for throughput, small enough to stay within memory. */
const READ_BYTES = 256 * 1024;
/** Bytes before the read position compared on each read, to see a truncate-and-regrow, and
 * to recognise copytruncate's copy: several lines, so repetitive lines do not look alike. */
const MARKER_BYTES = 256;

/** One read buffer for every follower: reads are synchronous and lines are copied or decoded
 * before the next read, so nothing outlives its turn in the buffer. */
const readBuffer = Buffer.allocUnsafe(READ_BYTES);
const markerBuffer = Buffer.allocUnsafe(MARKER_BYTES);

interface HeldFile extends FileIdentity {
  readonly fd: number;
  position: number;
  fingerprint: string;
  fingerprintBytes: number;
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

  /** How far the file behind the name now has been read. */
  get position(): number | undefined {
    return this.#current?.position;
  }

  /** What the state file keeps: each file behind the path and the end of its last whole line. */
  savedFiles(): SavedFile[] {
    return [...this.#draining, ...(this.#current ? [this.#current] : [])].map((held) => {
      if (held.fingerprintBytes < FINGERPRINT_BYTES && held.position > held.fingerprintBytes) {
        Object.assign(held, fingerprintOf(held.fd, Math.min(held.position, FINGERPRINT_BYTES)));
      }
      return {
        dev: held.dev,
        ino: held.ino,
        position: held.position - held.splitter.heldBytes,
        fingerprint: held.fingerprint,
        fingerprintBytes: held.fingerprintBytes,
      };
    });
  }

  /**
   * Reads what is new, up to `budget` bytes over all files behind the path, and follows the
   * name to whatever file it points at now. Returns true when it stopped at the budget with
   * more to read.
   */
  poll(now: number, budget: number): boolean {
    // First, learn which files are behind the name (a resumed rotated file drains first).
    if (this.#firstLook) this.#followName(now);
    let left = budget;
    // Rotated files first: their lines were written before the new file's.
    for (const held of this.#draining) {
      left -= this.#readHeld(held, now, left);
      if (left <= 0) return true;
    }
    this.#closeQuietDrains(now);
    // One stat of the name: when it is still the held file, it also says how large it is.
    const pathState = statPath(this.path);
    if (this.#current) {
      const size = pathState.kind === 'file' && sameFile(pathState, this.#current) ? pathState.size : undefined;
      left -= this.#readHeld(this.#current, now, left, size);
      if (left <= 0) return true;
    }
    const before = this.#current;
    this.#followName(now, pathState);
    // A file the name points at now for the first time is read at once.
    if (this.#current && this.#current !== before) {
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

  #followName(now: number, pathState = statPath(this.path)): void {
    const firstLook = this.#firstLook;
    this.#firstLook = false;
    if (firstLook && this.#options.resume) {
      this.#resumeSaved(now, this.#options.resume);
      if (this.#current) return;
    }
    const held = this.#current;
    // The link count only matters once the name is gone (deleted, or renamed away).
    const heldLinks = held && pathState.kind === 'missing' ? fs.fstatSync(held.fd).nlink : 1;
    const action = reconcilePath(held, heldLinks, pathState, firstLook);
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
        // With saved state, a file not among the saved ones appeared while we were down.
        this.#open(now, action.from === 'end' && !this.#options.fromStart && !this.#options.resume, action.replaced);
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
    const position = atEnd ? stat.size : 0;
    this.#current = this.#hold(fd, stat, position, now);
    this.#lastError = '';
    this.#options.onEvent({ kind: 'opened', path: this.path, position });
  }

  #hold(fd: number, stat: fs.Stats, position: number, now: number): HeldFile {
    return {
      fd,
      dev: stat.dev,
      ino: stat.ino,
      position,
      ...fingerprintOf(fd, Math.min(stat.size, FINGERPRINT_BYTES)),
      marker: readMarker(fd, position),
      // The sidecar's sinks copy what they are given before returning.
      splitter: new LineSplitter(this.#options.maxLineBytes, this.#options.sink, { reuseHeldBuffer: true }),
      quietSince: now,
    };
  }

  /**
   * Finds each saved file by identity (device, inode and fingerprint): at the path itself, or
   * beside it under a rotation name (`.1`, a timestamp suffix). Found beside it, it drains
   * from the saved position; at the path, it is read on from there.
   */
  #resumeSaved(now: number, saved: readonly SavedFile[]): void {
    let siblings: string[] | undefined;
    for (const file of saved) {
      const candidates = [this.path, ...(siblings ??= rotationSiblings(this.path))];
      const found = candidates.map((candidate) => openIfSame(candidate, file)).find((f) => f !== undefined);
      if (!found) {
        this.#options.onEvent({ kind: 'resume-lost', path: this.path, position: file.position });
        continue;
      }
      const truncated = found.stat.size < file.position;
      const held = this.#hold(found.fd, found.stat, truncated ? 0 : file.position, now);
      this.#options.onEvent({ kind: 'resumed', path: this.path, file: found.path, position: held.position });
      if (found.path === this.path) this.#current = held;
      else this.#draining.push(held);
    }
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
  #readHeld(held: HeldFile, now: number, budget: number, knownSize?: number): number {
    const size = knownSize ?? fs.fstatSync(held.fd).size;
    if (size === held.position) return 0;
    const markerMatches = size < held.position || readMarker(held.fd, held.position).equals(held.marker);
    if (isTruncated(held.position, size, markerMatches)) {
      const copy = held === this.#current ? this.#readCopy(held) : undefined;
      held.splitter.flush();
      held.position = 0;
      held.marker = Buffer.alloc(0);
      Object.assign(held, fingerprintOf(held.fd, 0));
      this.#options.onEvent({ kind: 'truncated', path: this.path, position: 0, ...(copy ? { copy } : {}) });
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

  /**
   * copytruncate copies the file, then truncates it: lines written after our last read and
   * before the truncate are only in the copy. The copy is the file beside ours holding the same
   * bytes just before our read position; its rest is read before we start again at 0.
   */
  #readCopy(held: HeldFile): string | undefined {
    if (held.position === 0) return undefined;
    for (const candidate of newestFirst(rotationSiblings(this.path))) {
      let fd: number;
      try {
        fd = fs.openSync(candidate, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      } catch {
        continue;
      }
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile() || stat.size < held.position || !readMarker(fd, held.position).equals(held.marker)) continue;
        for (let at = held.position; ; ) {
          const read = fs.readSync(fd, readBuffer, 0, READ_BYTES, at);
          if (read === 0) break;
          held.splitter.push(readBuffer, 0, read);
          at += read;
        }
        return candidate;
      } finally {
        fs.closeSync(fd);
      }
    }
    return undefined;
  }

  #reportOnce(message: string): void {
    if (message === this.#lastError) return;
    this.#lastError = message;
    this.#options.onEvent({ kind: 'error', path: this.path, message });
  }
}

function statPath(path: string): PathState {
  try {
    // No exception (and no stack trace) for a missing file: the idle poll's common case.
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    if (!stat) return { kind: 'missing' };
    if (stat.isFile()) return { kind: 'file', dev: stat.dev, ino: stat.ino, size: stat.size };
    return { kind: 'other', what: stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a directory' : 'a special file' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'other', what: errorMessage(error) };
  }
}

/** Files beside `file` whose names extend it (`mongodb.log.1`, `mongodb.log.2026-11-20T10-23-09`). */
function rotationSiblings(file: string): string[] {
  const directory = path.dirname(file);
  const base = `${path.basename(file)}.`;
  try {
    return fs
      .readdirSync(directory)
      .filter((name) => name.startsWith(base) && !COMPRESSED.test(name))
      .map((name) => path.join(directory, name));
  } catch {
    return [];
  }
}

function newestFirst(files: string[]): string[] {
  const mtime = (file: string): number => {
    try {
      return fs.statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  };
  return files.map((file) => ({ file, at: mtime(file) })).sort((a, b) => b.at - a.at).map((f) => f.file);
}

function openIfSame(candidate: string, saved: SavedFile): { path: string; fd: number; stat: fs.Stats } | undefined {
  let fd: number;
  try {
    const stat = fs.statSync(candidate);
    if (!stat.isFile() || stat.dev !== saved.dev || stat.ino !== saved.ino || stat.size < saved.fingerprintBytes) return undefined;
    fd = fs.openSync(candidate, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const stat = fs.fstatSync(fd);
  // Same inode, other bytes: the inode was reused by a new file.
  if (stat.ino === saved.ino && fingerprintOf(fd, saved.fingerprintBytes).fingerprint === saved.fingerprint) {
    return { path: candidate, fd, stat };
  }
  fs.closeSync(fd);
  return undefined;
}

function readMarker(fd: number, position: number): Buffer {
  const start = Math.max(0, position - MARKER_BYTES);
  const read = position > 0 ? fs.readSync(fd, markerBuffer, 0, position - start, start) : 0;
  return Buffer.from(markerBuffer.subarray(0, read));
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
