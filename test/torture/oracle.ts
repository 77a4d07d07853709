/**
 * The judge: from what was written (the model in LogFiles) and what came out of every run,
 * names each problem with the lines it concerns and the time it happened.
 *
 * Rules (the sidecar's promises):
 * - every output line is one valid JSON entry `{"logType","contents"[,"partial":true]}` in valid
 *   UTF-8, with the right logType and exactly the line's contents (invalid UTF-8 as U+FFFD);
 *   pieces marked partial are joined per type in order, as the filter joins them;
 * - nothing is lost, except lines that were on disk nowhere the sidecar could read: written
 *   between copytruncate's copy and its truncate (counted as destroyed), written to a rotated or
 *   deleted file after a pause longer than --rotate-wait (late), in a file deleted while no
 *   sidecar held it (unreachable), or present before a start that had no state to resume from
 *   (the first start reads from the end, by design);
 * - nothing is repeated, except after SIGKILL, and then only lines the killed run delivered
 *   after its last save (the state file as it was on disk once it was dead);
 * - each file's lines come in the order they were written;
 * - a SIGTERM ends a run with exit 0; diagnostics on stderr are JSON lines.
 */
import { expectedContents, hashText, identifyContents, lineBytes, startsALine } from './line-content.js';
import type { Generation, LineRecord } from './log-files.js';
import type { Observation } from './interpreter.js';
import { readOutput, type Joined } from './output-entries.js';
import type { SidecarRun, StateOnDisk } from './sidecar-run.js';

export type ProblemKind =
  | 'lost'
  | 'repeated'
  | 'out-of-order'
  | 'damaged'
  | 'split'
  | 'interleaved'
  | 'invalid-json'
  | 'wrong-type'
  | 'unidentified'
  | 'exit'
  | 'stderr'
  | 'hang';

export interface Problem {
  readonly kind: ProblemKind;
  /** Lines (or output lines) concerned. */
  readonly count: number;
  /** When it happened (a line's write, an output line's arrival), ms since the schedule began. */
  readonly at: number;
  readonly file?: number;
  readonly seqs?: readonly [number, number];
  readonly run?: number;
  /** For lost lines: what their file went through (rotated while down, during a stall, ...). */
  readonly cause?: string;
  readonly detail: string;
}

export interface Figures {
  readonly lines: number;
  readonly bytes: number;
  readonly delivered: number;
  readonly entries: number;
  readonly pieces: number;
  readonly runs: number;
  readonly sigterms: number;
  readonly sigkills: number;
  readonly lost: number;
  readonly lostByCause: Readonly<Record<string, number>>;
  readonly destroyed: number;
  readonly late: number;
  readonly unreachable: number;
  readonly beforeFirstLook: number;
  readonly racedCopy: number;
  readonly repeatedAfterKill: number;
  readonly repeated: number;
  readonly outOfOrder: number;
  readonly damaged: number;
  readonly split: number;
  /** Lines unfinished at a SIGTERM: their start emitted at the stop, their end after the restart (allowed). */
  readonly splitAtStop: number;
  /** Lines whose start was delivered (emitted at a SIGTERM) and whose rest no run could read: not owed. */
  readonly restNotOwed: number;
  /** Runs whose output ends in the middle of an entry because they were SIGKILLed in a write (allowed). */
  readonly cutByKill: number;
  /** Pieces of a line begun by a SIGKILLed run that the next run sent again, from its last save (allowed). */
  readonly piecesAgain: number;
  readonly interleaved: number;
  readonly invalidJson: number;
  readonly wrongType: number;
  readonly unidentified: number;
  readonly badExits: number;
  /** SIGTERMs sent while Node was still starting, before the sidecar's first line (allowed: nothing read, state untouched). */
  readonly termWhileStarting: number;
  readonly stderrNoise: number;
  readonly hangs: number;
}

export interface Verdict {
  readonly passed: boolean;
  readonly figures: Figures;
  readonly problems: readonly Problem[];
  /** Lines not delivered that were not owed (destroyed, late, unreachable, before the first look), by group. */
  readonly excused: readonly Problem[];
}

interface Delivery {
  readonly run: number;
  /** Order in the whole output (runs in order). */
  readonly order: number;
  readonly at: number;
  readonly kind: 'whole' | 'prefix' | 'suffix';
  readonly chars: number;
}


/** How soon after a file's first line a copy of it can be taken before the sidecar could have read any of it. */
const RACE_MS = 1000;
/** Beyond a poll, how long a running sidecar may take to notice a new file. */
const NOTICE_MS = 2000;
/** Beyond noticing, how long a backlog may keep a sidecar from reading a rotated file. */
const OVERWRITE_SLACK_MS = 5000;

export function judge(observation: Observation): Verdict {
  return new Judge(observation).verdict();
}

class Judge {
  readonly #o: Observation;
  readonly #problems: Problem[] = [];
  readonly #excused: Problem[] = [];
  #termWhileStarting = 0;
  #splitAtStop = 0;
  #restNotOwed = 0;
  #cutByKill = 0;
  #piecesAgain = 0;
  /** Entries that name no line: judged last, as a short line's end may be one of them. */
  #unidentified: Joined[] = [];
  readonly #deliveries = new Map<LineRecord, Delivery[]>();
  #entries = 0;
  #pieces = 0;

  constructor(observation: Observation) {
    this.#o = observation;
  }

  verdict(): Verdict {
    const output = readOutput(this.#o.runs);
    this.#entries = output.entries;
    this.#pieces = output.pieces;
    this.#cutByKill = output.cutByKill;
    this.#piecesAgain = output.piecesAgain;
    for (const invalid of output.invalid) this.#problem({ kind: 'invalid-json', count: 1, ...invalid });
    for (const entry of output.joined) this.#place(entry);
    const counts = this.#classifyLines();
    for (const entry of this.#unidentified) {
      this.#problem({ kind: 'unidentified', count: 1, at: entry.at, run: entry.run, detail: `${entry.logType}: ${excerpt(entry.contents)}` });
    }
    this.#checkOrder();
    this.#checkRuns();
    const by = (kind: ProblemKind): number => this.#problems.filter((p) => p.kind === kind).reduce((sum, p) => sum + p.count, 0);
    const runs = this.#o.runs;
    const figures: Figures = {
      lines: this.#o.files.lines.reduce((sum, lines) => sum + lines.length, 0),
      bytes: this.#o.files.bytesWritten,
      delivered: counts.delivered,
      entries: this.#entries,
      pieces: this.#pieces,
      runs: runs.length,
      sigterms: runs.filter((r) => r.endedBy?.signal === 'SIGTERM').length,
      sigkills: runs.filter((r) => r.endedBy?.signal === 'SIGKILL').length,
      lost: by('lost'),
      lostByCause: counts.lostByCause,
      destroyed: counts.destroyed,
      late: counts.late,
      unreachable: counts.unreachable,
      beforeFirstLook: counts.beforeFirstLook,
      racedCopy: counts.racedCopy,
      repeatedAfterKill: counts.repeatedAfterKill,
      repeated: by('repeated'),
      outOfOrder: by('out-of-order'),
      damaged: by('damaged'),
      split: by('split'),
      splitAtStop: this.#splitAtStop,
      restNotOwed: this.#restNotOwed,
      cutByKill: this.#cutByKill,
      piecesAgain: this.#piecesAgain,
      interleaved: by('interleaved'),
      invalidJson: by('invalid-json'),
      wrongType: by('wrong-type'),
      unidentified: by('unidentified'),
      badExits: by('exit'),
      termWhileStarting: this.#termWhileStarting,
      stderrNoise: by('stderr'),
      hangs: by('hang'),
    };
    const problems = [...this.#problems].sort((a, b) => a.at - b.at);
    return { passed: problems.length === 0, figures, problems, excused: this.#excused };
  }

  /** Which line an entry is, and whether it is the line, its start, its end, or damaged. */
  #place(entry: Joined): void {
    const identity = identifyContents(entry.contents);
    const line = identity ? this.#o.files.lines[identity.file]?.[identity.seq - 1] : this.#begunLineOf(entry);
    if (!line) {
      this.#unidentified.push(entry);
      return;
    }
    const type = this.#o.schedule.settings.types[line.file]!;
    if (entry.logType !== type) {
      this.#problem({ kind: 'wrong-type', count: 1, at: entry.at, run: entry.run, file: line.file, seqs: [line.seq, line.seq], detail: `"${entry.logType}" for a ${type} line` });
    }
    const record = (kind: Delivery['kind']): void => {
      const list = this.#deliveries.get(line) ?? [];
      list.push({ run: entry.run, order: entry.order, at: entry.at, kind, chars: entry.contents.length });
      this.#deliveries.set(line, list);
    };
    if (entry.contents.length === line.chars && hashText(entry.contents) === line.hash) {
      if (entry.interleaved) this.#interleaved(entry, line);
      record('whole');
      return;
    }
    const expected = this.#expected(line);
    if (entry.contents.length < expected.length && expected.startsWith(entry.contents)) {
      if (entry.interleaved) this.#interleaved(entry, line);
      // A start whose end never came because the run was killed is not a delivery.
      if (!entry.cutByKill) record('prefix');
      return;
    }
    if (entry.contents.length < expected.length && expected.endsWith(entry.contents)) {
      record('suffix');
      return;
    }
    let differs = 0;
    while (differs < expected.length && entry.contents[differs] === expected[differs]) differs++;
    this.#problem({
      kind: 'damaged',
      count: 1,
      at: entry.at,
      run: entry.run,
      file: line.file,
      seqs: [line.seq, line.seq],
      detail: `${entry.pieces} piece(s), ${entry.contents.length} of ${expected.length} characters, first difference at ${differs}: got ${excerpt(entry.contents.slice(differs, differs + 40))}, wanted ${excerpt(expected.slice(differs, differs + 40))}`,
    });
  }

  /**
   * A line's start too short to carry its header (a tiny line's first bytes, held unfinished
   * and sent as a piece at a stop): the line of its type written in two parts that begins with
   * it, the last one begun before it arrived.
   */
  #begunLineOf(entry: Joined): LineRecord | undefined {
    if (!startsALine(entry.contents)) return undefined;
    const file = this.#o.schedule.settings.types.indexOf(entry.logType);
    let found: LineRecord | undefined;
    for (const line of this.#o.files.lines[file] ?? []) {
      if (!line.partial || line.partial.at > entry.at || (found && found.partial!.at >= line.partial.at)) continue;
      if (this.#expected(line).startsWith(entry.contents)) found = line;
    }
    return found;
  }

  #interleaved(entry: Joined, line: LineRecord): void {
    this.#problem({
      kind: 'interleaved',
      count: 1,
      at: entry.at,
      run: entry.run,
      file: line.file,
      seqs: [line.seq, line.seq],
      detail: `another ${entry.logType} line began before the last piece of this one (${entry.pieces} pieces joined)`,
    });
  }

  #expected(line: LineRecord): string {
    const bytes = lineBytes({ seed: this.#o.schedule.settings.seed, file: line.file, seq: line.seq, size: line.size, banner: line.banner });
    return expectedContents(bytes);
  }

  #classifyLines(): {
    delivered: number;
    destroyed: number;
    late: number;
    unreachable: number;
    beforeFirstLook: number;
    racedCopy: number;
    repeatedAfterKill: number;
    lostByCause: Record<string, number>;
  } {
    const result = { delivered: 0, destroyed: 0, late: 0, unreachable: 0, beforeFirstLook: 0, racedCopy: 0, repeatedAfterKill: 0, lostByCause: {} as Record<string, number> };
    const lost: { line: LineRecord; cause: string }[] = [];
    const excused: { line: LineRecord; cause: string }[] = [];
    const repeated: { line: LineRecord; delivery: Delivery; previous: Delivery }[] = [];
    for (const lines of this.#o.files.lines) {
      for (const line of lines) {
        const deliveries = this.#pairSplits(line, this.#deliveries.get(line) ?? []);
        if (deliveries.length === 0) {
          const excuse = this.#excuse(line);
          if (excuse) excused.push({ line, cause: excuse });
          if (excuse === 'destroyed') result.destroyed++;
          else if (excuse === 'late') result.late++;
          else if (excuse === 'unreachable') result.unreachable++;
          else if (excuse === 'before-first-look') result.beforeFirstLook++;
          else if (excuse === 'raced-copy') result.racedCopy++;
          else {
            const cause = this.#cause(line);
            result.lostByCause[cause] = (result.lostByCause[cause] ?? 0) + 1;
            lost.push({ line, cause });
          }
          continue;
        }
        result.delivered++;
        for (let i = 1; i < deliveries.length; i++) {
          const previous = deliveries[i - 1]!;
          const delivery = deliveries[i]!;
          if (this.#repeatAllowed(line, previous, delivery)) result.repeatedAfterKill++;
          else repeated.push({ line, delivery, previous });
        }
      }
    }
    for (const group of groupLines(lost, (a, b) => a.cause === b.cause)) {
      const first = group[0]!.line;
      const last = group.at(-1)!.line;
      this.#problem({
        kind: 'lost',
        count: group.length,
        at: first.writtenAt,
        file: first.file,
        seqs: [first.seq, last.seq],
        cause: group[0]!.cause,
        detail: `written ${seconds(first.writtenAt)}-${seconds(last.writtenAt)} s (sidecar ${first.condition}), ${this.#genStory(first.gen)}`,
      });
    }
    for (const group of groupLines(excused, (a, b) => a.cause === b.cause)) {
      const first = group[0]!.line;
      this.#excused.push({
        kind: 'lost',
        count: group.length,
        at: first.writtenAt,
        file: first.file,
        seqs: [first.seq, group.at(-1)!.line.seq],
        cause: group[0]!.cause,
        detail: `written ${seconds(first.writtenAt)}-${seconds(group.at(-1)!.line.writtenAt)} s (sidecar ${first.condition}), ${this.#genStory(first.gen)}`,
      });
    }
    for (const group of groupLines(repeated, (a, b) => a.delivery.run === b.delivery.run && a.previous.run === b.previous.run)) {
      const first = group[0]!;
      const previousRun = this.#o.runs[first.previous.run]!;
      this.#problem({
        kind: 'repeated',
        count: group.length,
        at: first.delivery.at,
        run: first.delivery.run,
        file: first.line.file,
        seqs: [first.line.seq, group.at(-1)!.line.seq],
        detail:
          (first.previous.run === first.delivery.run
            ? `delivered twice by run ${first.delivery.run}, at ${seconds(first.previous.at)} s and ${seconds(first.delivery.at)} s`
            : `delivered by run ${first.previous.run} at ${seconds(first.previous.at)} s (ended by ${previousRun.endedBy?.signal ?? 'itself'}${previousRun.endedBy?.signal === 'SIGKILL' ? `, after a save that covered them: ${this.#coveringSave(first.line, previousRun.stateAtExit)}` : ''}) and again by run ${first.delivery.run} at ${seconds(first.delivery.at)} s`) +
          `; ${this.#genStory(first.line.gen)}`,
      });
    }
    return result;
  }

  /**
   * A line's start and its end delivered as two entries count once. Across a SIGTERM that is
   * the documented behaviour (what the sidecar holds is emitted at the stop), counted apart;
   * otherwise it is a split line, a problem.
   */
  #pairSplits(line: LineRecord, deliveries: Delivery[]): Delivery[] {
    const result: Delivery[] = [];
    const suffixes = deliveries.filter((d) => d.kind === 'suffix');
    for (const delivery of deliveries) {
      if (delivery.kind === 'whole') result.push(delivery);
      else if (delivery.kind === 'prefix') {
        const index = suffixes.findIndex((s) => s.order > delivery.order && s.chars + delivery.chars === line.chars);
        // A line too short for a trailer: its end names no line, and is found by its text.
        const unnamed = index >= 0 ? undefined : this.#unnamedEnd(line, delivery);
        if (index >= 0 || unnamed) {
          const suffix = unnamed ?? suffixes.splice(index, 1)[0]!;
          result.push(delivery);
          // Documented: at SIGTERM an unfinished line is emitted; its rest comes after the restart.
          const stopped = this.#o.runs[delivery.run]!.endedBy?.signal === 'SIGTERM' && suffix.run > delivery.run;
          if (stopped) {
            this.#splitAtStop++;
            continue;
          }
          this.#problem({
            kind: 'split',
            count: 1,
            at: delivery.at,
            run: delivery.run,
            file: line.file,
            seqs: [line.seq, line.seq],
            detail: `delivered as two entries: its first ${delivery.chars} characters by run ${delivery.run}, the rest by run ${suffix.run}${line.partial ? ' (written in two parts)' : ''}`,
          });
        } else if (this.#o.runs[delivery.run]!.endedBy !== undefined && this.#excuse(line) !== undefined) {
          // Emitted unfinished at a SIGTERM, as documented, or its first pieces delivered before
          // a SIGKILL; its rest went where no run could read it (deleted or destroyed while
          // down): the start is all that was owed.
          result.push(delivery);
          this.#restNotOwed++;
        } else {
          this.#problem({ kind: 'damaged', count: 1, at: delivery.at, run: delivery.run, file: line.file, seqs: [line.seq, line.seq], detail: `only its first ${delivery.chars} of ${line.chars} characters, as an entry of their own` });
        }
      }
    }
    for (const suffix of suffixes) {
      this.#problem({ kind: 'damaged', count: 1, at: suffix.at, run: suffix.run, file: line.file, seqs: [line.seq, line.seq], detail: `only its last ${suffix.chars} of ${line.chars} characters, as an entry of their own` });
    }
    return result.sort((a, b) => a.order - b.order);
  }

  #unnamedEnd(line: LineRecord, start: Delivery): Delivery | undefined {
    const type = this.#o.schedule.settings.types[line.file]!;
    const rest = this.#expected(line).slice(start.chars);
    const index = this.#unidentified.findIndex((e) => e.logType === type && e.order > start.order && e.contents === rest);
    if (index < 0) return undefined;
    const entry = this.#unidentified.splice(index, 1)[0]!;
    return { run: entry.run, order: entry.order, at: entry.at, kind: 'suffix', chars: entry.contents.length };
  }

  #excuse(line: LineRecord): 'destroyed' | 'late' | 'unreachable' | 'before-first-look' | 'raced-copy' | undefined {
    if (line.destroyed || this.#overwrittenUnread(line)) return 'destroyed';
    if (this.#racedCopy(line)) return 'raced-copy';
    if (line.late) return 'late';
    if (this.#beforeFirstLook(line)) return 'before-first-look';
    if (!this.#containing(line).some((gen) => this.#readable(gen, line))) return 'unreachable';
    return undefined;
  }

  /**
   * A line whose only file was rewritten by a copy made over it before any sidecar had long
   * enough to read it: up and looking, its reader taking output, for a poll, the time to notice,
   * and OVERWRITE_SLACK_MS for a backlog (a burst's, a stall's) to be read first.
   */
  #overwrittenUnread(line: LineRecord): boolean {
    const at = line.overwrittenAt;
    if (at === undefined) return false;
    // A later line of its file delivered before the overwrite: this one had been read (a file's
    // lines leave in order), so it was owed whatever the time.
    const lines = this.#o.files.lines[line.file]!;
    const gen = this.#o.files.gens[line.gen]!;
    const laterDelivered = gen.lines.some((seq) => {
      const later = lines[seq - 1]!;
      return later.offset > line.offset && (this.#deliveries.get(later) ?? []).some((d) => d.at <= at);
    });
    if (laterDelivered) return false;
    const needed = this.#o.schedule.settings.pollMs + NOTICE_MS + OVERWRITE_SLACK_MS;
    const since = line.partial?.at ?? line.writtenAt;
    return this.#upTime(since, at, since) < needed || this.#readerTime(since, at) < needed;
  }

  /**
   * copytruncate's copy taken, while the sidecar ran, of a file none of whose bytes had been
   * delivered yet, all written just before: nothing was read to recognise the copy by (its read
   * position was 0, and 0 is also the size after the truncate). Every follower has this race.
   */
  #racedCopy(line: LineRecord): boolean {
    const gen = this.#o.files.gens[line.gen]!;
    const copy = this.#o.files.gens.find((g) => g.origin === 'copy' && g.from === gen.id);
    if (!copy || copy.createdCondition !== 'up') return false;
    const lines = this.#o.files.lines[gen.file]!;
    const first = lines[gen.lines[0]! - 1]!;
    if (copy.createdAt - first.writtenAt >= RACE_MS) return false;
    return !gen.lines.some((seq) => (this.#deliveries.get(lines[seq - 1]!) ?? []).some((d) => d.at <= copy.createdAt));
  }

  /** The generations that hold the line: its own, and copies of it made after it was written. */
  #containing(line: LineRecord): Generation[] {
    const gens = this.#o.files.gens;
    return [gens[line.gen]!, ...gens.filter((g) => g.origin === 'copy' && g.from === line.gen && line.offset + line.bytes <= g.copyBytes!)];
  }

  /** Whether a sidecar could have read the line from this generation. */
  #readable(gen: Generation, line: LineRecord): boolean {
    const unlinked = gen.unlinked;
    if (!unlinked) {
      // Truncated: what it held is in its copies (or destroyed).
      return gen.origin === 'copy' || gen.endedAt === undefined;
    }
    const settings = this.#o.schedule.settings;
    const holder = this.#o.runs.find((r) => r.startedAt <= unlinked.at && (r.exit === undefined || r.exit.at > unlinked.at));
    if (unlinked.held) {
      // Held open when deleted: only that run can read it. A SIGKILL takes that way away (for
      // lines it had no time to read, or could not deliver with its reader stalled), and so
      // does a SIGTERM while its output cannot drain.
      const end = holder?.endedBy;
      if (!end) return true;
      if (end.signal === 'SIGTERM') return !end.stalled;
      // Killed: owed only if its reader took output for long enough between the line and the
      // kill (a stall that ended just before the kill left no time to send what waited).
      return !end.stalled && this.#readerTime(line.writtenAt, end.at) >= settings.pollMs + 1000;
    }
    // Deleted while a sidecar ran, unopened, after it had time to see it (a poll, and slack for
    // a loaded machine): it should have. Only runs still up once the line was written count: one
    // that ended before it cannot have read it, and the next must look first.
    return (
      unlinked.condition !== 'down' && unlinked.condition !== 'stopping' && this.#upTime(gen.createdAt, unlinked.at, line.writtenAt) >= settings.pollMs + NOTICE_MS
    );
  }

  /** How long, between `from` and `to`, the reader took output (the time outside its stalls). */
  #readerTime(from: number, to: number): number {
    let stalled = 0;
    for (const stall of this.#o.stalls) stalled += Math.max(0, Math.min(to, stall.to) - Math.max(from, stall.from));
    return Math.max(0, to - from - stalled);
  }

  /**
   * How long sidecars that could deliver were up and looking between `from` and `to`: each run
   * from its first look (a start on a loaded machine takes a second or more before it; a run
   * that said nothing never looked), not counting a run that ended with its reader stalled (what
   * it read but could not send is the next run's to read, at its first look), nor one that
   * ended by `upAfter` (a line written after it is the next run's).
   */
  #upTime(from: number, to: number, upAfter = Number.NEGATIVE_INFINITY): number {
    let total = 0;
    for (const run of this.#o.runs) {
      if (run.firstDiagnosticAt === undefined || run.endedBy?.stalled) continue;
      const runEnd = run.endedBy?.at ?? run.exit?.at ?? Infinity;
      if (runEnd <= upAfter) continue;
      const start = Math.max(from, run.firstDiagnosticAt);
      const end = Math.min(to, runEnd);
      if (end > start) total += end - start;
    }
    return total;
  }

  /**
   * A start without state (the first, or after a SIGKILL before any save) reads files there
   * from their end (or, with --from-start, the file at the path from its start) and knows
   * nothing of rotated ones: lines written before it that no run had delivered are not owed.
   */
  #beforeFirstLook(line: LineRecord): boolean {
    const fromStart = this.#o.schedule.settings.fromStart;
    for (const run of this.#o.runs) {
      if (run.hadState || line.step >= run.startedStep) continue;
      const previous = this.#o.runs[run.index - 1];
      if (previous && previous.endedBy?.signal !== 'SIGKILL') continue;
      if (!fromStart) return true;
      const gen = this.#o.files.gens[line.gen]!;
      const atPath = gen.origin !== 'copy' && (gen.leftPathAt === undefined || gen.leftPathAt > run.startedAt) && (gen.endedAt === undefined || gen.endedAt > run.startedAt);
      if (!atPath) return true;
    }
    return false;
  }

  #repeatAllowed(line: LineRecord, previous: Delivery, delivery: Delivery): boolean {
    if (previous.run === delivery.run) return false;
    const run = this.#o.runs[previous.run]!;
    if (run.endedBy?.signal !== 'SIGKILL') return false;
    return !this.#covered(line, run.stateAtExit);
  }

  /** Whether a saved position says the line was delivered. */
  #covered(line: LineRecord, state: StateOnDisk | undefined): boolean {
    return this.#coveringSave(line, state) !== undefined;
  }

  /** How many bytes a generation held at `at` (the end of its last line begun by then, at most). */
  #heldAt(gen: Generation, at: number): number {
    const lines = this.#o.files.lines[gen.file]!;
    let end = 0;
    for (const seq of gen.lines) {
      const line = lines[seq - 1]!;
      if (line.gen === gen.id && (line.partial?.at ?? line.writtenAt) <= at) end = Math.max(end, line.offset + line.bytes);
    }
    return end;
  }

  /** The saved position that says the line was delivered, with the generation it was taken for. */
  #coveringSave(line: LineRecord, state: StateOnDisk | undefined): string | undefined {
    if (!state) return undefined;
    const containing = new Set(this.#containing(line).map((g) => g.id));
    const covering = state.positions.find((saved) => {
      const gen = this.#o.files.generationAt(saved.ino, state.savedAt);
      if (!gen || !containing.has(gen.id) || (saved.dev !== undefined && saved.dev !== gen.dev)) return false;
      // Born at another time: an earlier file's position (retired, and its inode number given to
      // this generation later), not this one's.
      if (saved.birthtimeMs !== undefined && gen.birthtimeMs !== undefined && Math.abs(saved.birthtimeMs - gen.birthtimeMs) > 1) return false;
      // A generation begun just before the save may not be the one the position was taken in.
      if (state.savedAt - gen.createdAt < 1500 && gen.origin !== 'created') return false;
      // Past all the generation held then: another file's position (a retired file whose inode
      // number the generation was given later), not this one's.
      if (saved.position > this.#heldAt(gen, state.savedAt)) return false;
      return saved.position >= line.offset + line.bytes;
    });
    if (!covering) return undefined;
    const gen = this.#o.files.generationAt(covering.ino, state.savedAt);
    return `inode ${covering.ino} at ${covering.position}, saved at ${seconds(state.savedAt)} s, taken for generation ${gen?.id}`;
  }

  /**
   * What took the lost line away from the followed path: the first rotation after it was
   * written, or, for a line written to a file already rotated away, that rotation.
   */
  #cause(line: LineRecord): string {
    const rotations = this.#containing(line)
      .flatMap((g) => g.events)
      .filter((e) => e.kind === 'left-path' || e.kind === 'copied' || e.kind === 'deleted')
      .sort((a, b) => a.step - b.step);
    const after = rotations.find((e) => e.step >= line.step);
    const before = rotations.filter((e) => e.step < line.step && e.kind !== 'copied').at(-1);
    const when = (condition: string): string => (condition === 'down' || condition === 'stopping' ? 'while down' : condition === 'stalled' ? 'during a stall' : 'while running');
    const name = (kind: string): string => (kind === 'copied' ? 'copytruncate' : kind === 'left-path' ? 'rename' : 'deletion');
    if (before) return `${name(before.kind)} ${when(before.condition)}, written after it`;
    if (after) return `${name(after.kind)} ${when(after.condition)}`;
    const gen = this.#o.files.gens[line.gen]!;
    if (gen.reusedInode) return 'inode reused';
    if (line.partial) return `written in two parts, ${when(line.condition)}`;
    return `written ${when(line.condition)}, never rotated`;
  }

  #genStory(id: number): string {
    const gen = this.#o.files.gens[id]!;
    const story = gen.events.map((e) => `${seconds(e.at)} s ${e.what} [${e.condition}]`).join('; ');
    return `generation ${id}: ${story}`;
  }

  /** Each file's lines in write order within each run, and across runs. */
  #checkOrder(): void {
    const firstIn = new Map<string, Map<LineRecord, Delivery>>();
    for (const [line, deliveries] of this.#deliveries) {
      for (const delivery of deliveries) {
        const key = `${delivery.run}/${line.gen}`;
        const map = firstIn.get(key) ?? new Map<LineRecord, Delivery>();
        if (!map.has(line)) map.set(line, delivery);
        firstIn.set(key, map);
      }
    }
    for (const map of firstIn.values()) {
      const inOutputOrder = [...map].sort((a, b) => a[1].order - b[1].order);
      let highest: LineRecord | undefined;
      const late: { line: LineRecord; delivery: Delivery; after: LineRecord }[] = [];
      for (const [line, delivery] of inOutputOrder) {
        if (highest && line.seq < highest.seq) late.push({ line, delivery, after: highest });
        else highest = line;
      }
      for (const group of groupLines(late, (a, b) => a.after === b.after)) {
        const first = group[0]!;
        this.#problem({
          kind: 'out-of-order',
          count: group.length,
          at: first.delivery.at,
          run: first.delivery.run,
          file: first.line.file,
          seqs: [first.line.seq, group.at(-1)!.line.seq],
          detail: `came after line ${first.after.seq} of the same file (generation ${first.line.gen})`,
        });
      }
    }
    // Across runs: a line first delivered by a later run than a line written after it.
    const firstRun = new Map<LineRecord, number>();
    for (const [line, deliveries] of this.#deliveries) firstRun.set(line, Math.min(...deliveries.map((d) => d.run)));
    for (const gen of this.#o.files.gens) {
      let earliestAfter = Infinity;
      let after: LineRecord | undefined;
      for (let i = gen.lines.length - 1; i >= 0; i--) {
        const line = this.#o.files.lines[gen.file]![gen.lines[i]! - 1]!;
        if (line.gen !== gen.id) continue;
        const run = firstRun.get(line);
        if (run === undefined) continue;
        if (run > earliestAfter) {
          this.#problem({
            kind: 'out-of-order',
            count: 1,
            at: line.writtenAt,
            run,
            file: line.file,
            seqs: [line.seq, line.seq],
            detail: `first delivered by run ${run}, after line ${after!.seq} of the same file came in run ${earliestAfter}`,
          });
        }
        if (run < earliestAfter) {
          earliestAfter = run;
          after = line;
        }
      }
    }
  }

  #checkRuns(): void {
    for (const run of this.#o.runs) {
      const exit = run.exit;
      const wanted = run.endedBy?.signal;
      if (exit && wanted === 'SIGTERM' && exit.signal === 'SIGTERM' && run.endedBy?.caught === false && run.outputBytes === 0) {
        // Sent while Node was still starting (the handler not yet installed): ended by it, nothing read.
        this.#termWhileStarting++;
      } else if (exit && wanted === 'SIGTERM' && (exit.code !== 0 || exit.signal !== null)) {
        this.#problem({ kind: 'exit', count: 1, at: exit.at, run: run.index, detail: `SIGTERM ended it with ${exit.code ?? exit.signal}, not 0 (${stderrTail(run)})` });
      }
      if (exit && wanted === undefined) {
        this.#problem({ kind: 'exit', count: 1, at: exit.at, run: run.index, detail: `exited by itself with ${exit.code ?? exit.signal} (${stderrTail(run)})` });
      }
      const { other } = run.diagnostics();
      if (other.length > 0) {
        this.#problem({ kind: 'stderr', count: other.length, at: run.startedAt, run: run.index, detail: `stderr lines that are not JSON, first: ${excerpt(other[0]!)}` });
      }
    }
    for (const hang of this.#o.hangs) {
      this.#problem({ kind: 'hang', count: 1, at: hang.at, run: hang.run, detail: `did not exit within 30 s of ${hang.signal}; killed` });
    }
  }

  #problem(problem: Problem): void {
    this.#problems.push(problem);
  }
}


/** Consecutive lines of one file (and one generation) that `same` puts together. */
function groupLines<T extends { line: LineRecord }>(items: readonly T[], same: (a: T, b: T) => boolean): T[][] {
  const groups: T[][] = [];
  for (const item of items) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group && last && last.line.file === item.line.file && last.line.gen === item.line.gen && item.line.seq === last.line.seq + 1 && same(last, item)) group.push(item);
    else groups.push([item]);
  }
  return groups;
}

function stderrTail(run: SidecarRun): string {
  const lines = run.stderr.trim().split('\n');
  return `stderr ends: ${excerpt(lines.at(-1) ?? '')}`;
}

export function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

/** Up to 80 characters, escaped so control characters and quotes show as such. */
export function excerpt(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return JSON.stringify(short);
}
