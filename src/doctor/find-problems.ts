/**
 * Looks for the known problems in every line it is shown, and keeps, for each problem found,
 * the evidence: how often, first and last time, and one example line. Memory is bounded by
 * the number of problems, whatever the number of lines.
 */
import { globToRegExp } from '../select/type-matcher.js';
import { KNOWN_PROBLEMS, QUOTES_CLIENT_DATA, type KnownProblem } from './known-problems.js';

export interface ProblemFinding {
  readonly problem: KnownProblem;
  /** How often it happened: its lines, or for a problem of one event in several logs (oneEventIn), the most lines any one of them shows. */
  count: number;
  /** The lines that showed it. */
  lines: number;
  /** Milliseconds since the epoch. */
  first?: number | undefined;
  last?: number | undefined;
  /** The first line that showed it, and the log type it came from (undefined: not an entry). */
  example: string;
  exampleType: string | undefined;
  /** Every log type it showed in, in the order first seen (a line that is not an entry adds none). */
  readonly types: string[];
  /**
   * Where it showed: the pods or containers kubectl's or stern's prefix named, or the input
   * files, in the order first seen; empty when the input names none (one pod's `kubectl logs`).
   */
  readonly sources: string[];
  /** Whether it showed in a line that is not an entry too. */
  inOtherLines: boolean;
  /** Whether more types, or more sources, were seen than are kept. */
  moreTypes: boolean;
  moreSources: boolean;
}

/** Longest example kept: an example is evidence, not the whole story. */
const EXAMPLE_CHARS = 400;

/** Types and sources named for a problem at the most: beyond, the report says there were more. */
export const MAX_NAMED = 12;

/** Types whose problems are remembered at the most: a stream can hold any number of distinct types. */
const MAX_REMEMBERED_TYPES = 1024;

/** The lines of no source and no type: each counted as an event of its own. */
const OTHER_KEY = '\0';

export class ProblemFinder {
  readonly #problems: readonly { readonly problem: KnownProblem; readonly typeTest: (logType: string | undefined) => boolean }[];
  readonly #found = new Map<string, ProblemFinding>();
  /** A oneEventIn problem's lines by pod (as a prefix names it) and type, as `pod\0type` ('' for none). */
  readonly #linesBySourceType = new Map<string, Map<string, number>>();
  /** The same lines' times, by problem and key, while there are at most MAX_EVENT_TIMES of a problem's (oneEventCount matches them). */
  readonly #timesBySourceType = new Map<string, Map<string, number[]> | null>();
  /** A oneEventWithin problem's events, and each pod's last line's time. */
  readonly #bursts = new Map<string, { events: number; readonly lastByPod: Map<string, number> }>();
  /** The problems looked for in a type's lines, decided once a type (a stream holds a handful). */
  readonly #byType = new Map<string | undefined, readonly KnownProblem[]>();
  /** For a problem that can be over (resolvedBy): its subjects, and whether each is still open. Bounded as types are. */
  readonly #subjects = new Map<string, Map<string, boolean>>();
  #lastType: string | undefined;
  #lastProblems: readonly KnownProblem[] | undefined;

  constructor(problems: readonly KnownProblem[] = KNOWN_PROBLEMS) {
    this.#problems = problems.map((problem) => {
      const globs = problem.types?.map((glob) => globToRegExp(glob));
      const except = problem.exceptTypes?.map((glob) => globToRegExp(glob)) ?? [];
      const typeTest = (logType: string | undefined): boolean =>
        (globs === undefined || (logType !== undefined && globs.some((re) => re.test(logType)))) && (logType === undefined || !except.some((re) => re.test(logType)));
      return { problem, typeTest };
    });
  }

  #problemsOf(logType: string | undefined): readonly KnownProblem[] {
    if (logType === this.#lastType && this.#lastProblems) return this.#lastProblems;
    let problems = this.#byType.get(logType);
    if (!problems) {
      problems = this.#problems.filter(({ typeTest }) => typeTest(logType)).map(({ problem }) => problem);
      if (this.#byType.size < MAX_REMEMBERED_TYPES) this.#byType.set(logType, problems);
    }
    this.#lastType = logType;
    this.#lastProblems = problems;
    return problems;
  }

  /**
   * One line: its type (undefined for a line that is not an entry), its text, and ways to its
   * time and its source (pod, container or input), asked for only when the line shows a problem.
   */
  look(
    logType: string | undefined,
    text: string,
    timeOf: () => number | undefined,
    sourceOf: () => string | undefined = () => undefined,
    podOf: () => string | undefined = sourceOf,
  ): void {
    // A slow operation's line: its words are the clients' (QUOTES_CLIENT_DATA).
    if (QUOTES_CLIENT_DATA.test(text)) return;
    const problems = this.#problemsOf(logType);
    for (let i = 0; i < problems.length; i++) {
      const problem = problems[i]!;
      if (problem.resolvedBy?.test(text)) this.#subject(problem, text, false);
      if (problem.witnessed || !problem.matches.test(text) || problem.unless?.test(text)) continue;
      if (problem.resolvedBy) this.#subject(problem, text, true);
      this.#evidence(problem, logType, text, timeOf, sourceOf, podOf);
    }
  }

  /** A subject of a problem that can be over: open again (`open`), or over. */
  #subject(problem: KnownProblem, text: string, open: boolean): void {
    const subject = problem.subjectOf?.(text) ?? '';
    let subjects = this.#subjects.get(problem.id);
    if (!subjects) this.#subjects.set(problem.id, (subjects = new Map()));
    if (open ? subjects.size < MAX_REMEMBERED_TYPES || subjects.has(subject) : subjects.has(subject)) subjects.set(subject, open);
  }

  /** An event a witness of several lines found (KnownProblem.witnessed), with the line that shows it. */
  witness(id: string, logType: string | undefined, text: string, timeOf: () => number | undefined, sourceOf: () => string | undefined = () => undefined): void {
    const problem = this.#problems.find((p) => p.problem.id === id)?.problem;
    if (problem) this.#evidence(problem, logType, text, timeOf, sourceOf, sourceOf);
  }

  #evidence(
    problem: KnownProblem,
    logType: string | undefined,
    text: string,
    timeOf: () => number | undefined,
    sourceOf: () => string | undefined,
    podOf: () => string | undefined,
  ): void {
    const time = timeOf();
    let finding = this.#found.get(problem.id);
    if (!finding) {
      const example = text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text;
      finding = { problem, count: 0, lines: 0, first: time, last: time, example, exampleType: logType, types: [], sources: [], inOtherLines: false, moreTypes: false, moreSources: false };
      this.#found.set(problem.id, finding);
    }
    // A problem in one pod of three is that pod's to fix: say which, and in which logs.
    if (logType === undefined) finding.inOtherLines = true;
    else if (!finding.types.includes(logType)) {
      if (finding.types.length < MAX_NAMED) finding.types.push(logType);
      else finding.moreTypes = true;
    }
    const source = sourceOf();
    if (source !== undefined && !finding.sources.includes(source)) {
      if (finding.sources.length < MAX_NAMED) finding.sources.push(source);
      else finding.moreSources = true;
    }
    if (problem.oneEventIn) {
      let bySourceType = this.#linesBySourceType.get(problem.id);
      if (!bySourceType) this.#linesBySourceType.set(problem.id, (bySourceType = new Map()));
      // By pod, as its prefix names it: one pod's server log and audit log given as two files
      // are two inputs, and one pod. Bounded as the types remembered are: beyond, a line of a
      // new pod and type counts as one event of its own.
      const wanted = `${podOf() ?? ''}\0${logType ?? ''}`;
      const key = bySourceType.has(wanted) || bySourceType.size < MAX_REMEMBERED_TYPES ? wanted : OTHER_KEY;
      bySourceType.set(key, (bySourceType.get(key) ?? 0) + 1);
      this.#noteTime(problem.id, key, time, finding.lines);
    }
    // By source (a pod, or an input file): two members' stops at one time are two.
    if (problem.oneEventWithin) this.#burst(problem.id, problem.oneEventWithin.ms, sourceOf() ?? podOf() ?? '', time);
    if (finding.lines++ === 0) return;
    if (time !== undefined && (finding.first === undefined || time < finding.first)) finding.first = time;
    if (time !== undefined && (finding.last === undefined || time > finding.last)) finding.last = time;
  }

  /** A oneEventWithin problem's line: a new event unless its source's last line was at most `ms` before it (a line without a time is one of its own). */
  #burst(id: string, ms: number, pod: string, time: number | undefined): void {
    let burst = this.#bursts.get(id);
    if (!burst) this.#bursts.set(id, (burst = { events: 0, lastByPod: new Map() }));
    const key = burst.lastByPod.has(pod) || burst.lastByPod.size < MAX_REMEMBERED_TYPES ? pod : OTHER_KEY;
    const last = burst.lastByPod.get(key);
    if (time === undefined || last === undefined || Math.abs(time - last) > ms) burst.events++;
    if (time !== undefined) burst.lastByPod.set(key, time);
  }

  /** A timed line of a oneEventIn problem, kept while the problem has at most MAX_EVENT_TIMES lines (then null: counts alone). */
  #noteTime(id: string, key: string, time: number | undefined, lines: number): void {
    let times = this.#timesBySourceType.get(id);
    if (times === null) return;
    if (lines > MAX_EVENT_TIMES || time === undefined) {
      this.#timesBySourceType.set(id, null);
      return;
    }
    if (!times) this.#timesBySourceType.set(id, (times = new Map()));
    let list = times.get(key);
    if (!list) times.set(key, (list = []));
    list.push(time);
  }

  /** What was found, in the order of the known problems. */
  findings(): ProblemFinding[] {
    const found = this.#problems
      .map(({ problem }) => this.#found.get(problem.id))
      .filter((f): f is ProblemFinding => f !== undefined)
      // Over for every subject it was seen for (a missing log that appeared since).
      .filter((f) => !f.problem.resolvedBy || [...(this.#subjects.get(f.problem.id)?.values() ?? [true])].some((open) => open));
    for (const finding of found) {
      const { oneEventIn, id } = finding.problem;
      finding.count = oneEventIn
        ? oneEventCount(oneEventIn, this.#linesBySourceType.get(id)!, this.#timesBySourceType.get(id) ?? undefined)
        : (this.#bursts.get(id)?.events ?? finding.lines);
    }
    return found;
  }
}

/** A oneEventIn problem's timed lines kept for matching at the most; beyond, the count is by lines alone. */
const MAX_EVENT_TIMES = 100_000;

/** Lines of two logs at most this far apart are one event written by both (a failed login in the server's log and the audit log: milliseconds). */
export const SAME_EVENT_MS = 1000;

/**
 * How many events two sorted lists of times hold when a time of one and a time of the other at
 * most SAME_EVENT_MS apart may be one event: both lists' lengths less the most pairs that can be
 * made (two pointers over the sorted lists make the most).
 */
export function eventsInTwoLogs(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  let j = 0;
  let pairs = 0;
  while (i < a.length && j < b.length) {
    const gap = a[i]! - b[j]!;
    if (Math.abs(gap) <= SAME_EVENT_MS) {
      pairs++;
      i++;
      j++;
    } else if (gap < 0) i++;
    else j++;
  }
  return a.length + b.length - pairs;
}

/**
 * A problem of one event in several logs: in each source (a pod: its server and its audit log
 * write the same failures), its lines in those logs matched by time (eventsInTwoLogs: a line
 * of one log and a line of the other within SAME_EVENT_MS are one event, so a failure only one
 * log wrote still counts); without the times (a line with none, or too many lines kept), the
 * most lines one of those logs shows. Lines of any other type (or none) as they are.
 */
export function oneEventCount(oneEventIn: readonly string[], linesBySourceType: ReadonlyMap<string, number>, timesBySourceType?: ReadonlyMap<string, readonly number[]>): number {
  const most = new Map<string, number>();
  const timed = new Map<string, (readonly number[])[]>();
  let others = 0;
  for (const [key, lines] of linesBySourceType) {
    const cut = key.indexOf('\0');
    const source = key.slice(0, cut);
    if (!oneEventIn.includes(key.slice(cut + 1))) {
      others += lines;
      continue;
    }
    most.set(source, Math.max(most.get(source) ?? 0, lines));
    const times = timesBySourceType?.get(key);
    if (times) timed.set(source, [...(timed.get(source) ?? []), times]);
  }
  let count = others;
  for (const [source, lines] of most) {
    const lists = timed.get(source);
    if (lists?.length === 2) {
      const [a, b] = lists.map((list) => [...list].sort((x, y) => x - y)) as [number[], number[]];
      count += eventsInTwoLogs(a, b);
    } else count += lines;
  }
  return count;
}
