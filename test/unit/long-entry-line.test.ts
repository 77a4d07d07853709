import test from 'ava';
import { LongEntryLine, escapeCut } from '../../src/encode/long-entry-line.js';

test('escapeCut: a piece is never cut inside an escape', (t) => {
  const rows: [string, number][] = [
    ['abc', 3],
    ['abc\\', 3],
    ['abc\\\\', 5],
    ['abc\\\\\\', 5],
    ['ab\\u00', 2],
    ['ab\\u00e9', 8],
    ['ab\\"', 4],
    ['\\\\u00', 5],
    // From a review: a surrogate pair's halves are never parted.
    ['ab\\ud83d', 2],
    ['ab\\ud83d\\ude00', 14],
    ['ab\\\\ud83d', 9],
  ];
  for (const [body, cut] of rows) t.is(escapeCut(body), cut, body);
});

test('a long launcher entry in pieces: partial entries of its contents; a line that is no entry: undefined (wrapped as any line)', (t) => {
  const long = new LongEntryLine();
  const line = JSON.stringify({ logType: 'agent-launcher-script', contents: 'a\\b"c\u00e9d' });
  const pieces = [line.slice(0, 50), line.slice(50, 52), line.slice(52)];
  const out = pieces.map((piece, i) => long.piece(piece, i < pieces.length - 1));
  t.true(out.every((entry) => entry !== undefined));
  let contents = '';
  for (const entry of out) {
    const value = JSON.parse(entry!) as { logType: string; contents: string; partial?: boolean };
    t.is(value.logType, 'agent-launcher-script');
    contents += value.contents;
  }
  t.is(contents, 'a\\b"c\u00e9d');
  t.false(long.inLine);
  // Not an entry: left to the usual wrapping, to the line's end.
  t.is(long.piece('plain text that is long', true), undefined);
  t.is(long.piece(' and its end', false), undefined);
  // From a review: a type JSON would not read (an unknown escape) made a line that was no JSON: such a line is no entry.
  t.is(new LongEntryLine().piece('{"logType":"a\\qb","contents":"hello', true), undefined);
  // An entry whose last piece does not end it: its text escaped, valid JSON all the same.
  t.truthy(long.piece('{"logType":"x","contents":"abc', true));
  const last = long.piece('def" trailing', false)!;
  t.is((JSON.parse(last) as { contents: string }).contents, 'def" trailing');
});
