/**
 * The oracle's rules, one table row each: real files written through LogFiles (so the model is
 * the one the torture test builds), and sidecar outputs made by hand (the judge reads only the
 * runs' bytes, signals and saved states).
 */
import test from 'ava';
import { tempDir } from '../_helpers/sidecar-process.js';
import type { Observation } from './interpreter.js';
import { expectedContents, lineBytes } from './line-content.js';
import { LogFiles, type LineRecord } from './log-files.js';
import { judge, type Verdict } from './oracle.js';
import { settingsFor, type Schedule } from './schedule.js';
import type { SidecarRun, StateOnDisk } from './sidecar-run.js';

const TYPES = ['mongodb', 'automation-agent'];

interface World {
  readonly files: LogFiles;
  readonly schedule: Schedule;
}

function world(write: (files: LogFiles, stop: () => void) => void): World {
  const settings = { ...settingsFor(1, 1000), types: TYPES, fromStart: false };
  let condition: 'up' | 'down' = 'up';
  let now = 0;
  const files = new LogFiles({
    dir: tempDir('oracle'),
    types: TYPES,
    seed: settings.seed,
    rotateWaitMs: 1000,
    // Half a second passes at every look at the clock: writes, copies and deliveries are far apart.
    clock: () => (now += 500),
    condition: () => condition,
    sidecarHolds: () => condition === 'up',
  });
  // `stop` marks what follows as done while the sidecar is down.
  write(files, () => (condition = 'down'));
  files.close();
  return { files, schedule: { settings, steps: [], actions: [] } };
}

/** The entry the sidecar must write for a line. */
function entry(files: LogFiles, line: LineRecord, logType = TYPES[line.file]!): string {
  const contents = expectedContents(lineBytes({ seed: 1, file: line.file, seq: line.seq, size: line.size, banner: line.banner }));
  return `${JSON.stringify({ logType, contents })}\n`;
}

interface RunSpec {
  readonly output: string;
  readonly signal?: 'SIGTERM' | 'SIGKILL';
  readonly state?: StateOnDisk;
  /** When the signal came (ms on the files' clock); by default long after every write. */
  readonly endedAt?: number;
  /** A SIGTERM that ended it by the signal itself (Node's default), and whether SIGTERM was caught when sent. */
  readonly killedByTerm?: { readonly caught: boolean };
}

function verdictOf(w: World, runs: readonly RunSpec[], stalls: Observation['stalls'] = []): Verdict {
  const made = runs.map(
    (spec, index) =>
      ({
        index,
        chunks: [Buffer.from(spec.output)],
        arrivals: [{ offset: 0, at: 1e6 + index }],
        arrivalOf: () => 1e6 + index,
        startedAt: index,
        firstDiagnosticAt: index,
        startedStep: 0,
        hadState: true,
        endedBy: { signal: spec.signal ?? 'SIGTERM', at: spec.endedAt ?? 2e6 + index, step: 0, stalled: false, caught: spec.killedByTerm?.caught ?? true },
        exit:
          spec.signal === 'SIGKILL' || spec.killedByTerm
            ? { code: null, signal: spec.signal ?? 'SIGTERM', at: spec.endedAt ?? 2e6 + index }
            : { code: 0, signal: null, at: spec.endedAt ?? 2e6 + index },
        outputBytes: Buffer.byteLength(spec.output),
        stateAtExit: spec.state,
        stderr: '',
        diagnostics: () => ({ json: [], other: [] }),
      }) as unknown as SidecarRun,
  );
  const observation: Observation = {
    schedule: w.schedule,
    sidecar: 'test',
    dir: '',
    stateFile: '',
    files: w.files,
    runs: made,
    records: [],
    stalls,
    hangs: [],
    elapsedMs: 100,
  };
  return judge(observation);
}

const kinds = (v: Verdict): string[] => v.problems.map((p) => `${p.kind} ${p.count}`);

const tenLines = (): World =>
  world((files) => {
    files.reopen(0, false);
    files.write(0, 10, 'short');
  });

test('every line once, in order: passed', (t) => {
  const w = tenLines();
  const v = verdictOf(w, [{ output: w.files.lines[0]!.map((l) => entry(w.files, l)).join('') }]);
  t.deepEqual(kinds(v), []);
  t.is(v.figures.delivered, 10);
});

test('a line missing is lost, named by its number', (t) => {
  const w = tenLines();
  const v = verdictOf(w, [{ output: w.files.lines[0]!.filter((l) => l.seq !== 4).map((l) => entry(w.files, l)).join('') }]);
  t.deepEqual(kinds(v), ['lost 1']);
  t.deepEqual(v.problems[0]!.seqs, [4, 4]);
});

test('a line twice in one run is repeated; two lines swapped are out of order', (t) => {
  const w = tenLines();
  const lines = w.files.lines[0]!;
  const twice = [...lines, lines[9]!].map((l) => entry(w.files, l)).join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: twice }])), ['repeated 1']);
  const swapped = [lines[1]!, lines[0]!, ...lines.slice(2)].map((l) => entry(w.files, l)).join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: swapped }])), ['out-of-order 1']);
});

test('after SIGKILL, lines after the last save may come again; lines the save covered may not', (t) => {
  const w = tenLines();
  const lines = w.files.lines[0]!;
  const gen = w.files.gens[0]!;
  const savedAfter = (n: number): StateOnDisk => ({ savedAt: 1e6, positions: [{ path: undefined, ino: gen.ino, dev: gen.dev, position: lines[n - 1]!.offset + lines[n - 1]!.bytes }] });
  const first = lines.map((l) => entry(w.files, l)).join('');
  const again = lines.slice(5).map((l) => entry(w.files, l)).join('');
  const allowed = verdictOf(w, [{ output: first, signal: 'SIGKILL', state: savedAfter(5) }, { output: again }]);
  t.deepEqual(kinds(allowed), []);
  t.is(allowed.figures.repeatedAfterKill, 5);
  t.deepEqual(kinds(verdictOf(w, [{ output: first, signal: 'SIGKILL', state: savedAfter(8) }, { output: again }])), ['repeated 3']);
  t.deepEqual(kinds(verdictOf(w, [{ output: first }, { output: again }])), ['repeated 5']);
});

test('a line that is not JSON, of the wrong type, or with other contents is named as such', (t) => {
  const w = tenLines();
  const lines = w.files.lines[0]!;
  const output = [
    ...lines.slice(0, 8).map((l) => entry(w.files, l)),
    entry(w.files, lines[8]!, 'automation-agent'),
    '{"logType":"mongodb","contents":"@0.a.00000000 damaged"}\n',
    '{"logType":"mongodb","contents":"cut\n',
  ].join('');
  t.deepEqual(kinds(verdictOf(w, [{ output }])).sort(), ['damaged 1', 'invalid-json 1', 'lost 1', 'wrong-type 1']);
});

test('pieces marked partial are joined per type; a new line inside them is an interleaving', (t) => {
  const w = world((files) => {
    files.reopen(0, false);
    files.write(0, 2, 'long');
    files.reopen(1, false);
    files.write(1, 1, 'short');
  });
  const [a, b] = w.files.lines[0]!.map((l) => JSON.parse(entry(w.files, l)) as { contents: string });
  const other = entry(w.files, w.files.lines[1]![0]!);
  const piece = (contents: string, partial: boolean): string => `${JSON.stringify({ logType: 'mongodb', contents, ...(partial ? { partial } : {}) })}\n`;
  const joined = [piece(a!.contents.slice(0, 1000), true), other, piece(a!.contents.slice(1000), false), piece(b!.contents, false)].join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: joined }])), []);
  const broken = [piece(a!.contents.slice(0, 1000), true), piece(b!.contents, false), other].join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: broken }])).sort(), ['damaged 1', 'interleaved 1', 'lost 1']);
});

test('lines written between copytruncate\'s copy and its truncate are not owed; the others are', (t) => {
  const w = world((files) => {
    files.reopen(0, false);
    files.write(0, 5, 'short');
    files.copy(0);
    files.write(0, 3, 'short');
    files.truncate(0);
    files.write(0, 2, 'short');
  });
  const lines = w.files.lines[0]!;
  const output = [...lines.slice(0, 5), ...lines.slice(8)].map((l) => entry(w.files, l)).join('');
  const v = verdictOf(w, [{ output }]);
  t.deepEqual(kinds(v), []);
  t.is(v.figures.destroyed, 3);
  const missingFromCopy = [...lines.slice(0, 4), ...lines.slice(8)].map((l) => entry(w.files, l)).join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: missingFromCopy }])), ['lost 1']);
});

test('a file deleted while the sidecar held it, then a SIGKILL: its lines are owed only if the reader took output for long enough before the kill', (t) => {
  const w = world((files) => {
    files.reopen(0, false);
    files.write(0, 10, 'short');
    files.unlink(0);
  });
  const gen = w.files.gens[0]!;
  t.true(gen.unlinked?.held);
  const killedAt = gen.unlinked!.at + 10_000;
  // Soak seed 666679159: the reader stalled from before the lines until 10 ms before the kill.
  const stalledToTheKill = verdictOf(w, [{ output: '', signal: 'SIGKILL', endedAt: killedAt }], [{ from: 0, to: killedAt - 10 }]);
  t.deepEqual(kinds(stalledToTheKill), []);
  t.is(stalledToTheKill.figures.unreachable, 10);
  // The reader back 5 s before the kill: the run had time to send them; not sending them is a loss.
  const backInTime = verdictOf(w, [{ output: '', signal: 'SIGKILL', endedAt: killedAt }], [{ from: 0, to: killedAt - 5000 }]);
  t.deepEqual(kinds(backInTime), ['lost 10']);
});

// Soak seed 1565655533: a retired file's saved position, on an inode number a later file was
// given, was taken for the later file's, and repeats after a SIGKILL of lines past the save were
// called repeats the save forbade.
test('a saved position of an earlier file on the same inode number, told by its birth time, covers nothing of the later file', (t) => {
  const w = tenLines();
  const lines = w.files.lines[0]!;
  const gen = w.files.gens[0]!;
  if (gen.birthtimeMs === undefined) {
    t.log('this file system keeps no birth times: the rule has nothing to compare here');
    t.pass();
    return;
  }
  const savedAfter8 = (birthtimeMs: number): StateOnDisk => ({
    savedAt: 1e6,
    positions: [{ path: undefined, ino: gen.ino, dev: gen.dev, position: lines[7]!.offset + lines[7]!.bytes, birthtimeMs }],
  });
  const first = lines.map((l) => entry(w.files, l)).join('');
  const again = lines.slice(5).map((l) => entry(w.files, l)).join('');
  t.deepEqual(kinds(verdictOf(w, [{ output: first, signal: 'SIGKILL', state: savedAfter8(gen.birthtimeMs) }, { output: again }])), ['repeated 3']);
  t.deepEqual(kinds(verdictOf(w, [{ output: first, signal: 'SIGKILL', state: savedAfter8(gen.birthtimeMs - 5000) }, { output: again }])), []);
});

// Soak seed 1565655547: a long line's first piece left before a SIGKILL while the reader
// stalled; its rest was written to a file deleted while the sidecar was down.
test('a line whose first pieces left before a SIGKILL and whose rest no run could read: the pieces are all that was owed', (t) => {
  const w = world((files) => {
    files.reopen(0, false);
    files.write(0, 2, 'short');
    files.writePartial(0, 'long', 0.5);
    files.finishPartial(0);
    files.unlink(0);
  });
  const lines = w.files.lines[0]!;
  const gen = w.files.gens[0]!;
  const killedAt = gen.unlinked!.at + 10_000;
  const long = JSON.parse(entry(w.files, lines[2]!)) as { contents: string };
  const output = `${entry(w.files, lines[0]!)}${entry(w.files, lines[1]!)}${JSON.stringify({ logType: 'mongodb', contents: long.contents.slice(0, 1000), partial: true })}\n`;
  const stalledToTheKill = verdictOf(w, [{ output, signal: 'SIGKILL', endedAt: killedAt }], [{ from: 0, to: killedAt - 10 }]);
  t.deepEqual(kinds(stalledToTheKill), []);
  // The reader back long before the kill: its rest was there to send; the line is lost, its piece alone damage.
  const backInTime = verdictOf(w, [{ output, signal: 'SIGKILL', endedAt: killedAt }], [{ from: 0, to: killedAt - 5000 }]);
  t.deepEqual(kinds(backInTime).sort(), ['damaged 1', 'lost 1']);
});

test('a tiny line\'s first bytes, too few for its header, sent unfinished at a SIGTERM: the line they begin, not an unidentified entry', (t) => {
  let stoppedAt = 0;
  const w = world((files, stop) => {
    files.reopen(0, false);
    files.write(0, 2, 'short');
    files.writePartial(0, 'tiny', 0.1);
    stoppedAt = files.lines[0]![2]!.partial!.at + 1;
    stop();
    files.finishPartial(0);
    files.unlink(0);
  });
  const lines = w.files.lines[0]!;
  const tiny = JSON.parse(entry(w.files, lines[2]!)) as { contents: string };
  const start = tiny.contents.slice(0, 2);
  t.is(start, '@0', 'fewer characters than the header');
  const piece = `${JSON.stringify({ logType: 'mongodb', contents: start, partial: true })}\n`;
  const whole = `${entry(w.files, lines[0]!)}${entry(w.files, lines[1]!)}`;
  // Its rest finished and deleted while down, before any run could read it: the start was all that was owed.
  const restUnreachable = verdictOf(w, [{ output: whole + piece, signal: 'SIGTERM', endedAt: stoppedAt }, { output: '' }]);
  t.deepEqual(kinds(restUnreachable), []);
  t.is(restUnreachable.figures.unidentified, 0);
  t.is(restUnreachable.figures.restNotOwed, 1);
  // Its rest delivered by the next run as the line's last piece: joined across the stop, as documented.
  const rest = `${JSON.stringify({ logType: 'mongodb', contents: tiny.contents.slice(2) })}\n`;
  const restAfterRestart = verdictOf(w, [{ output: whole + piece, signal: 'SIGTERM', endedAt: stoppedAt }, { output: rest }]);
  t.deepEqual(kinds(restAfterRestart), []);
  t.is(restAfterRestart.figures.delivered, 3);
  t.is(restAfterRestart.figures.pieces, 2);
});

// Soak seed 1939787849: a SIGTERM 0.96 s after a start on a loaded machine came before Node had
// run the sidecar's first line (the handler was not installed): Node's default ended it.
test('a SIGTERM that ends it by the signal: allowed only while Node was starting (SIGTERM not caught yet, nothing written)', (t) => {
  const w = tenLines();
  const all = w.files.lines[0]!.map((l) => entry(w.files, l)).join('');
  const starting = verdictOf(w, [{ output: '', killedByTerm: { caught: false } }, { output: all }]);
  t.deepEqual(kinds(starting), []);
  t.is(starting.figures.termWhileStarting, 1);
  t.deepEqual(kinds(verdictOf(w, [{ output: '', killedByTerm: { caught: true } }, { output: all }])), ['exit 1']);
});
