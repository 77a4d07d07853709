/** How the oracle reads the runs' outputs: pieces joined per type, across runs. */
import test from 'ava';
import { readOutput } from './output-entries.js';
import type { SidecarRun } from './sidecar-run.js';

const piece = (contents: string, partial = true): string => `${JSON.stringify({ logType: 'mongodb', contents, ...(partial ? { partial: true } : {}) })}\n`;

function run(index: number, output: string, signal: 'SIGTERM' | 'SIGKILL'): SidecarRun {
  return {
    index,
    chunks: [Buffer.from(output)],
    arrivalOf: () => index,
    endedBy: { signal, at: index, step: 0, stalled: false },
  } as unknown as SidecarRun;
}

test('a line a SIGKILLed run left in pieces goes on in the next run from the last save: the pieces sent again are dropped from the join, and counted', (t) => {
  const output = readOutput([run(0, piece('@aaa ') + piece('bbb ') + piece('ccc '), 'SIGKILL'), run(1, piece('bbb ') + piece('ccc ') + piece('ddd', false), 'SIGTERM')]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb ccc ddd'],
  );
  t.is(output.piecesAgain, 2);
});

test('after a SIGTERM nothing is dropped: the next run goes on where the stop left the line', (t) => {
  const output = readOutput([run(0, piece('@aaa ') + piece('bbb '), 'SIGTERM'), run(1, piece('bbb ') + piece('ddd', false), 'SIGTERM')]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb bbb ddd'],
  );
  t.is(output.piecesAgain, 0);
});

test('a line a SIGKILLed run finished, whose last save was inside it: the next run sends its last pieces again, dropped from the join and counted', (t) => {
  const output = readOutput([
    run(0, piece('@aaa ') + piece('bbb ') + piece('ccc', false) + piece('@next', false), 'SIGKILL'),
    run(1, piece('bbb ') + piece('ccc', false) + piece('@after', false), 'SIGTERM'),
  ]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb ccc', '@next', '@after'],
  );
  t.is(output.piecesAgain, 2);
});

test('the same pieces after a SIGTERM are not taken for a repeat: they stay, and the oracle judges them', (t) => {
  const output = readOutput([run(0, piece('@aaa ') + piece('bbb ') + piece('ccc', false), 'SIGTERM'), run(1, piece('bbb ') + piece('ccc', false), 'SIGTERM')]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb ccc', 'bbb ccc'],
  );
  t.is(output.piecesAgain, 0);
});

test('after a SIGKILL, the empty piece that closes a line whose file is gone, when the killed run had finished that line: counted as sent again', (t) => {
  const output = readOutput([run(0, piece('@aaa ') + piece('bbb', false), 'SIGKILL'), run(1, piece('', false) + piece('@next', false), 'SIGTERM')]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb', '@next'],
  );
  t.is(output.piecesAgain, 1);
  const afterTerm = readOutput([run(0, piece('@aaa ') + piece('bbb', false), 'SIGTERM'), run(1, piece('', false), 'SIGTERM')]);
  t.deepEqual(
    afterTerm.joined.map((j) => j.contents),
    ['@aaa bbb', ''],
    'after a SIGTERM an empty entry is the oracle\'s to judge',
  );
});

test('after a SIGKILL, the rest of a line the killed run finished after its last save, where other lines in pieces followed it: counted as sent again, not a damaged line', (t) => {
  // Soak seed 666679134: run 0 stopped (SIGTERM) inside a long line after its first piece; run 1
  // sent the line's rest, then more lines in pieces, and was killed before its next save; run 2
  // resumed from that save, inside the first line, and sent its rest again.
  const output = readOutput([
    run(0, piece('@long ') , 'SIGTERM'),
    run(1, piece('rest', false) + piece('@other ') + piece('tail', false) + piece('@more', false), 'SIGKILL'),
    run(2, piece('rest', false) + piece('@other ') + piece('tail', false) + piece('@more', false) + piece('@new', false), 'SIGTERM'),
  ]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@long rest', '@other tail', '@more', '@other tail', '@more', '@new'],
  );
  t.is(output.piecesAgain, 1);
});


test('a line whose last save stayed inside it through several SIGKILLed runs: each restart sends its last pieces again, all dropped from the join', (t) => {
  const rest = piece('bbb ') + piece('ccc', false);
  const output = readOutput([
    run(0, piece('@aaa '), 'SIGKILL'),
    run(1, rest, 'SIGKILL'),
    run(2, rest, 'SIGKILL'),
    run(3, rest + piece('@next', false), 'SIGTERM'),
  ]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb ccc', '@next'],
  );
  t.is(output.piecesAgain, 4);
});

// Soak seed 1290672748: the killed run had finished a line in pieces after its last save (inside
// that line) and sent the first piece of the next one; the restart sent the finished line's last
// piece again, which was joined to the next line's first piece (a damaged line).
test('after a SIGKILL, the rest of a finished line sent again while the killed run\'s next line is open: a repeat, not that line\'s rest', (t) => {
  const output = readOutput([
    run(0, piece('@aaa ') + piece('bbb ') + piece('ccc', false) + piece('@next '), 'SIGKILL'),
    run(1, piece('ccc', false) + piece('@next ') + piece('end', false), 'SIGTERM'),
  ]);
  t.deepEqual(
    output.joined.map((j) => j.contents),
    ['@aaa bbb ccc', '@next ', '@next end'],
  );
  t.true(output.joined.find((j) => j.contents === '@next ')!.cutByKill, 'the first piece the killed run sent: cut by the kill');
  t.is(output.piecesAgain, 1);
});
