/**
 * A server killed (the OOM killer, a SIGKILL after the grace period, a lost node) or crashed
 * says nothing as it goes: its next start is the evidence. Two signs, one event: a start after
 * lines of the same server with no shutdown logged since them, and WiredTiger's `Detected
 * unclean shutdown` at a start (its lock file was not emptied). Both at one start are one
 * event; either alone is one (a log that begins at the start has only the second; a storage
 * engine that keeps no lock file, only the first).
 *
 * Only a server's own lines in the order it wrote them, by source (a pod, or an input file):
 * summary's words for starts and shutdowns (server-shutdowns.ts) decide. Input files that are
 * one server (`kubectl logs --previous` and the current log saved as two files: their start
 * lines name one host, and the later starts after the earlier's last line) are one run of
 * lines: the later's start after the earlier's lines with no shutdown is a crash too.
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
  /** The host its start lines named (across inputs only). */
  host: string | undefined;
  /** Its last line's time (across inputs only; NaN: none known). */
  last: number;
}

export class UnloggedStops {
  readonly #servers = new Map<string, ServerRun>();
  readonly #unclean: RegExp;
  readonly #acrossInputs: boolean;

  /**
   * `unclean`: the line a start writes after an unclean shutdown (the known problem's `matches`).
   * `acrossInputs`: sources are input files, which may be one server's (each line's time is then read).
   */
  constructor(unclean: RegExp, acrossInputs = false) {
    this.#unclean = unclean;
    this.#acrossInputs = acrossInputs;
  }

  /**
   * One line of a server's log, as it came: true when it shows a crash not counted yet (a start
   * after an unlogged stop, or an unclean-shutdown line whose start did not). `messageOf` is
   * asked only for a line that may be a start or a shutdown.
   */
  line(source: string, text: string, messageOf: () => string | undefined, timeOf: () => number | undefined, hostOf?: () => string | undefined): boolean {
    let run = this.#servers.get(source);
    if (!run) {
      if (this.#servers.size >= MAX_SERVERS) return this.#unclean.test(text);
      run = { running: false, since: Number.NaN, inStart: false, crashCounted: false, host: undefined, last: Number.NaN };
      this.#servers.set(source, run);
    }
    const message = MAY_START_OR_STOP.test(text) ? messageOf() : undefined;
    if (message !== undefined && isStartMessage(message)) {
      if (run.inStart) return false;
      const at = timeOf() ?? Number.NaN;
      // Lines before it with no shutdown, unless they are its preamble (NaN: a time not known, a run).
      let crashed = run.running && !(at - run.since < START_PREAMBLE_MS);
      if (this.#acrossInputs) {
        run.last = at;
        run.host ??= hostOf?.();
        // Its first start (the lines before it, if any, its preamble): another input's run may have been this server's.
        const first = !run.running || at - run.since < START_PREAMBLE_MS;
        if (first && run.host !== undefined) crashed = this.#endedElsewhere(source, run.host, at) || crashed;
      }
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

  /** A line of a run: the run begins at the first (its time asked once a run; each line's across inputs). */
  #running(run: ServerRun, timeOf: () => number | undefined): void {
    if (this.#acrossInputs) run.last = timeOf() ?? run.last;
    if (run.running) return;
    run.running = true;
    run.since = this.#acrossInputs ? run.last : (timeOf() ?? Number.NaN);
  }

  /**
   * A start of `host` at `at` in `source`, which had no run before it: another input's run of
   * that host that ended before it with no shutdown logged was this server's, stopped unlogged
   * (true). That run ends here, whatever it was.
   */
  #endedElsewhere(source: string, host: string, at: number): boolean {
    let crashed = false;
    for (const [other, run] of this.#servers) {
      if (other === source || run.host !== host || !run.running || !(run.last <= at)) continue;
      crashed = true;
      run.running = false;
      run.since = Number.NaN;
    }
    return crashed;
  }
}
