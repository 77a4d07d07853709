/**
 * doctor's times in local time say their zone, in summary's words (`local time (UTC-05:00)`, at
 * each end across a change to summer time): kubectl's times are UTC, and a local time without
 * its zone cannot be put beside them. The agent's real disk-full line
 * (test/fixtures/real/agent-stderr-disk-full.log) as `kubectl logs --timestamps` prints it, in
 * New York's winter and summer.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const diskFull = fs.readFileSync(path.join(REAL_DATA, 'agent-stderr-disk-full.log'), 'utf8').split('\n')[0]!;
const NEW_YORK = { TZ: 'America/New_York' };

/** A Seen line's times: each `YYYY-MM-DD HH:MM:SS.mmm`, then its zone words. */
const SEEN = /^ {2}Seen: +\d+ times?, (?:at (\S+ \S+)|from (\S+ \S+) to (\S+ \S+)) local time \(UTC([+-]\d\d:\d\d)(?: to UTC([+-]\d\d:\d\d))?\), in /m;
const instant = (local: string, offset: string): string => new Date(`${local.replace(' ', 'T')}${offset}`).toISOString();

const rows: readonly { readonly name: string; readonly times: readonly string[]; readonly zones: readonly string[] }[] = [
  { name: 'one line in winter', times: ['2026-01-15T10:00:00.123Z'], zones: ['-05:00'] },
  { name: 'one line in summer', times: ['2026-07-15T10:00:00.456Z'], zones: ['-04:00'] },
  { name: 'two lines in winter', times: ['2026-01-15T10:00:00.123Z', '2026-01-15T11:30:00.000Z'], zones: ['-05:00'] },
  { name: 'from winter to summer', times: ['2026-03-07T10:00:00.123Z', '2026-03-09T10:00:00.789Z'], zones: ['-05:00', '-04:00'] },
];

for (const row of rows) {
  test(`doctor in local time says the zone: ${row.name}`, (t) => {
    const input = row.times.map((time) => `${time.replace('Z', '000000Z')} ${diskFull}\n`).join('');
    const { stdout, status } = runFilter(['doctor', '--color', 'never'], input, NEW_YORK);
    t.is(status, 1);
    const match = SEEN.exec(stdout);
    t.truthy(match, stdout);
    const [, at, from, to, fromZone, toZone] = match!;
    t.deepEqual([fromZone, toZone].filter((z) => z !== undefined), row.zones);
    // The times shown, read with the zone said, are the lines' instants.
    const shown = at !== undefined ? [instant(at, fromZone!)] : [instant(from!, fromZone!), instant(to!, toZone ?? fromZone!)];
    t.deepEqual(shown, row.times.length === 1 ? row.times : [row.times[0], row.times.at(-1)]);
  });
}

test('doctor --utc: times end in Z and name no local zone', (t) => {
  const { stdout } = runFilter(['doctor', '--color', 'never', '--utc'], `2026-01-15T10:00:00.123000000Z ${diskFull}\n`, NEW_YORK);
  t.regex(stdout, /^ {2}Seen: +1 time, at 2026-01-15 10:00:00\.123Z, in lines that are not entries /m);
  t.notRegex(stdout, /local time/);
});
