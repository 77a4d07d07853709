import test from 'ava';
import { SlowPoints } from '../../src/summary/slow-points.js';
import { MAX_COLLSCAN_POINTS, MAX_SLOWEST_POINTS, MAX_SLOW_POINTS } from '../../src/summary/summary-limits.js';
import { slowPointsDrawn } from '../../src/summary/time-charts.js';

test('slow points: the slowest and every COLLSCAN are drawn whatever the sample, the rest sampled and bounded', (t) => {
  const points = new SlowPoints();
  const start = Date.UTC(2026, 10, 23, 10);
  const total = 50_000;
  // Most operations 100-299 ms; three COLLSCANs among them; the slowest, 1-2 s, few and scattered.
  for (let i = 0; i < total; i++) {
    const slow = i % 997 === 0;
    const duration = slow ? 1000 + (i % 1000) : 100 + (i % 200);
    points.add(start + i * 10, duration, 'app.orders', i === 7 || i === 25_000 || i === 49_999);
  }
  const { slowPoints, slowPointsSeen, collscansSeen } = points.summary();
  t.is(slowPointsSeen, total);
  t.is(collscansSeen, 3);
  t.true(slowPoints.length <= MAX_SLOW_POINTS + MAX_SLOWEST_POINTS + 3);
  t.deepEqual(
    slowPoints.filter((p) => p.collscan).map((p) => Date.parse(p.time)),
    [7, 25_000, 49_999].map((i) => start + i * 10),
  );
  const slowest = Array.from({ length: total }, (_, i) => (i % 997 === 0 ? 1000 + (i % 1000) : 0)).filter((d) => d > 0);
  t.true(slowest.length < MAX_SLOWEST_POINTS);
  t.deepEqual(
    slowPoints.filter((p) => p.durationMillis >= 1000).map((p) => p.durationMillis).sort((a, b) => a - b),
    slowest.sort((a, b) => a - b),
    'every operation over 1 s is drawn',
  );
  t.true(slowPoints.every((p, i) => i === 0 || p.time >= slowPoints[i - 1]!.time), 'in time order');
});

test('slow points: COLLSCANs past the budget are a uniform sample of them all, not the first ones; the slowest always drawn', (t) => {
  const points = new SlowPoints();
  const minute = 60_000;
  const start = Date.UTC(2024, 2, 18, 14, 50);
  // A spike of COLLSCANs in the first minute (as two pods read one after another give: the
  // first's spike, then the second's), a few in the minutes after, then a second spike; other
  // operations between them all; the slowest COLLSCAN and the slowest operation come last.
  // Past the budget, whatever it is: a minute of a burst, quiet ones, a busier one.
  const scale = MAX_COLLSCAN_POINTS / 2000;
  const perMinute = [2400, 30, 20, 40, 500].map((count) => count * scale);
  let i = 0;
  perMinute.forEach((count, m) => {
    for (let k = 0; k < count; k++, i++) {
      points.add(start + m * minute + k, 100 + (i % 50), 'testdb.scans', true);
      points.add(start + m * minute + k, 10 + (i % 20), 'testdb.other', false);
    }
  });
  points.add(start + 5 * minute, 9000, 'testdb.scans', true);
  points.add(start + 5 * minute + 1, 8000, 'testdb.other', false);
  const collscans = perMinute.reduce((a, b) => a + b, 0) + 1;
  const summary = points.summary();
  t.is(summary.collscansSeen, collscans);
  t.is(summary.slowPointsSeen, 2 * collscans);
  const drawn = summary.slowPoints.filter((p) => p.collscan);
  t.true(drawn.length >= MAX_COLLSCAN_POINTS && drawn.length <= MAX_COLLSCAN_POINTS + MAX_SLOWEST_POINTS, `${drawn.length}`);
  t.true(summary.slowPoints.length <= MAX_COLLSCAN_POINTS + MAX_SLOW_POINTS + MAX_SLOWEST_POINTS, 'bounded');
  // Every minute drawn in proportion to what it holds: the same share of each (a uniform sample).
  const share = MAX_COLLSCAN_POINTS / collscans;
  perMinute.forEach((count, m) => {
    const inMinute = drawn.filter((p) => Math.floor((Date.parse(p.time) - start) / minute) === m && p.durationMillis < 1000).length;
    t.true(inMinute > 0, `minute ${m} drawn`);
    if (count >= 100) t.true(Math.abs(inMinute / count - share) < 0.06, `minute ${m}: ${inMinute} of ${count}, share ${share.toFixed(2)}`);
  });
  t.true(summary.slowPoints.some((p) => p.collscan && p.durationMillis === 9000), 'the slowest COLLSCAN, last, drawn');
  t.true(summary.slowPoints.some((p) => !p.collscan && p.durationMillis === 8000), 'the slowest operation, last, drawn');
  const slowestCollscans = summary.slowPoints.filter((p) => p.collscan && p.outlier === 'slowest').length;
  const sampled = drawn.length - slowestCollscans;
  t.regex(slowPointsDrawn(summary), new RegExp(`: the 100 slowest always; ${sampled.toLocaleString('en-US')} of the ${(collscans - slowestCollscans).toLocaleString('en-US')} other COLLSCANs, a uniform sample; `));
  t.is(partsSum(slowPointsDrawn(summary)), summary.slowPoints.length, 'the parts add up to the points drawn');
});

/** The sum of the numbers each part of the title says are drawn (the first of each part). */
function partsSum(title: string): number {
  const [, parts] = title.split(': ');
  return parts!.split('; ').reduce((sum, part) => sum + Number(/(\d[\d,]*)/.exec(part)![1]!.replaceAll(',', '')), 0);
}

// From an incident trial: the title said 5,748 drawn as "100 slowest; 3,664 COLLSCANs; 2,084 of
// the 11,313 others", 5,848 in all: the slowest were counted again among the others.
test('slow points: the title\'s parts add up to the points drawn, the slowest counted once', (t) => {
  const points = new SlowPoints();
  const start = Date.UTC(2024, 2, 18, 14, 50);
  for (let i = 0; i < 500; i++) points.add(start + i, 100 + (i % 7), 'testdb.scans', true);
  for (let i = 0; i < 5 * MAX_SLOW_POINTS; i++) points.add(start + i, i % 3 === 0 ? 5000 + i : 10, 'testdb.other', false);
  const summary = points.summary();
  const title = slowPointsDrawn(summary);
  t.is(partsSum(title), summary.slowPoints.length, title);
  t.regex(title, /^[\d,]+ of [\d,]+: the 100 slowest always; all 500 COLLSCANs; [\d,]+ of the [\d,]+ other operations, a uniform sample$/);
});

test('slow points: within the budget every COLLSCAN is drawn, and the plot says all of them', (t) => {
  const points = new SlowPoints();
  const start = Date.UTC(2024, 2, 18, 14, 50);
  for (let i = 0; i < MAX_COLLSCAN_POINTS; i++) points.add(start + i, 100, 'testdb.scans', true);
  for (let i = 0; i < 3 * MAX_SLOW_POINTS; i++) points.add(start + i, 10, 'testdb.other', false);
  const summary = points.summary();
  t.is(summary.slowPoints.filter((p) => p.collscan).length, MAX_COLLSCAN_POINTS);
  // The 100 slowest are COLLSCANs here: the title counts each point once, and still says all were drawn.
  t.regex(slowPointsDrawn(summary), new RegExp(`; the other ${(MAX_COLLSCAN_POINTS - 100).toLocaleString('en-US')} COLLSCANs, every one of the ${MAX_COLLSCAN_POINTS.toLocaleString('en-US')} drawn; `));
  t.is(partsSum(slowPointsDrawn(summary)), summary.slowPoints.length);
  const few = new SlowPoints();
  few.add(start, 100, 'testdb.scans', true);
  few.add(start + 1, 10, 'testdb.other', false);
  t.is(slowPointsDrawn(few.summary()), 'all 2, the 1 COLLSCAN among them');
});
