/**
 * A logger stand-in: appends numbered lines through a descriptor it keeps open (O_APPEND), so
 * a rename or unlink does not stop it writing to the old file until it is told to reopen, as
 * mongod and the agents behave between a rotation and their reopen.
 */
import fs from 'node:fs';

export class NumberedWriter {
  readonly path: string;
  readonly tag: string;
  readonly #padding: string;
  #fd: number;
  #next = 1;
  #lastWrite = 0;
  /**
   * The longest pause between two writes, in ms: on a loaded machine the writer itself may
   * stall, and a stall longer than the follower's --rotate-wait while it writes to a renamed
   * file puts its next lines where, by contract, nobody reads them.
   */
  longestPauseMs = 0;

  constructor(path: string, tag: string, lineBytes = 60) {
    this.path = path;
    this.tag = tag;
    this.#padding = 'x'.repeat(Math.max(0, lineBytes - tag.length - 12));
    this.#fd = fs.openSync(path, 'a');
  }

  /** Lines written so far. */
  get written(): number {
    return this.#next - 1;
  }

  line(n: number): string {
    return `${this.tag}-${String(n).padStart(8, '0')} ${this.#padding}`;
  }

  write(count = 1): void {
    let text = '';
    for (let i = 0; i < count; i++) text += this.line(this.#next++) + '\n';
    const now = Date.now();
    if (this.#lastWrite > 0) this.longestPauseMs = Math.max(this.longestPauseMs, now - this.#lastWrite);
    this.#lastWrite = now;
    fs.writeSync(this.#fd, text);
  }

  /**
   * Close (if open) and open the path again (creating it), as a logger does on SIGUSR1. A
   * writer closed before is not closed twice: its descriptor's number may be another's by now
   * (a test's pipe), which a second close would take from it.
   */
  reopen(): void {
    this.close();
    this.#fd = fs.openSync(this.path, 'a');
  }

  close(): void {
    if (this.#fd < 0) return;
    fs.closeSync(this.#fd);
    this.#fd = -1;
  }

  /** Writes `perTick` lines every `tickMs` until `ms` have passed, running `during` alongside. */
  async writeFor(ms: number, perTick: number, tickMs = 5): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      this.write(perTick);
      await sleep(tickMs);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
