import test from 'ava';
import { UnloggedStops } from '../../src/doctor/unlogged-stops.js';
import { KNOWN_PROBLEMS } from '../../src/doctor/known-problems.js';
import { parseRecord } from '../../src/parse/parse-record.js';

const UNCLEAN = KNOWN_PROBLEMS.find((p) => p.id === 'server-unclean-shutdown')!.matches;

/** A 4.4+ server line at second `s` (an hour's offset in ms kept small). */
const line = (s: number, id: number, msg: string, attr = '{}'): string =>
  `{"t":{"$date":"2026-11-22T10:${String(Math.floor(s / 60)).padStart(2, '0')}:${(s % 60).toFixed(3).padStart(6, '0')}+00:00"},"s":"I","c":"CONTROL","id":${id},"ctx":"main","msg":"${msg}","attr":${attr}}`;
const preamble = (s: number) => line(s, 4915701, 'Initialized wire specification');
const start = (s: number) => line(s, 4615611, 'MongoDB starting', '{"pid":1}');
const work = (s: number) => line(s, 22943, 'Connection accepted');
const signal = (s: number) => line(s, 23377, 'Received signal', '{"signal":15,"error":"Terminated"}');
const step = (s: number) => line(s, 4784900, 'Stepping down the ReplicationCoordinator for shutdown');
const exit = (s: number) => line(s, 23138, 'Shutting down', '{"exitCode":0}');
const unclean = (s: number) => line(s, 22271, 'Detected unclean shutdown - Lock file is not empty', '{"lockFile":"/data/mongod.lock"}');

/** How many crashes the lines show, fed in order as one server's. */
function crashes(lines: string[]): number {
  const stops = new UnloggedStops(UNCLEAN);
  let found = 0;
  for (const text of lines) {
    const record = parseRecord('mongodb', text);
    if (stops.line('pod-0', text, () => record?.message, () => record?.time)) found++;
  }
  return found;
}

const cases: [name: string, lines: string[], expected: number][] = [
  ['a log that begins at a start (its preamble first): none', [preamble(0), start(0.01), work(5)], 0],
  ['a clean shutdown, then a start: none', [preamble(0), start(0.01), work(5), signal(60), step(60.1), exit(61), preamble(90), start(90.01), work(95)], 0],
  ['a start after running lines with no shutdown: one (killed without a word)', [start(0), work(5), work(50), preamble(90), start(90.01), work(95)], 1],
  ['that start and its unclean-shutdown line: one event, not two', [start(0), work(5), preamble(90), start(90.01), unclean(90.5), work(95)], 1],
  ['an unclean-shutdown line alone (the log begins at the start): one', [preamble(0), start(0.01), unclean(0.5), work(5)], 1],
  ['killed midway through a shutdown (after the grace period): one', [start(0), work(5), signal(60), step(60.1), preamble(90), start(90.01)], 1],
  ['3.x: SERVER RESTARTED then MongoDB starting are one start', [start(0), work(5), exit(30), line(40, 0, '***** SERVER RESTARTED *****'), start(40.01)], 0],
  ['two crashes', [start(0), work(5), start(100), work(105), start(200), unclean(200.5)], 2],
];

for (const [name, lines, expected] of cases) {
  test(`unlogged stops: ${name}`, (t) => {
    t.is(crashes(lines), expected);
  });
}

test('unlogged stops: each server apart (one file per pod)', (t) => {
  const stops = new UnloggedStops(UNCLEAN);
  const feed = (pod: string, text: string): boolean => {
    const record = parseRecord('mongodb', text);
    return stops.line(pod, text, () => record?.message, () => record?.time);
  };
  t.false(feed('pod-0', start(0)));
  t.false(feed('pod-0', work(5)));
  // Another pod's start is no restart of pod-0.
  t.false(feed('pod-1', start(50)));
  t.true(feed('pod-0', start(100)));
});
