/**
 * What a follower reports: it logs nothing itself (Vector's internal events); the sidecar turns
 * these into diagnostics at the edge (src/sidecar/event-log.ts).
 */
export type FollowEvent =
  | { readonly kind: 'waiting'; readonly path: string }
  /** Still not there `forMs` after the first look (repeated rarely). */
  | { readonly kind: 'missing'; readonly path: string; readonly forMs: number }
  /** `replaced`: the file at the name was replaced by one holding the bytes read (an editor's save, `sed -i`), read on from there. */
  | { readonly kind: 'opened'; readonly path: string; readonly position: number; readonly replaced?: true }
  /** A file the state file knows, found again (`how`: itself, or the copy holding its bytes). */
  | { readonly kind: 'resumed'; readonly path: string; readonly file: string; readonly position: number; readonly how: 'same-file' | 'copy' }
  /** A file the state file knows is not there any more: its lines after `position` cannot be delivered. */
  /** `compressed`: compressed rotations beside the path changed since the save (where its lines may be). */
  /** `inPlace`: the file at the path is the saved one (its inode), truncated or rewritten while down: its size now. */
  /** `readToEnd`: a rotated file saved as read to its end: every line it held at that save had been delivered. */
  | {
      readonly kind: 'resume-lost';
      readonly path: string;
      readonly position: number;
      readonly compressed?: readonly string[];
      /** The bytes past `position` in the compression of it found (gzip), never delivered. */
      readonly unreadBytes?: number;
      readonly inPlace?: { readonly size: number };
      readonly readToEnd?: boolean;
    }
  /** A rotated or deleted file closed with its last line unfinished (`bytes`, no newline), which left as a whole line. */
  | { readonly kind: 'unterminated'; readonly path: string; readonly file: string; readonly bytes: number }
  /** A file read before the restart, compressed while down (`file`), holding nothing past `position`, which was delivered: nothing lost. */
  | { readonly kind: 'compressed-read'; readonly path: string; readonly file: string; readonly position: number }
  /** A rotated file made while nobody looked (down, or a stalled reader): read from its start. */
  | { readonly kind: 'unseen'; readonly path: string; readonly file: string }
  | { readonly kind: 'rotated'; readonly path: string }
  | { readonly kind: 'deleted'; readonly path: string }
  /**
   * The file was truncated; read again from 0, after the rest of its copy (copytruncate) from
   * `position`. `lostBytes`: bytes seen but not read that no copy holds. `file`: not the file at
   * the name but one rotated beside it, rewritten in place (a copy made over it): let go at
   * `position`, and the file there now taken as found (a copy of lines read, or new ones).
   */
  | { readonly kind: 'truncated'; readonly path: string; readonly position: number; readonly copy?: string; readonly lostBytes?: number; readonly file?: string }
  | { readonly kind: 'drained'; readonly path: string; readonly file: string; readonly position: number }
  /** Too many rotated files held at once (a long stall): the oldest is closed with `bytes` unread. */
  | { readonly kind: 'gave-up'; readonly path: string; readonly file: string; readonly bytes: number }
  /** Permission denied: who the file belongs to, and its mode (undefined when even stat is denied). */
  | {
      readonly kind: 'unreadable';
      readonly path: string;
      readonly message: string;
      readonly fileUid?: number | undefined;
      readonly fileGid?: number | undefined;
      readonly fileMode?: number | undefined;
      /** When the file's own stat is denied: the first directory on its way that cannot be searched. */
      readonly directory?: { readonly path: string; readonly uid: number; readonly gid: number; readonly mode: number } | undefined;
    }
  /** A file at the path (`file`: it, or one rotated beside it) holds compressed data (`name`; `command` writes it out): not read. */
  | { readonly kind: 'compressed'; readonly path: string; readonly file: string; readonly name: string; readonly command: string }
  /**
   * A compressed rotation beside the path that holds `bytes` never read: no file read, held or
   * known before it was compressed (`rest`: the bytes past what was read of a file known: written
   * after it was read to its end and closed, or cut by a copytruncate before they were read).
   */
  | { readonly kind: 'compressed-unread'; readonly path: string; readonly file: string; readonly bytes: number; readonly rest?: true }
  /** A run of NUL bytes at a line's start in `file` (a hole: HeldFile.read) was passed over: where it starts, how long it is. */
  | { readonly kind: 'hole'; readonly path: string; readonly file: string; readonly offset: number; readonly bytes: number }
  | { readonly kind: 'error'; readonly path: string; readonly message: string };
