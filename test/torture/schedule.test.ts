/**
 * The torture test's own parts, without the sidecar: schedules are pure and replayable, legal
 * (no rotation while a line is half written, every start after an exit), and the lines say
 * whose they are and what the sidecar must deliver for them.
 */
import test from 'ava';
import { generateSchedule, type ActionName, type Step } from './schedule.js';
import { BANNER_HEAD, expectedContents, hashText, identifyContents, lineBytes, SIZE_RANGES, startsALine, type SizeClass } from './line-content.js';

test('a seed gives the same schedule every time, another seed another one', (t) => {
  t.deepEqual(generateSchedule(7, 22_000), generateSchedule(7, 22_000));
  t.notDeepEqual(generateSchedule(7, 22_000).steps, generateSchedule(8, 22_000).steps);
});

test('the fixed seeds of the CI budget use every action between them', (t) => {
  const used = new Set<ActionName>([1, 2, 3].flatMap((seed) => generateSchedule(seed, 22_000).actions.map((a) => a.name)));
  const all: ActionName[] = [
    'rename-rotate', 'copytruncate', 'copy-over-rotated', 'delete-while-writing', 'delete-recreate-now', 'tiny-file', 'partial-line', 'burst', 'big-lines',
    'stall', 'rotate-during-stall', 'sigterm-restart', 'sigkill-restart', 'sigterm-during-stall', 'restart-during-rotation', 'rotations-while-down',
  ];
  t.deepEqual(all.filter((name) => !used.has(name)), []);
});

/** Replays a schedule's steps against a little state machine and returns what was illegal. */
function illegalSteps(steps: readonly Step[], files: number): string[] {
  const problems: string[] = [];
  let running = false;
  let signalled = false;
  const pending = Array.from({ length: files }, () => false);
  steps.forEach((step, i) => {
    switch (step.op) {
      case 'start':
        if (running && !signalled) problems.push(`${i}: start while running`);
        running = true;
        signalled = false;
        break;
      case 'term':
      case 'kill':
        if (!running) problems.push(`${i}: ${step.op} while not running`);
        signalled = true;
        break;
      case 'wait-exit':
        running = false;
        break;
      case 'partial':
        pending[step.file] = true;
        break;
      case 'finish':
        pending[step.file] = false;
        break;
      case 'rename':
      case 'copy':
      case 'copy-over':
      case 'truncate':
      case 'unlink':
      case 'recreate':
        if (pending[step.file]) problems.push(`${i}: ${step.op} while a line is half written`);
        break;
      default:
    }
  });
  if (!running) problems.push('the sidecar is not running at the end');
  if (pending.some(Boolean)) problems.push('a line is still half written at the end');
  return problems;
}

for (let seed = 1; seed <= 30; seed++) {
  test(`schedule ${seed} is legal`, (t) => {
    const schedule = generateSchedule(seed, 22_000);
    t.deepEqual(illegalSteps(schedule.steps, schedule.settings.types.length), []);
    t.true(schedule.settings.types.length >= 2 && schedule.settings.types.length <= 4);
  });
}

test('lines are named by their start and their end, and hold no @, = or newline in between', (t) => {
  const sizes: SizeClass[] = ['tiny', 'short', 'medium', 'long', 'huge'];
  for (let seq = 1; seq <= 400; seq++) {
    const size = sizes[seq % sizes.length]!;
    const bytes = lineBytes({ seed: 5, file: seq % 4, seq, size, banner: false });
    const [min, max] = SIZE_RANGES[size];
    t.true(bytes.length >= Math.min(min, 14) && bytes.length <= max + 1, `${size}: ${bytes.length}`);
    t.false(bytes.includes(0x0a));
    const text = expectedContents(bytes);
    t.deepEqual(identifyContents(text), { file: seq % 4, seq, by: 'header' });
    t.true(startsALine(text));
    t.false(text.slice(1).includes('@'));
    if (bytes.length >= 24) {
      const tail = text.slice(Math.floor(text.length / 2));
      t.deepEqual(identifyContents(tail), { file: seq % 4, seq, by: 'trailer' });
      t.false(startsALine(tail));
    }
  }
});

test('banner lines share their first KiB across files, and are named by their end', (t) => {
  const a = lineBytes({ seed: 1, file: 0, seq: 1, size: 'short', banner: true });
  const b = lineBytes({ seed: 1, file: 3, seq: 77, size: 'short', banner: true });
  t.true(a.subarray(0, 1024).equals(b.subarray(0, 1024)));
  t.true(a.subarray(0, BANNER_HEAD.length).equals(BANNER_HEAD));
  t.deepEqual(identifyContents(expectedContents(b)), { file: 3, seq: 77, by: 'trailer' });
});

test('the bytes are the same for the same seed and line, and invalid UTF-8 is expected as U+FFFD', (t) => {
  const spec = { seed: 9, file: 1, seq: 42, size: 'long' as const, banner: false };
  t.true(lineBytes(spec).equals(lineBytes(spec)));
  let invalid = 0;
  for (let seq = 1; seq <= 300; seq++) {
    const bytes = lineBytes({ seed: 9, file: 1, seq, size: 'medium', banner: false });
    if (!Buffer.from(expectedContents(bytes)).equals(bytes)) {
      invalid++;
      t.true(expectedContents(bytes).includes('\ufffd'));
    }
  }
  t.true(invalid > 10, `${invalid} lines with invalid UTF-8`);
  t.not(hashText('a'), hashText('b'));
});
