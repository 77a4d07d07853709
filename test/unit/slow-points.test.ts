import test from 'ava';
import { SlowPoints } from '../../src/summary/slow-points.js';
import { MAX_SLOWEST_POINTS, MAX_SLOW_POINTS } from '../../src/summary/summary-limits.js';

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
  const { slowPoints, slowPointsSeen, collscansSampled } = points.summary();
  t.is(slowPointsSeen, total);
  t.is(collscansSampled, 0);
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
