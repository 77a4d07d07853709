import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { createDiagnostics } from '../../src/diag/logger.js';
import { tempDir } from '../_helpers/sidecar-process.js';

/** The same calls through pino (configured as the sidecar once used it) and through ours. */
test('diagnostics are the lines pino writes, but for the time', (t) => {
  const dir = tempDir('diag');
  const ours = path.join(dir, 'ours');
  const theirs = path.join(dir, 'pino');
  const oursFd = fs.openSync(ours, 'w');
  const pinoFd = fs.openSync(theirs, 'w');
  const calls: [('info' | 'warn' | 'error'), Record<string, unknown>, string][] = [
    ['info', { event: 'opened', source: 'mongodb', path: '/var/log/x.log', position: 12 }, 'following file'],
    ['warn', { event: 'truncated', note: 'quote " backslash \\ newline \n tab \t é \u0001', nested: { a: [1, null] } }, 'file truncated; "reading" from its start'],
    ['error', {}, 'cannot write entries'],
    ['info', { skipped: undefined, zero: 0, no: false }, ''],
  ];
  const logger = createDiagnostics('logtype-sidecar', oursFd);
  const reference = pino({ base: { logType: 'logtype-sidecar' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: pinoFd, sync: true }));
  for (const [level, fields, message] of calls) {
    logger[level](fields, message);
    reference[level](fields, message);
  }
  fs.closeSync(oursFd);
  fs.closeSync(pinoFd);
  const withoutTime = (file: string): string[] =>
    fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => line.replace(/"time":"[^"]+"/, '"time":"T"'));
  t.deepEqual(withoutTime(ours), withoutTime(theirs));
  t.regex(fs.readFileSync(ours, 'utf8'), /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/);
});
