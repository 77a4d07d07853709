/**
 * Who reads when. Every wake, every followed path is looked at (a stat): renames, new files and
 * truncations are noticed whether or not the output has room. Then, while the writer has room,
 * paths take turns reading, each up to a budget a turn; a turn that fills the writer ends, and
 * the next begins after the path it ended at, so a backlog in one file never starves the others:
 * a line of a quiet file waits behind at most the writer's high-water mark and one budget per
 * path. While the writer is full, nothing is read, streams are paused, and each path notes what
 * it saw (to tell a truncation later); reading resumes when the writer has room.
 */
import type { EntryWriter } from '../output/entry-writer.js';
import type { FileFollower } from '../follow/file-follower.js';
import type { StreamSource } from '../follow/stream-source.js';

/** Bytes one path may be read for in one turn. */
export const TURN_BUDGET_BYTES = 64 * 1024;
/**
 * While turns follow each other without a wake (catching up), the names are looked at this
 * often; a wake (inotify, the poll, a stop) always looks. Before each read the held file itself
 * is checked for truncation, so reading between looks never reads a truncated file's new bytes
 * as the old ones.
 */
const LOOK_EVERY_MS = 100;

export interface SchedulerOptions {
  readonly followers: readonly FileFollower[];
  readonly streams: readonly StreamSource[];
  readonly writer: EntryWriter;
  /** A follower threw (an unexpected read error): said, and the next wake tries again. */
  readonly onError: (follower: FileFollower, error: unknown) => void;
  /** Called at every wake, after the look (the heartbeat: what the look found may hold it back). */
  readonly onWake?: (now: number) => void;
}

export class Scheduler {
  readonly #options: SchedulerOptions;
  #scheduled = false;
  /** A wake asked for a look at the names. */
  #lookWanted = true;
  #lastLook = 0;
  #waitingForRoom = false;
  #stopped = false;
  /** The path the next turn starts at. */
  #next = 0;
  /** Called when a turn found nothing more to read and the writer has room (stop, `--once`). */
  onCaughtUp: (() => void) | undefined;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  /** Something may have changed: a turn soon (at most one pending) that looks at every name. */
  wake(): void {
    this.#lookWanted = true;
    this.#nextTurn();
  }

  #nextTurn(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => this.#turn());
  }

  /** No more turns (shutdown). */
  stop(): void {
    this.#stopped = true;
  }

  #turn(): void {
    this.#scheduled = false;
    if (this.#stopped) return;
    const { followers, writer, onError } = this.#options;
    const now = Date.now();
    if (this.#lookWanted || now - this.#lastLook >= LOOK_EVERY_MS) {
      this.#lookWanted = false;
      this.#lastLook = now;
      for (const follower of followers) {
        try {
          follower.observe(now);
        } catch (error) {
          onError(follower, error);
        }
      }
      this.#options.onWake?.(now);
    }
    if (writer.closed) return;
    if (writer.full) {
      this.#waitForRoom();
      return;
    }
    let more = false;
    const count = followers.length;
    for (let i = 0; i < count; i++) {
      const index = (this.#next + i) % count;
      const follower = followers[index]!;
      try {
        more = follower.read(now, TURN_BUDGET_BYTES) || more;
      } catch (error) {
        onError(follower, error);
      }
      if (writer.full) {
        this.#next = (index + 1) % count;
        more = true;
        break;
      }
    }
    writer.flush();
    if (writer.full) this.#waitForRoom();
    else if (more) this.#nextTurn();
    else this.onCaughtUp?.();
  }

  #waitForRoom(): void {
    // What fills the writer may not be a turn's reads, which end in a flush: a stream's chunk
    // (stdin, a FIFO) is written as it comes, and one read of it can hold more than the
    // high-water mark. Unflushed, no write would be out, and no room would ever come.
    this.#options.writer.flush();
    const now = Date.now();
    for (const follower of this.#options.followers) {
      try {
        follower.noteSeen(now);
      } catch (error) {
        this.#options.onError(follower, error);
      }
    }
    if (this.#waitingForRoom) return;
    this.#waitingForRoom = true;
    for (const stream of this.#options.streams) stream.pause();
    this.#options.writer.onRoom(() => {
      this.#waitingForRoom = false;
      for (const stream of this.#options.streams) stream.resume();
      this.#nextTurn();
    });
  }
}
