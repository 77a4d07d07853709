import test from 'ava';
import { FailedLines } from '../../src/read/failed-lines.js';

test('none failed: no message', (t) => {
  t.is(new FailedLines().message('logtype summary', 'read into the report'), undefined);
});

test('failed lines are counted; the first is named, cut, its control characters shown escaped', (t) => {
  const failed = new FailedLines();
  failed.failed(new SyntaxError('Bad escaped character'), 'mongodb', `\u001b[2J${'x'.repeat(500)}`);
  failed.failed(new Error('another'), undefined, 'second');
  t.is(failed.count, 2);
  const message = failed.message('logtype summary', 'read into the report')!;
  t.regex(message, /^logtype summary: 2 lines were counted but not read into the report \(a logtype defect: please report it with the line\); the first: Bad escaped character \(a line of mongodb: \\e\[2Jx+\)$/);
  t.false(message.includes('\u001b'));
  t.false(message.includes('another'));
  t.true(message.length < 400);
});

test('what the report itself says of failed lines (its JSON and page), and a throw that is no Error', (t) => {
  const failed = new FailedLines();
  t.is(failed.incomplete, undefined);
  failed.failed('a string thrown', 'automation-agent', 'line');
  t.deepEqual(failed.incomplete, { failedLines: 1, firstFailure: 'a string thrown (a line of automation-agent: line)' });
});
