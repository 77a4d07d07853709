/**
 * What holds the heartbeat back (heartbeat.ts): a followed file refused while it is being
 * written. From a review: a refusal once said stayed said after the path was missing or read
 * again, and a stale file nobody writes would have restarted a working sidecar for ever.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { PathWarnings } from '../../src/follow/path-warnings.js';
import { tempDir } from '../_helpers/sidecar-process.js';

const denied = { kind: 'denied', what: 'permission denied' } as const;

test('denied: while the refused file at the path is being written; not once it is stale, missing, or held again; never for another name', (t) => {
  const dir = tempDir('path-warnings');
  const file = path.join(dir, 'mongodb.log');
  fs.writeFileSync(file, 'x\n');
  const now = Date.now();
  const warnings = new PathWarnings({ path: file, onEvent: () => undefined });
  t.false(warnings.denied(now));
  warnings.cannotRead(now, denied as never, 'permission denied');
  t.true(warnings.denied(now), 'written just now');
  t.false(warnings.denied(now + 11 * 60_000), 'nobody has written it for minutes: nothing is being lost');
  warnings.found();
  t.false(warnings.denied(now));
  warnings.cannotRead(now, denied as never, 'permission denied');
  warnings.whileMissing(now);
  t.false(warnings.denied(now), 'missing now');
  // A rotated file or a copy refused: said, but the file at the path loses nothing.
  warnings.cannotRead(now, denied as never, 'permission denied', undefined, `${file}.1`);
  t.false(warnings.denied(now));
});
