/**
 * A server killed (the OOM killer, a SIGKILL after the grace period, a lost node) or crashed
 * says nothing as it goes: its next start is the evidence. Two signs, one event: a start after
 * lines of the same server with no shutdown logged since them, and WiredTiger's `Detected
 * unclean shutdown` at a start (its lock file was not emptied). Both at one start are one
 * event; either alone is one (a log that begins at the start has only the second; a storage
 * engine that keeps no lock file, only the first).
 *
 * Only a server's own lines in the order it wrote them, by source (a pod, or an input file):
 * summary's words for starts and shutdowns (server-shutdowns.ts) decide.
 */
import { START_PREAMBLE_MS, isShutdownMessage, isStartMessage } from '../summary/server-shutdowns.js';

/** Servers followed at the most: a stream can name any number of pods. */
const MAX_SERVERS = 1024;

/** Words one of those lines holds: any other line is read for none of them. */
const MAY_START_OR_STOP = /starting|RESTARTED|signal|hut|dbexit|erminat/;

interface ServerRun {
  /** Lines came since its last start or shutdown: it was running, and no shutdown was logged. */
  running: boolean;
  /**
   * When that run began (its start, or its first line; NaN: no time): lines less than
   * START_PREAMBLE_MS before a start are its preamble (4.4+ writes a few), not a run.
   */
  since: number;
  /** The line before was a start line (3.x writes two for one start). */
  inStart: boolean;
  /** A crash was counted at this start: its unclean-shutdown line is the same event. */
  crashCounted: boolean;
}

export class UnloggedStops {
  readonly #servers = new Map<string, ServerRun>();
  readonly #unclean: RegExp;

  /** `unclean`: the line a start writes after an unclean shutdown (the known problem's `matches`). */
  constructor(unclean: RegExp) {
    this.#unclean = unclean;
  }

  /**
   * One line of a server's log, as it came: true when it shows a crash not counted yet (a start
   * after an unlogged stop, or an unclean-shutdown line whose start did not). `messageOf` is
   * asked only for a line that may be a start or a shutdown.
   */
  line(source: string, text: string, messageOf: () => string | undefined, timeOf: () => number | undefined): boolean {
    let run = this.#servers.get(source);
    if (!run) {
      if (this.#servers.size >= MAX_SERVERS) return this.#unclean.test(text);
      run = { running: false, since: Number.NaN, inStart: false, crashCounted: false };
      this.#servers.set(source, run);
    }
    const message = MAY_START_OR_STOP.test(text) ? messageOf() : undefined;
    if (message !== undefined && isStartMessage(message)) {
      if (run.inStart) return false;
      const at = timeOf() ?? Number.NaN;
      // Lines before it with no shutdown, unless they are its preamble (NaN: a time not known, a run).
      const crashed = run.running && !(at - run.since < START_PREAMBLE_MS);
      run.inStart = true;
      run.running = true;
      run.since = at;
      run.crashCounted = crashed;
      return crashed;
    }
    run.inStart = false;
    if (message !== undefined && isShutdownMessage(message)) {
      // Its first line, then each step, then its last: stopped once its last line is written
      // (killed midway, after the grace period, the next start says so).
      run.running = false;
      run.since = Number.NaN;
      run.crashCounted = false;
      return false;
    }
    if (this.#unclean.test(text)) {
      const counted = run.crashCounted;
      run.crashCounted = false;
      this.#running(run, timeOf);
      return !counted;
    }
    this.#running(run, timeOf);
    return false;
  }

  /** A line of a run: the run begins at the first (its time asked once a run). */
  #running(run: ServerRun, timeOf: () => number | undefined): void {
    if (run.running) return;
    run.running = true;
    run.since = timeOf() ?? Number.NaN;
  }
}
