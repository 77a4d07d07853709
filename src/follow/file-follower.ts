/**
 * Follows one path by name, as `tail -F` does, without its losses (Vector's file server, for one
 * name). Every file behind the name is held by descriptor (held-file.ts): the current one here,
 * and rotated, deleted or copied ones until they are read to their end (files-behind.ts), so
 * lines written to a file after a rename or an unlink are still read, in the order they were
 * written.
 *
 * `observe` looks at the name and the files beside it, and costs a stat; `read` reads. They are
 * separate so a stalled reader of our output stops reading, not following: renames, new files
 * and truncations are noticed on every look, their descriptors held and their copies noted
 * (copy-finder.ts), and everything is read in order once the output has room.
 *
 * A file that shrinks, or whose bytes before the read position change, is read again from 0,
 * after the rest of copytruncate's copy beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PastFile, SavedFile } from '../state/state-file.js';
import type { FollowEvent } from './follow-events.js';
import { savedHead } from './compressed-rotation.js';
import { CompressedWatch, compressedSizeOf, isQuiet } from './compressed-watch.js';
import { CopyFinder } from './copy-finder.js';
import { errorMessage } from './error-message.js';
import { FileCheckpoint } from './file-checkpoint.js';
import { FilesBehind, sizeOf, waitingFile } from './files-behind.js';
import { HeldFile, type FileLineSink, type HeldRole, type LineOptions, type LineStream } from './held-file.js';
import type { OtherCompression } from '../read/other-compression.js';
import { MTIME_SLACK_MS, compareBirthtimes, unseenSiblings } from './identity.js';
import { statOrNone, statPath } from './path-state.js';
import { PathWarnings } from './path-warnings.js';
import { reconcilePath, sameFile, type FileIdentity, type PathState } from './reconcile.js';
import { fingerprintOf, type Fingerprint } from './fingerprint.js';
import { deniedAmong, resumeFiles } from './resume.js';
import { birthtimeOf, compressedRotationNames, compressedSiblingsSince, linkTarget, rotatedNames, rotatedSiblings, type SiblingFile } from './rotated-siblings.js';

export type { FollowEvent } from './follow-events.js';

export interface ResumeFrom {
  /** The files behind this path at the last save, oldest first (may be empty). */
  readonly files: readonly SavedFile[];
  /** When that was saved (ms since the epoch): a rotated file changed after it was not seen. */
  readonly savedAt: number;
  /** Rotated files changed just before the save that were not ours (there before, or forgotten). */
  readonly past?: readonly PastFile[] | undefined;
  /**
   * The state file could not be read: `files` is empty because its positions are lost, not
   * because no file was known. The file at the name is read from its start only when it changed
   * since the save (else from its end, as at a first start).
   */
  readonly positionsLost?: boolean | undefined;
}

export interface FileFollowerOptions {
  readonly path: string;
  readonly maxLineBytes: number;
  readonly rotateWaitMs: number;
  /** Read a file found at the first look from its start instead of its end (no saved state). */
  readonly fromStart: boolean;
  /** Receives every line (or piece) of every file behind the path, in file order. */
  readonly sink: FileLineSink;
  readonly onEvent: (event: FollowEvent) => void;
  /**
   * The files behind this path at the last save. Undefined on a first start (no state): a file
   * there is read from its end. Defined, even empty: a file not among them appeared while the
   * sidecar was down and is read from its start, as is a rotated file changed after the save.
   */
  readonly resume?: ResumeFrom | undefined;
  /** Rotated, deleted and copied files held at once before the oldest is given up. */
  readonly maxBehind?: number;
  /** Names beside the path that are ours, not rotations (the state file, its temp file). */
  readonly ignore?: (name: string) => boolean;
  /** A missing file is warned about after this long, then every `repeatWarningMs`. */
  readonly missingWarningMs?: number;
  readonly repeatWarningMs?: number;
}

/**
 * The files beside the path are listed when a name beside it changes (inotify says so), when
 * the path itself changes, and at least this often (for what inotify misses): a copytruncate
 * made before we had read or seen anything of the file shows only there.
 */
const DISCOVER_EVERY_MS = 10_000;
const EMPTY = Buffer.alloc(0);

export class FileFollower {
  readonly path: string;
  readonly #options: FileFollowerOptions;
  #current: HeldFile | undefined;
  /** Rotated, deleted, copied and unseen files still to read, and the retired ones. */
  readonly #behind: FilesBehind;
  readonly #copies: CopyFinder;
  /** Compressed rotations beside the path, judged for lines nobody read. */
  readonly #compressed: CompressedWatch;
  readonly #warnings: PathWarnings;
  #looked = false;
  /** When the files beside the path were last listed, and whether a name there changed since. */
  #lastDiscovery = 0;
  /**
   * Rotated files beside the path that are not ours to read, by inode and mtime: those there at
   * a first look without a saved state (the past, as `tail -n0` takes it), those the state file
   * named so, and retired files the bounded retired list forgot. Without it such a file changed
   * within the mtime slack of a look (or of the save a restart resumes from) reads as a rotation
   * made while we did not look. Entries older than every future look's window are dropped.
   */
  readonly #past = new Map<string, PastFile>();
  #discoverWanted = false;
  /** The earliest modification time of files behind let go as rewritten since the last listing (Infinity: none). */
  #rewrittenAt = Number.POSITIVE_INFINITY;
  /** Whether a name beside the path is one of its rotations' (rotatedNames), or a compressed one's (judged: CompressedWatch). */
  readonly #isRotation: (name: string) => boolean;
  readonly #isCompressedRotation: (name: string) => boolean;
  /**
   * When the path is a symbolic link: whether a name beside its target is one of the target's
   * rotations (rotatedSiblings lists them there). Made again at every listing: the link may
   * have been pointed elsewhere.
   */
  #isTargetRotation: ((name: string) => boolean) | undefined;
  /** The current file's size at the last look. */
  #size: number | undefined;

  constructor(options: FileFollowerOptions) {
    this.path = options.path;
    this.#options = options;
    this.#isRotation = rotatedNames(path.basename(options.path));
    this.#isCompressedRotation = compressedRotationNames(path.basename(options.path));
    this.#isTargetRotation = targetRotations(linkTarget(options.path));
    this.#compressed = new CompressedWatch(options.path);
    const { onEvent, ignore } = options;
    this.#behind = new FilesBehind({
      path: options.path,
      rotateWaitMs: options.rotateWaitMs,
      onEvent,
      maxBehind: options.maxBehind,
      ignore,
      onForget: ({ ino, mtimeMs, saved, givenUp }) => {
        if (mtimeMs !== undefined) this.#remember({ ino, mtimeMs });
        this.#compressed.remember(savedHead(saved, givenUp ? Number.POSITIVE_INFINITY : saved.position));
      },
      open: (waiting, now) => {
        const saved = waiting.saved?.position === waiting.position ? waiting.saved : undefined;
        const held = this.#openKnown(waiting.name, waiting, waiting.role, waiting.position, now, {
          midLine: waiting.saved?.midLine === true,
          tailHash: saved?.tailHash,
          ...(waiting.stream ? { stream: waiting.stream } : {}),
        });
        // It waited without a descriptor: its inode may have gone to a new file meanwhile, told by
        // its birth time where kept, and by its first bytes where they were looked at.
        const another = held && ((waiting.birthtimeMs && held.birthtimeMs && Math.abs(held.birthtimeMs - waiting.birthtimeMs) > 1) || (waiting.head && !startsAs(held.fd, waiting.head)));
        if (held && another) {
          held.close();
          return undefined;
        }
        return held;
      },
      onRewritten: ({ name, position, lostBytes, mtimeMs }) => {
        this.#options.onEvent({ kind: 'truncated', path: this.path, position, file: name, ...(lostBytes ? { lostBytes } : {}) });
        // The next listing takes it for changed whatever the last one saw (the copy over it may have ended before it).
        this.#discoverWanted = true;
        this.#rewrittenAt = Math.min(this.#rewrittenAt, mtimeMs);
      },
      isCopyOfCurrent: (fd, size) => {
        const current = this.#current;
        // Never more than the listing takes for a copy (CopyFinder.pendingCopyOf: holds its prefix
        // or starts as it did): a file let go here and then listed as unseen would be held and let
        // go again at every listing, never read.
        return current !== undefined && current.position > 0 && (current.holdsPrefixOf(fd, size) || (current.startsLike(fd) && current.matchesCopy(fd, size)));
      },
      onGone: (waiting) => {
        if (waiting.stream) {
          // Let go to wait by name, then gone before its turn (deleted, compressed): what it held unread is lost.
          const bytes = Math.max(0, waiting.size - waiting.position) + waiting.stream.splitter.abandon();
          this.#options.onEvent({ kind: 'gave-up', path: this.path, file: waiting.name, bytes });
        } else if (waiting.saved) {
          // A saved file, as at the restart when it cannot be found.
          this.#resumeLost(waiting.saved);
        } else this.#options.onEvent({ kind: 'gave-up', path: this.path, file: waiting.name, bytes: Math.max(0, waiting.size - waiting.position) });
      },
    });
    this.#copies = new CopyFinder({ path: options.path, ignore, knows: (name, stat) => this.#knows(name, stat) });
    this.#warnings = new PathWarnings({ path: options.path, onEvent, missingWarningMs: options.missingWarningMs, repeatWarningMs: options.repeatWarningMs });
  }

  /**
   * inotify named an entry of the path's directory (or of its link target's): a rotation's name
   * there is worth a look.
   */
  nameChanged(name: string): void {
    if (this.#isRotation(name) || this.#isTargetRotation?.(name) || this.#isCompressedRotation(name)) this.#discoverWanted = true;
  }

  /** How far the file behind the name now has been read. */
  get position(): number | undefined {
    return this.#current?.position;
  }

  /** How far its lines have left the process (the reader took them): what a save keeps. */
  get delivered(): number | undefined {
    return this.#current?.checkpoint.upTo;
  }

  /**
   * When the name and the files beside it were last listed; undefined before the first look. A
   * file let go as rewritten since then is out of the held files until the next listing: the
   * time goes back to its change, so a restart from a save made meanwhile lists it as changed.
   */
  get lookedAt(): number | undefined {
    return this.#looked ? Math.min(this.#lastDiscovery, this.#rewrittenAt) : undefined;
  }

  /** The first look happened (before it, the state file's entry for this path stands). */
  get looked(): boolean {
    return this.#looked;
  }

  /**
   * Its file is there, being written, and may not be read (a permission): its lines are being
   * lost. Never while a file at the path is held and read.
   */
  denied(now: number): boolean {
    return this.#current === undefined && this.#warnings.denied(now);
  }

  /** Looks at the name (and beside it after a change) and holds what it finds; reads nothing. */
  observe(now: number): void {
    if (!this.#looked) {
      this.#looked = true;
      this.#lastDiscovery = now;
      this.#looked = this.#firstLook(now);
      return;
    }
    this.#behind.closeDrained(now);
    const state = statPath(this.path);
    const current = this.#current;
    if (current && state.kind === 'file' && sameFile(current, state)) {
      this.#size = state.size;
      // Shrunk, or rewritten to the size read, is told here; other changed bytes when the file is
      // read (or seen while reading waits).
      if (current.shrunk(state.size) || current.rewrittenInPlace(state.size, state.mtimeMs, now)) this.#onTruncated(now);
    } else {
      this.#size = undefined;
      const links = current && state.kind === 'missing' ? current.links() : 1;
      const action = reconcilePath(current, links, state, false);
      switch (action.kind) {
        case 'keep':
          if (!current) this.#warnings.whileMissing(now);
          break;
        case 'unreadable':
          this.#warnings.cannotRead(now, state, action.what);
          break;
        case 'lost':
          this.#moveBehind(now, action.unlinked ? 'deleted' : 'rotated');
          this.#holdUnseen(now);
          break;
        case 'open': {
          // Another file at the name: the one held was renamed away, or deleted and the name
          // made again at once (no name links to it: a deletion, counted as one), or replaced
          // by a file renamed over it that holds what was read (then read on from there).
          const deleted = current !== undefined && current.links() === 0;
          const replacedAt = deleted ? this.#replacedAt(current) : undefined;
          if (replacedAt !== undefined) {
            // Everything it holds is in the file now at the name: closed, its rest read there.
            current!.close();
            this.#current = undefined;
          } else if (current) this.#moveBehind(now, deleted ? 'deleted' : 'rotated');
          // A file of ours read to its end and closed, back at the name: read on from its end.
          const stat = replacedAt === undefined ? statOrNone(this.path) : undefined;
          const returned = stat?.isFile() ? this.#behind.takeRetired(this.path, stat) : undefined;
          // The new file first: a copytruncate copy of it made already is then told as its copy.
          // Opened as the file stat'd: another one renamed to the name meanwhile is not read from its position.
          const opened = this.#openCurrent(now, replacedAt ?? returned?.saved.position ?? 0, replacedAt !== undefined, returned ? stat : undefined);
          // Gone again before the open: still ours, read on from its position when it is back.
          if (!opened && returned) this.#behind.remember(returned);
          this.#holdUnseen(now);
          break;
        }
      }
    }
    if (this.#discoverWanted || this.#copies.waiting || now - this.#lastDiscovery >= DISCOVER_EVERY_MS) this.#holdUnseen(now);
  }

  /**
   * Reads what is new, up to `budget` bytes over the files behind the path, oldest first.
   * Returns true when it stopped at the budget with more to read.
   */
  read(now: number, budget: number): boolean {
    const current = this.#current;
    // With files behind, the current file is read only up to its size before they were: a line
    // written to a rotated file before the logger reopened never comes after the new file's.
    const upTo = current && this.#behind.files.length > 0 ? sizeOf(current) : Infinity;
    const readBehind = this.#behind.read(now, budget);
    const left = budget - readBehind;
    if (left <= 0) return true;
    // Older files wait to be opened (as held ones close): the file at the name comes after them.
    // While they are read, another turn comes at once: the files read may close and let them open.
    if (this.#behind.waiting) return readBehind > 0;
    if (!current || this.#behind.lineOpen) return false;
    const size = this.#size;
    this.#size = undefined;
    const read = current.read(left, now, size, upTo);
    if (read < 0) {
      // Changed under us: the copy (if any) and unseen files first, then the file from 0.
      this.#onTruncated(now);
      return this.read(now, left);
    }
    return left - read <= 0;
  }

  /**
   * The end (--once, a stop): files waiting past the bound on held files are opened whatever it,
   * to be read before the end. True when one was (then read on).
   */
  openAllWaiting(now: number): boolean {
    return this.#behind.openAllWaiting(now);
  }

  /** Reading waits (the output is full): remember what is there, to notice a truncation later. */
  noteSeen(now: number): void {
    const current = this.#current;
    if (current && this.#size !== undefined && !current.noteSeen(this.#size)) this.#onTruncated(now);
  }

  /** observe, then read: the whole turn, for a caller without backpressure. */
  poll(now: number, budget: number): boolean {
    this.observe(now);
    return this.read(now, budget);
  }

  /**
   * Shutdown or the end of `--once`: held unfinished lines leave. The current file's as a
   * partial piece when `asPiece` (positions are kept: the restart delivers the rest as the
   * line's last piece); a rotated file's whole (its writer has moved on).
   */
  /** Returns the bytes of the current file's last line that left without its newline (0: none, or as a piece). */
  emitHeld(asPiece: boolean): number {
    this.#behind.emitHeld();
    return this.#current?.emitHeld(asPiece) ?? 0;
  }

  /** What the state file keeps for this path; undefined before the first look (keep what it had). */
  savedFiles(): SavedFile[] | undefined {
    if (!this.#looked) return undefined;
    return [...this.#behind.savedFiles(), ...(this.#current ? [this.#withTarget(this.#current.savedFile())] : [])];
  }

  /** The current file as saved, with where the path's link leads when that is still it (SavedFile.target). */
  #withTarget(file: SavedFile): SavedFile {
    const target = linkTarget(this.path);
    if (target === undefined) return file;
    // None where it cannot be had now: the target is not kept, nothing else changes.
    const stat = statOrNone(target);
    return stat?.ino === file.ino && stat.dev === file.dev ? { ...file, target } : file;
  }

  /** The files of #past a restart from a save at `savedAt` could take for new ones. */
  pastFiles(savedAt: number): PastFile[] {
    return [...this.#past.values()].filter((file) => file.mtimeMs >= savedAt - MTIME_SLACK_MS);
  }

  /** Bytes on disk not yet read, over all files behind the path. */
  lag(): number {
    const current = this.#current;
    return this.#behind.lag() + (current ? Math.max(0, current.size() - current.position) : 0);
  }

  close(): void {
    this.#behind.close();
    this.#current?.close();
    this.#current = undefined;
  }

  /**
   * The first look. Returns false, having done nothing but warn, when a saved file (or the
   * path) may not be read now: the restart is decided at a later look, once it can be, and
   * until then the state file keeps this path's saved files as they were (see deniedAmong).
   */
  #firstLook(now: number): boolean {
    const { resume } = this.#options;
    if (resume) {
      const denied = deniedAmong(this.path, resume.files, this.#options.ignore);
      if (denied) {
        this.#warnings.cannotRead(now, statPath(denied.name), errorMessage(denied.error), denied.error, denied.name);
        return false;
      }
    }
    this.#compressed.start(resume ? resume.savedAt - MTIME_SLACK_MS : undefined);
    if (!resume) {
      for (const sibling of rotatedSiblings(this.path, this.#options.ignore)) this.#remember(sibling.stat);
      const action = reconcilePath(undefined, 1, statPath(this.path), true);
      if (action.kind === 'open') this.#openCurrent(now, this.#options.fromStart ? 0 : 'end');
      else if (action.kind === 'unreadable') this.#warnings.cannotRead(now, statPath(this.path), action.what);
      else this.#warnings.startWaiting(now);
      return true;
    }
    for (const past of resume.past ?? []) this.#remember(past);
    const plan = resumeFiles(this.path, resume.files, this.#options.ignore);
    // Rotated and compressed while the sidecar was down: where a lost file's lines went. Those
    // changed since the save (by ctime: logrotate gives them their text's mtime), listed once.
    const compressedSince = plan.lost.length > 0 ? compressedSiblingsSince(this.path, resume.savedAt - MTIME_SLACK_MS) : [];
    for (const lost of plan.lost) {
      // Those that are its compression; those that cannot be looked into (bzip2, xz) may be.
      // One still being written has no size in its trailer yet: its size is not taken (listed only).
      const looked = compressedSince.map(({ name, stat }) => {
        const size = compressedSizeOf(name, lost);
        return { name, size: typeof size === 'number' && !isQuiet(stat, now) ? undefined : size };
      });
      // Its compression, no larger than what was delivered of it: every line it held had left.
      const whole = looked.find((c) => typeof c.size === 'number' && c.size <= lost.position);
      if (whole) {
        this.#compressed.remember(savedHead(lost, Number.POSITIVE_INFINITY));
        this.#options.onEvent({ kind: 'compressed-read', path: this.path, file: whole.name, position: lost.position });
        this.#closePiece(lost);
        continue;
      }
      // Its compression, larger: its last bytes are there, never delivered (named first).
      const larger = looked.find((c) => typeof c.size === 'number');
      const compressed = looked.filter((c) => c.size !== 'other' && c !== larger).map((c) => c.name);
      if (larger) compressed.unshift(larger.name);
      // Else truncated or rewritten in place (the same inode at the name, born when it was; not a
      // new file given the freed inode at once, as ext4 does after a rotation): said as that.
      const inPlace = compressed.length === 0 && !lost.retired ? inPlaceSize(this.path, lost) : undefined;
      this.#resumeLost(lost, {
        compressed,
        ...(typeof larger?.size === 'number' ? { unreadBytes: larger.size - lost.position } : {}),
        ...(inPlace === undefined ? {} : { inPlace: { size: inPlace } }),
      });
    }
    this.#behind.adoptRetired(plan.retired);
    for (const found of plan.held) {
      const role = found.name === this.path ? 'current' : found.how === 'copy' ? 'copy' : 'rotated';
      if (role !== 'current') {
        // Opened now, or when held files close (a restart after more rotations than the bound).
        if (this.#behind.hold(waitingFile(found.name, found.stat, role, found.saved.position, found.saved), now)) {
          this.#options.onEvent({ kind: 'resumed', path: this.path, file: found.name, position: found.saved.position, how: found.how });
        } else this.#resumeLost(found.saved);
        continue;
      }
      // Its saved tail stands until something more is delivered: the file may be cut before then.
      const held = this.#openKnown(found.name, found.stat, role, found.saved.position, now, { midLine: found.saved.midLine === true, tailHash: found.saved.tailHash });
      if (!held) {
        this.#resumeLost(found.saved);
        continue;
      }
      if (found.name === this.path) {
        this.#current = held;
        // Held at the path again: a refusal said before (a look that could not read it) is over.
        this.#warnings.found();
      } else this.#behind.push(held);
      this.#options.onEvent({ kind: 'resumed', path: this.path, file: found.name, position: found.saved.position, how: found.how });
    }
    if (!this.#current) {
      const state = statPath(this.path);
      const unchanged = resume.positionsLost === true && state.kind === 'file' && (state.mtimeMs ?? Infinity) < resume.savedAt - MTIME_SLACK_MS;
      if (state.kind === 'file') this.#openCurrent(now, unchanged ? 'end' : 0);
      else if (state.kind === 'missing') this.#warnings.startWaiting(now);
      else this.#warnings.cannotRead(now, state, state.what);
    }
    this.#holdUnseen(now, resume.savedAt, plan.claimed);
    return true;
  }

  /**
   * A saved file whose line was left open (its first pieces delivered, `"partial":true`) and
   * that cannot be read on: an empty last piece closes the line, so a reader joining pieces
   * does not join the next line to it.
   */
  /** A saved file not found (or not to be opened) at a restart: said, with what the save knew of it, and its unfinished line closed. */
  #resumeLost(saved: SavedFile, found: Pick<Extract<FollowEvent, { kind: 'resume-lost' }>, 'compressed' | 'inPlace' | 'unreadBytes'> = {}): void {
    // Its loss is said here: a compression of it is not said again.
    this.#compressed.remember(savedHead(saved, Number.POSITIVE_INFINITY));
    this.#options.onEvent({ kind: 'resume-lost', path: this.path, position: saved.position, ...found, ...(saved.readToEnd === true ? { readToEnd: true } : {}) });
    this.#closePiece(saved);
  }

  #closePiece(saved: SavedFile): void {
    if (saved.midLine) this.#options.sink(EMPTY, 0, 0, false, saved.position, new FileCheckpoint(saved.position));
  }

  /** Opens the file at the name from `from` (its end: a file there at the very first start, as `tail -F -n0`). */
  /** False when the file was gone (or, given `identity`, another one) between stat and open: the next look tries again. */
  #openCurrent(now: number, from: number | 'end', replaced = false, identity?: FileIdentity): boolean {
    const held = this.#tryOpen(this.path, 'current', from, now, undefined, identity);
    if (!held) return false;
    this.#current = held;
    this.#warnings.found();
    this.#options.onEvent({ kind: 'opened', path: this.path, position: held.position, ...(replaced ? { replaced: true as const } : {}) });
    return true;
  }

  /**
   * Where to read the file now at the name, which replaced the one held (deleted, no name
   * links to it), when it is a copy of it renamed over the log (an editor's save, `sed -i`): it
   * holds the bytes read before the position and starts alike (the checks a copytruncate copy
   * passes, so a new log that merely starts alike is none), and the replaced file whole, to its
   * end (nothing it holds unread is missing from it). Then the replaced file is closed and this
   * one read from where it was read, its unfinished last line again (its rest is here).
   * Undefined otherwise (nothing read yet, a line whose pieces left unfinished, a file written
   * after the copy): the replaced file is read to its end and this one from 0 (lines again
   * rather than lost).
   */
  #replacedAt(replaced: HeldFile): number | undefined {
    const { splitter } = replaced;
    if (replaced.position === 0 || splitter.pieceOpen) return undefined;
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.path, 'r');
      const size = fs.fstatSync(fd).size;
      if (!replaced.startsLike(fd) || !replaced.matchesCopy(fd, size) || !replaced.isWholeIn(fd, size)) return undefined;
      const from = replaced.position - splitter.heldBytes;
      splitter.abandon();
      return from;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /**
   * Opens the file listed as `stat` at `name`; if a rotation renamed it meanwhile, where it is
   * now (beside the path, found by its identity).
   */
  #openKnown(
    name: string,
    stat: FileIdentity,
    role: HeldRole,
    position: number,
    now: number,
    options: { midLine?: boolean; stream?: LineStream; tailHash?: string | undefined } = {},
  ): HeldFile | undefined {
    const identity = { dev: stat.dev, ino: stat.ino };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return HeldFile.open(name, role, position, now, this.#lineOptions(), { ...options, identity });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EMOVED' && code !== 'ENOENT') {
          this.#warnings.cannotRead(now, statPath(name), errorMessage(error), error, name);
          return undefined;
        }
        const atPath = fs.statSync(this.path, { throwIfNoEntry: false });
        const moved = atPath && sameFile(atPath, identity) ? this.path : rotatedSiblings(this.path, this.#options.ignore).find((s) => sameFile(s.stat, identity))?.name;
        if (!moved) return undefined;
        name = moved;
      }
    }
    return undefined;
  }

  #tryOpen(name: string, role: HeldRole, position: number | 'end', now: number, midLine?: boolean, identity?: FileIdentity): HeldFile | undefined {
    try {
      return HeldFile.open(name, role, position, now, this.#lineOptions(), { midLine: midLine === true, ...(identity ? { identity } : {}) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EMOVED') this.#warnings.cannotRead(now, statPath(name), errorMessage(error), error, name);
      return undefined;
    }
  }

  #lineOptions(): LineOptions {
    return { maxLineBytes: this.#options.maxLineBytes, sink: this.#options.sink, compressed: this.#onCompressed, hole: this.#onHole };
  }

  /** A held file's first bytes are compressed data: it is not read (HeldFile), and that is said. */
  readonly #onHole = (file: string, offset: number, bytes: number): void => {
    this.#options.onEvent({ kind: 'hole', path: this.path, file, offset, bytes });
  };

  readonly #onCompressed = (file: string, compression: OtherCompression): void => {
    this.#options.onEvent({ kind: 'compressed', path: this.path, file, name: compression.name, command: compression.command });
  };

  /**
   * The current file was renamed away or deleted: it drains behind the name. Copies beside the
   * name that hold only lines read from it (`cp mongodb.log mongodb.log.bak` by hand) are known
   * from now on: read as rotated files nobody read, they sent those lines again.
   */
  #moveBehind(now: number, role: 'rotated' | 'deleted'): void {
    const held = this.#current;
    if (!held) return;
    if (held.position > 0) for (const known of this.#copies.readCopies(held)) this.#behind.remember(known);
    this.#current = undefined;
    held.role = role;
    held.quietSince = now;
    this.#behind.push(held);
    this.#options.onEvent({ kind: role, path: this.path });
  }

  /**
   * copytruncate (or `> file`): lines written after our last read are in the copy beside the
   * file, which holds the same bytes before the place we read or saw. Its rest is read from
   * our position before the file is read again from 0; a second copy made before we looked
   * is an unseen rotated file.
   */
  #onTruncated(now: number): void {
    const held = this.#current!;
    const position = held.position;
    const seenTo = held.seenSize;
    // A copy made over a rotated file still held (`cp f f.1; : > f`) is this file's copy, not that one's rest.
    this.#behind.letGoRewritten(now);
    const copy = this.#copies.find(held);
    if (!copy) for (const known of this.#copies.readCopies(held)) this.#behind.remember(known);
    // Without a copy, the part of a line read before the truncation has no rest to come: it is
    // dropped (counted lost), never sent as a line.
    const cutLine = copy ? 0 : held.splitter.abandon();
    // Its first bytes as read (none read: none known, and a compression of it holds lines never read).
    const cutHead = held.knownHead();
    const stream = held.restartAtZero(now, copy !== undefined);
    // The size last looked at is the file's before the cut: a read or a wait must not take it for what is seen now.
    this.#size = undefined;
    // Bytes seen (while reading waited) that no copy holds: written just before the truncation,
    // from the start too (a second truncation while reading still waits: nothing of the file read).
    let lostBytes = cutLine + (copy ? Math.max(0, seenTo - copy.size) : Math.max(0, seenTo - position));
    if (copy) {
      this.#copies.claimed(copy);
      const copied = this.#openKnown(copy.name, copy.stat, 'copy', position, now, { stream });
      if (copied) {
        this.#behind.push(copied);
      } else {
        this.#options.onEvent({ kind: 'error', path: this.path, message: `the copy ${copy.name} went away before it was read` });
        lostBytes = stream.splitter.abandon() + Math.max(0, seenTo - position);
      }
    }
    // A file cut before anything of it was read has no bytes to find its copy by: its copy is a
    // rotated file nobody read, held from its start now, that holds at least what was seen.
    const unseen = this.#holdUnseen(now);
    if (!copy && position === 0 && unseen.some((file) => file.size >= seenTo)) lostBytes = cutLine;
    // What the file held before the cut: its compression (copytruncate with compress) holds what
    // was read of it and what is said lost here; anything past that is said when it is judged.
    // (`position` has the part of a line read already, which lostBytes counts too.)
    if (position > 0) this.#compressed.remember({ ...cutHead, readTo: position + lostBytes - cutLine });
    this.#options.onEvent({
      kind: 'truncated',
      path: this.path,
      position,
      ...(copy ? { copy: copy.name } : {}),
      ...(lostBytes ? { lostBytes } : {}),
    });
  }

  /**
   * Rotated files beside the path that nobody has read and that changed since `sinceMs` (the
   * last listing, or the last save): made while we did not look. Held from their start, oldest first.
   */
  #holdUnseen(now: number, since = this.#lastDiscovery, claimed: readonly fs.Stats[] = []): UnseenFile[] {
    const sinceMs = Math.min(since, this.#rewrittenAt);
    this.#rewrittenAt = Number.POSITIVE_INFINITY;
    this.#discoverWanted = false;
    this.#lastDiscovery = now;
    // The link's target read once for the listing and for the names inotify will tell.
    const target = linkTarget(this.path);
    this.#isTargetRotation = targetRotations(target);
    // Looks only go forward from here: what changed before this window can never be unseen.
    for (const [key, file] of this.#past) if (file.mtimeMs < sinceMs - MTIME_SLACK_MS) this.#past.delete(key);
    const siblings = rotatedSiblings(this.path, this.#options.ignore, target);
    // copytruncate's copy listed just after its truncation, which the look before the listing
    // could not see: the truncation first, so the copy is read on from our position (the bytes
    // before it were delivered from the file), never again from its start; then list again.
    const current = this.#current;
    if (current && current.position > 0 && current.shrunk(sizeOf(current))) {
      this.#onTruncated(now);
      return this.#holdUnseen(now, sinceMs, claimed);
    }
    const known = (name: string, stat: fs.Stats): boolean => claimed.some((c) => sameFile(c, stat)) || this.#knows(name, stat);
    const unseen = unseenSiblings(
      siblings.map((s) => ({ name: s.name, mtimeMs: s.stat.mtimeMs, known: known(s.name, s.stat) })),
      sinceMs,
    );
    // Copies seen earlier, whatever their mtime, wherever a rotation moved them.
    for (const pending of this.#copies.pendingAmong(siblings, known, now)) {
      if (!unseen.some((u) => u.name === pending.name)) unseen.push({ name: pending.name, mtimeMs: pending.stat.mtimeMs, known: false });
    }
    const held: UnseenFile[] = [];
    for (const sibling of unseen.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      const stat = siblings.find((s) => s.name === sibling.name)?.stat;
      if (!stat) continue;
      // copytruncate's copy, made before a truncation not seen yet: the file has its lines (for
      // now), or, once truncated, the copy is found by the bytes we read (truncation handling).
      if (this.#copies.pendingCopyOf(this.#current, sibling.name, stat, now)) continue;
      if (known(sibling.name, stat)) continue;
      // Opened now, or, past the bound on held files, when they close.
      if (!this.#behind.hold(waitingFile(sibling.name, stat, 'unseen', 0), now)) {
        // Gone or moved beyond recognition between the listing and the open: look again soon.
        this.#discoverWanted = true;
        this.#lastDiscovery = sinceMs;
        continue;
      }
      this.#options.onEvent({ kind: 'unseen', path: this.path, file: sibling.name });
      held.push({ name: sibling.name, size: stat.size });
    }
    this.#judgeCompressed(now, siblings);
    return held;
  }

  /**
   * Compressed rotations made since the last listing that are no file read, held or known: rotated and
   * compressed before anyone read them (logrotate's compress without delaycompress, while the
   * sidecar was frozen or down, or past a stall's bound). Their lines are lost to the stream:
   * said, with where they are. `siblings`: the plain rotations listed now, whose compressions
   * are no news whether or not they are read.
   */
  #judgeCompressed(now: number, siblings: readonly SiblingFile[]): void {
    const current = this.#current;
    this.#compressed.rememberFiles(siblings.filter((s) => !(current && sameFile(current, s.stat)) && !this.#behind.knows(s.name, s.stat)));
    const { unread, waiting } = this.#compressed.look(now, () => [...(current ? [current.knownHead()] : []), ...this.#behind.knownHeads()]);
    // Being written still (gzip writes its size last): judged at a look once it is quiet.
    if (waiting) this.#discoverWanted = true;
    for (const { file, bytes, rest } of unread) this.#options.onEvent({ kind: 'compressed-unread', path: this.path, file, bytes, ...(rest ? { rest } : {}) });
  }

  /** Held now, or retired: a file of ours. */
  #knows(name: string, stat: fs.Stats): boolean {
    return (this.#current !== undefined && sameFile(this.#current, stat)) || this.#behind.knows(name, stat) || this.#past.has(pastKey(stat));
  }

  #remember({ ino, mtimeMs }: PastFile): void {
    this.#past.set(pastKey({ ino, mtimeMs }), { ino, mtimeMs });
  }
}

/** A rotated file nobody read, held from its start at a listing: where, and how long it was. */
interface UnseenFile {
  readonly name: string;
  readonly size: number;
}

/** The size of the file at `path` when it is `saved`'s (its inode, and its birth time where both are known); undefined otherwise. */
function inPlaceSize(path: string, saved: SavedFile): number | undefined {
  const stat = statOrNone(path);
  if (!stat?.isFile() || stat.ino !== saved.ino || compareBirthtimes(saved.birthtimeMs, stat.birthtimeMs) === 'differs') return undefined;
  return stat.size;
}

/** For a path that is a symbolic link to `target` (its linkTarget), which names are rotations of the name it leads to. */
function targetRotations(target: string | undefined): ((name: string) => boolean) | undefined {
  return target === undefined ? undefined : rotatedNames(path.basename(target));
}

/** A file as it was: a rename keeps both; a write to it, or a new file on a reused inode, changes the mtime. */
const pastKey = ({ ino, mtimeMs }: PastFile): string => `${ino}:${mtimeMs}`;

/** Whether the file open as `fd` starts with the bytes `head` hashes (a file shorter than them does not). */
function startsAs(fd: number, head: Fingerprint): boolean {
  try {
    const now = fingerprintOf(fd, head.fingerprintBytes);
    return now.fingerprintBytes === head.fingerprintBytes && now.fingerprint === head.fingerprint;
  } catch {
    return false;
  }
}
