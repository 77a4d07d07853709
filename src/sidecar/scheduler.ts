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

export interface SchedulerOptions {
  readonly followers: readonly FileFollower[];
  readonly streams: readonly StreamSource[];
  readonly writer: EntryWriter;
  /** A follower threw (an unexpected read error): said, and the next wake tries again. */
  readonly onError: (follower: FileFollower, error: unknown) => void;
  /** Called at every wake, before the look (the heartbeat). */
  readonly onWake?: (now: number) => void;
}

export class Scheduler {
  readonly #options: SchedulerOptions;
  #scheduled = false;
  #waitingForRoom = false;
  #stopped = false;
  /** The path the next turn starts at. */
  #next = 0;
  /** Called when a turn found nothing more to read and the writer has room (stop, `--once`). */
  onCaughtUp: (() => void) | undefined;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  /** Something may have changed: a turn soon (at most one pending). */
  wake(): void {
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
    this.#options.onWake?.(now);
    for (const follower of followers) {
      try {
        follower.observe(now);
      } catch (error) {
        onError(follower, error);
      }
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
    else if (more) this.wake();
    else this.onCaughtUp?.();
  }

  #waitForRoom(): void {
    for (const follower of this.#options.followers) follower.noteSeen();
    if (this.#waitingForRoom) return;
    this.#waitingForRoom = true;
    for (const stream of this.#options.streams) stream.pause();
    this.#options.writer.onRoom(() => {
      this.#waitingForRoom = false;
      for (const stream of this.#options.streams) stream.resume();
      this.wake();
    });
  }
}
