/**
 * Follows one path by name, as `tail -F` does, without its losses (Vector's file server, for one
 * name). Every file behind the name is held by descriptor (held-file.ts): the current one, and
 * rotated, deleted or copied ones until they are read to their end, so lines written to a file
 * after a rename or an unlink are still read, in the order they were written.
 *
 * `observe` looks at the name and the files beside it, and costs a stat; `read` reads. They are
 * separate so a stalled reader of our output stops reading, not following: renames, new files
 * and truncations are noticed on every look, their descriptors held and their copies noted, and
 * everything is read in order once the output has room. What is held is bounded (`maxBehind`
 * files per path); past that the oldest is given up with a `gave-up` event naming the bytes.
 *
 * A rotated or deleted file drains until it has been quiet for the grace period and its lines
 * have left the process, then closes (a reader must not pin deleted files: the operator's issue
 * #174). A file that shrinks, or whose bytes before the read position change, is read again
 * from 0, after the rest of copytruncate's copy beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SavedFile } from '../state/state-file.js';
import type { FollowEvent } from './follow-events.js';
import { FileCheckpoint } from './file-checkpoint.js';
import { HeldFile, type FileLineSink, type HeldRole, type LineStream } from './held-file.js';
import { reconcilePath, sameFile, drainIsOver, type PathState } from './reconcile.js';
import { resumeFiles, isKnown, knownFile, type KnownFile } from './resume.js';
import { rotatedSiblings } from './rotated-siblings.js';
import { unseenSiblings } from './identity.js';

export type { FollowEvent } from './follow-events.js';

export interface ResumeFrom {
  /** The files behind this path at the last save, oldest first (may be empty). */
  readonly files: readonly SavedFile[];
  /** When that was saved (ms since the epoch): a rotated file changed after it was not seen. */
  readonly savedAt: number;
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

const DEFAULT_MAX_BEHIND = 16;
/**
 * The files beside the path are listed when a name beside it changes (inotify says so), when
 * the path itself changes, and at least this often (for what inotify misses): a copytruncate
 * made before we had read or seen anything of the file shows only there.
 */
const DISCOVER_EVERY_MS = 10_000;
/**
 * A copy holding only what the file at the name holds (copytruncate's, before its truncation)
 * is watched this long: once the file no longer holds it, it is read like a rotated file.
 */
const PENDING_COPY_MS = 10_000;
const EMPTY = Buffer.alloc(0);
/** Files closed after draining that are still recognised (not read again if they change). */
const MAX_RETIRED = 16;
const DEFAULT_MISSING_WARNING_MS = 3 * 60_000;
const DEFAULT_REPEAT_WARNING_MS = 60 * 60_000;

export class FileFollower {
  readonly path: string;
  readonly #options: FileFollowerOptions;
  #current: HeldFile | undefined;
  /** Rotated, deleted, copied and unseen files still to read, oldest first. */
  #behind: HeldFile[] = [];
  /** Closed files still recognised, newest last. */
  #retired: KnownFile[] = [];
  #looked = false;
  /** When the files beside the path were last listed, and whether a name there changed since. */
  #lastDiscovery = 0;
  #discoverWanted = false;
  /** Copies of the file at the name seen before its truncation, by device:inode: when first seen. */
  readonly #pendingCopies = new Map<string, number>();
  readonly #siblingPrefix: string;
  /** The current file's size at the last look. */
  #size: number | undefined;
  #missingSince: number | undefined;
  #lastWarning = { message: '', at: 0 };

  constructor(options: FileFollowerOptions) {
    this.path = options.path;
    this.#options = options;
    this.#siblingPrefix = `${path.basename(options.path)}.`;
  }

  /** inotify named an entry of the path's directory: a name beside the path is worth a look. */
  nameChanged(name: string): void {
    if (name.startsWith(this.#siblingPrefix)) this.#discoverWanted = true;
  }

  /** How far the file behind the name now has been read. */
  get position(): number | undefined {
    return this.#current?.position;
  }

  /** The first look happened (before it, the state file's entry for this path stands). */
  get looked(): boolean {
    return this.#looked;
  }

  /** Looks at the name (and beside it after a change) and holds what it finds; reads nothing. */
  observe(now: number): void {
    if (!this.#looked) {
      this.#looked = true;
      this.#lastDiscovery = now;
      this.#firstLook(now);
      return;
    }
    this.#closeDrained(now);
    const state = statPath(this.path);
    const current = this.#current;
    if (current && state.kind === 'file' && sameFile(current, state)) {
      this.#size = state.size;
      // Shrunk is told here; changed bytes when the file is read (or seen while reading waits).
      if (current.shrunk(state.size) || current.rewrittenInPlace(state.size, state.mtimeMs, now)) this.#onTruncated(now);
    } else {
      this.#size = undefined;
      const links = current && state.kind === 'missing' ? current.links() : 1;
      const action = reconcilePath(current, links, state, false);
      switch (action.kind) {
        case 'keep':
          if (!current) this.#whileMissing(now);
          break;
        case 'unreadable':
          this.#cannotRead(now, state, action.what);
          break;
        case 'lost':
          this.#moveBehind(now, action.unlinked ? 'deleted' : 'rotated');
          this.#holdUnseen(now);
          break;
        case 'open':
          if (current) this.#moveBehind(now, 'rotated');
          this.#holdUnseen(now);
          this.#openCurrent(now, 0);
          break;
      }
    }
    if (this.#discoverWanted || this.#pendingCopies.size > 0 || now - this.#lastDiscovery >= DISCOVER_EVERY_MS) this.#holdUnseen(now);
  }

  /**
   * Reads what is new, up to `budget` bytes over the files behind the path, oldest first.
   * Returns true when it stopped at the budget with more to read.
   */
  read(now: number, budget: number): boolean {
    let left = budget;
    const current = this.#current;
    // With files behind, the current file is read only up to its size before they were: a line
    // written to a rotated file before the logger reopened never comes after the new file's.
    const upTo = current && this.#behind.length > 0 ? sizeOf(current) : Infinity;
    for (const held of this.#behind) {
      // Its size now, not at the last look: the logger may still be writing to it.
      let read = held.read(left, now, sizeOf(held));
      if (read < 0) {
        // A rotated file rewritten under us (not the logger's way): read again from its start.
        held.restartAtZero(now, false);
        this.#options.onEvent({ kind: 'truncated', path: this.path, position: 0 });
        read = held.read(left, now);
      }
      left -= Math.max(0, read);
      if (left <= 0) return true;
    }
    if (!current) return false;
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
  emitHeld(asPiece: boolean): void {
    for (const held of this.#behind) held.emitHeld(false);
    this.#current?.emitHeld(asPiece);
  }

  /** What the state file keeps for this path; undefined before the first look (keep what it had). */
  savedFiles(): SavedFile[] | undefined {
    if (!this.#looked) return undefined;
    const held = [...this.#behind, ...(this.#current ? [this.#current] : [])];
    return [...this.#retired.map((r) => ({ ...r.saved, retired: true })), ...held.map((h) => h.savedFile())];
  }

  /** Bytes on disk not yet read, over all files behind the path. */
  lag(): number {
    let lag = 0;
    for (const held of [...this.#behind, ...(this.#current ? [this.#current] : [])]) lag += Math.max(0, held.size() - held.position);
    return lag;
  }

  close(): void {
    for (const held of this.#behind) held.close();
    this.#current?.close();
    this.#behind = [];
    this.#current = undefined;
  }

  #firstLook(now: number): void {
    const { resume } = this.#options;
    if (!resume) {
      const action = reconcilePath(undefined, 1, statPath(this.path), true);
      if (action.kind === 'open') this.#openCurrent(now, this.#options.fromStart ? 0 : 'end');
      else if (action.kind === 'unreadable') this.#cannotRead(now, statPath(this.path), action.what);
      else this.#startWaiting(now);
      return;
    }
    const plan = resumeFiles(this.path, resume.files, this.#options.ignore);
    for (const lost of plan.lost) {
      this.#options.onEvent({ kind: 'resume-lost', path: this.path, position: lost.position });
      this.#closePiece(lost);
    }
    this.#retired = plan.retired;
    for (const found of plan.held) {
      const role = found.name === this.path ? 'current' : found.how === 'copy' ? 'copy' : 'rotated';
      const held = this.#openKnown(found.name, found.stat, role, found.saved.position, now, { midLine: found.saved.midLine === true });
      if (!held) {
        this.#options.onEvent({ kind: 'resume-lost', path: this.path, position: found.saved.position });
        this.#closePiece(found.saved);
        continue;
      }
      if (found.name === this.path) this.#current = held;
      else this.#pushBehind(held);
      this.#options.onEvent({ kind: 'resumed', path: this.path, file: found.name, position: found.saved.position, how: found.how });
    }
    if (!this.#current) {
      const state = statPath(this.path);
      if (state.kind === 'file') this.#openCurrent(now, 0);
      else if (state.kind === 'missing') this.#startWaiting(now);
      else this.#cannotRead(now, state, state.what);
    }
    this.#holdUnseen(now, resume.savedAt, plan.claimed);
  }

  /**
   * A saved file whose line was left open (its first pieces delivered, `"partial":true`) and
   * that cannot be read on: an empty last piece closes the line, so a reader joining pieces
   * does not join the next line to it.
   */
  #closePiece(saved: SavedFile): void {
    if (saved.midLine) this.#options.sink(EMPTY, 0, 0, false, saved.position, new FileCheckpoint(saved.position));
  }

  /** Opens the file at the name from `from` (its end: a file there at the very first start, as `tail -F -n0`). */
  #openCurrent(now: number, from: number | 'end'): void {
    // Gone between stat and open: the next look tries again.
    const held = this.#tryOpen(this.path, 'current', from, now);
    if (!held) return;
    this.#current = held;
    this.#missingSince = undefined;
    this.#lastWarning = { message: '', at: 0 };
    this.#options.onEvent({ kind: 'opened', path: this.path, position: held.position });
  }

  /**
   * Opens the file listed as `stat` at `name`; if a rotation renamed it meanwhile, where it is
   * now (beside the path, found by its identity).
   */
  #openKnown(
    name: string,
    stat: fs.Stats,
    role: HeldRole,
    position: number,
    now: number,
    options: { midLine?: boolean; stream?: LineStream } = {},
  ): HeldFile | undefined {
    const identity = { dev: stat.dev, ino: stat.ino };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return HeldFile.open(name, role, position, now, this.#lineOptions(), { ...options, identity });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EMOVED' && code !== 'ENOENT') {
          this.#cannotRead(now, statPath(name), errorMessage(error), error);
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

  #tryOpen(name: string, role: HeldRole, position: number | 'end', now: number, midLine?: boolean): HeldFile | undefined {
    try {
      return HeldFile.open(name, role, position, now, this.#lineOptions(), { midLine: midLine === true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#cannotRead(now, statPath(name), errorMessage(error), error);
      return undefined;
    }
  }

  #lineOptions(): { maxLineBytes: number; sink: FileLineSink } {
    return { maxLineBytes: this.#options.maxLineBytes, sink: this.#options.sink };
  }

  /** The current file was renamed away or deleted: it drains behind the name. */
  #moveBehind(now: number, role: 'rotated' | 'deleted'): void {
    const held = this.#current;
    if (!held) return;
    this.#current = undefined;
    held.role = role;
    held.quietSince = now;
    this.#pushBehind(held);
    this.#options.onEvent({ kind: role, path: this.path });
  }

  #pushBehind(held: HeldFile): void {
    this.#behind.push(held);
    const max = this.#options.maxBehind ?? DEFAULT_MAX_BEHIND;
    if (this.#behind.length <= max) return;
    // Over the bound: files read to their end are closed first (their lines are out or on their way).
    let excess = this.#behind.length - max;
    const closed: HeldFile[] = [];
    this.#behind = this.#behind.filter((file) => {
      if (excess <= 0 || file === held || file.size() > file.position) return true;
      excess--;
      file.emitHeld(false);
      this.#retire(file);
      closed.push(file);
      return false;
    });
    for (const file of closed) this.#options.onEvent({ kind: 'drained', path: this.path, file: file.name, position: file.position });
    while (this.#behind.length > max) {
      const oldest = this.#behind.shift()!;
      const name = this.#currentName(oldest);
      const bytes = oldest.giveUp();
      this.#retire(oldest);
      this.#options.onEvent({ kind: 'gave-up', path: this.path, file: name, bytes });
    }
  }

  /** Where a held file is now: its name beside the path (found by inode), or where it was when deleted. */
  #currentName(held: HeldFile): string {
    if (held.role === 'deleted') return held.name;
    const found = rotatedSiblings(this.path, this.#options.ignore).find((s) => sameFile(s.stat, held));
    return found?.name ?? held.name;
  }

  /** Held no more but recognised: a restart neither reads it again nor from its start. */
  #retire(held: HeldFile): void {
    const saved = held.savedFile();
    this.#retired.push({ dev: held.dev, ino: held.ino, birthtimeMs: held.birthtimeMs, saved });
    if (this.#retired.length > MAX_RETIRED) this.#retired.shift();
    held.close();
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
    const copy = this.#findCopy(held);
    if (!copy) this.#recogniseReadCopies(held);
    const stream = held.restartAtZero(now, copy !== undefined);
    // Bytes seen (while reading waited) that no copy holds: written just before the truncation.
    let lostBytes = copy ? Math.max(0, seenTo - copy.size) : position > 0 ? Math.max(0, seenTo - position) : 0;
    if (copy) {
      // Claimed: no longer a copy waiting for its truncation (nor, once retired and forgotten, a stranger).
      this.#pendingCopies.delete(`${copy.stat.dev}:${copy.stat.ino}`);
      const copied = this.#openKnown(copy.name, copy.stat, 'copy', position, now, { stream });
      if (!copied) {
        this.#options.onEvent({ kind: 'error', path: this.path, message: `the copy ${copy.name} went away before it was read` });
        stream.splitter.end();
      }
      if (copied) this.#pushBehind(copied);
      else lostBytes = Math.max(0, seenTo - position);
    }
    this.#options.onEvent({
      kind: 'truncated',
      path: this.path,
      position,
      ...(copy ? { copy: copy.name } : {}),
      ...(lostBytes ? { lostBytes } : {}),
    });
    this.#holdUnseen(now);
  }

  #findCopy(held: HeldFile): { name: string; size: number; stat: fs.Stats } | undefined {
    if (held.position === 0) return undefined;
    // Listed twice when the first finds none: a rename between the directory's listing and a
    // name's stat (logrotate shifting `.1` to `.2` as it copies) hides a file from one listing.
    return this.#findCopyOnce(held) ?? this.#findCopyOnce(held);
  }

  #findCopyOnce(held: HeldFile): { name: string; size: number; stat: fs.Stats } | undefined {
    const siblings = rotatedSiblings(this.path, this.#options.ignore)
      .filter((s) => s.stat.size >= held.position && !this.#knows(s.name, s.stat))
      .sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
    for (const sibling of siblings) {
      const opened = this.#openListed(sibling.name, sibling.stat);
      if (!opened) continue;
      try {
        // Compared through this descriptor: its own identity and size, whatever the name holds later.
        const stat = fs.fstatSync(opened.fd);
        if (stat.isFile() && held.matchesCopy(opened.fd, stat.size)) return { name: opened.name, size: stat.size, stat };
      } finally {
        fs.closeSync(opened.fd);
      }
    }
    return undefined;
  }

  /**
   * Opens the file listed as `stat` at `name`, or where a rotation has just moved it (found beside
   * the path by its identity): a listing and an open are not one moment.
   */
  #openListed(name: string, stat: fs.Stats): { name: string; fd: number } | undefined {
    for (let attempt = 0, at: string | undefined = name; attempt < 3 && at; attempt++) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(at, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
        if (sameFile(fs.fstatSync(fd), stat)) return { name: at, fd };
      } catch {
        // gone: look for it beside the path
      }
      if (fd !== undefined) fs.closeSync(fd);
      at = rotatedSiblings(this.path, this.#options.ignore).find((s) => sameFile(s.stat, stat))?.name;
    }
    return undefined;
  }


  /** copytruncate's copy holding only what we had read already: recognised, so it is never read as a stranger. */
  #recogniseReadCopies(held: HeldFile): void {
    for (const sibling of rotatedSiblings(this.path, this.#options.ignore)) {
      if (sibling.stat.size > held.position || this.#knows(sibling.name, sibling.stat)) continue;
      const known = knownFile(sibling.name, sibling.stat, (fd) => held.isReadCopy(fd, sibling.stat.size));
      if (known) this.#retired.push(known);
    }
    while (this.#retired.length > MAX_RETIRED) this.#retired.shift();
  }



  /**
   * Rotated files beside the path that nobody has read and that changed since `sinceMs` (the
   * last listing, or the last save): made while we did not look. Held from their start, oldest first.
   */
  #holdUnseen(now: number, sinceMs = this.#lastDiscovery, claimed: readonly fs.Stats[] = []): void {
    this.#discoverWanted = false;
    this.#lastDiscovery = now;
    const siblings = rotatedSiblings(this.path, this.#options.ignore);
    const key = (stat: fs.Stats): string => `${stat.dev}:${stat.ino}`;
    const known = (name: string, stat: fs.Stats): boolean => claimed.some((c) => sameFile(c, stat)) || this.#knows(name, stat);
    const unseen = unseenSiblings(
      siblings.map((s) => ({ name: s.name, mtimeMs: s.stat.mtimeMs, known: known(s.name, s.stat) })),
      sinceMs,
    );
    // Copies seen earlier, whatever their mtime, wherever a rotation moved them.
    for (const sibling of siblings) {
      if (this.#pendingCopies.has(key(sibling.stat)) && !unseen.some((u) => u.name === sibling.name) && !known(sibling.name, sibling.stat)) {
        unseen.push({ name: sibling.name, mtimeMs: sibling.stat.mtimeMs, known: false });
      }
    }
    // A copy that is held or retired is ours now: forgotten as pending, it is never read from 0.
    const present = new Set(siblings.filter((s) => !known(s.name, s.stat)).map((s) => key(s.stat)));
    for (const [copy, since] of this.#pendingCopies) if (!present.has(copy) || now - since > PENDING_COPY_MS) this.#pendingCopies.delete(copy);
    const current = this.#current;
    for (const sibling of unseen.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      const stat = siblings.find((s) => s.name === sibling.name)?.stat;
      if (!stat) continue;
      // copytruncate's copy, made before a truncation not seen yet: the file has its lines (for
      // now), or, once truncated, the copy is found by the bytes we read (truncation handling).
      if (current && this.#isCopyOf(current, sibling.name, stat)) {
        if (!this.#pendingCopies.has(key(stat))) this.#pendingCopies.set(key(stat), now);
        continue;
      }
      this.#pendingCopies.delete(key(stat));
      if (known(sibling.name, stat)) continue;
      const held = this.#openKnown(sibling.name, stat, 'unseen', 0, now);
      if (!held) {
        // Gone or moved beyond recognition between the listing and the open: look again soon.
        this.#discoverWanted = true;
        this.#lastDiscovery = sinceMs;
        continue;
      }
      this.#pushBehind(held);
      this.#options.onEvent({ kind: 'unseen', path: this.path, file: sibling.name });
    }
  }


  /**
   * Whether the sibling listed as `stat` is a copy of `current` (see `holdsPrefixOf`,
   * `startsLike`), compared through its own descriptor: logrotate may rename it (`.1` to `.2`)
   * and put the next copy at its name between the listing and the comparison.
   */
  #isCopyOf(current: HeldFile, name: string, stat: fs.Stats): boolean {
    const opened = this.#openListed(name, stat);
    if (!opened) return false;
    try {
      const size = fs.fstatSync(opened.fd).size;
      return current.holdsPrefixOf(opened.fd, size) || current.startsLike(opened.fd);
    } catch {
      return false;
    } finally {
      fs.closeSync(opened.fd);
    }
  }

  /** Held now, or retired: a file of ours, by device, inode and (where kept) birth time. */
  #knows(name: string, stat: fs.Stats): boolean {
    // A held file's inode cannot be reused while we hold it open.
    const held = [...this.#behind, ...(this.#current ? [this.#current] : [])];
    return held.some((h) => sameFile(h, stat)) || this.#retired.some((r) => isKnown(r, name, stat));
  }

  #closeDrained(now: number): void {
    if (this.#behind.length === 0) return;
    const drained: HeldFile[] = [];
    this.#behind = this.#behind.filter((held) => {
      let atEnd: boolean;
      try {
        atEnd = held.size() <= held.position;
      } catch {
        atEnd = true;
      }
      held.atEnd = atEnd;
      // A copy is whole when the truncation is seen: no writer appends to it.
      const wait = held.role === 'copy' ? 0 : this.#options.rotateWaitMs;
      if (!held.ended) {
        if (!drainIsOver(atEnd, now - held.quietSince, wait)) return true;
        held.emitHeld(false);
        held.ended = true;
      }
      if (!drainIsOver(atEnd, now - held.quietSince, wait, held.allDelivered)) return true;
      this.#retire(held);
      drained.push(held);
      return false;
    });
    for (const held of drained) this.#options.onEvent({ kind: 'drained', path: this.path, file: held.name, position: held.position });
  }

  #startWaiting(now: number): void {
    this.#missingSince = now;
    this.#options.onEvent({ kind: 'waiting', path: this.path });
  }

  /** The name is missing: after a while, say so (rarely): its variable may be wrong. */
  #whileMissing(now: number): void {
    this.#missingSince ??= now;
    const after = this.#options.missingWarningMs ?? DEFAULT_MISSING_WARNING_MS;
    const every = this.#options.repeatWarningMs ?? DEFAULT_REPEAT_WARNING_MS;
    const forMs = now - this.#missingSince;
    if (forMs < after) return;
    if (this.#lastWarning.message === 'missing' && now - this.#lastWarning.at < every) return;
    this.#lastWarning = { message: 'missing', at: now };
    this.#options.onEvent({ kind: 'missing', path: this.path, forMs });
  }

  /** Not readable (permission, not a regular file): said once, then rarely while it lasts. */
  #cannotRead(now: number, state: PathState, what: string, error?: unknown): void {
    const denied = state.kind === 'denied' || (error as NodeJS.ErrnoException | undefined)?.code === 'EACCES';
    const message = denied ? `permission denied: ${what}` : what;
    const every = this.#options.repeatWarningMs ?? DEFAULT_REPEAT_WARNING_MS;
    if (this.#lastWarning.message === message && now - this.#lastWarning.at < every) return;
    this.#lastWarning = { message, at: now };
    if (!denied) {
      this.#options.onEvent({ kind: 'error', path: this.path, message: `${what}; waiting for a readable file at this path` });
      return;
    }
    const stat = fs.statSync(this.path, { throwIfNoEntry: false, bigint: false }) as fs.Stats | undefined;
    this.#options.onEvent({
      kind: 'unreadable',
      path: this.path,
      message: what,
      fileUid: stat?.uid,
      fileGid: stat?.gid,
      fileMode: stat ? stat.mode & 0o7777 : undefined,
    });
  }
}

function statPath(path: string): PathState {
  try {
    // No exception (and no stack trace) for a missing file: the idle poll's common case.
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    if (!stat) return { kind: 'missing' };
    if (stat.isFile()) return { kind: 'file', dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    return { kind: 'other', what: stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a directory' : 'a special file' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'EACCES') return { kind: 'denied', what: errorMessage(error) };
    return { kind: 'other', what: errorMessage(error) };
  }
}

/** A held file's size now (Infinity when fstat fails: the read that follows says why). */
function sizeOf(held: HeldFile): number {
  try {
    return held.size();
  } catch {
    return Infinity;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
