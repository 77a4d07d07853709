/**
 * The servers in one input, each a member of the replica set's story: a pod, from kubectl's
 * `--prefix` (`[pod/NAME/CONTAINER]`) or stern's words in front of its lines, else the input
 * it was read from (one file per pod). Each member counts its lines, warnings, errors and slow
 * operations, and keeps (bounded) its state changes, restarts, elections and errors, from which
 * its lane and who was primary when are derived at the end (member-lanes.ts).
 *
 * Per line: one lookup of the member (the same pod as the line before: a string comparison) and
 * a few counts. The events are kept only on the rare lines that carry them.
 */
import { START_PREAMBLE_MS } from './server-shutdowns.js';
import fs from 'node:fs';
import path from 'node:path';
import { kubeletLogFile } from './kubelet-log-path.js';
import { olderRotationFirst, unrotatedName } from '../follow/rotated-siblings.js';
import { isoString } from './iso-string.js';
import { DENSE_LINES, RepeatedLines, SampledLineOwners } from './repeated-lines.js';
import { DOWN_GAP_MS, DOWN_STATE, laneSegments, primaryTimeline, type MemberRestart, type StateChange } from './member-lanes.js';
import { MAX_MARK_LABEL, markLabel } from './mark-label.js';
import type { Rotation } from './log-rotations.js';
import type { Shutdown } from './server-shutdowns.js';
import type { RecordSource } from './slowest-operations.js';
import type { MemberSummary, ServerSummary } from './summary.js';
import { MAX_MEMBER_ERROR_MARKS, MAX_MEMBER_EVENTS, MAX_MEMBERS, OTHER_MEMBERS } from './summary-limits.js';


/** Election lines closer than this to the member's last one are the same election (a candidate writes three or four). */
const ELECTION_MERGE_MS = 10_000;

/** A member's line this much before its latest time is its clock stepping back (a pause of the log never makes one). */
const CLOCK_STEP_MS = 60_000;

export class MemberStats {
  readonly name: string;
  readonly from: MemberSummary['from'];
  lines = 0;
  warnings = 0;
  errors = 0;
  slowOperations = 0;
  first = Infinity;
  last = -Infinity;
  /** The member's last line before the one in hand (a restart's `before` when no pause came just before it). */
  before = Number.NaN;
  /** Its latest pause of DOWN_GAP_MS or more between two lines: the line before it and the one that ended it. */
  pauseBefore = Number.NaN;
  pauseEnd = Number.NaN;
  /** Its last start line's time and the restart it counted (two start lines within 10 s are one: server-section.ts). */
  lastRestartLine = Number.NEGATIVE_INFINITY;
  lastRestart: { readonly at: number; version: string | null } | undefined;
  /** Its last shutdown (server-shutdowns.ts): a restart after it had one before it. */
  lastShutdown: Shutdown | undefined;
  /** The host its first start line named (4.4+ `attr.host`, a text start's `host=`): the server it is. */
  host: string | undefined;
  /** Its last log rotation (log-rotations.ts): the version and member state its lines said. */
  lastRotation: Rotation | undefined;
  restarts = 0;
  elections = 0;
  stateChanges = 0;
  lastState: string | undefined;
  #lastElection = Number.NEGATIVE_INFINITY;
  readonly changes: StateChange[] = [];
  readonly starts: MemberRestart[] = [];
  /** Lines its log holds twice (repeated-lines.ts): among the sampled lines, and among its first DENSE_LINES lines. */
  readonly repeats = new RepeatedLines();
  readonly denseRepeats = new RepeatedLines();

  /** Whether its lines so far are all among its first DENSE_LINES: what denseRepeats says is of every one. */
  get dense(): boolean {
    return this.lines <= DENSE_LINES;
  }

  /** About how many of its lines came twice: by the sample, else (a small log) by every line; 0 when neither says so. */
  repeatedLines(): number {
    return this.repeats.estimate(this.lines) || (this.dense ? this.denseRepeats.estimate(this.lines) : 0);
  }
  /** Restarts, shutdowns, elections and errors; a restart's words are made at the end (its version is read after its start line). */
  readonly marks: { time: number; kind: 'restart' | 'shutdown' | 'election' | 'error'; label: string; restart?: { readonly version: string | null; readonly atLogStart: boolean } }[] = [];
  #errorMarks = 0;
  /** Events past MAX_MEMBER_EVENTS (or errors past MAX_MEMBER_ERROR_MARKS): counted, not kept. */
  dropped = 0;

  constructor(name: string, from: MemberSummary['from']) {
    this.name = name;
    this.from = from;
  }

  /** Every server line of the member: its time (NaN or undefined: none); `warning`: its level is warn. */
  line(time: number | undefined, warning: boolean): void {
    this.lines++;
    // Past its first lines, every line is no longer looked at: what they said is not asked.
    if (this.lines === DENSE_LINES + 1) this.denseRepeats.clear();
    if (warning) this.warnings++;
    if (time === undefined || Number.isNaN(time)) return;
    // A step from the line before: one clock set back is one step, whatever the lines after it.
    if (time < this.#previous - CLOCK_STEP_MS) this.#clockStep(time);
    this.#previous = time;
    this.before = this.last;
    if (time - this.last >= DOWN_GAP_MS) {
      this.pauseBefore = this.last;
      this.pauseEnd = time;
    }
    if (time < this.first) this.first = time;
    if (time > this.last) this.last = time;
  }

  /** Its lines' times stepped back from one line to the next by CLOCK_STEP_MS or more (its clock set back, or a forward jump set right): how often, the first, the largest. */
  clockSteps: { count: number; readonly at: number; back: number } | undefined;

  #previous = Number.NaN;

  #clockStep(time: number): void {
    const back = this.#previous - time;
    if (this.clockSteps) {
      this.clockSteps.count++;
      this.clockSteps.back = Math.max(this.clockSteps.back, back);
    } else this.clockSteps = { count: 1, at: time, back };
  }

  /**
   * A start of the server (the first start line of a restart); `restart`: the summary's, whose
   * version may be known later. One at its log's start (`atLogStart`) is marked, not counted a
   * restart.
   */
  /**
   * When a start at `at` found it down since: the line before the pause the start's own lines
   * came after, not the last of those (NaN: no line before it).
   */
  downSince(at: number): number {
    const before = at - this.pauseEnd <= START_PREAMBLE_MS ? this.pauseBefore : this.before;
    return Number.isFinite(before) ? before : Number.NaN;
  }

  restart(time: number | undefined, restart: { readonly at: number; version: string | null; readonly atLogStart: boolean }): void {
    if (!restart.atLogStart) this.restarts++;
    this.lastRestart = restart;
    // Up again: what it was before (down, after a shutdown's end) is over; its state is not known until a line says it.
    this.lastState = undefined;
    const at = time ?? Number.NaN;
    if (this.#room()) {
      const before = this.downSince(at);
      this.starts.push({ time: at, before });
      this.marks.push({ time: at, kind: 'restart', label: restart.atLogStart ? 'start' : 'restart', restart });
    }
  }

  /** A shutdown's first line (a signal, the shutdown command, or its end alone): marked on the lane. */
  shutdown(time: number | undefined, label: string): void {
    if (time === undefined || Number.isNaN(time)) return;
    if (this.#room()) this.marks.push({ time, kind: 'shutdown', label: markLabel(label) });
  }

  state(time: number | undefined, from: string | undefined, to: string): void {
    this.stateChanges++;
    this.lastState = to;
    if (this.#room()) this.changes.push({ time: time ?? Number.NaN, from, to });
  }

  /**
   * Its state as a line said it, not as a change (a log rotation's `Replica Set Member State`):
   * its lane is in that state from then (not before: what it was before is not said), and it is
   * its last state; no state change is counted.
   */
  stateSaid(time: number | undefined, state: string): void {
    this.lastState = state;
    if (this.#room()) this.changes.push({ time: time ?? Number.NaN, from: undefined, to: state });
  }

  /** An election line (isElectionMessage): a new election unless within ELECTION_MERGE_MS of the last one, whose words it adds to. */
  election(time: number | undefined, message: string): void {
    const at = time ?? Number.NaN;
    const last = this.marks.findLast((m) => m.kind === 'election');
    // Merged only into a kept election within the window (once the kept events are used up,
    // a new election is counted, not kept: its words must not go to an older one).
    if (last && at - this.#lastElection < ELECTION_MERGE_MS && at - last.time < ELECTION_MERGE_MS) {
      if (last.label.length < MAX_MARK_LABEL) last.label = markLabel(`${last.label}; ${message}`);
    } else {
      this.elections++;
      if (this.#room()) this.marks.push({ time: at, kind: 'election', label: markLabel(message) });
    }
    this.#lastElection = at;
  }

  /**
   * An error or fatal line (its count is kept by `errors`): marked while there is room; past it,
   * in place of the error marked last, so that the member's last words (its fatal line after
   * hundreds of errors) are on its lane.
   */
  error(time: number | undefined, label: string): void {
    this.errors++;
    if (time === undefined || Number.isNaN(time)) return;
    const mark = { time, kind: 'error' as const, label: markLabel(label) };
    if (this.#errorMarks < MAX_MEMBER_ERROR_MARKS && this.#room()) {
      this.#errorMarks++;
      this.#lastErrorMark = this.marks.length;
      this.marks.push(mark);
    } else {
      this.dropped++;
      if (this.#lastErrorMark !== undefined) this.marks[this.#lastErrorMark] = mark;
    }
  }

  /** Where the error marked last is among the marks. */
  #lastErrorMark: number | undefined;

  #room(): boolean {
    if (this.changes.length + this.marks.length < MAX_MEMBER_EVENTS) return true;
    this.dropped++;
    return false;
  }

  summary(): MemberSummary {
    const first = Number.isFinite(this.first) ? this.first : Number.NaN;
    const last = Number.isFinite(this.last) ? this.last : Number.NaN;
    return {
      name: this.name,
      from: this.from,
      first: isoString(first) ?? null,
      last: isoString(last) ?? null,
      lines: this.lines,
      warnings: this.warnings,
      errors: this.errors,
      slowOperations: this.slowOperations,
      restarts: this.restarts,
      elections: this.elections,
      stateChanges: this.stateChanges,
      lastState: this.lastState ?? null,
      lane: laneSegments(first, last, this.changes, this.starts).map((s) => ({ from: isoString(s.from)!, to: isoString(s.to)!, state: s.state })),
      events: this.marks
        .filter((m) => !Number.isNaN(m.time))
        .sort((a, b) => a.time - b.time)
        .map((m) => ({ time: isoString(m.time)!, kind: m.kind, label: m.restart?.version ? `${m.label} (v${m.restart.version})` : m.label })),
      eventsNotKept: this.dropped,
    };
  }
}

/** The member a pod's prefix names: kubectl's `pod/NAME/CONTAINER` its NAME; stern's `POD CONTAINER` its POD, `NAMESPACE POD CONTAINER` its `NAMESPACE/POD`. */
export function memberOfPrefix(source: string): string {
  if (source.startsWith('pod/')) {
    const end = source.indexOf('/', 4);
    return end === -1 ? source.slice(4) : source.slice(4, end);
  }
  const words = source.split(' ');
  return words.length >= 3 ? `${words[0]}/${words[1]}` : words[0]!;
}

/**
 * An input's name as a member: the file's name without `.gz`, `.log`, `.json` or `.txt`; stdin's
 * `stdin`. Where other inputs of `all` (every input given) share that name (each pod's log
 * copied out as `my-db-0/mongodb.log`, `my-db-1/mongodb.log`), each of them is named with the
 * fewest of its directories that tell it apart (`my-db-0/mongodb`), or as given when none do.
 */
export function memberOfInput(input: string, all: readonly string[] = [input]): string {
  if (input === '-') return 'stdin';
  // The kubelet's file of a container's log (`…/NAMESPACE_POD_UID/CONTAINER/0.log`): its pod,
  // with its namespace when another input's pod of that name is in another.
  const kubelet = kubeletLogFile(input);
  if (kubelet) {
    const namesakes = all.map(kubeletLogFile).filter((other) => other?.pod === kubelet.pod && other.namespace !== kubelet.namespace);
    return namesakes.length > 0 ? `${kubelet.namespace}/${kubelet.pod}` : kubelet.pod;
  }
  const partsOf = (file: string): string[] => path.normalize(file).split(path.sep).filter((p) => p !== '' && p !== '.');
  const nameOf = (parts: readonly string[], depth: number): string =>
    [...parts.slice(Math.max(0, parts.length - depth), -1), (parts.at(-1) ?? '').replace(/\.gz$/, '').replace(/\.(log|json|txt)$/, '')].join('/');
  const mine = partsOf(unrotatedInput(input, all));
  const key = mine.join('/');
  const others = [...new Set(all.filter((file) => file !== '-').map((file) => unrotatedInput(file, all)))].map(partsOf).filter((parts) => parts.join('/') !== key);
  for (let depth = 1; depth <= mine.length; depth++) {
    const name = nameOf(mine, depth);
    if (!others.some((parts) => nameOf(parts, depth) === name)) return name || input;
  }
  return input;
}

/**
 * The file an input's lines were written to: a rotated file's (`my-db-0/mongodb.log.1.gz`,
 * `…/mongodb.log.2026-11-20T10-23-09`) is the file it was rotated from (unrotatedName, against
 * the other inputs in its directory), so a server's rotated logs and its current log, read
 * together, are one member.
 */
export function unrotatedInput(input: string, all: readonly string[]): string {
  if (input === '-') return input;
  const { byInput, namesIn } = inputFiles(all);
  return byInput.get(input) ?? unrotatedAmong(input, namesIn);
}

/** The file `file` was rotated from, by the names beside it (`namesIn`: a directory's names). */
function unrotatedAmong(file: string, namesIn: ReadonlyMap<string, readonly string[]>): string {
  const dir = path.dirname(path.normalize(file));
  const base = unrotatedName(path.basename(file), namesIn.get(dir) ?? []);
  return base === undefined ? file : path.join(dir, base);
}

/**
 * A list of inputs' names by directory, and each input's unrotatedInput, found once a list: a
 * summary asks of every input against the whole list (memberOfInput), so each answer made anew
 * took time growing with the cube of the inputs (600 files: 10 s).
 */
const inputFilesOf = new WeakMap<readonly string[], { readonly byInput: ReadonlyMap<string, string>; readonly namesIn: ReadonlyMap<string, readonly string[]> }>();
function inputFiles(all: readonly string[]): { readonly byInput: ReadonlyMap<string, string>; readonly namesIn: ReadonlyMap<string, readonly string[]> } {
  const known = inputFilesOf.get(all);
  if (known) return known;
  const namesIn = new Map<string, string[]>();
  for (const file of all) {
    if (file === '-') continue;
    const dir = path.dirname(path.normalize(file));
    const names = namesIn.get(dir);
    if (names) names.push(path.basename(file));
    else namesIn.set(dir, [path.basename(file)]);
  }
  const byInput = new Map<string, string>();
  for (const file of all) if (file !== '-' && !byInput.has(file)) byInput.set(file, unrotatedAmong(file, namesIn));
  const files = { byInput, namesIn };
  inputFilesOf.set(all, files);
  return files;
}

/**
 * The inputs in the order their lines were written, as summary reads them: a file's rotations
 * (unrotatedInput) before it, the oldest first (`.2` before `.1`; mongod's and dateext's dated
 * names by their date); the files of one member where the first of them was given. A shell's
 * glob gives `mongodb.log` before `mongodb.log.1`: read so, a member's last state would be its
 * older file's, and a connection would end before it opened.
 */
export function writtenOrder(inputs: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const input of inputs) {
    const target = input === '-' ? `-\u0000${groups.size}` : unrotatedInput(input, inputs);
    const group = groups.get(target);
    if (group) group.push(input);
    else groups.set(target, [input]);
  }
  const older = (a: string, b: string): number => olderRotationFirst(path.basename(a), path.basename(b));
  const inOrder = (target: string, files: readonly string[]): string[] => [...files.filter((f) => f !== target).sort(older), ...files.filter((f) => f === target)];
  // A pod's container logs the kubelet kept (`0.log`, `1.log` after a restart; the links in
  // /var/log/containers, named by random container ids; a pod made again under a new uid): by
  // when each was last written, then by restart count, where the first of them was given.
  const ofPod = new Map<string, { readonly target: string; readonly restart: number; readonly mtimeMs: number }[]>();
  for (const target of groups.keys()) {
    const kubelet = kubeletLogFile(target);
    if (!kubelet) continue;
    const pod = `${kubelet.namespace}/${kubelet.pod}`;
    const file = { target, restart: kubelet.restart ?? 0, mtimeMs: mtimeOf(target) };
    const list = ofPod.get(pod);
    if (list) list.push(file);
    else ofPod.set(pod, [file]);
  }
  const done = new Set<string>();
  const ordered: string[] = [];
  for (const target of groups.keys()) {
    if (done.has(target)) continue;
    const kubelet = kubeletLogFile(target);
    const files = kubelet ? ofPod.get(`${kubelet.namespace}/${kubelet.pod}`)! : [{ target, restart: 0, mtimeMs: 0 }];
    for (const { target: next } of [...files].sort((a, b) => a.mtimeMs - b.mtimeMs || a.restart - b.restart)) {
      done.add(next);
      ordered.push(...inOrder(next, groups.get(next)!));
    }
  }
  return ordered;
}

/** A file's last modification (0 when it cannot be had: its place is then the restart count's). */
function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** What makes an input's lines one member's: the file it was rotated from; a kubelet's container log, its pod. */
function inputMemberKey(input: string, all: readonly string[]): string {
  const kubelet = kubeletLogFile(input);
  return kubelet ? `kubelet\u0000${kubelet.namespace}/${kubelet.pod}` : unrotatedInput(input, all);
}

export class ReplicaMembers {
  readonly #members = new Map<string, MemberStats>();
  readonly #owners = new SampledLineOwners<MemberStats>();
  readonly #denseOwners = new SampledLineOwners<MemberStats>();
  #input = '-';
  #inputMember: MemberStats | undefined;
  #lastSource: string | undefined;
  #lastMember: MemberStats | undefined;

  #inputs: readonly string[] = [];

  /** The next lines are read from this input (a file as given, `-`: stdin), one of `all`, every input given. */
  input(name: string, all: readonly string[] = [name]): void {
    this.#input = name;
    this.#inputs = all;
    this.#inputMember = undefined;
  }

  /** The member a server line belongs to: its pod when its prefix names one, else its input's. */
  of(source: RecordSource | undefined): MemberStats {
    const pod = source?.prefix?.source;
    if (pod === undefined) return (this.#inputMember ??= this.#member(`input\u0000${inputMemberKey(this.#input, this.#inputs)}`, () => this.#inputName(), 'input'));
    if (pod === this.#lastSource) return this.#lastMember!;
    const member = this.#member(`pod\u0000${memberOfPrefix(pod)}`, () => memberOfPrefix(pod), 'pod');
    this.#lastSource = pod;
    this.#lastMember = member;
    return member;
  }

  #member(key: string, name: () => string, from: MemberSummary['from']): MemberStats {
    const known = this.#members.get(key);
    if (known) return known;
    // Past MAX_MEMBERS, one shared member (itself not counted against the limit).
    if (key !== OTHER_MEMBERS && this.#members.size >= MAX_MEMBERS) return this.#member(OTHER_MEMBERS, () => OTHER_MEMBERS, from);
    const member = new MemberStats(name(), from);
    this.#members.set(key, member);
    return member;
  }

  /** The input's name as a member; a second input of that name is named by its path as given. */
  #inputName(): string {
    const name = memberOfInput(this.#input, this.#inputs);
    return [...this.#members.values()].some((m) => m.name === name) ? this.#input : name;
  }

  /**
   * A server line of `member` that is sampled (isSampled) or among its first DENSE_LINES
   * (`member.dense`), by its key: repeats within its log, and its lines seen in another member's first.
   */
  sampledLine(member: MemberStats, key: string, time: number, sampled: boolean): void {
    if (sampled) {
      member.repeats.line(key, time);
      this.#owners.line(key, member);
    }
    if (member.dense) {
      member.denseRepeats.line(key, time);
      this.#denseOwners.line(key, member);
    }
  }

  /** The member whose log `member`'s is again, under another name (by the sample, else by every line of a small log); undefined when none. */
  #copyOf(member: MemberStats): MemberStats | undefined {
    const copyOf = this.#owners.copyOf(member, member.repeats.sampled) ?? (member.dense ? this.#denseOwners.copyOf(member, member.denseRepeats.sampled) : undefined);
    return copyOf?.name === OTHER_MEMBERS ? undefined : copyOf;
  }

  /** The members and who was primary when; undefined for one member (or none): the rest of the summary is its story. */
  summary(): Pick<ServerSummary, 'members' | 'primaries'> | undefined {
    if (this.#members.size < 2) return undefined;
    const members = [...this.#members.values()].sort((a, b) => (a.name === OTHER_MEMBERS ? 1 : b.name === OTHER_MEMBERS ? -1 : a.name.localeCompare(b.name, 'en', { numeric: true })));
    // A member that is another's log again claims what that one claims: left out of who was
    // primary when, it makes no second primary (said in repeatedLines).
    const lanes = members
      .filter((m) => m.name !== OTHER_MEMBERS && this.#copyOf(m) === undefined)
      .map((m) => ({ member: m.name, segments: laneSegments(m.first, m.last, m.changes, m.starts), exited: m.lastState === DOWN_STATE }));
    return {
      members: members.map((m) => m.summary()),
      primaries: primaryTimeline(lanes).map((p) => ({ from: isoString(p.from)!, to: isoString(p.to)!, primaries: p.primaries, unknown: p.unknown, ...(p.uncovered ? { uncovered: p.uncovered } : {}) })),
    };
  }

  /** Members whose log holds lines twice, and about how many, or that are another member's log again: every count includes them twice. */
  repeated(): NonNullable<ServerSummary['repeatedLines']> {
    const repeated: { member: string; lines: number; sameAs?: string }[] = [];
    for (const member of this.#members.values()) {
      const copyOf = member.name === OTHER_MEMBERS ? undefined : this.#copyOf(member);
      if (copyOf) repeated.push({ member: member.name, lines: member.lines, sameAs: copyOf.name });
      else if (member.repeatedLines() > 0) repeated.push({ member: member.name, lines: member.repeatedLines() });
    }
    return repeated;
  }

  /** Members whose lines' times stepped back (a clock set back, a forward jump set right): their lanes are unsure there. */
  clockSteps(): NonNullable<ServerSummary['clockSteps']> {
    // Not the shared row past MAX_MEMBERS: its members' lines interleave.
    return [...this.#members.values()]
      .filter((m) => m.clockSteps !== undefined && m.name !== OTHER_MEMBERS)
      .map((m) => ({ member: m.name, at: isoString(m.clockSteps!.at)!, backMillis: m.clockSteps!.back, count: m.clockSteps!.count }));
  }

  /**
   * Inputs that are one server (their start lines name one host): `kubectl logs --previous` and
   * the current log saved as two files, read as two members. Pods are never grouped: a pod's
   * name is its host's.
   */
  sameServer(): NonNullable<ServerSummary['sameServer']> {
    const byHost = new Map<string, MemberStats[]>();
    for (const m of this.#members.values()) {
      if (m.from !== 'input' || m.host === undefined || m.name === OTHER_MEMBERS) continue;
      const same = byHost.get(m.host);
      if (same) same.push(m);
      else byHost.set(m.host, [m]);
    }
    // One server's logs follow each other; two whose times overlap are two servers of one name (two clusters').
    const apart = (members: MemberStats[]): boolean => {
      const byTime = [...members].sort((a, b) => a.first - b.first);
      return byTime.every((m, i) => i === 0 || m.first >= byTime[i - 1]!.last);
    };
    return [...byHost].filter(([, members]) => members.length > 1 && apart(members)).map(([host, members]) => ({ host, members: members.map((m) => m.name) }));
  }

  /** Whether lines came from two members or more (events then name theirs). */
  get several(): boolean {
    return this.#members.size >= 2;
  }
}
