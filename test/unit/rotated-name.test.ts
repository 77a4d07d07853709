import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkTarget, rotatedName, rotatedSiblings, unrotatedName } from '../../src/follow/rotated-siblings.js';
import { FILE_LOG_TYPES } from '../../src/log-types.js';

/** What the rotators a pod may run name a rotation of `mongodb.log`, and the names that are not one. */
const cases: { entry: string; base?: string; rotation: boolean; why: string }[] = [
  { entry: 'mongodb.log.1', rotation: true, why: "logrotate's numbers" },
  { entry: 'mongodb.log.12', rotation: true, why: "logrotate's numbers past 9" },
  { entry: 'mongodb.log.2026-11-20T10-23-09', rotation: true, why: "mongod's own rename" },
  { entry: 'mongodb.log-20261126', rotation: true, why: "logrotate's dateext" },
  { entry: 'mongodb.log-2026-11-26', rotation: true, why: 'dateext with its dateformat changed' },
  { entry: 'mongodb.log-20261126-1764136800', rotation: true, why: 'dateext with seconds since the epoch' },
  { entry: 'mongodb.log_20261126', rotation: true, why: 'a date after an underscore' },
  { entry: 'mongodb.1.log', rotation: true, why: "logrotate's extension option" },
  { entry: 'mongodb-20261126.log', rotation: true, why: 'extension and dateext' },
  { entry: 'mongodb-2026-11-26T05-00-00.000.log', rotation: true, why: "Go's lumberjack" },
  { entry: 'automation-agent-verbose-2026-11-26T05-00-00.000.log', base: 'automation-agent-verbose.log', rotation: true, why: "lumberjack, a name with dashes" },
  { entry: 'mongodb.log.1.gz', rotation: false, why: 'compressed' },
  { entry: 'mongodb.log.2026-11-20T10-23-09.gz', rotation: false, why: 'compressed by the agent' },
  { entry: 'mongodb.log-20261126.zst', rotation: false, why: 'compressed, dateext' },
  { entry: 'mongodb-2026-11-26T05-00-00.000.log.gz', rotation: false, why: 'compressed, lumberjack' },
  { entry: 'mongodb_20261126.log', rotation: true, why: 'a date after the stem and an underscore' },
  { entry: 'mongodb.log', rotation: false, why: 'the file itself' },
  { entry: 'mongodb.1.log.gz', rotation: false, why: 'compressed, extension style' },
  { entry: 'mongodb.audit.log', rotation: false, why: 'no digit after the stem' },
  { entry: 'mongodb-audit-2026-11-26T05-00-00.000.log', rotation: false, why: "the audit log's lumberjack rotation" },
  { entry: 'mongodb-audit.log.1', rotation: false, why: "the audit log's numbered rotation" },
  { entry: 'mongodb-audit-20261126.log', rotation: false, why: "the audit log's rotation, extension and dateext" },
  { entry: 'mongodb-audit.log-20261126', rotation: false, why: "the audit log's dateext rotation" },
  { entry: 'mongodb-audit.log', rotation: false, why: "the audit log, another of the pod's logs" },
  { entry: 'mongodb.log-audit', rotation: false, why: 'no digit after the dash' },
  { entry: 'mongodb-.log', rotation: false, why: 'a separator and nothing else' },
  { entry: 'mongodb.log2', rotation: false, why: 'no separator, no date' },
  { entry: 'mongodb.log20261128014637', rotation: true, why: "dateext with a dateformat of no separator (a field trial's)" },
  { entry: 'mongodb.log.bak', rotation: false, why: 'a name after the dot: a copy by hand' },
  { entry: 'mongod.log.audit', base: 'mongod.log', rotation: false, why: "the audit log named after the server's (a field trial's)" },
  { entry: 'mongod.log.audit.2026-11-28T01-00-00', base: 'mongod.log', rotation: false, why: "that audit log's own rotation (a field trial's: its lines were sent again as the server's)" },
  { entry: 'mongod.log.audit.2026-11-28T01-00-00', base: 'mongod.log.audit', rotation: true, why: "the audit log's rotation, beside it" },
  { entry: 'mongodb2.log', rotation: false, why: 'no separator before the extension' },
  { entry: 'mongodb-1.txt', rotation: false, why: 'another extension' },
  { entry: 'automation-agent-verbose.log', base: 'automation-agent.log', rotation: false, why: "the verbose agent log is not the agent log's rotation" },
  { entry: 'automation-agent-stderr.log', base: 'automation-agent.log', rotation: false, why: "nor is the agent's stderr" },
  { entry: 'automation-agent-verbose-2026-11-26T05-00-00.000.log', base: 'automation-agent.log', rotation: false, why: "nor the verbose log's lumberjack rotation" },
  { entry: 'automation-agent-verbose.log-20261126', base: 'automation-agent.log', rotation: false, why: "nor the verbose log's dateext rotation" },
  { entry: 'automation-agent.log.1', base: 'automation-agent.log', rotation: true, why: "the agent log's own" },
  { entry: 'mongod.1', base: 'mongod', rotation: true, why: 'a name without extension, numbered' },
  { entry: 'mongod-1', base: 'mongod', rotation: true, why: 'a name without extension, dateext' },
  { entry: 'mongodb', base: 'mongod', rotation: false, why: 'a name without extension, another file' },
];

for (const c of cases) {
  test(`rotated name: ${c.entry} beside ${c.base ?? 'mongodb.log'}: ${c.rotation ? 'a rotation' : 'not one'} (${c.why})`, (t) => {
    t.is(rotatedName(c.base ?? 'mongodb.log', c.entry), c.rotation);
  });
}

/** Each style's rotation of a file named `base`. */
const STYLES: readonly ((base: string) => string)[] = [
  (base) => `${base}.1`,
  (base) => `${base}.2026-11-20T10-23-09`,
  (base) => `${base}-20261126`,
  (base) => `${path.parse(base).name}.1${path.extname(base)}`,
  (base) => `${path.parse(base).name}-20261126${path.extname(base)}`,
  (base) => `${path.parse(base).name}-2026-11-26T05-00-00.000${path.extname(base)}`,
];

test("rotated name: no log type's file, nor any rotation of it, is a rotation of another type's file", (t) => {
  const bases = FILE_LOG_TYPES.map((type) => type.defaultFile);
  t.true(bases.length >= 7, 'the pod\'s files');
  for (const base of bases) {
    for (const other of bases) {
      if (other === base) continue;
      t.false(rotatedName(base, other), `${other} beside ${base}`);
      for (const style of STYLES) t.false(rotatedName(base, style(other)), `${style(other)} beside ${base}`);
    }
    for (const style of STYLES) t.true(rotatedName(base, style(base)), `${style(base)} beside ${base}`);
  }
});

test('link target: where a followed name that is a symbolic link leads, and its rotations found there', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtype-link-target-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const logs = path.join(dir, 'logs');
  const data = path.join(dir, 'data');
  fs.mkdirSync(logs);
  fs.mkdirSync(data);
  fs.writeFileSync(path.join(data, 'mongod.log'), '');
  fs.writeFileSync(path.join(data, 'mongod.log.1'), '');
  fs.writeFileSync(path.join(data, 'mongod.log.2.gz'), '');
  fs.writeFileSync(path.join(logs, 'plain.log'), '');
  fs.symlinkSync('../data/mongod.log', path.join(logs, 'mongodb.log'));
  fs.symlinkSync('mongodb.log', path.join(logs, 'chained.log'));
  fs.symlinkSync(path.join(data, 'gone.log'), path.join(logs, 'dangling.log'));
  fs.symlinkSync('loop-b.log', path.join(logs, 'loop-a.log'));
  fs.symlinkSync('loop-a.log', path.join(logs, 'loop-b.log'));
  const cases: { name: string; target: string | undefined; why: string }[] = [
    { name: 'mongodb.log', target: path.join(data, 'mongod.log'), why: "a relative link, taken from the link's directory" },
    { name: 'chained.log', target: path.join(data, 'mongod.log'), why: 'a link to a link' },
    { name: 'dangling.log', target: path.join(data, 'gone.log'), why: 'a target rotated away and not made again yet' },
    { name: 'loop-a.log', target: undefined, why: 'a loop leads nowhere' },
    { name: 'plain.log', target: undefined, why: 'no link' },
    { name: 'missing.log', target: undefined, why: 'nothing at the name' },
  ];
  for (const c of cases) t.is(linkTarget(path.join(logs, c.name)), c.target, c.why);
  t.deepEqual(
    rotatedSiblings(path.join(logs, 'mongodb.log')).map((s) => s.name),
    [path.join(data, 'mongod.log.1')],
    "the target's rotations, beside it and under its name, never compressed",
  );
});

test('the file a rotated file was rotated from: by the files beside it, else by its suffix; compressed too', (t) => {
  const cases: { entry: string; beside?: string[]; base: string | undefined; why: string }[] = [
    { entry: 'mongodb.log.1', base: 'mongodb.log', why: "logrotate's numbers" },
    { entry: 'mongodb.log.1.gz', base: 'mongodb.log', why: 'compressed' },
    { entry: 'mongodb.log.2026-11-20T10-23-09.gz', base: 'mongodb.log', why: "mongod's rename, compressed by the agent" },
    { entry: 'mongodb.log-20261126', base: 'mongodb.log', why: "logrotate's dateext" },
    { entry: 'mongodb.1.log', beside: ['mongodb.log'], base: 'mongodb.log', why: "logrotate's extension option, its file given beside it" },
    { entry: 'mongodb-2026-11-26T05-00-00.000.log.gz', beside: ['mongodb.log'], base: 'mongodb.log', why: "lumberjack's, compressed, its file beside it" },
    { entry: 'mongodb.1.log', base: undefined, why: 'the extension style alone does not say its file' },
    { entry: 'mongodb.log', beside: ['mongodb.log', 'mongodb.log.1'], base: undefined, why: 'the file itself' },
    { entry: 'mongodb.log.gz', base: undefined, why: 'a log compressed, not rotated' },
    { entry: 'mongodb-audit.log.1', beside: ['mongodb.log'], base: 'mongodb-audit.log', why: "the audit log's rotation is the audit log's, never the server's" },
    { entry: 'my-db-0-20261126', base: undefined, why: 'no extension before the date: a name, not a rotation' },
    { entry: 'rs2.log.gz', beside: ['rs1.log.gz'], base: undefined, why: "another member's log" },
  ];
  for (const c of cases) t.is(unrotatedName(c.entry, c.beside), c.base, c.why);
});
