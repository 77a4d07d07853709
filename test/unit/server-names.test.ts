/**
 * The names -c and --atype are checked against (formats/server-names.ts) hold every component
 * and audit event type the real logs in test/fixtures write: a name a real server writes is
 * never warned about as a typo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import test from 'ava';
import { AUDIT_EVENT_TYPES, COMPONENT_SETTING_NAMES, SERVER_COMPONENTS } from '../../src/formats/server-names.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';

const REAL_TEXT = fs
  .readdirSync(REAL_DATA)
  .filter((name) => name.endsWith('.log') || name.endsWith('.log.gz'))
  .map((name) => {
    const bytes = fs.readFileSync(path.join(REAL_DATA, name));
    return name.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  })
  .join('\n');

test('every component the real server logs write (4.4+ JSON and the text before it) is known', (t) => {
  const json = [...REAL_TEXT.matchAll(/\\?"c\\?":\\?"([A-Z_-]+)\\?"/g)].map((m) => m[1]!);
  const text = [...REAL_TEXT.matchAll(/^\d{4}-\d\d-\d\dT[\d:.]+[+-]\d{4} [A-Z] +([A-Z_-]+) +\[/gm)].map((m) => m[1]!);
  const seen = new Set([...json, ...text]);
  t.true(seen.size >= 10, [...seen].join(' '));
  t.deepEqual([...seen].filter((c) => !SERVER_COMPONENTS.includes(c)), []);
});

test('every audit event type the real audit log writes is known', (t) => {
  const seen = new Set([...REAL_TEXT.matchAll(/\\?"atype\\?" ?: ?\\?"([A-Za-z]+)/g)].map((m) => m[1]!));
  t.true(seen.has('authenticate'));
  t.deepEqual([...seen].filter((a) => !AUDIT_EVENT_TYPES.includes(a)), []);
});

test("a setting's name for a component leads to a component the log writes", (t) => {
  for (const [setting, component] of COMPONENT_SETTING_NAMES) t.true(SERVER_COMPONENTS.includes(component), setting);
});
