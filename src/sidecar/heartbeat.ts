/**
 * `--heartbeat-file`: its mtime is refreshed on the wakes the event loop already has (at most
 * once a second), so a liveness probe that finds it old knows the loop is stuck. A file that
 * cannot be written is said once (and again only after it worked in between).
 *
 * It is made at the first wake whatever the sidecar finds (a startup probe that waits for it
 * must never keep the database from starting: the sidecar is a native sidecar the pod's other
 * containers start after), then not refreshed while a followed file is there, being written,
 * and may not be read (path-warnings.ts): the sidecar would look healthy while that log's lines
 * are lost. A refused file nobody writes any more holds nothing back. The liveness probe
 * fails instead, the kubelet restarts the sidecar alone, and its restarts show the problem the
 * diagnostic names. Said once each time it starts holding back.
 */
import fs from 'node:fs';
import type { Logger } from '../diag/logger.js';
import { errorMessage } from '../follow/error-message.js';

export class Heartbeat {
  readonly #file: string;
  readonly #log: Logger;
  #last = 0;
  #failing = false;
  #holding = false;
  /** The file was made or refreshed once by this process. */
  #made = false;

  constructor(file: string, log: Logger) {
    this.#file = file;
    this.#log = log;
  }

  /** `deniedNow`: the followed paths that may not be read now (none: the beat is given), asked once a second. */
  beat(now: number, deniedNow: () => readonly string[] = () => []): void {
    if (now - this.#last < 1000) return;
    this.#last = now;
    const denied = this.#made ? deniedNow() : [];
    if (denied.length > 0) {
      if (!this.#holding) {
        this.#log.warn(
          { event: 'heartbeat-held', path: this.#file, unreadable: denied },
          `not refreshing the heartbeat file while ${denied.join(', ')} cannot be read: the liveness probe fails and the kubelet restarts the sidecar, so the pod shows it (fix the permission: see the unreadable message)`,
        );
      }
      this.#holding = true;
      return;
    }
    this.#holding = false;
    // A directory's time can be set too, but the probes test for a file (test -f): said, not touched.
    if (!this.#made && fs.statSync(this.#file, { throwIfNoEntry: false })?.isDirectory()) {
      this.#unwritable(new Error(`${this.#file} is a directory: give a file's path in it (${this.#file}/alive)`));
      return;
    }
    try {
      fs.utimesSync(this.#file, now / 1000, now / 1000);
      this.#failing = false;
      this.#made = true;
    } catch {
      try {
        fs.writeFileSync(this.#file, '');
        this.#failing = false;
        this.#made = true;
      } catch (error) {
        this.#unwritable(error);
      }
    }
  }

  /** Said once (and again only after it worked in between). */
  #unwritable(error: unknown): void {
    if (!this.#failing) {
      this.#log.warn(
        { event: 'heartbeat-unwritable', path: this.#file, error: errorMessage(error) },
        'cannot touch the heartbeat file: a liveness probe reading it will fail; point --heartbeat-file at a writable place (said once)',
      );
    }
    this.#failing = true;
  }
}
