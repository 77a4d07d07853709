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
 */
import type fs from 'node:fs';
import type { SavedFile } from '../state/state-file.js';
import type { FollowEvent } from './follow-events.js';
import type { HeldFile } from './held-file.js';
import { drainIsOver, sameFile } from './reconcile.js';
import { isKnown, type KnownFile } from './resume.js';
import { rotatedSiblings } from './rotated-siblings.js';

const DEFAULT_MAX_BEHIND = 16;
/** Files closed after draining that are still recognised (not read again if they change). */
const MAX_RETIRED = 16;

export interface FilesBehindOptions {
  readonly path: string;
  readonly rotateWaitMs: number;
  readonly onEvent: (event: FollowEvent) => void;
  readonly maxBehind?: number | undefined;
  readonly ignore?: ((name: string) => boolean) | undefined;
  /** A retired file pushed out of the bounded list: whoever still needs to recognise it. */
  readonly onForget?: ((known: KnownFile) => void) | undefined;
}

export class FilesBehind {
  readonly #options: FilesBehindOptions;
  #files: HeldFile[] = [];
  /** Closed files still recognised, newest last. */
  #retired: KnownFile[] = [];

  constructor(options: FilesBehindOptions) {
    this.#options = options;
  }

  get files(): readonly HeldFile[] {
    return this.#files;
  }

  /** Files the state file knew as read to their end (at the first look). */
  adoptRetired(retired: readonly KnownFile[]): void {
    this.#retired = [...retired];
  }

  /** A file to drain, after the others. */
  push(held: HeldFile): void {
    this.#files.push(held);
    const max = this.#options.maxBehind ?? DEFAULT_MAX_BEHIND;
    if (this.#files.length <= max) return;
    const { path, onEvent } = this.#options;
    // Over the bound: files read to their end are closed first (their lines are out or on their way).
    let excess = this.#files.length - max;
    const closed: HeldFile[] = [];
    this.#files = this.#files.filter((file) => {
      if (excess <= 0 || file === held || file.size() > file.position) return true;
      excess--;
      file.emitHeld(false);
      this.#retire(file);
      closed.push(file);
      return false;
    });
    for (const file of closed) onEvent({ kind: 'drained', path, file: file.name, position: file.position });
    while (this.#files.length > max) {
      const oldest = this.#files.shift()!;
      const name = this.#currentName(oldest);
      const bytes = oldest.giveUp();
      this.#retire(oldest);
      onEvent({ kind: 'gave-up', path, file: name, bytes });
    }
  }

  /** A file found beside the name that holds only lines already read (a copy of them). */
  remember(known: KnownFile): void {
    this.#retired.push(known);
    while (this.#retired.length > MAX_RETIRED) this.#options.onForget?.(this.#retired.shift()!);
  }

  /** Held here, or retired: a file of ours, by device, inode and (where kept) birth time. */
  knows(name: string, stat: fs.Stats): boolean {
    // A held file's inode cannot be reused while we hold it open.
    return this.#files.some((h) => sameFile(h, stat)) || this.#retired.some((r) => isKnown(r, name, stat));
  }

  /**
   * Reads up to `budget` bytes, oldest file first; returns the bytes read. Each file is read to
   * its size now, not at the last look: the logger may still be writing to it.
   */
  read(now: number, budget: number): number {
    let left = budget;
    for (const held of this.#files) {
      let read = held.read(left, now, sizeOf(held));
      if (read < 0) {
        // A rotated file rewritten under us (not the logger's way): read again from its start.
        held.restartAtZero(now, false);
        this.#options.onEvent({ kind: 'truncated', path: this.#options.path, position: 0 });
        read = held.read(left, now);
      }
      left -= Math.max(0, read);
      if (left <= 0) break;
    }
    return budget - left;
  }

  /** Closes the files that have drained: read to their end, quiet for the grace period, lines out. */
  closeDrained(now: number): void {
    if (this.#files.length === 0) return;
    const drained: HeldFile[] = [];
    this.#files = this.#files.filter((held) => {
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
    for (const held of drained) this.#options.onEvent({ kind: 'drained', path: this.#options.path, file: held.name, position: held.position });
  }

  /** Their unfinished lines out whole: their writers have moved on. */
  emitHeld(): void {
    for (const held of this.#files) held.emitHeld(false);
  }

  /** What the state file keeps of them: the retired ones marked so, then the held ones. */
  savedFiles(): SavedFile[] {
    return [...this.#retired.map((r) => ({ ...r.saved, retired: true })), ...this.#files.map((h) => h.savedFile())];
  }

  /** Bytes on disk not yet read. */
  lag(): number {
    let lag = 0;
    for (const held of this.#files) lag += Math.max(0, held.size() - held.position);
    return lag;
  }

  close(): void {
    for (const held of this.#files) held.close();
    this.#files = [];
  }

  /** Held no more but recognised: a restart neither reads it again nor from its start. */
  #retire(held: HeldFile): void {
    this.remember({ dev: held.dev, ino: held.ino, birthtimeMs: held.birthtimeMs, saved: held.savedFile(), mtimeMs: held.mtimeMs() });
    held.close();
  }

  /** Where a held file is now: its name beside the path (found by inode), or where it was when deleted. */
  #currentName(held: HeldFile): string {
    if (held.role === 'deleted') return held.name;
    const found = rotatedSiblings(this.#options.path, this.#options.ignore).find((s) => sameFile(s.stat, held));
    return found?.name ?? held.name;
  }
}

/** A held file's size now (Infinity when fstat fails: the read that follows says why). */
export function sizeOf(held: HeldFile): number {
  try {
    return held.size();
  } catch {
    return Infinity;
  }
}
