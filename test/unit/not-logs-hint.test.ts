import test from 'ava';
import { notLogsHint } from '../../src/select/not-logs-hint.js';

test('notLogsHint: a search result or an array, pretty-printed or as one document, is named with the jq that gives it one document a line; anything else is not named', (t) => {
  const rows: [first: string, says: RegExp | undefined][] = [
    ['{', /printed over several lines.*jq -c '\.hits\.hits\[\]' FILE \| logtype.*jq -c '\.\[\]' FILE/],
    ['  [  ', /printed over several lines/],
    ['{"took":5,"timed_out":false,"_shards":{"total":1},"hits":{"total":{"value":1}', /search response: .*jq -c '\.hits\.hits\[\]' FILE \| logtype$/],
    ['{"hits":{"total":{"value":3,"relation":"eq"},"max_score":1', /search response/],
    ['[{"logType":"mongodb","contents":"x"},', /a JSON array: give logtype its members one a line: jq -c '\.\[\]' FILE \| logtype$/],
    ['Error from server (NotFound): pods "db-0" not found', undefined],
    ['{"level":"info","msg":"an app\'s own JSON"}', undefined],
    ['[2026-11-22 10:00:00] plain text', undefined],
  ];
  for (const [first, says] of rows) {
    const hint = notLogsHint(first);
    if (says) t.regex(hint ?? '', says, first);
    else t.is(hint, undefined, first);
  }
});
