/**
 * The files behind a followed name: rotated, deleted, copied (copytruncate) and unseen files
 * still to read, oldest first, each held by descriptor until it has drained; and the files
 * closed after draining, still recognised (retired), so neither a look nor a restart reads them
 * again or from their start.
 *
 * A file drains until it has been quiet for the grace period and its lines have left the process,
 * then closes (a reader must not pin deleted files: the operator's issue #174). What is held is
 * bounded (`maxBehind` files): past that, files read to their end close first, then the oldest is
 * given up with a `gave-up` event naming the bytes.
 *
 * Files found by name that nobody has read (rotated while the sidecar was down, or faster than it
 * looked; saved rotated files at a restart) need no descriptor to stay readable: past the bound
 * they wait by name and identity (WaitingFile), in their place in the order, and are opened as
 * held files close. A restart after more rotations than the bound reads them all, instead of
 * giving up every file past the 16th with its lines still on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SavedFile } from '../state/state-file.js';
import { savedHead, type KnownHead } from './compressed-rotation.js';
import type { FollowEvent } from './follow-events.js';
import { HeldFile, type HeldRole } from './held-file.js';
import type { LineStream } from './line-stream.js';
import type { FileIdentity } from './reconcile.js';
import { drainIsOver, sameFile } from './reconcile.js';
import { compareBirthtimes } from './identity.js';
import { isKnown, type KnownFile } from './resume.js';
import { birthtimeOf, rotatedSiblings } from './rotated-siblings.js';
import { fingerprintOf, fingerprintOfBytes, type Fingerprint } from './fingerprint.js';

const DEFAULT_MAX_BEHIND = 16;

/** A file to read that is not open yet: found by name, opened (by its identity) when there is room. */
export interface WaitingFile extends FileIdentity {
  readonly name: string;
  readonly role: HeldRole;
  readonly position: number;
  readonly birthtimeMs: number;
  /** Its size when found (what `lag` counts until it is open). */
  readonly size: number;
  /** What the state file said of it (a restart), kept as it was until it is open. */
  readonly saved?: SavedFile | undefined;
  /**
   * Its lines as read so far, when it was held and let go past the bound to wait by its name
   * (files rotated faster than they were read): opened again, it reads on with them from
   * `position`, an unfinished line and all.
   */
  readonly stream?: LineStream | undefined;
  /**
   * Its first bytes when it was let go to wait (up to FINGERPRINT_BYTES, read or not): a file
   * opened by its name and inode later that does not start so is another (its inode taken by a
   * new file once it was deleted; birth times may not tell within a tick).
   */
  readonly head?: Fingerprint | undefined;
}
/** Files closed after draining that are still recognised (not read again if they change). */
const MAX_RETIRED = 16;

/** A held file let go as rewritten: where it is, how far it was read, the bytes of it never delivered (past the position when last looked at, and a line read in part), its modification time. */
export interface RewrittenFile {
  readonly name: string;
  readonly position: number;
  readonly lostBytes: number;
  readonly mtimeMs: number;
}

export interface FilesBehindOptions {
  readonly path: string;
  readonly rotateWaitMs: number;
  readonly onEvent: (event: FollowEvent) => void;
  readonly maxBehind?: number | undefined;
  readonly ignore?: ((name: string) => boolean) | undefined;
  /** A retired file pushed out of the bounded list: whoever still needs to recognise it. */
  readonly onForget?: ((known: KnownFile) => void) | undefined;
  /**
   * A held file found rewritten under us (not a logger's way: a copy made over a rotated file,
   * `cp f f.1`, a home-made copytruncate), let go, the part of a line it had read dropped (its
   * rest is gone; counted in `lostBytes`): the file there now is to be taken as one never seen.
   */
  readonly onRewritten?: ((file: RewrittenFile) => void) | undefined;
  /** Whether the file open as `fd` (of `size` bytes) holds what the file at the name holds, or held where we read it: its copy. */
  readonly isCopyOfCurrent?: ((fd: number, size: number) => boolean) | undefined;
  /** Opens a waiting file where it is now (undefined: gone, or not readable). */
  readonly open: (waiting: WaitingFile, now: number) => HeldFile | undefined;
  /** A waiting file that could not be opened when its turn came: gone before it was read. */
  readonly onGone: (waiting: WaitingFile) => void;
}

type Behind = HeldFile | WaitingFile;
const isHeld = (file: Behind): file is HeldFile => file instanceof HeldFile;

export class FilesBehind {
  readonly #options: FilesBehindOptions;
  /** Oldest first: held files, and waiting ones in their place. */
  #queue: Behind[] = [];
  #files: HeldFile[] = [];
  /** Closed files still recognised, newest last. */
  #retired: KnownFile[] = [];

  constructor(options: FilesBehindOptions) {
    this.#options = options;
  }

  /** The files held open now. */
  get files(): readonly HeldFile[] {
    return this.#files;
  }

  /** Files wait to be opened: nothing newer (the file at the name) may be read before them. */
  get waiting(): boolean {
    return this.#files.length < this.#queue.length;
  }

  /**
   * A file found by name to read from `position` (a rotated file nobody read, a saved one at a
   * restart): opened now when the bound allows and nothing waits before it; else it waits in
   * its place. Returns false when it could not be opened now (gone meanwhile).
   */
  hold(waiting: WaitingFile, now: number): boolean {
    if (!this.waiting && this.#files.length < this.#max) {
      const held = this.#options.open(waiting, now);
      if (!held) return false;
      this.push(held);
      return true;
    }
    this.#queue.push(waiting);
    return true;
  }

  get #max(): number {
    return this.#options.maxBehind ?? DEFAULT_MAX_BEHIND;
  }

  /**
   * Opens waiting files in order while the bound allows; the first file of all is opened
   * whatever the bound (files held behind it cannot be read before it, nor close).
   */
  #openWaiting(now: number, unbounded = false): boolean {
    let opened = false;
    for (let i = 0; i < this.#queue.length; i++) {
      const file = this.#queue[i]!;
      if (isHeld(file)) continue;
      if (!unbounded && i > 0 && this.#files.length >= this.#max) {
        if (!this.#closeOneRead(i, now)) return opened;
        // The file closed was before this one.
        i = this.#queue.indexOf(file);
      }
      const held = this.#options.open(file, now);
      if (held) {
        this.#queue[i] = held;
        this.#noteSize(held);
        opened = true;
      } else {
        // Gone before it was read (deleted, or renamed out of sight).
        this.#queue.splice(i--, 1);
        this.#options.onGone(file);
      }
      this.#sync();
    }
    return opened;
  }

  /**
   * The end (--once, a stop): every waiting file is opened whatever the bound, so that all is
   * read before it (the held files that keep them waiting may never close: a last line without
   * its newline, held until the rotate wait is over). True when one was.
   */
  openAllWaiting(now: number): boolean {
    return this.waiting && this.#openWaiting(now, true);
  }

  /**
   * Makes room for the waiting file at `before` in the queue, as `push` does past the bound:
   * closes the oldest held file before it that is read to its end with every line of it out
   * (none held unfinished) and whose writer has been quiet for the rotate wait (a file just
   * rotated may still be written, as closeDrained waits for; a copy is whole). Returns false
   * when no file is so.
   */
  #closeOneRead(before: number, now: number): boolean {
    const queue = this.#queue;
    let done: HeldFile | undefined;
    for (let i = 0; i < before && !done; i++) {
      const file = queue[i]!;
      if (!isHeld(file)) continue;
      try {
        const stat = fs.fstatSync(file.fd);
        const wait = file.role === 'copy' ? 0 : this.#options.rotateWaitMs;
        const quietMs = now - Math.max(stat.mtimeMs, file.quietSince);
        // Read to its end: not shorter than read (rewritten: closeDrained lets it go).
        if (file.splitter.heldBytes === 0 && drainIsOver(stat.size === file.position, quietMs, wait, file.allDelivered)) done = file;
      } catch {
        // Not to be looked at now: left for closeDrained.
      }
    }
    if (!done) return false;
    queue.splice(queue.indexOf(done), 1);
    this.#sync();
    this.#retire(done);
    this.#options.onEvent({ kind: 'drained', path: this.#options.path, file: this.#currentName(done), position: done.position });
    return true;
  }

  /** #files: the held files of the queue, in its order. */
  #sync(): void {
    this.#files = this.#queue.filter(isHeld);
  }

  /** Files the state file knew as read to their end (at the first look). */
  adoptRetired(retired: readonly KnownFile[]): void {
    this.#retired = [...retired];
  }

  /** A file to drain, after the others. */
  push(held: HeldFile): void {
    this.#queue.push(held);
    this.#noteSize(held);
    this.#sync();
    const max = this.#max;
    if (this.#files.length <= max) return;
    const { path, onEvent } = this.#options;
    // Over the bound: files read to their end are closed first (their lines are out or on their way).
    let excess = this.#files.length - max;
    const closed: HeldFile[] = [];
    this.#queue = this.#queue.filter((file) => {
      if (excess <= 0 || file === held || !isHeld(file) || file.size() !== file.position) return true;
      excess--;
      file.emitHeld(false);
      this.#retire(file);
      closed.push(file);
      return false;
    });
    this.#sync();
    for (const file of closed) onEvent({ kind: 'drained', path, file: this.#currentName(file), position: file.position });
    this.#waitByName(max);
    // Files with no name left (deleted): closing one loses what it holds unread.
    while (this.#files.length > max) {
      const oldest = this.#files[0]!;
      this.#queue.splice(this.#queue.indexOf(oldest), 1);
      this.#sync();
      const name = this.#currentName(oldest);
      const bytes = oldest.giveUp();
      this.#retire(oldest, true);
      onEvent({ kind: 'gave-up', path, file: name, bytes });
    }
  }

  /**
   * Past the bound, held files that still have a name beside the path (rotated, not deleted) wait
   * by it instead, newest first, the oldest held kept open (it is read first): the descriptor
   * closed, the line stream kept, the file is opened again in its turn and read on from where it
   * was. Files rotated faster than they were read (a stalled output, a sidecar short of CPU)
   * are so read whole, not given up while still on disk.
   */
  #waitByName(max: number): void {
    for (let i = this.#queue.length - 1; i >= 0 && this.#files.length > max; i--) {
      const file = this.#queue[i]!;
      if (!isHeld(file) || file === this.#files[0] || file.role === 'deleted') continue;
      const name = this.#nameNow(file);
      if (name === undefined) continue;
      let waiting: WaitingFile;
      try {
        // Saved first: it asks the birth time where it was not known yet.
        const saved = file.savedFile();
        const size = file.size();
        waiting = { name, dev: file.dev, ino: file.ino, role: file.role, position: file.position, birthtimeMs: file.birthtimeMs, size, saved, stream: file.lineStream, head: fingerprintOf(file.fd, size) };
      } catch {
        continue;
      }
      file.close();
      this.#queue[i] = waiting;
      this.#sync();
    }
  }

  /** The name beside the path that `held` has now (by identity); undefined when none has it (deleted, moved away). */
  #nameNow(held: HeldFile): string | undefined {
    const found = rotatedSiblings(this.#options.path, this.#options.ignore).find((s) => sameFile(s.stat, held));
    return found?.name ?? nameInDirectory(path.dirname(this.#options.path), held);
  }

  /** A file found beside the name that holds only lines already read (a copy of them). */
  remember(known: KnownFile): void {
    this.#retired.push(known);
    while (this.#retired.length > MAX_RETIRED) this.#options.onForget?.(this.#retired.shift()!);
  }

  /**
   * The retired file (read to its end and closed) that `stat` at `name` is, taken off the list:
   * a file back at the followed name (a symbolic link pointed back to it, `mv f.1 f`, a mount
   * taken away from over the directory) is read on from where it was read, not from 0.
   */
  takeRetired(name: string, stat: fs.Stats): KnownFile | undefined {
    const at = this.#retired.findIndex((r) => isKnown(r, name, stat));
    if (at < 0) return undefined;
    return this.#retired.splice(at, 1)[0];
  }

  /** What a compression of a file held or retired here would start with (compressed-rotation.ts): a retired one read to its saved position. */
  knownHeads(): KnownHead[] {
    // A file given up: its rest was said lost then (gave-up), not again when it is compressed.
    return [
      ...this.#files.map((held) => held.knownHead()),
      ...this.#retired.map(({ saved, givenUp }) => savedHead(saved, givenUp ? Number.POSITIVE_INFINITY : saved.position)),
    ];
  }

  /** Held here, or retired: a file of ours, by device, inode and (where kept) birth time. */
  knows(name: string, stat: fs.Stats): boolean {
    // A held file's inode cannot be reused while we hold it open; a waiting one's can (no
    // descriptor pins it): its birth time tells them apart when it is opened.
    return this.#queue.some((h) => sameFile(h, stat) && (isHeld(h) || compareBirthtimes(h.birthtimeMs, stat.birthtimeMs) !== 'differs')) || this.#retired.some((r) => isKnown(r, name, stat));
  }

  /**
   * Reads up to `budget` bytes, oldest file first; returns the bytes read. Each file is read to
   * its size now, not at the last look: the logger may still be writing to it.
   */
  read(now: number, budget: number): number {
    this.#openWaiting(now);
    let left = budget;
    // The queue as it was: a file let go leaves it (a new array), the loop goes on over this one.
    for (const held of this.#queue) {
      // Newer files wait behind one not open yet.
      if (!isHeld(held)) break;
      const size = sizeOf(held);
      // Shorter than read (or seen): rewritten, and no read would look (it seems at its end).
      // Nothing read yet, and what it holds now is the file at the name's: a copy made over it.
      const rewritten = held.shrunk(size) || this.#shrunkUnread(held, size) || this.#copyOverUnread(held, size);
      const read = rewritten ? -1 : held.read(left, now, size);
      if (read < 0) {
        // Let go at once: its unfinished line ends before any newer file's line is read.
        this.#letGo([held], now);
        continue;
      }
      if (size !== Infinity) {
        this.#sizes.set(held, size);
        this.#noteSize(held, size);
      }
      left -= read;
      // copytruncate's copy read to its end is whole (made before the truncation, and nobody
      // writes to it): its unfinished last line leaves now, before the file at the name's lines
      // (its writer's next bytes, the line's rest among them, are there), not at its close.
      if (held.role === 'copy' && !held.ended && size !== Infinity && size <= held.position) {
        held.emitHeld(false);
        held.ended = true;
      }
      // A line whose first pieces left is unfinished here: nothing newer may come between them.
      if (left <= 0 || held.splitter.pieceOpen) break;
    }
    return budget - left;
  }

  /** Each held file's size at its last read: what a rewrite then took away unread. */
  readonly #sizes = new WeakMap<HeldFile, number>();

  /**
   * The largest size each held file was seen at (opened, read or looked at). A rotated file only
   * grows while its writer may still write; one found shorter was rewritten, even with nothing
   * read from it (position and seenSize are 0 while reading waits for the output).
   */
  readonly #largest = new WeakMap<HeldFile, number>();

  /** Notes `held`'s size now (one fstat) or `size`, where larger than any seen before. */
  #noteSize(held: HeldFile, size?: number): void {
    let now = size;
    if (now === undefined) {
      try {
        now = held.size();
      } catch {
        return;
      }
    }
    if (now > (this.#largest.get(held) ?? 0)) this.#largest.set(held, now);
  }

  /**
   * Nothing read from it, and shorter than it was seen: rewritten (a copy made over it, caught
   * half-way). With something read, the bytes before the position tell (`shrunk`, `truncated`).
   * Marked so: the bytes it was seen holding are what the rewrite took away unread.
   */
  #shrunkUnread(held: HeldFile, size: number): boolean {
    const shrunk = held.position === 0 && size < (this.#largest.get(held) ?? 0);
    if (shrunk) this.#emptied.add(held);
    return shrunk;
  }

  /** Held files let go by #shrunkUnread. */
  readonly #emptied = new WeakSet<HeldFile>();

  /**
   * A rotated file held with nothing read from it (renamed away empty: logrotate's `ifempty`)
   * that now holds bytes the file at the name holds too: a copy made over it (`cp f f.1`), not
   * lines its writer added. Asked once, at its first read.
   */
  #copyOverUnread(held: HeldFile, size: number): boolean {
    if (held.position !== 0 || size === 0 || size === Infinity || held.role === 'copy' || this.#sizes.get(held) === size) return false;
    return this.#options.isCopyOfCurrent?.(held.fd, size) === true;
  }

  /**
   * Lets go of the held files rewritten since they were read (see `onRewritten`); the file at
   * the name's truncation looks here first, so that a copy made over a rotated file is found as
   * its copy. Returns whether one was.
   */
  letGoRewritten(now: number): boolean {
    const rewritten = this.#files.filter((held) => {
      try {
        const size = sizeOf(held);
        return held.position > 0 ? held.truncated(size) : this.#shrunkUnread(held, size) || this.#copyOverUnread(held, size);
      } catch {
        return false;
      }
    });
    this.#letGo(rewritten, now);
    return rewritten.length > 0;
  }

  /**
   * A rotated file rewritten under us: its old bytes are gone, and the bytes there now are no
   * continuation of them. Read again from its start where it is, a copy made over it would
   * repeat every line the file at the name had delivered; let go instead, it is looked at anew:
   * a copy of lines read already is read on from where they end, or not at all, other lines
   * from their start.
   */
  #letGo(rewritten: readonly HeldFile[], now: number): void {
    if (rewritten.length === 0) return;
    this.#queue = this.#queue.filter((file) => !rewritten.includes(file as HeldFile));
    this.#sync();
    for (const held of rewritten) {
      // What it held past our position when last looked at (at least: more may have come since),
      // and the unfinished line read so far: its rest is gone, and a line is delivered whole or
      // not at all (a line in pieces is closed by an empty last piece).
      // (The largest size seen only for a file emptied unread: a file grown by a copy made over
      // it held the copy's bytes, not lines of its own.)
      const seen = this.#emptied.has(held) ? (this.#largest.get(held) ?? 0) : 0;
      const unread = Math.max(0, Math.max(held.seenSize, this.#sizes.get(held) ?? 0, seen) - held.position);
      const lostBytes = unread + held.splitter.abandon();
      const mtimeMs = held.mtimeMs() ?? now;
      const name = this.#currentName(held);
      held.close();
      this.#options.onRewritten?.({ name, position: held.position, lostBytes, mtimeMs });
    }
  }

  /**
   * A held file's line left in pieces and is not finished: its writer may still end it, or it is
   * ended (an empty last piece) when the file is closed, drained. Until then no newer file of the
   * path is read: a reader joining pieces by type would take the newer file's first line for the
   * line's end.
   */
  get lineOpen(): boolean {
    for (const held of this.#files) if (held.splitter.pieceOpen) return true;
    return false;
  }

  /** Closes the files that have drained: read to their end, quiet for the grace period, lines out. */
  closeDrained(now: number): void {
    if (this.#files.length === 0) return;
    const drained: HeldFile[] = [];
    const rewritten: HeldFile[] = [];
    this.#queue = this.#queue.filter((held) => {
      if (!isHeld(held)) return true;
      // One fstat a file a look (Infinity when it fails: taken as at its end, as before).
      const size = sizeOf(held);
      // Shorter than read: rewritten (a copy made over it), not read to its end. Taken for
      // drained, its unfinished line would leave whole, cut where the read had stopped.
      if (size !== Infinity && (held.shrunk(size) || this.#shrunkUnread(held, size))) {
        rewritten.push(held);
        return true;
      }
      if (size !== Infinity) this.#noteSize(held, size);
      const atEnd = size === Infinity || size <= held.position;
      held.atEnd = atEnd;
      // A copy is whole when the truncation is seen: no writer appends to it.
      const wait = held.role === 'copy' ? 0 : this.#options.rotateWaitMs;
      if (!held.ended) {
        if (!drainIsOver(atEnd, now - held.quietSince, wait)) return true;
        const unterminated = held.emitHeld(false);
        held.ended = true;
        // Quiet past the wait without its newline: its writer has moved on, or writes the rest too late to be read.
        if (unterminated > 0 && held.role !== 'copy') this.#options.onEvent({ kind: 'unterminated', path: this.#options.path, file: this.#currentName(held), bytes: unterminated });
      }
      if (!drainIsOver(atEnd, now - held.quietSince, wait, held.allDelivered)) return true;
      this.#retire(held);
      drained.push(held);
      return false;
    });
    this.#sync();
    this.#letGo(rewritten, now);
    this.#openWaiting(now);
    for (const held of drained) this.#options.onEvent({ kind: 'drained', path: this.#options.path, file: this.#currentName(held), position: held.position });
  }

  /** Their unfinished lines out whole: their writers have moved on. */
  emitHeld(): void {
    for (const held of this.#files) held.emitHeld(false);
  }

  /** What the state file keeps of them: the retired ones marked so, then the held ones. */
  savedFiles(): SavedFile[] {
    return [...this.#retired.map((r) => ({ ...r.saved, retired: true })), ...this.#queue.map((h) => (isHeld(h) ? h.savedFile() : waitingSaved(h)))];
  }

  /** Bytes on disk not yet read. */
  lag(): number {
    let lag = 0;
    for (const held of this.#queue) lag += Math.max(0, (isHeld(held) ? held.size() : held.size) - held.position);
    return lag;
  }

  close(): void {
    for (const held of this.#files) held.close();
    this.#queue = [];
    this.#files = [];
  }

  /** Held no more but recognised: a restart neither reads it again nor from its start. */
  #retire(held: HeldFile, givenUp = false): void {
    this.remember({ dev: held.dev, ino: held.ino, birthtimeMs: held.birthtimeMs, saved: held.savedFile(), mtimeMs: held.mtimeMs(), ...(givenUp ? { givenUp: true } : {}) });
    held.close();
  }

  /**
   * Where a held file is now: its name beside the path (found by inode), among its rotations or
   * under any other name there (`mv mongodb.log mongodb.log.old` by hand); else where it was
   * (deleted, or moved out of the directory).
   */
  #currentName(held: HeldFile): string {
    return (held.role === 'deleted' ? undefined : this.#nameNow(held)) ?? held.name;
  }
}

/** The name in `directory` of the file `held` is (by device and inode); undefined when none is, or it cannot be listed. */
function nameInDirectory(directory: string, held: FileIdentity): string | undefined {
  try {
    for (const entry of fs.readdirSync(directory)) {
      const name = path.join(directory, entry);
      const stat = fs.lstatSync(name, { throwIfNoEntry: false });
      if (stat?.isFile() && sameFile(stat, held)) return name;
    }
  } catch {
    // Not listed: where it was is said.
  }
  return undefined;
}

/** A held file's size now (Infinity when fstat fails: the read that follows says why). */
export function sizeOf(held: HeldFile): number {
  try {
    return held.size();
  } catch {
    return Infinity;
  }
}

/**
 * What the state file keeps of a file not opened yet: what it said (a restart), or, for a file
 * found unread, its identity at position 0 (no bytes to tell it by: any file with its inode and
 * birth time is read from its start, which is what it needs).
 */
function waitingSaved(file: WaitingFile): SavedFile {
  if (file.stream && file.saved) {
    // Let go to wait by name: its lines read before go on leaving, and the save follows them.
    const { upTo, midLine } = file.stream.checkpoint;
    if (upTo === file.saved.position) return file.saved;
    const { tailHash: _tail, readToEnd: _end, midLine: _mid, ...kept } = file.saved;
    return { ...kept, position: upTo, ...(midLine ? { midLine: true } : {}) };
  }
  if (file.saved) return file.saved;
  return {
    dev: file.dev,
    ino: file.ino,
    position: 0,
    ...fingerprintOfBytes(Buffer.alloc(0), 0),
    ...(file.birthtimeMs ? { birthtimeMs: file.birthtimeMs } : {}),
  };
}

/** A file as listed (`stat` at `name`), to wait for room. */
export function waitingFile(name: string, stat: fs.Stats, role: HeldRole, position: number, saved?: SavedFile): WaitingFile {
  return { name, dev: stat.dev, ino: stat.ino, role, position, birthtimeMs: birthtimeOf(stat), size: stat.size, ...(saved ? { saved } : {}) };
}
