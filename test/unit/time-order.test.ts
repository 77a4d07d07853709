import test from 'ava';
import { runsNewestFirst, TimeStepCounter, totalSteps } from '../../src/summary/time-order.js';

const stepsOf = (times: readonly (number | undefined)[]): TimeStepCounter => {
  const counter = new TimeStepCounter();
  for (const time of times) counter.step(time);
  return counter;
};

const ascending = Array.from({ length: 100 }, (_, i) => 1000 + i * 10);

test('steps: back, forward; equal times and lines without one are no step', (t) => {
  const counter = stepsOf([5, 5, undefined, 7, Number.NaN, 6, 9]);
  t.deepEqual({ backward: counter.backward, forward: counter.forward }, { backward: 1, forward: 2 });
});

const cases: [string, readonly number[], boolean][] = [
  ['oldest first', ascending, false],
  ['newest first (logcli without --forward)', [...ascending].reverse(), true],
  ['a short input newest first: too few steps to say', ascending.slice(0, 10).reverse(), false],
  ['oldest first with a clock stepped back once', [...ascending.slice(0, 50), ...ascending.slice(0, 50)], false],
  ['three pods interleaved, a few ms apart', ascending.flatMap((time) => [time + 3, time, time + 7]), false],
  ['newest first, several lines a millisecond', [...ascending].reverse().flatMap((time) => [time, time, time]), true],
];
for (const [name, times, expected] of cases) {
  test(`runsNewestFirst: ${name}`, (t) => {
    t.is(runsNewestFirst(stepsOf(times)), expected);
  });
}

test('several logs together: their steps add up', (t) => {
  t.deepEqual(totalSteps([stepsOf([3, 2, 1]), stepsOf([1, 2])]), { backward: 2, forward: 1 });
});
