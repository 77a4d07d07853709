/**
 * What tells one file's bytes from another's beside the same inode number: a hash of its first
 * KiB (the fingerprint), and a hash of the KiB just before a read position (the tail), so a
 * new file that starts like the old one (the same banner line) is still told apart.
 */
import fs from 'node:fs';

/** Bytes of a file's start that its fingerprint covers. */
export const FINGERPRINT_BYTES = 1024;
/** Bytes just before a saved position that its tail hash covers. */
export const TAIL_BYTES = 1024;

const scratch = Buffer.allocUnsafe(Math.max(FINGERPRINT_BYTES, TAIL_BYTES));

export interface Fingerprint {
  readonly fingerprint: string;
  readonly fingerprintBytes: number;
}

/** The hash of the file's first `length` bytes (fewer when it is shorter). */
export function fingerprintOf(fd: number, length: number): Fingerprint {
  const read = length > 0 ? readAt(fd, 0, Math.min(length, FINGERPRINT_BYTES)) : 0;
  return { fingerprint: fnv1a64(scratch, 0, read), fingerprintBytes: read };
}

/** The fingerprint of bytes already in hand: the first `length` of `head` (at most FINGERPRINT_BYTES). */
export function fingerprintOfBytes(head: Buffer, length: number): Fingerprint {
  const bytes = Math.min(length, FINGERPRINT_BYTES, head.length);
  return { fingerprint: fnv1a64(head, 0, bytes), fingerprintBytes: bytes };
}

/** The hash of the TAIL_BYTES before `position` (all of them when position is smaller). */
export function tailHashOf(fd: number, position: number): string | undefined {
  const start = Math.max(0, position - TAIL_BYTES);
  const read = position > 0 ? readAt(fd, start, position - start) : 0;
  return read === position - start ? fnv1a64(scratch, 0, read) : undefined;
}

function readAt(fd: number, position: number, length: number): number {
  let total = 0;
  while (total < length) {
    const read = fs.readSync(fd, scratch, total, length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return total;
}

/**
 * FNV-1a, two 32-bit lanes with different offsets, as 16 hex digits. Not a cryptographic hash,
 * and none is needed: it tells one file's bytes from another's beside the same inode. (node:crypto's
 * sha1 did it before, and loading OpenSSL cost the sidecar 2 MB of its 64 MB budget.)
 */
export function fnv1a64(bytes: Buffer, start: number, end: number): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = start; i < end; i++) {
    low = Math.imul(low ^ bytes[i]!, 0x01000193);
    high = Math.imul(high ^ bytes[i]!, 0x01000193) ^ (low >>> 15);
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
