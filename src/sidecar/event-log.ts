/**
 * The followers' events as diagnostics: the one place where what happened becomes a line on
 * stderr (the followers log nothing themselves), with the fix named where there is one.
 */
import type { Logger } from '../diag/logger.js';
import type { FileSource } from '../config/sidecar-config.js';
import type { FollowEvent } from '../follow/follow-events.js';
import { danglingFields, danglingLink, danglingWords } from '../follow/path-state.js';
import type { SourceStats } from './source-stats.js';
import { octalMode, unreadableFix } from './unreadable-fix.js';


export interface EventContext {
  readonly log: Logger;
  readonly source: FileSource;
  readonly stats: SourceStats;
  /** `--once`: a missing file is said once at the end, not as "waiting". */
  readonly once: boolean;
  /**
   * The run before this one was killed (previous-run-killed): what the state says was delivered
   * is its last save, and it may have delivered more after it.
   */
  readonly afterKill?: boolean | undefined;
  /**
   * Directories a follower could not search, said (by path, when): the other logs in one are
   * not said again within a minute (one `chmod 700` on the log directory is one warning, not
   * one a followed file).
   */
  readonly unsearchable?: Map<string, number>;
}

/** How long one directory that may not be searched is said for every log in it. */
const UNSEARCHABLE_SAID_MS = 60_000;


export function logFollowEvent(event: FollowEvent, { log, source, stats, once, afterKill, unsearchable }: EventContext): void {
  const fields = { event: event.kind, source: source.logType, path: event.path };
  switch (event.kind) {
    case 'waiting':
      if (!once) log.info(fields, 'file not there yet; waiting for it');
      return;
    case 'missing': {
      const dangling = danglingLink(event.path);
      log.warn(
        { ...fields, ...(source.origin === 'flag' ? { flag: `--file ${source.logType}` } : { variable: source.variable }), minutes: Math.round(event.forMs / 60_000), ...danglingFields(event.path, dangling) },
        `${event.path} is still not there after ${event.forMs < 90_000 ? `${Math.round(event.forMs / 1000)} seconds` : `${Math.round(event.forMs / 60_000)} minutes`}${dangling !== undefined ? ` (it is ${danglingWords(event.path, dangling)})` : ''}: ${missingFix(source)} (said again in an hour while it is missing)`,
      );
      return;
    }
    case 'opened':
      if (event.replaced) {
        log.info(
          { ...fields, position: event.position, replaced: true },
          "the file at the name was replaced by one that holds the bytes read (an editor's save, sed -i, a copy renamed over it): read on from there, nothing sent again",
        );
      } else log.info({ ...fields, position: event.position }, 'following file');
      return;
    case 'resumed':
      log.info(
        { ...fields, file: event.file, position: event.position, how: event.how },
        event.how === 'copy' ? "resuming in the copy that holds the file's bytes (copytruncate while stopped)" : 'resuming where the last run stopped',
      );
      return;
    case 'unterminated':
      log.warn(
        { ...fields, event: 'unterminated-line', file: event.file, bytes: event.bytes },
        `${event.file}, rotated away, ended without a newline when it was closed after --rotate-wait: its last ${event.bytes} bytes left as a whole line, which may be cut (its writer was in the middle of it; the rest, if it writes it, is lost to the stream)`,
      );
      return;
    case 'compressed-read':
      log.info(
        { ...fields, file: event.file, position: event.position },
        `the file read before the restart was compressed while the sidecar was down (${event.file}), and holds nothing past the ${event.position} bytes of it delivered: nothing lost`,
      );
      return;
    case 'resume-lost': {
      const compressed = event.compressed ?? [];
      const unread = event.unreadBytes;
      const where =
        unread !== undefined
          ? `; they are the last ${unread} bytes of ${compressed[0]}, its compression, made while the sidecar was down (never read: logtype --as ${source.logType} ${compressed[0]} reads it; logrotate's delaycompress keeps the newest rotation plain, so a restart reads it)`
          : compressed.length > 0
            ? `; they may be in ${compressed.join(', ')}, rotated and compressed while the sidecar was down (never read: logtype --as ${source.logType} ${compressed[0]} reads it; logrotate's delaycompress keeps the newest rotation plain, so a restart reads it)`
            : '';
      if (event.inPlace) {
        log.warn(
          { ...fields, position: event.position, size: event.inPlace.size, inPlace: true },
          `the file at the name is the one read before the restart (its inode), but it was truncated or rewritten while the sidecar was down (${event.inPlace.size} bytes now, ${event.position} of it delivered before): it is read again from its start, so lines it still holds from before repeat; lines written past ${event.position} before the truncation cannot be delivered`,
        );
        return;
      }
      // After a kill the saved position is the last save's: the killed run may have delivered past it.
      // A rotated file read to its end at the save was still within --rotate-wait (else it would
      // have been closed): its writer may have added lines after the save, or none.
      const readToEnd = event.readToEnd === true;
      const delivered = afterKill
        ? `${event.position} bytes of it delivered by the last save; the last run was killed, and may have delivered some or all of the rest before it died`
        : readToEnd
          ? `${event.position} bytes, every line it held when the last run stopped delivered; its writer may have added lines after that`
          : `${event.position} bytes of it delivered`;
      const maybe = afterKill || readToEnd;
      log.warn(
        { ...fields, position: event.position, ...(compressed.length > 0 ? { compressed } : {}), ...(unread !== undefined ? { unreadBytes: unread } : {}), ...(afterKill ? { afterKill: true } : {}), ...(readToEnd ? { readToEnd: true } : {}) },
        `a file read before the restart (${delivered}) is not found (deleted, compressed, cut by a copytruncate, or another file has its name and inode now): lines only it held past that ${maybe ? 'may not have been' : 'cannot be'} delivered${where}; a file at the name that is not it is read from its start`,
      );
      return;
    }
    case 'unseen':
      stats.rotations++;
      log.info({ ...fields, file: event.file }, 'a rotated file nobody read yet; reading it from its start');
      return;
    case 'rotated':
    case 'deleted':
      if (event.kind === 'rotated') stats.rotations++;
      else stats.deletions++;
      log.info(fields, event.kind === 'rotated' ? 'file rotated; draining the old one' : 'file deleted; draining it');
      return;
    case 'truncated':
      stats.truncations++;
      if (event.lostBytes) stats.givenUpBytes += event.lostBytes;
      log.warn(
        { ...fields, position: event.position, ...(event.file ? { file: event.file } : {}), ...(event.copy ? { copy: event.copy } : {}), ...(event.lostBytes ? { lostBytes: event.lostBytes } : {}) },
        event.file
          ? event.lostBytes
            ? `rotated file rewritten in place (a copy made over it?) with ${event.lostBytes} bytes not read yet; what it holds now is read unless it copies lines already delivered`
            : 'rotated file rewritten in place (a copy made over it?); what it holds now is read unless it copies lines already delivered'
          : event.copy
          ? 'file truncated (copytruncate); reading the rest from its copy, then the file from its start'
          : event.lostBytes
            ? `file truncated and no copy beside it holds the ${event.lostBytes} bytes not read yet (they are lost to the stream; where logrotate's olddir puts the copy in another directory, they are in its newest copy there: logtype-sidecar --once --from-start --state-file '' --file ${source.logType}=COPY sends it); reading it from its start`
            : 'file truncated; reading it from its start',
      );
      return;
    case 'drained':
      log.info({ ...fields, file: event.file, position: event.position }, 'rotated file read to its end and closed');
      return;
    case 'gave-up':
      stats.givenUpBytes += event.bytes;
      log.warn(
        { ...fields, file: event.file, bytes: event.bytes },
        `a rotated file with no name left (deleted) was closed, or was deleted before its turn, with ${event.bytes} bytes unread: files were rotated faster than they were read (a stalled reader, or too little CPU for the sidecar)`,
      );
      return;
    case 'unreadable': {
      if (event.directory && unsearchable) {
        const now = Date.now();
        const said = unsearchable.get(event.directory.path);
        if (said !== undefined && now - said < UNSEARCHABLE_SAID_MS) return;
        unsearchable.set(event.directory.path, now);
      }
      const uid = process.getuid?.();
      const gid = process.getgid?.();
      const file = event.fileUid === undefined ? undefined : { uid: event.fileUid, gid: event.fileGid ?? -1, mode: event.fileMode ?? 0 };
      log.warn(
        {
          ...fields,
          uid,
          gid,
          ...(file ? { fileUid: file.uid, fileGid: file.gid, fileMode: octalMode(file.mode) } : {}),
          ...(event.directory ? { directory: event.directory.path, directoryUid: event.directory.uid, directoryMode: octalMode(event.directory.mode) } : {}),
          error: event.message,
        },
        `cannot read ${event.path}: permission denied for uid ${uid} (gid ${gid}); ${unreadableFix({ path: event.path, uid, gid, groups: process.getgroups?.() ?? [], file, directory: event.directory })}`,
      );
      return;
    }
    case 'hole':
      log.warn(
        { ...fields, file: event.file, offset: event.offset, bytes: event.bytes },
        `passed over ${event.bytes} NUL bytes at offset ${event.offset} of ${event.file}, where a line starts: a hole in the file, no line of the log (after a copytruncate, a writer that does not open the log with O_APPEND writes on at its old offset and leaves zeros before it; or space preallocated). The lines around it are sent as they are; give the writer O_APPEND, or rotate by renaming (create, not copytruncate)`,
      );
      return;
    case 'compressed': {
      // logtype reads gzip itself; the others through their own tool.
      const read = event.name === 'gzip' ? `logtype --as ${source.logType} ${event.file}` : `${event.command} ${event.file} | logtype --as ${source.logType}`;
      const where = event.file === event.path ? '' : ` (rotated beside ${event.path})`;
      log.warn(
        { ...fields, file: event.file, compression: event.name },
        `${event.file}${where} holds ${event.name}-compressed data, not the text log the sidecar follows: not read (its bytes would leave as lines of garbage). ${pathFix(source)}; a compressed copy is read with: ${read}`,
      );
      return;
    }
    case 'compressed-unread':
      stats.givenUpBytes += event.bytes;
      log.warn(
        { ...fields, file: event.file, bytes: event.bytes, ...(event.rest ? { rest: true } : {}) },
        event.rest
          ? `${event.file} holds ${event.bytes} bytes more than the sidecar read of the file it was made from (written after it was read to its end and closed, or cut by a copytruncate before they were read): compressed before they were read, they are lost to the stream. They are its last ${event.bytes} bytes: logtype --as ${source.logType} ${event.file} reads them`
          : `${event.file} is a rotation nobody read: made and compressed while the sidecar could not look (stopped, frozen, or behind a stalled reader), its ${event.bytes} bytes of lines are lost to the stream. Read them with logtype --as ${source.logType} ${event.file}; logrotate's delaycompress keeps the newest rotation plain, so the sidecar reads it`,
      );
      return;
    case 'error':
      log.warn({ ...fields, error: event.message }, 'cannot read file; retrying');
      return;
  }
}

/** Where to point a type's path at its log, by what chose it. */
function pathFix(source: FileSource): string {
  const type = source.logType;
  if (source.origin === 'flag') return `Point --file ${type}=PATH at the ${type} log`;
  if (source.origin === 'variable') return `Point ${source.variable}, which names it, at the ${type} log`;
  return `Set ${source.variable} (or --file ${type}=PATH, or --log-dir) to where the ${type} log is written`;
}

/** What to change when a type's file never appears, by what chose its path. */
function missingFix(source: FileSource): string {
  const type = source.logType;
  const never = 'if this pod never writes it (auditing off, no backup agent), this is harmless; --missing-warning 0 silences it';
  if (source.origin === 'flag') return `check --file ${type}=PATH; ${never}`;
  if (source.origin === 'variable') return `check ${source.variable}, which names it; ${never}`;
  return `if the ${type} log is written elsewhere, set ${source.variable} (or --file ${type}=PATH, or --log-dir); ${never}`;
}
