/**
 * Whether the input runs newest first: `logcli query` without `--forward`, Kibana's and
 * Elasticsearch's default sort, `tac`. Counts come out right either way, but the reports read
 * restarts, shutdowns, member states, elections and connections' lifetimes in the order lines
 * come: newest first, they tell a story backwards (a shutdown before its start). Told by the
 * steps between one log's consecutive timed lines: newest first, nearly all of them go back.
 * Interleaved pods (kubectl's --prefix) or one file after another step back now and then, far
 * less often than forward.
 */

/** Steps back in time, between one log type's consecutive timed lines, and steps forward. */
export interface TimeSteps {
  readonly backward: number;
  readonly forward: number;
}

/** Fewer steps back than this say nothing (a short input, a clock stepped back once). */
const MIN_BACKWARD_STEPS = 20;

/** Whether steps of this kind say the input runs newest first: most go back (equal times go neither way). */
export function runsNewestFirst({ backward, forward }: TimeSteps): boolean {
  return backward >= MIN_BACKWARD_STEPS && backward > 2 * forward;
}

/** The steps of one log's consecutive lines, counted as they come. */
export class TimeStepCounter implements TimeSteps {
  backward = 0;
  forward = 0;
  #previous = Number.NaN;

  /** A line's time (NaN or undefined: none, no step). */
  step(time: number | undefined): void {
    if (time === undefined || Number.isNaN(time)) return;
    const previous = this.#previous;
    if (time < previous) this.backward++;
    else if (time > previous) this.forward++;
    this.#previous = time;
  }
}

/** The steps of several logs together. */
export function totalSteps(counters: Iterable<TimeSteps>): TimeSteps {
  let backward = 0;
  let forward = 0;
  for (const counter of counters) {
    backward += counter.backward;
    forward += counter.forward;
  }
  return { backward, forward };
}

/** Lines looked at for their order (LineOrder): this many steps decide (the rest of a long input is not timed for it). */
const ORDER_STEPS = 5000;

/**
 * Whether an input runs newest first, from the steps of its first ORDER_STEPS timed lines, each
 * log's apart (a key: a type, or a pod's type): doctor's server lines, the filter's stamped lines.
 */
export class LineOrder {
  readonly #counters = new Map<string, TimeStepCounter>();
  #steps = 0;

  /** Whether a line's time is still wanted (fewer than ORDER_STEPS taken). */
  get wanted(): boolean {
    return this.#steps < ORDER_STEPS;
  }

  step(key: string, time: number | undefined): void {
    let counter = this.#counters.get(key);
    if (!counter) this.#counters.set(key, (counter = new TimeStepCounter()));
    counter.step(time);
    this.#steps++;
  }

  /** The steps, when they say the input runs newest first; else undefined. */
  newestFirst(): TimeSteps | undefined {
    const steps = totalSteps(this.#counters.values());
    return runsNewestFirst(steps) ? steps : undefined;
  }
}

/** What the reports say of it, and how to give the lines oldest first. */
export function newestFirstWords(steps: TimeSteps): string {
  return `the input runs newest first (${steps.backward} of ${steps.backward + steps.forward} steps between a log's lines go back in time): counts are right, but restarts, shutdowns, member states, elections and connection lifetimes are read in the order the lines come and are not; give it oldest first (logcli query --forward, a store's ascending sort, or tac FILE | logtype …)`;
}
