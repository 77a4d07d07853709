/** Docker json-file's pieces of a long line (docker-pieces.ts): joined by stream and source, bounded, flushed at the end. */
import test from 'ava';
import { DockerPieces } from '../../src/read/docker-pieces.js';

const rows: { name: string; records: [string, string][]; lines: (string | undefined)[]; flushed: string[] }[] = [
  { name: 'a whole line', records: [['out', 'a\n']], lines: ['a'], flushed: [] },
  { name: 'a line of three pieces', records: [['out', 'a'], ['out', 'b'], ['out', 'c\n']], lines: [undefined, undefined, 'abc'], flushed: [] },
  { name: "stderr's line between stdout's pieces", records: [['out', 'a'], ['err', 'x\n'], ['out', 'b\n']], lines: [undefined, 'x', 'ab'], flushed: [] },
  { name: 'a CRLF line', records: [['out', 'a'], ['out', 'b\r\n']], lines: [undefined, 'ab'], flushed: [] },
  { name: 'the input ends inside a line', records: [['out', 'a'], ['err', 'b']], lines: [undefined, undefined], flushed: ['a', 'b'] },
];

for (const row of rows) {
  test(row.name, (t) => {
    const pieces = new DockerPieces();
    t.deepEqual(
      row.records.map(([key, log]) => pieces.line(key, log)),
      row.lines,
    );
    t.deepEqual(pieces.flush(), row.flushed);
    t.deepEqual(pieces.flush(), [], 'flushed once');
  });
}
