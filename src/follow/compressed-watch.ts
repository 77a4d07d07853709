/**
 * The compressed rotations beside one followed path, each judged once (compressed-rotation.ts):
 * a compression of a file read, held or known is no news; any other holds lines nobody read.
 * Keeps what a compression could start with for the files beside the path that are not held
 * nor retired (those the follower asks of FilesBehind): files there before the first look (not
 * ours to read), files cut by a truncation, saved files lost at a restart, retired files forgotten.
 */
import fs from 'node:fs';
import { fileHead } from '../read/file-head.js';
import { compressedVerdict, lookIntoGzip, savedHead, type KnownHead } from './compressed-rotation.js';
import { FINGERPRINT_BYTES, fingerprintOfBytes } from './fingerprint.js';
import { compressedSiblingsSince, type SiblingFile } from './rotated-siblings.js';

/** Known heads kept, the newest: a pod keeps a handful of rotations. */
const MAX_HEADS = 64;
/** A compressed file is judged once it has been still this long (isQuiet). */
export const COMPRESSED_QUIET_MS = 2000;

/** A compressed rotation holding bytes that were never read (`rest`: past where a file read and closed was read). */
export interface UnreadCompression {
  readonly file: string;
  readonly bytes: number;
  readonly rest: boolean;
}

export class CompressedWatch {
  readonly #path: string;
  /** By dev:ino, or by the hash for a file gone (cut, lost): newest last. */
  readonly #heads = new Map<string, KnownHead>();
  /**
   * The compressed files there at the last listing (by inode and mtime: a rename keeps both, so
   * the older rotations logrotate renames at each rotation are not new; a new file gets its
   * text's mtime). Made anew at each listing from the files there: bounded by them, never by a
   * count that would forget some and judge them again.
   */
  #listed = new Set<string>();
  /** Listed and not judged yet (written still): name, and the key judged. */
  readonly #pending = new Map<string, string>();

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * The first look: the compressed rotations there are the past, except, at a restart from a
   * save made at `savedAt`, those whose text was written after it (their mtime, which
   * logrotate gives from the text): made while the sidecar was down, judged.
   */
  start(savedAt: number | undefined): void {
    const listed = new Set<string>();
    for (const { name, stat } of compressedSiblings(this.#path)) {
      const key = listedKey(stat);
      listed.add(key);
      if (savedAt !== undefined && stat.mtimeMs >= savedAt) this.#pending.set(name, key);
    }
    this.#listed = listed;
  }

  /** A file gone whose compression is no news (its loss, if any, is said otherwise). */
  remember(head: KnownHead): void {
    if (head.fingerprintBytes > 0) this.#keep(`${head.fingerprint}:${head.fingerprintBytes}`, head);
  }

  /** Files beside the path that are not ours to read, or whose reading is said otherwise: their first bytes, read once (again while shorter than a KiB). */
  rememberFiles(siblings: readonly SiblingFile[]): void {
    for (const { name, stat } of siblings) {
      const key = `${stat.dev}:${stat.ino}`;
      const known = this.#heads.get(key);
      if (known && (known.fingerprintBytes >= FINGERPRINT_BYTES || known.fingerprintBytes >= stat.size)) continue;
      const head = headOf(name);
      if (head) this.#keep(key, head);
    }
  }

  /**
   * Judges the compressed rotations made since the last look, and those waiting: `known` gives
   * the heads of the files held and retired now. Returns those holding unread bytes, and whether
   * some are still being written (look again soon).
   */
  look(now: number, known: () => KnownHead[]): { readonly unread: UnreadCompression[]; readonly waiting: boolean } {
    const listed = new Set<string>();
    for (const { name, stat } of compressedSiblings(this.#path)) {
      const key = listedKey(stat);
      listed.add(key);
      if (!this.#listed.has(key)) this.#pending.set(name, key);
    }
    this.#listed = listed;
    const unread: UnreadCompression[] = [];
    let waiting = false;
    let heads: KnownHead[] | undefined;
    for (const [name, key] of this.#pending) {
      const stat = fs.statSync(name, { throwIfNoEntry: false });
      if (!stat?.isFile()) {
        this.#pending.delete(name);
        continue;
      }
      const current = listedKey(stat);
      if (current !== key) {
        // Changing (gzip writing, logrotate setting its mtime): judged once it is still.
        this.#pending.set(name, current);
        waiting = true;
        continue;
      }
      if (!isQuiet(stat, now)) {
        waiting = true;
        continue;
      }
      this.#pending.delete(name);
      const look = lookIntoGzip(name, FINGERPRINT_BYTES);
      if (!look) continue;
      heads ??= [...known(), ...this.#heads.values()];
      const verdict = compressedVerdict(look, heads);
      if (verdict.kind !== 'read' && verdict.bytes > 0) unread.push({ file: name, bytes: verdict.bytes, rest: verdict.kind === 'rest' });
    }
    return { unread, waiting };
  }

  #keep(key: string, head: KnownHead): void {
    this.#heads.delete(key);
    this.#heads.set(key, head);
    if (this.#heads.size > MAX_HEADS) this.#heads.delete(this.#heads.keys().next().value!);
  }
}

/** A compressed file as listed: a rename keeps its key; a new file (even on a reused inode) gets its own text's mtime. */
const listedKey = (stat: fs.Stats): string => `${stat.dev}:${stat.ino}:${stat.mtimeMs}`;

/**
 * Whether a compressed file is whole: still for COMPRESSED_QUIET_MS (gzip writes its size last),
 * or given its text's older mtime, which gzip and logrotate do once it is written (a rename
 * after, as logrotate's of `.1.gz` to `.2.gz`, changes its ctime, not its mtime).
 */
export const isQuiet = (stat: fs.Stats, now: number): boolean => now - Math.min(stat.ctimeMs, stat.mtimeMs) >= COMPRESSED_QUIET_MS;

/** Every compressed rotation beside `path`. */
const compressedSiblings = (path: string): SiblingFile[] => compressedSiblingsSince(path, Number.NEGATIVE_INFINITY);

/**
 * A gzip file's unpacked size (modulo 2^32, as its trailer keeps it) when it unpacks to start as
 * `saved` did: a compression of it; `'other'` when it starts otherwise; undefined where it cannot
 * be looked into (not gzip: bzip2, xz).
 */
export function compressedSizeOf(file: string, saved: Pick<KnownHead, 'fingerprint' | 'fingerprintBytes'>): number | 'other' | undefined {
  const look = lookIntoGzip(file, FINGERPRINT_BYTES);
  if (!look) return undefined;
  if (compressedVerdict(look, [savedHead(saved, Number.POSITIVE_INFINITY)]).kind !== 'read') return 'other';
  // Its size may have wrapped at 4 GiB: its compression, of a size not known.
  return look.sizeKnown ? look.size : undefined;
}

/** A plain file's first bytes as a known head (readTo Infinity: not ours to read, or read otherwise); undefined when unreadable or empty. */
function headOf(name: string): KnownHead | undefined {
  let head: Buffer;
  try {
    head = fileHead(name, FINGERPRINT_BYTES);
  } catch {
    return undefined;
  }
  return head.length > 0 ? { ...fingerprintOfBytes(head, head.length), readTo: Number.POSITIVE_INFINITY } : undefined;
}
