/**
 * Log contents reach `logtype summary --html`'s page as text a reader sees for what it is: the
 * bidirectional controls (an appName `app\u202Eevil` would display reversed), C0 (but tab), DEL
 * and C1 controls are shown escaped as the text output shows them (`\u{202e}`, `\x07`), never
 * written raw. Through the real `logtype summary` on Hatchet's rs1, its lines as the server wrote
 * them but for the strings put in their places: its client metadata's and slow operations'
 * appName, and every unsafe code point at once in a slow operation's namespace, plan and
 * thread, a warning's message, a state change's new state, and an agent's line and type name.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import { ESCAPE_SEQUENCES, UNSAFE_CODE_POINTS, terminalView, unsafeCodePoints } from '../_helpers/terminal-code-points.js';
import type { Summary } from '../../src/summary/summary.js';

interface ServerLine {
  s: string;
  id: number;
  ctx: string;
  msg: string;
  attr?: Record<string, unknown>;
}

const RS1 = gunzipSync(fs.readFileSync(path.join(REAL_DATA, 'mongod-replica-rs1.log.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '');

/** Every unsafe code point in one string, and the escape sequences an attacker writes. */
const ALL_UNSAFE = `u${[...UNSAFE_CODE_POINTS].map((c) => String.fromCodePoint(c)).join('')}v`;
const SEQUENCES = `e${ESCAPE_SEQUENCES.join('')}f`;

/** rs1's lines, `change` made to each parsed line it returns true for (the line rewritten as JSON), as entries. */
function rs1With(change: (line: ServerLine) => boolean): string[] {
  return RS1.map((text) => {
    const line = JSON.parse(text) as ServerLine;
    return JSON.stringify({ logType: 'mongodb', contents: change(line) ? JSON.stringify(line) : text });
  });
}

function page(entries: readonly string[]): { html: string; summary: Summary } {
  const dir = tempDir('logtype-page-');
  try {
    const input = path.join(dir, 'in.jsonl');
    fs.writeFileSync(input, `${entries.join('\n')}\n`);
    const file = path.join(dir, 'summary.html');
    const run = runFilter(['summary', '--json', '--html', file, input]);
    if (run.status !== 0) throw new Error(run.stderr);
    return { html: fs.readFileSync(file, 'utf8'), summary: JSON.parse(run.stdout) as Summary };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("rs1 with its appName `Keyhole Lib` written app\\u202Eevil: the page shows app\\u{202e}evil, and no bidirectional control raw", (t) => {
  const { html, summary } = page(
    rs1With((line) => {
      const doc = line.attr?.['doc'] as { application?: { name: string } } | undefined;
      if (line.id === 51800 && doc?.application) doc.application.name = 'app\u202Eevil';
      else if (line.attr?.['appName'] === 'Keyhole Lib') line.attr['appName'] = 'app\u202Eevil';
      else return false;
      return true;
    }),
  );
  // The JSON keeps the string as it was; the page shows it escaped, in the drivers', the slowest operations' and the response sizes' tables.
  t.true(summary.server!.slowest.some((op) => op.appName === 'app\u202Eevil'));
  t.true(summary.server!.drivers.some((d) => d.appName === 'app\u202Eevil'));
  t.true(/<td(?: class="token")?>app\\u\{202e\}evil<\/td>/.test(html), 'shown escaped');
  t.deepEqual(unsafeCodePoints(html).slice(0, 5), []);
});

test('every unsafe code point and escape sequence in the places of rs1 lines: none raw on the page, each shown escaped', (t) => {
  let placed = 0;
  const dense = [ALL_UNSAFE, SEQUENCES];
  const entries = rs1With((line) => {
    const payload = dense[placed % dense.length]!;
    if (line.id === 51803 && placed < 4) {
      line.attr!['ns'] = `testdb.${payload}`;
      line.attr!['planSummary'] = `COLLSCAN ${payload}`;
      line.attr!['appName'] = payload;
      line.ctx = `conn${payload}`;
    } else if (line.id === 21358 && placed < 8) line.attr!['newState'] = `SECONDARY${payload}`;
    else if (line.s === 'W' && placed < 12) line.msg = `${line.msg} ${payload}`;
    else return false;
    placed++;
    return true;
  });
  const agent = (payload: string): string => JSON.stringify({ logType: `automation-agent${payload}`, contents: `[2024-03-18T14:50:00.000+0000] [.error] [src/main/run.go:run:12] [14:50:00.000] goal state ${payload}` });
  const { html } = page([...entries, agent(ALL_UNSAFE), agent(SEQUENCES)]);
  t.is(placed, 12);
  // The page's own markup has line feeds between its sections; no other unsafe code point.
  t.deepEqual(unsafeCodePoints(html).slice(0, 5), []);
  t.true(html.includes(terminalView(ALL_UNSAFE)), 'every unsafe code point shown as its escape');
  t.true(html.includes('\\e[2J') && html.includes('\\x9b31m'));
});
