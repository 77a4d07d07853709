/**
 * copytruncate's copies beside a followed name, told from rotated files nobody read. A copy is
 * found by the bytes we read: the copy of a truncated file holds the bytes read just before our
 * position (and is read on from there); a copy made after we read past its end holds only what
 * was read (recognised, never read); a copy made before its truncation holds only what the file
 * at the name holds, or starts as it did (watched as pending until the truncation is seen).
 *
 * Every comparison goes through a descriptor of the file as listed, found by its identity where
 * a rotation moved it: logrotate renames `.1` to `.2` and copies to `.1` between a listing and
 * an open.
 */
import fs from 'node:fs';
import type { HeldFile } from './held-file.js';
import { openListed } from './listed-file.js';
import { sameFile } from './reconcile.js';
import { knownFile, type KnownFile } from './resume.js';
import { rotatedSiblings, type SiblingFile } from './rotated-siblings.js';

/**
 * A copy holding only what the file at the name holds (copytruncate's, before its truncation)
 * is watched this long: once the file no longer holds it, it is read like a rotated file.
 */
const PENDING_COPY_MS = 10_000;

export interface FoundCopy {
  readonly name: string;
  readonly size: number;
  readonly stat: fs.Stats;
}

export interface CopyFinderOptions {
  readonly path: string;
  readonly ignore?: ((name: string) => boolean) | undefined;
  /** Held or retired by the follower: never a copy to find. */
  readonly knows: (name: string, stat: fs.Stats) => boolean;
}

export class CopyFinder {
  readonly #options: CopyFinderOptions;
  /** Copies of the file at the name seen before its truncation, by device:inode: when first seen. */
  readonly #pending = new Map<string, number>();

  constructor(options: CopyFinderOptions) {
    this.#options = options;
  }

  /** Some copy waits for its truncation: the names beside the path are worth a look at each turn. */
  get waiting(): boolean {
    return this.#pending.size > 0;
  }

  /** The copy of `held`, just found truncated, that holds the bytes read before its position. */
  find(held: HeldFile): FoundCopy | undefined {
    if (held.position === 0) return undefined;
    // Listed twice when the first finds none: a rename between the directory's listing and a
    // name's stat (logrotate shifting `.1` to `.2` as it copies) hides a file from one listing.
    return this.#findOnce(held) ?? this.#findOnce(held);
  }

  /** Claimed by a truncation: no longer a copy waiting for it (nor, once forgotten, a stranger). */
  claimed(copy: FoundCopy): void {
    this.#pending.delete(keyOf(copy.stat));
  }

  /** Copies holding only what `held` had read already (copied after we read past their end). */
  readCopies(held: HeldFile): KnownFile[] {
    const found: KnownFile[] = [];
    for (const sibling of rotatedSiblings(this.#options.path, this.#options.ignore)) {
      // The file itself, renamed beside the name, is no copy of it.
      if (sibling.stat.size > held.position || sameFile(sibling.stat, held) || this.#options.knows(sibling.name, sibling.stat)) continue;
      const known = knownFile(sibling.name, sibling.stat, (fd) => held.isReadCopy(fd, sibling.stat.size));
      if (known) found.push(known);
    }
    return found;
  }

  /**
   * Whether the sibling listed as `stat` is a copy of `current` made before its truncation (see
   * HeldFile's `holdsPrefixOf`, `startsLike`); if so, it is watched as pending.
   */
  pendingCopyOf(current: HeldFile | undefined, name: string, stat: fs.Stats, now: number): boolean {
    const opened = current && this.#openListed(name, stat);
    let copy = false;
    if (current && opened) {
      try {
        const size = fs.fstatSync(opened.fd).size;
        copy = current.holdsPrefixOf(opened.fd, size) || current.startsLike(opened.fd);
      } catch {
        copy = false;
      } finally {
        fs.closeSync(opened.fd);
      }
    }
    if (!copy) this.#pending.delete(keyOf(stat));
    else if (!this.#pending.has(keyOf(stat))) this.#pending.set(keyOf(stat), now);
    return copy;
  }

  /**
   * Pending copies among `siblings` that `known` does not claim, whatever their mtime, wherever a
   * rotation moved them; pending copies gone, claimed or watched too long are forgotten.
   */
  pendingAmong(siblings: readonly SiblingFile[], known: (name: string, stat: fs.Stats) => boolean, now: number): SiblingFile[] {
    const unknown = siblings.filter((s) => !known(s.name, s.stat));
    const pending = unknown.filter((s) => this.#pending.has(keyOf(s.stat)));
    // A copy that is held or retired is ours now: forgotten as pending, it is never read from 0.
    const present = new Set(unknown.map((s) => keyOf(s.stat)));
    for (const [copy, since] of this.#pending) if (!present.has(copy) || now - since > PENDING_COPY_MS) this.#pending.delete(copy);
    return pending;
  }

  #findOnce(held: HeldFile): FoundCopy | undefined {
    const siblings = rotatedSiblings(this.#options.path, this.#options.ignore)
      .filter((s) => s.stat.size >= held.position && !this.#options.knows(s.name, s.stat))
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

  /** Opens the file listed as `stat` at `name`, or where a rotation has just moved it (found by its identity). */
  #openListed(name: string, stat: fs.Stats): { name: string; fd: number } | undefined {
    return openListed(name, stat, () => rotatedSiblings(this.#options.path, this.#options.ignore).find((s) => sameFile(s.stat, stat))?.name);
  }
}

function keyOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}
