/**
 * From an incident trial: the same member's log given twice (a rotated copy that overlaps it,
 * a capture appended to itself) doubled every count without a word.
 */
import test from 'ava';
import { RepeatedLines, SAMPLE_EVERY, SampledLineOwners, isSampled, sampledLineKey } from '../../src/summary/repeated-lines.js';

/** A line given to the sampler as the summary gives it: only when sampled. */
const feed = (into: RepeatedLines, time: number, id: number, ctx: string, text: string): void => {
  if (isSampled(time, id)) into.line(sampledLineKey(time, id, ctx, text), time);
};

const lines = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ time: 1_700_000_000_000 + (from + i) * 7, id: 51803, ctx: `conn${i % 5}`, text: `line ${from + i}` }));

test('a log given twice: about all of its lines said to repeat; given once: none', (t) => {
  const once = new RepeatedLines();
  for (const l of lines(5000)) feed(once, l.time, l.id, l.ctx, l.text);
  t.is(once.estimate(5000), 0);
  const twice = new RepeatedLines();
  for (const l of [...lines(5000), ...lines(5000)]) feed(twice, l.time, l.id, l.ctx, l.text);
  const estimate = twice.estimate(10_000);
  t.true(estimate > 4500 && estimate < 5500, String(estimate));
  // A copy that overlaps the last fifth.
  const overlap = new RepeatedLines();
  for (const l of [...lines(5000), ...lines(2000, 4000)]) feed(overlap, l.time, l.id, l.ctx, l.text);
  const some = overlap.estimate(7000);
  t.true(some > 700 && some < 1300, String(some));
});

test('the same time, id and context on distinct lines (a burst in one millisecond) is no repeat; a handful of true repeats says nothing', (t) => {
  const burst = new RepeatedLines();
  // A millisecond whose lines are sampled: each line of the burst is looked at.
  const time = 1_700_000_000_000 - (1_700_000_000_000 % SAMPLE_EVERY) - (51803 % SAMPLE_EVERY) + SAMPLE_EVERY;
  t.true(isSampled(time, 51803));
  for (let i = 0; i < 4000; i++) feed(burst, time, 51803, 'conn1', `slow query ${i}`);
  t.is(burst.estimate(4000), 0);
  const few = new RepeatedLines();
  const all = lines(20_000);
  for (const l of [...all, ...all.slice(0, 16 * 4)]) feed(few, l.time, l.id, l.ctx, l.text);
  t.is(few.estimate(20_064), 0);
});

// From a reports trial: a real log's own bursts of one line repeated (the same line many times in
// one millisecond, as rs1 holds 13) were sampled whole, and a log played four times at shifted
// times (52 true repeats in 31,028 lines) was said to repeat "about 560" of its lines.
test('bursts of one line repeated in a millisecond, a few of them: nothing said, however many copies of that line', (t) => {
  const bursts = new RepeatedLines();
  const all = lines(30_000);
  // Three bursts, each one line written 14 times at a sampled millisecond.
  const sampledTimes = all.filter((l) => isSampled(l.time, l.id)).slice(0, 3);
  for (const l of all) {
    feed(bursts, l.time, l.id, l.ctx, l.text);
    if (sampledTimes.includes(l)) for (let i = 0; i < 13; i++) feed(bursts, l.time, l.id, l.ctx, l.text);
  }
  t.is(bursts.estimate(30_039), 0);
});

// From an incident trial: one pod's log given twice under two names (two copies, or `cat pod.log
// | logtype summary - pod.log`) made two members, each claiming PRIMARY: a split brain that
// never was.
test('owners: a member whose sampled lines nearly all came first in another is its copy; members of their own are not', (t) => {
  const owners = new SampledLineOwners<string>();
  const sampledOf = (member: string, of: readonly ReturnType<typeof lines>[number][]): number => {
    let sampled = 0;
    for (const l of of) {
      if (!isSampled(l.time, l.id)) continue;
      sampled++;
      owners.line(sampledLineKey(l.time, l.id, l.ctx, l.text), member);
    }
    return sampled;
  };
  const a = sampledOf('a', lines(5000));
  const again = sampledOf('a-again', lines(5000));
  const b = sampledOf('b', lines(5000).map((l) => ({ ...l, text: `other ${l.text}` })));
  const overlap = sampledOf('overlap', [...lines(1000, 4500), ...lines(4000, 20_000)]);
  t.is(owners.copyOf('a-again', again), 'a');
  t.is(owners.copyOf('a', a), undefined, 'the first is no copy');
  t.is(owners.copyOf('b', b), undefined, 'the same times, other lines');
  t.is(owners.copyOf('overlap', overlap), undefined, 'a log that only overlaps another is its own');
});

// From a review: a small pre-4.4 log of a server that restarted again and again (a crash loop)
// was said to be given twice: each start writes its blank lines in one millisecond, one line
// repeated in a burst, and every line of a small log is looked at.
test('a burst of one line in one millisecond at each of many starts is no repeat; the same lines given again later are', (t) => {
  const starts = (count: number) =>
    Array.from({ length: count }, (_, start) => {
      const at = 1_700_000_000_000 + start * 60_000;
      return [
        { time: at, text: 'MongoDB starting : pid=100 port=27017' },
        { time: at + 1, text: 'db version v4.2.11' },
        ...Array.from({ length: 4 }, () => ({ time: at + 1476, text: '' })),
        { time: at + 1476, text: '** WARNING: Access control is not enabled for the database.' },
        { time: at + 2000, text: `waiting for connections on port 27017 (start ${start})` },
      ];
    }).flat();
  const crashLoop = new RepeatedLines();
  for (const l of starts(9)) crashLoop.line(sampledLineKey(l.time, undefined, 'initandlisten', l.text), l.time);
  t.is(crashLoop.estimate(starts(9).length), 0);
  const twice = new RepeatedLines();
  for (const l of [...starts(9), ...starts(9)]) twice.line(sampledLineKey(l.time, undefined, 'initandlisten', l.text), l.time);
  t.true(twice.estimate(2 * starts(9).length) >= 9 * 5, String(twice.estimate(2 * starts(9).length)));
});
