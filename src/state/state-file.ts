/**
 * Where each followed file was read up to, kept across restarts on the log volume (which
 * outlives the container). Written atomically: a temp file, then a rename. A state file that
 * cannot be read or parsed is a fresh start, never a crash.
 */
import fs from 'node:fs';

/** One file behind a followed path: its identity and how far its lines were delivered. */
export interface SavedFile {
  readonly dev: number;
  readonly ino: number;
  /** Bytes delivered: the end of the last whole line handed to the output. */
  readonly position: number;
  /** A hash of the file's first `fingerprintBytes` bytes: tells a reused inode from the old file. */
  readonly fingerprint: string;
  readonly fingerprintBytes: number;
}

export interface SidecarState {
  readonly version: 1;
  /** By followed path: the files behind it, rotated ones still draining first, current last. */
  readonly files: Readonly<Record<string, readonly SavedFile[]>>;
}

export const FINGERPRINT_BYTES = 1024;

export function fingerprintOf(fd: number, length: number): { fingerprint: string; fingerprintBytes: number } {
  const buffer = Buffer.alloc(length);
  const read = length > 0 ? fs.readSync(fd, buffer, 0, length, 0) : 0;
  return { fingerprint: fnv1a64(buffer, read), fingerprintBytes: read };
}

/**
 * FNV-1a, two 32-bit lanes with different offsets, as 16 hex digits. Not a cryptographic hash,
 * and none is needed: it tells one file's first KiB from another's beside the same device and
 * inode. (node:crypto's sha1 did it before, and loading OpenSSL cost the sidecar 2 MB of its
 * 64 MB budget.)
 */
export function fnv1a64(bytes: Buffer, length: number): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < length; i++) {
    low = Math.imul(low ^ bytes[i]!, 0x01000193);
    high = Math.imul(high ^ bytes[i]!, 0x01000193) ^ (low >>> 15);
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}

export type LoadedState = { readonly kind: 'none' } | { readonly kind: 'loaded'; readonly state: SidecarState } | { readonly kind: 'unreadable'; readonly reason: string };

export function loadState(path: string): LoadedState {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'none' } : { kind: 'unreadable', reason: (error as Error).message };
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (!isState(value)) return { kind: 'unreadable', reason: 'not a logtype-sidecar state file' };
    return { kind: 'loaded', state: value };
  } catch (error) {
    return { kind: 'unreadable', reason: (error as Error).message };
  }
}

export function saveState(path: string, state: SidecarState): void {
  const temp = `${path}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(state));
  fs.renameSync(temp, path);
}

function isState(value: unknown): value is SidecarState {
  if (typeof value !== 'object' || value === null) return false;
  const { version, files } = value as Record<string, unknown>;
  if (version !== 1 || typeof files !== 'object' || files === null) return false;
  return Object.values(files).every(
    (list) =>
      Array.isArray(list) &&
      list.every(
        (f: Record<string, unknown>) =>
          typeof f === 'object' &&
          f !== null &&
          ['dev', 'ino', 'position', 'fingerprintBytes'].every((k) => Number.isSafeInteger(f[k]) && (f[k] as number) >= 0) &&
          typeof f['fingerprint'] === 'string',
      ),
  );
}
