/**
 * Which compressed rotation beside a followed path holds lines nobody read: logrotate's
 * `compress` without `delaycompress` renames the file and compresses it at once, so a file
 * made and rotated while the sidecar could not look (frozen, down, a stall past what it holds)
 * is never there as text to read. A gzip file's first bytes and the size its trailer gives tell
 * which file it was: one whose first bytes we know, read (or held, to be read) to at least its
 * size, or another.
 *
 * Only gzip (logrotate's default) is looked into: bzip2, xz and zstd need their own tools, and
 * are not judged. A file whose first KiB equals another's (a banner longer than that), and that
 * is no larger, is taken for it: a missed warning, never a false one.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type zlibModule from 'node:zlib';
import { fnv1a64 } from './fingerprint.js';

/** zlib loaded when a compressed file is first looked into: most sidecars never do, and it costs memory loaded. */
let zlib: typeof zlibModule | undefined;
const loadZlib = (): typeof zlibModule => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof zlibModule);

/** What a gzip file holds as far as a look can tell: its first bytes unpacked, and its size unpacked. */
export interface GzipLook {
  readonly head: Buffer;
  /** The trailer's ISIZE: the unpacked size modulo 2^32 (one member, as gzip writes). */
  readonly size: number;
  /** Whether `size` is the size: false when the file is large enough to unpack past 4 GiB (deflate packs at most 1032:1), and the size may have wrapped. */
  readonly sizeKnown: boolean;
}

/** A file whose compression is no news: the hash of its first bytes, and how far its lines were read. */
export interface KnownHead {
  readonly fingerprint: string;
  readonly fingerprintBytes: number;
  /** Bytes of it read; Infinity where the rest is read through a descriptor held, or its loss said otherwise. */
  readonly readTo: number;
}

/** What a saved file (or a file retired, as saved) would start a compression of it with, read to `readTo`. */
export const savedHead = (saved: Pick<KnownHead, 'fingerprint' | 'fingerprintBytes'>, readTo: number): KnownHead => ({
  fingerprint: saved.fingerprint,
  fingerprintBytes: saved.fingerprintBytes,
  readTo,
});

export type CompressedVerdict =
  /** A compression of a file read (or held): nothing new. */
  | { readonly kind: 'read' }
  /** No file we know: every byte it holds was never read. */
  | { readonly kind: 'unread'; readonly bytes: number }
  /** A file read, and closed, that was written past where it was read before it was compressed. */
  | { readonly kind: 'rest'; readonly bytes: number };

const GZIP_MAGIC = 0x8b1f;
/** The smallest gzip file: a 10-byte header, an empty deflate block, an 8-byte trailer. */
const MIN_GZIP_BYTES = 20;
/** Compressed bytes first read to unpack a head: deflate gives a KiB of log text from far fewer. Doubled while short. */
const FIRST_READ_BYTES = 1024;
const MAX_READ_BYTES = 64 * 1024;
const UINT32 = 2 ** 32;
/** deflate's largest ratio: 1032 bytes out for one in. */
const MAX_DEFLATE_RATIO = 1032;

/** Decides, from a look into a compressed rotation, whether it is a file we know. Pure: a table of cases in its test. */
export function compressedVerdict(look: GzipLook, known: readonly KnownHead[]): CompressedVerdict {
  let rest = Number.POSITIVE_INFINITY;
  for (const file of known) {
    const length = file.fingerprintBytes;
    // An empty file tells nothing; a head shorter than what was hashed is no compression of it.
    if (length === 0 || look.head.length < length || fnv1a64(look.head, 0, length) !== file.fingerprint) continue;
    // The trailer's size wraps at 4 GiB: past that, how much was read cannot be compared.
    if (file.readTo >= UINT32 || !look.sizeKnown || look.size <= file.readTo) return { kind: 'read' };
    rest = Math.min(rest, look.size - file.readTo);
  }
  return Number.isFinite(rest) ? { kind: 'rest', bytes: rest } : { kind: 'unread', bytes: look.size };
}

/**
 * The first `headBytes` unpacked bytes of a gzip file and its unpacked size; undefined for a file
 * that is not gzip, cannot be read, or whose start does not unpack. Reads a few KiB, never the
 * whole file: what deflate gives before the input runs out is taken (a sync flush).
 */
export function lookIntoGzip(file: string, headBytes: number): GzipLook | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fs.fstatSync(fd);
    if (size < MIN_GZIP_BYTES) return undefined;
    const trailer = Buffer.alloc(4);
    if (fs.readSync(fd, trailer, 0, 4, size - 4) !== 4) return undefined;
    for (let length = Math.min(FIRST_READ_BYTES, size); ; length = Math.min(length * 2, size)) {
      const start = Buffer.alloc(length);
      const read = fs.readSync(fd, start, 0, length, 0);
      if (start.readUInt16LE(0) !== GZIP_MAGIC) return undefined;
      const head = unpackedStart(start.subarray(0, read));
      if (head === undefined) return undefined;
      if (head.length >= headBytes || length >= size || length >= MAX_READ_BYTES) return { head: head.subarray(0, headBytes), size: trailer.readUInt32LE(0), sizeKnown: size * MAX_DEFLATE_RATIO < UINT32 };
    }
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** What deflate gives from the start of a gzip stream (all of it, when it is whole); undefined when it does not unpack. */
function unpackedStart(bytes: Buffer): Buffer | undefined {
  try {
    const { gunzipSync, constants } = loadZlib();
    return gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}
