/**
 * `--heartbeat-file`: its mtime is refreshed on the wakes the event loop already has (at most
 * once a second), so a liveness probe that finds it old knows the loop is stuck. A file that
 * cannot be written is said once (and again only after it worked in between).
 */
import fs from 'node:fs';
import type { Logger } from '../diag/logger.js';
import { errorMessage } from '../follow/error-message.js';

export class Heartbeat {
  readonly #file: string;
  readonly #log: Logger;
  #last = 0;
  #failing = false;

  constructor(file: string, log: Logger) {
    this.#file = file;
    this.#log = log;
  }

  beat(now: number): void {
    if (now - this.#last < 1000) return;
    this.#last = now;
    try {
      fs.utimesSync(this.#file, now / 1000, now / 1000);
      this.#failing = false;
    } catch {
      try {
        fs.writeFileSync(this.#file, '');
        this.#failing = false;
      } catch (error) {
        if (!this.#failing) {
          this.#log.warn(
            { event: 'heartbeat-unwritable', path: this.#file, error: errorMessage(error) },
            'cannot touch the heartbeat file: a liveness probe reading it will fail; point --heartbeat-file at a writable place (said once)',
          );
        }
        this.#failing = true;
      }
    }
  }
}
