/**
 * A server killed (the OOM killer, a SIGKILL after the grace period, a lost node) or crashed
 * says nothing as it goes: its next start is the evidence. Two signs, one event: a start after
 * lines of the same server with no shutdown logged since them, and WiredTiger's `Detected
 * unclean shutdown` at a start (its lock file was not emptied). Both at one start are one
 * event; either alone is one (a log that begins at the start has only the second; a storage
 * engine that keeps no lock file, only the first).
 *
 * Only a server's own lines in the order it wrote them, by source (a pod, or an input file):
 * summary's words for starts and shutdowns (server-shutdowns.ts) decide. Input files may be one
 * server's (`kubectl logs --previous` and the current log saved as two files): at the end,
 * files whose start lines name one host are put in the order of their first lines, and one
 * that begins with its start, after another that ran on to its last line with no shutdown
 * logged and ended before that start, shows a crash too (`acrossInputs`), in whatever order
 * the files were given.
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
  /** Across inputs: what the end needs to put the source beside the others of its host. */
  input?: InputRun;
}

/** A source's lines as a whole (across inputs only). */
interface InputRun {
  /** The host its start lines named. */
  host: string | undefined;
  /** Its first and last line's times (NaN: not known). */
  first: number;
  last: number;
  /** Its first start, when the lines before it are at most its preamble: the line, its time, whether a crash was counted at it. */
  beginsWith: { readonly text: string; readonly at: number; counted: boolean } | undefined;
  /** Starts seen. */
  starts: number;
}

/** A crash shown across two inputs of one server: the later's start line, its time, its source. */
export interface InputCrash {
  readonly source: string;
  readonly text: string;
  readonly at: number;
}

export class UnloggedStops {
  readonly #servers = new Map<string, ServerRun>();
  readonly #unclean: RegExp;
  readonly #acrossInputs: boolean;

  /**
   * `unclean`: the line a start writes after an unclean shutdown (the known problem's `matches`).
   * `acrossInputs`: sources are input files, which may be one server's (each line's time is then
   * read: ask it cheaply).
   */
  constructor(unclean: RegExp, acrossInputs = false) {
    this.#unclean = unclean;
    this.#acrossInputs = acrossInputs;
  }

  /**
   * One line of a server's log, as it came: true when it shows a crash not counted yet (a start
   * after an unlogged stop, or an unclean-shutdown line whose start did not). `messageOf` is
   * asked only for a line that may be a start or a shutdown, `hostOf` of a start line.
   */
  line(source: string, text: string, messageOf: () => string | undefined, timeOf: () => number | undefined, hostOf?: () => string | undefined): boolean {
    let run = this.#servers.get(source);
    if (!run) {
      if (this.#servers.size >= MAX_SERVERS) return this.#unclean.test(text);
      run = { running: false, since: Number.NaN, inStart: false, crashCounted: false };
      if (this.#acrossInputs) run.input = { host: undefined, first: Number.NaN, last: Number.NaN, beginsWith: undefined, starts: 0 };
      this.#servers.set(source, run);
    }
    const input = run.input;
    const time = input ? (timeOf() ?? Number.NaN) : undefined;
    if (input && time !== undefined) {
      if (Number.isNaN(input.first)) input.first = time;
      if (!Number.isNaN(time)) input.last = time;
    }
    const message = MAY_START_OR_STOP.test(text) ? messageOf() : undefined;
    if (message !== undefined && isStartMessage(message)) {
      // Either line of a start's pair may name the host (3.x and a 4.4+ restart write two).
      if (input) input.host ??= hostOf?.();
      if (run.inStart) return false;
      const at = time ?? timeOf() ?? Number.NaN;
      // Lines before it with no shutdown, unless they are its preamble (NaN: a time not known, a run).
      const crashed = run.running && !(at - run.since < START_PREAMBLE_MS);
      if (input && input.starts++ === 0 && !crashed && (!run.running || at - run.since < START_PREAMBLE_MS)) input.beginsWith = { text, at, counted: false };
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
      // The first start's own sign: the input before it, if any, shows the same crash.
      if (input?.beginsWith && input.starts === 1) input.beginsWith.counted = true;
      this.#running(run, time, timeOf);
      return !counted;
    }
    this.#running(run, time, timeOf);
    return false;
  }

  /** A line of a run: the run begins at the first (its time asked once a run, unless read already). */
  #running(run: ServerRun, time: number | undefined, timeOf: () => number | undefined): void {
    if (run.running) return;
    run.running = true;
    run.since = time ?? timeOf() ?? Number.NaN;
  }

  /**
   * At the end, across inputs: each input of a host that begins with its start (no crash counted
   * there by its own lines), after another input of that host that ran on to its last line with
   * no shutdown logged and ended before that start.
   */
  inputCrashes(): InputCrash[] {
    if (!this.#acrossInputs) return [];
    const byHost = new Map<string, { source: string; run: ServerRun; input: InputRun }[]>();
    for (const [source, run] of this.#servers) {
      const input = run.input;
      if (!input?.host || Number.isNaN(input.first)) continue;
      const same = byHost.get(input.host) ?? [];
      same.push({ source, run, input });
      byHost.set(input.host, same);
    }
    const crashes: InputCrash[] = [];
    for (const inputs of byHost.values()) {
      inputs.sort((a, b) => a.input.first - b.input.first);
      for (let i = 1; i < inputs.length; i++) {
        const before = inputs[i - 1]!;
        const { source, input } = inputs[i]!;
        const begins = input.beginsWith;
        if (!begins || begins.counted || !before.run.running || !(before.input.last <= begins.at)) continue;
        crashes.push({ source, text: begins.text, at: begins.at });
      }
    }
    return crashes;
  }
}
