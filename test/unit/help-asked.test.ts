import test from 'ava';
import { helpAsked } from '../../src/cli/logtype-main.js';

const none = (): boolean => false;

const cases: [argv: string[], expected: string[] | undefined][] = [
  [['help'], ['--help']],
  [['help', 'summary'], ['summary', '--help']],
  [['help', 'doctor'], ['doctor', '--help']],
  [['summary', 'help'], ['summary', '--help']],
  [['doctor', 'help'], ['doctor', '--help']],
  [['help', 'pod.log'], undefined],
  [['-t', 'help'], undefined],
  [['summary', 'help', 'more'], undefined],
  [[], undefined],
];

for (const [argv, expected] of cases) {
  test(`help asked: logtype ${argv.join(' ')}`, (t) => {
    t.deepEqual(helpAsked(argv, none), expected);
  });
}

test('help asked: a file named help is a file to read', (t) => {
  t.is(helpAsked(['help'], (name) => name === 'help'), undefined);
  t.is(helpAsked(['summary', 'help'], (name) => name === 'help'), undefined);
});
