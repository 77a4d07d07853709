/**
 * The compressed rotations beside one followed path, each judged once (compressed-rotation.ts):
 * a compression of a file read, held or known is no news; any other holds lines nobody read.
 * Keeps what a compression could start with for the files beside the path that are not held
 * nor retired (those the follower asks of FilesBehind): files there before the first look (not
 * ours to read), files cut by a truncation, saved files lost at a restart, retired files forgotten.
 */
import fs from 'node:fs';
import { compressedVerdict, lookIntoGzip, type KnownHead } from './compressed-rotation.js';
import { FINGERPRINT_BYTES, fingerprintOf } from './fingerprint.js';
import { compressedSiblingsSince, type SiblingFile } from './rotated-siblings.js';

/** Known heads kept, the newest: a pod keeps a handful of rotations. */
const MAX_HEADS = 64;
/** Compressed files judged, remembered so none is judged twice. */
const MAX_JUDGED = 256;
/** A compressed file is judged once its ctime is this old: gzip writes its trailer last (and logrotate then sets its mtime, which is the text's). */
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
  /** Compressed files seen and not judged yet (written still): name, and the key judged. */
  readonly #pending = new Map<string, string>();
  readonly #judged = new Set<string>();

  constructor(path: string) {
    this.#path = path;
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
   * Judges the compressed rotations changed since `sinceMs`, and those waiting: `known` gives the
   * heads of the files held and retired now. Returns those holding unread bytes, and whether some
   * are still being written (look again soon).
   */
  look(now: number, sinceMs: number, known: () => KnownHead[]): { readonly unread: UnreadCompression[]; readonly waiting: boolean } {
    for (const { name, stat } of compressedSiblingsSince(this.#path, sinceMs)) {
      const key = judgedKey(stat);
      if (!this.#judged.has(key)) this.#pending.set(name, key);
    }
    const unread: UnreadCompression[] = [];
    let waiting = false;
    let heads: KnownHead[] | undefined;
    for (const [name, key] of this.#pending) {
      const stat = fs.statSync(name, { throwIfNoEntry: false });
      if (!stat?.isFile() || judgedKey(stat) !== key) {
        // Gone, or changed: listed again as what it is now.
        this.#pending.delete(name);
        if (stat?.isFile()) waiting = true;
        continue;
      }
      if (now - stat.ctimeMs < COMPRESSED_QUIET_MS) {
        waiting = true;
        continue;
      }
      this.#pending.delete(name);
      this.#judged.add(key);
      if (this.#judged.size > MAX_JUDGED) this.#judged.delete(this.#judged.values().next().value!);
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

/** A compressed file as judged: another mtime is another file (or the same written again). */
const judgedKey = (stat: fs.Stats): string => `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.size}`;

/** A plain file's first bytes as a known head (readTo Infinity: not ours to read, or read otherwise); undefined when unreadable or empty. */
function headOf(name: string): KnownHead | undefined {
  let fd: number;
  try {
    fd = fs.openSync(name, 'r');
  } catch {
    return undefined;
  }
  try {
    const print = fingerprintOf(fd, FINGERPRINT_BYTES);
    return print.fingerprintBytes > 0 ? { ...print, readTo: Number.POSITIVE_INFINITY } : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
