/**
 * localInstants depends on the process's zone: each row runs in a node of its own with TZ set,
 * as a user's shell would set it.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/select/local-time.js');

function instantsIn(zone: string, clock: string): { instants: string[]; gapEnd?: string } {
  const [date, time] = clock.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  const script = `import(${JSON.stringify(MODULE)}).then((m) => { const r = m.localInstants({ year: ${year}, month: ${month}, day: ${day}, hours: ${hours}, minutes: ${minutes}, seconds: 0, millis: 0 }); console.log(JSON.stringify({ instants: r.instants.map((i) => new Date(i).toISOString()), ...(r.gapEnd === undefined ? {} : { gapEnd: new Date(r.gapEnd).toISOString() }) })); });`;
  const run = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
  return JSON.parse(run.stdout) as { instants: string[]; gapEnd?: string };
}

test('localInstants: one instant on an ordinary day, none in a skipped hour (then the skip\'s end), two in a repeated one; half-hour and western zones too', (t) => {
  const rows: [zone: string, clock: string, expected: { instants: string[]; gapEnd?: string }][] = [
    ['Europe/Berlin', '2026-11-22T10:00', { instants: ['2026-11-22T09:00:00.000Z'] }],
    ['Europe/Berlin', '2026-03-29T02:30', { instants: [], gapEnd: '2026-03-29T01:00:00.000Z' }],
    ['Europe/Berlin', '2026-10-25T02:30', { instants: ['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z'] }],
    ['America/New_York', '2026-03-08T02:15', { instants: [], gapEnd: '2026-03-08T07:00:00.000Z' }],
    ['America/New_York', '2026-11-01T01:15', { instants: ['2026-11-01T05:15:00.000Z', '2026-11-01T06:15:00.000Z'] }],
    // Lord Howe Island moves its clocks half an hour.
    ['Australia/Lord_Howe', '2026-10-04T02:10', { instants: [], gapEnd: '2026-10-03T15:30:00.000Z' }],
    ['UTC', '2026-03-29T02:30', { instants: ['2026-03-29T02:30:00.000Z'] }],
  ];
  for (const [zone, clock, expected] of rows) t.deepEqual(instantsIn(zone, clock), expected, `${zone} ${clock}`);
});

const FORMAT_TIME = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/render/format-time.js');

/** formatTime's local text of each instant, in a node of its own with TZ set. */
function formattedIn(zone: string, instants: readonly string[]): string[] {
  const script = `import(${JSON.stringify(FORMAT_TIME)}).then((m) => console.log(JSON.stringify(${JSON.stringify(instants)}.map((i) => m.formatTime(Date.parse(i), false)))));`;
  const run = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
  return JSON.parse(run.stdout) as string[];
}

// From a CLI trial: pretty output's local times in the hour the clocks go back read alike twice.
test('formatTime: a local time the clocks show twice carries its offset, each pass its own; every other time none', (t) => {
  const rows: [zone: string, instants: string[], expected: string[]][] = [
    [
      'America/New_York',
      ['2026-11-01T04:59:59.500Z', '2026-11-01T05:30:00.123Z', '2026-11-01T06:30:00.123Z', '2026-11-01T07:00:00.000Z', '2026-03-08T06:59:00.000Z', '2026-03-08T07:00:00.000Z', '2026-11-22T10:00:00.000Z'],
      ['2026-11-01 00:59:59.500', '2026-11-01 01:30:00.123-04:00', '2026-11-01 01:30:00.123-05:00', '2026-11-01 02:00:00.000', '2026-03-08 01:59:00.000', '2026-03-08 03:00:00.000', '2026-11-22 05:00:00.000'],
    ],
    ['Europe/Berlin', ['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z'], ['2026-10-25 02:00:00.000+02:00', '2026-10-25 02:00:00.000+01:00', '2026-10-25 03:00:00.000']],
    // Lord Howe Island goes back half an hour.
    ['Australia/Lord_Howe', ['2026-04-04T14:45:00.000Z', '2026-04-04T15:15:00.000Z', '2026-04-04T15:30:00.000Z'], ['2026-04-05 01:45:00.000+11:00', '2026-04-05 01:45:00.000+10:30', '2026-04-05 02:00:00.000']],
    ['UTC', ['2026-10-25T01:00:00.000Z'], ['2026-10-25 01:00:00.000']],
  ];
  for (const [zone, instants, expected] of rows) t.deepEqual(formattedIn(zone, instants), expected, zone);
});
