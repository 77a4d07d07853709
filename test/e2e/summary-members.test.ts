/**
 * Several servers in one input, through the real `logtype summary`: Hatchet's replica members
 * rs1 and rs2 as two files (one per pod), and as one `kubectl logs --prefix` stream (each line
 * behind `[pod/NAME/CONTAINER] `, the two pods' lines interleaved in time order). Each member's
 * figures, its lane and who was primary when are checked against what the lines themselves say;
 * one member alone adds nothing.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA, tempDir } from '../_helpers/sidecar-process.js';
import type { Summary } from '../../src/summary/summary.js';

interface Line {
  readonly text: string;
  readonly time: number;
  readonly s: string;
  readonly id: number;
  readonly msg: string;
  readonly attr?: Record<string, unknown>;
}

const MEMBERS = [
  { file: 'mongod-replica-rs1.log.gz', name: 'mongod-replica-rs1', pod: 'my-db-0' },
  { file: 'mongod-replica-rs2.log.gz', name: 'mongod-replica-rs2', pod: 'my-db-1' },
];

function linesOf(file: string): Line[] {
  return gunzipSync(fs.readFileSync(path.join(REAL_DATA, file)))
    .toString('utf8')
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => {
      const line = JSON.parse(text) as { t: { $date: string }; s: string; id: number; msg: string; attr?: Record<string, unknown> };
      return { text, time: Date.parse(line.t.$date), s: line.s, id: line.id, msg: line.msg, ...(line.attr ? { attr: line.attr } : {}) };
    });
}

function summaryOf(args: string[]): { summary: Summary; text: string } {
  const json = runFilter(['summary', '--json', ...args]);
  if (json.status !== 0) throw new Error(json.stderr);
  const text = runFilter(['summary', '--utc', ...args]);
  if (text.status !== 0) throw new Error(text.stderr);
  return { summary: JSON.parse(json.stdout) as Summary, text: text.stdout };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a member's lines say, as the summary should tell it. */
function expectedMember(lines: readonly Line[], name: string) {
  const transitions = lines.filter((l) => l.id === 21358);
  return {
    name,
    first: iso(lines[0]!.time),
    last: iso(lines.at(-1)!.time),
    lines: lines.length,
    warnings: lines.filter((l) => l.s === 'W').length,
    errors: lines.filter((l) => l.s === 'E' || l.s === 'F').length,
    slowOperations: lines.filter((l) => [51801, 51802, 51803].includes(l.id)).length,
    // Starts after the member's first lines: a start its log begins with is no restart seen.
    restarts: lines.filter((l) => l.id === 4615611 && l.time - lines[0]!.time >= 10_000).length,
    stateChanges: transitions.length,
    // A log that ends with the server's exit (23138, `Shutting down` with its exit code): down.
    lastState: lines.at(-1)!.id === 23138 ? 'down' : (transitions.at(-1)!.attr!['newState'] as string),
    // The lane's states after the first, in order: each transition's new state.
    states: transitions.map((l) => l.attr!['newState'] as string),
    primary: transitions.flatMap((l, i) => (l.attr!['newState'] === 'PRIMARY' ? [{ from: iso(l.time), to: iso(transitions[i + 1]?.time ?? lines.at(-1)!.time) }] : [])),
  };
}

const both = MEMBERS.map((m) => ({ ...m, lines: linesOf(m.file) }));

function checkMembers(t: import('ava').ExecutionContext, summary: Summary, text: string, names: readonly string[], from: 'pod' | 'input'): void {
  const server = summary.server!;
  t.deepEqual(server.members!.map((m) => m.name), names);
  both.forEach((member, i) => {
    const expected = expectedMember(member.lines, names[i]!);
    const found = server.members![i]!;
    t.like(found, { name: expected.name, from, first: expected.first, last: expected.last, lines: expected.lines, warnings: expected.warnings, errors: expected.errors, slowOperations: expected.slowOperations, restarts: expected.restarts, stateChanges: expected.stateChanges, lastState: expected.lastState });
    // The lane covers the member's log without a gap, and goes through the states its transitions name.
    t.is(found.lane[0]!.from, expected.first);
    t.is(found.lane.at(-1)!.to, expected.last);
    t.true(found.lane.every((s, j) => j === 0 || s.from === found.lane[j - 1]!.to), `${expected.name}: no gap in the lane`);
    t.deepEqual(found.lane.slice(1).map((s) => s.state), expected.states, `${expected.name}: the states its 21358 lines name`);
    t.is(found.lane[0]!.state, member.lines.find((l) => l.id === 21358)!.attr!['oldState'] as string, `${expected.name}: the first state, from the first transition's oldState`);
    t.deepEqual(found.lane.filter((s) => s.state === 'PRIMARY').map(({ from, to }) => ({ from, to })), expected.primary);
    t.true(found.events.some((e) => e.kind === 'restart' && /^(?:re)?start \(v/.test(e.label)), `${expected.name}: its start, with its version`);
    t.true(found.events.some((e) => e.kind === 'election' && /Election succeeded/.test(e.label)), `${expected.name}: its election`);
  });
  // Who was primary when: each member's primary stretches, and nobody else's, in time order.
  const primaries = server.primaries!.filter((p) => p.primaries.length > 0);
  const expected = both
    .flatMap((member, i) => expectedMember(member.lines, names[i]!).primary.map((p) => ({ ...p, primaries: [names[i]!], unknown: [] })))
    .sort((a, b) => (a.from < b.from ? -1 : 1));
  t.deepEqual(primaries, expected);
  t.true(expected.length >= 2, 'two members were primary in turn');
  t.true(server.primaries!.every((p, i) => i === 0 || p.from === server.primaries![i - 1]!.to), 'who was primary when: no gap where a log covers the time');
  // From an incident trial: the member that exited first read as "state not known" for the
  // other's last moments; it was down.
  t.true(server.primaries!.every((p) => p.unknown.length === 0 || p.to <= (server.members![0]!.first ?? '') || p.to <= (server.members![1]!.first ?? '')), JSON.stringify(server.primaries!.at(-1)));
  // Two starts 1.5 s apart, one on each member: two restarts, each named.
  t.deepEqual(server.restarts.map((r) => r.member), names);
  t.true(server.replication.every((e) => e.member === undefined || names.includes(e.member)));
  // The text: the members' table, their lanes and who was primary when.
  t.regex(text, /members \(2\), each a pod or an input/);
  const strips = text.slice(text.indexOf('  lanes from ')).split('\n').slice(1, 3);
  names.forEach((name, i) => t.regex(strips[i]!, new RegExp(`^    ${name} +s[s2RS]*S+P+S+$`), `${name}: its lane as a strip, starting, secondary, primary, secondary`));
  t.regex(text, /who was primary when/);
  for (const p of expected) t.regex(text, new RegExp(`${p.from.slice(0, 19).replace('T', ' ')}  ${p.to.slice(0, 19).replace('T', ' ')} +[0-9][0-9a-z. ]*  ${p.primaries[0]}\\n`), `the text says ${p.primaries[0]} from ${p.from}`);
}

test("Hatchet's rs1 and rs2 as two members: two files, one per pod", (t) => {
  const { summary, text } = summaryOf(MEMBERS.map((m) => path.join(REAL_DATA, m.file)));
  checkMembers(t, summary, text, MEMBERS.map((m) => m.name), 'input');
});

test("Hatchet's rs1 and rs2 as two members: one kubectl logs --prefix stream, the pods' lines interleaved", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const prefixed = both
      .flatMap((m) => m.lines.map((l) => ({ time: l.time, text: `[pod/${m.pod}/mongodb-enterprise-database] ${l.text}` })))
      .sort((a, b) => a.time - b.time);
    const file = path.join(dir, 'kubectl-logs-prefix.log');
    fs.writeFileSync(file, prefixed.map((l) => `${l.text}\n`).join(''));
    const { summary, text } = summaryOf([file]);
    checkMembers(t, summary, text, MEMBERS.map((m) => m.pod), 'pod');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a member down for a minute, then started again (rs1 cut while primary, its own start lines after the pause): down from its last line before the pause, not primary across it", (t) => {
  // A 4.4+ server writes a few lines before its start line (wire specification, TLS 1.0, TCP
  // FastOpen, its primary-only services), milliseconds apart: the pause is before those.
  const rs1 = both[0]!.lines;
  const cut = rs1.findIndex((l) => l.time >= Date.parse('2024-03-18T14:51:00Z'));
  const lastBefore = rs1[cut - 1]!.time;
  const startIndex = rs1.findIndex((l) => l.id === 4615611);
  t.true(startIndex > 0 && rs1[startIndex]!.time - rs1[0]!.time < 1000, 'rs1 starts with lines before its start line, within a second');
  const secondary = rs1.findIndex((l) => l.id === 21358 && l.attr!['newState'] === 'SECONDARY');
  const shift = lastBefore + 60_000 - rs1[0]!.time;
  const again = rs1.slice(0, secondary + 1).map((l) => {
    const time = l.time + shift;
    const record = JSON.parse(l.text) as { t: { $date: string } };
    record.t.$date = iso(time);
    return { ...l, time, text: JSON.stringify(record) };
  });
  const restartedAt = again[startIndex]!.time;
  const dir = tempDir('logtype-members-');
  try {
    const prefixed = [
      ...[...rs1.slice(0, cut), ...again].map((l) => ({ time: l.time, text: `[pod/my-db-0/mongodb-enterprise-database] ${l.text}` })),
      ...both[1]!.lines.map((l) => ({ time: l.time, text: `[pod/my-db-1/mongodb-enterprise-database] ${l.text}` })),
    ].sort((a, b) => a.time - b.time);
    const file = path.join(dir, 'kubectl-logs-prefix.log');
    fs.writeFileSync(file, prefixed.map((l) => `${l.text}\n`).join(''));
    const { summary, text } = summaryOf([file]);
    const server = summary.server!;
    const lane = server.members!.find((m) => m.name === 'my-db-0')!.lane;
    t.deepEqual(
      lane.filter((s) => s.state === 'down'),
      [{ from: iso(lastBefore), to: iso(restartedAt), state: 'down' }],
    );
    t.like(
      lane.find((s) => s.to === iso(lastBefore)),
      { state: 'PRIMARY' },
      'primary up to its last line before the pause',
    );
    const claims = server.primaries!.filter((p) => p.primaries.includes('my-db-0') && Date.parse(p.to) > lastBefore && Date.parse(p.from) < restartedAt);
    t.deepEqual(claims, [], 'nobody says my-db-0 was primary while it was down');
    const strip = text.slice(text.indexOf('  lanes from ')).split('\n')[1]!;
    t.regex(strip, /^ {4}my-db-0 +s?S*P+x+/, 'its strip: primary, then down');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('one member: no members, no lanes, no member named on its events', (t) => {
  const { summary, text } = summaryOf([path.join(REAL_DATA, MEMBERS[0]!.file)]);
  const server = summary.server!;
  t.is(server.members, undefined);
  t.is(server.primaries, undefined);
  t.true(server.restarts.every((r) => r.member === undefined));
  t.true(server.replication.every((e) => e.member === undefined));
  t.notRegex(text, /members \(|who was primary when/);
  // Nor on its slow work or its warnings: one server's summary is as it was.
  t.true(server.slowOperations.length > 0 && server.slowOperations.every((g) => !('members' in g)));
  t.true(server.slowest.length > 0 && server.slowest.every((op) => !('member' in op)));
  t.true(server.problems.length > 0 && server.problems.every((p) => !('members' in p)));
  t.notRegex(text, /\bmembers?\s+(?:namespace|connection|message)\b/);
});

test("Hatchet's rs1 and rs2 as two members: each member's connections apart, a member's restart ends only its own", (t) => {
  const { summary, text } = summaryOf(MEMBERS.map((m) => path.join(REAL_DATA, m.file)));
  const connections = summary.server!.longLivedConnections;
  t.true(connections.length > 0);
  for (const member of both) {
    const mine = connections.filter((c) => c.member === member.name);
    t.true(mine.length > 0, `${member.name} has long-lived connections`);
    // Each connection is one this member's own lines opened (its number and remote).
    const accepted = new Set(member.lines.filter((l) => l.id === 22943).map((l) => `${String(l.attr?.['connectionId'])} ${String(l.attr?.['remote'])}`));
    for (const c of mine) t.true(accepted.has(`${c.connectionId} ${c.remote}`), `${member.name}: conn${c.connectionId} from ${c.remote} was accepted in its own log`);
    // A connection ended by a restart ended at one of this member's own start lines.
    const starts = new Set(member.lines.filter((l) => l.id === 4615611 || l.msg === 'Build Info' || l.id === 20698).map((l) => iso(l.time)));
    for (const c of mine.filter((c) => c.end === 'restart')) t.true(starts.has(c.closed!), `${member.name}: conn${c.connectionId} ended at its own restart, not at ${c.closed}`);
    // A connection ended by a shutdown ended at this member's own exit line (23138).
    const exits = new Set(member.lines.filter((l) => l.id === 23138).map((l) => iso(l.time)));
    for (const c of mine.filter((c) => c.end === 'shutdown')) t.true(exits.has(c.closed!), `${member.name}: conn${c.connectionId} ended at its own exit, not at ${c.closed}`);
    // Still open: to its own member's last line.
    for (const c of mine.filter((c) => c.end === 'still open')) t.is(new Date(Date.parse(c.opened) + c.durationMillis).toISOString(), iso(member.lines.at(-1)!.time));
  }
  t.true(connections.every((c) => c.member !== undefined));
  t.regex(text, /longest-lived connections[^\n]*:\n\s+lived\s+opened\s+closed\s+conn\s+remote\s+appName\s+member\n/);
});

test("two pods in one kubectl --prefix stream: one pod's restart does not end the other's open connection", (t) => {
  const line = (pod: string, time: string, id: number, msg: string, attr: object, ctx = 'listener'): string =>
    `[pod/${pod}/mongod] ${JSON.stringify({ t: { $date: time }, s: 'I', c: id === 4615611 ? 'CONTROL' : 'NETWORK', id, ctx, msg, attr })}\n`;
  const input = [
    line('db-0', '2026-11-22T10:00:00.000Z', 22943, 'Connection accepted', { remote: '10.0.0.5:5000', connectionId: 7, connectionCount: 1 }),
    line('db-1', '2026-11-22T10:00:30.000Z', 22943, 'Connection accepted', { remote: '10.0.0.6:6000', connectionId: 7, connectionCount: 1 }),
    line('db-1', '2026-11-22T10:01:00.000Z', 4615611, 'MongoDB starting', { pid: 1, port: 27017 }, 'initandlisten'),
    line('db-0', '2026-11-22T10:05:00.000Z', 22944, 'Connection ended', { remote: '10.0.0.5:5000', connectionId: 7, connectionCount: 0 }, 'conn7'),
  ].join('');
  const json = runFilter(['summary', '--json'], input);
  t.is(json.status, 0, json.stderr);
  const connections = (JSON.parse(json.stdout) as Summary).server!.longLivedConnections;
  const mine = (member: string) => connections.filter((c) => c.member === member).map((c) => [c.connectionId, c.end, c.durationMillis]);
  // db-0's conn7 lived its 5 minutes to its end line; db-1's conn7 ended with db-1's restart,
  // when db-1 was last heard of before it (its own line: the server went down after it).
  t.deepEqual(mine('db-0'), [[7, 'closed', 300_000]]);
  t.deepEqual(mine('db-1'), [[7, 'restart', 0]]);
});

test('65 pods in one input: 64 lanes of their own and one of the other members, no crash', (t) => {
  const line = (pod: number): string =>
    `[pod/db-${pod}/mongod] ${JSON.stringify({ t: { $date: '2026-11-22T10:00:00.000Z' }, s: 'I', c: 'REPL', id: 21358, ctx: 'x', msg: 'Replica set state transition', attr: { newState: 'SECONDARY', oldState: 'STARTUP2' } })}\n`;
  const input = Array.from({ length: 65 }, (_, pod) => line(pod)).join('');
  const json = runFilter(['summary', '--json'], input);
  t.is(json.status, 0, json.stderr);
  const members = (JSON.parse(json.stdout) as Summary).server!.members!;
  t.is(members.length, 65);
  t.is(members.filter((m) => m.name === '(other members)').length, 1);
});

test("a member whose log is shorter than a column of the strip (Hatchet's rs1, minutes of 2024, beside mtools' 4.2 text log of 2020) still has its lane", (t) => {
  const { summary, text } = summaryOf([path.join(REAL_DATA, MEMBERS[0]!.file), path.join(REAL_DATA, 'mongod-4.2-text.log')]);
  t.deepEqual(summary.server!.members!.map((m) => m.name), ['mongod-4.2-text', 'mongod-replica-rs1']);
  const strips = text.slice(text.indexOf('  lanes from ')).split('\n').slice(1, 3);
  // Four years across the strip: each member's minutes are less than a column, and still drawn.
  // The 4.2 log begins at a log rotation, whose lines say its member state (PRIMARY).
  t.regex(strips[0]!, /^ {4}mongod-4\.2-text +P$/, 'the 4.2 member: its state as its rotation said it, in the first column');
  t.regex(strips[1]!, /^ {4}mongod-replica-rs1 +[s2RSP]$/, 'rs1: its state, in the last column');
});

test("one file per pod, each copied out under its pod's name as mongodb.log.gz: each member named by its directory, alike", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const files = MEMBERS.map((m) => {
      fs.mkdirSync(path.join(dir, m.pod));
      const file = path.join(dir, m.pod, 'mongodb.log.gz');
      fs.copyFileSync(path.join(REAL_DATA, m.file), file);
      return file;
    });
    const { summary, text } = summaryOf(files);
    checkMembers(t, summary, text, MEMBERS.map((m) => `${m.pod}/mongodb`), 'input');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// From an incident trial: a server's rotated log copied out beside its current one (`kubectl cp`
// of the log folder) was taken for a second member, and "who was primary when" showed a
// handover at the moment of the rotation.
test("each pod's log folder copied out, its rotated logs beside its current one (mongod's rename, gzipped; logrotate's number): one member a pod, in either order", (t) => {
  const dir = tempDir('logtype-members-rotated-');
  try {
    const layouts = [false, true].map((currentFirst) => {
      const files: string[] = [];
      both.forEach((member, i) => {
        const podDir = path.join(dir, String(currentFirst), member.pod);
        fs.mkdirSync(podDir, { recursive: true });
        const text = member.lines.map((l) => `${l.text}\n`);
        const cut = Math.floor(text.length / 3);
        // rs1's first part renamed by mongod and gzipped by the agent; rs2's numbered by logrotate.
        const rotated = path.join(podDir, i === 0 ? 'mongodb.log.2024-03-18T14-51-21.gz' : 'mongodb.log.1');
        fs.writeFileSync(rotated, i === 0 ? gzipSync(text.slice(0, cut).join('')) : text.slice(0, cut).join(''));
        const current = path.join(podDir, 'mongodb.log');
        fs.writeFileSync(current, text.slice(cut).join(''));
        // A shell's glob sorts the current name first.
        files.push(...(currentFirst ? [current, rotated] : [rotated, current]));
      });
      return files;
    });
    for (const files of layouts) {
      const { summary, text } = summaryOf(files);
      checkMembers(t, summary, text, MEMBERS.map((m) => `${m.pod}/mongodb`), 'input');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** rs1 and rs2 as one `kubectl logs --prefix` stream, the pods' lines interleaved in time order: its file in `dir`. */
function prefixedStream(dir: string): string {
  const prefixed = both.flatMap((m) => m.lines.map((l) => ({ time: l.time, text: `[pod/${m.pod}/mongodb-enterprise-database] ${l.text}` }))).sort((a, b) => a.time - b.time);
  const file = path.join(dir, 'kubectl-logs-prefix.log');
  fs.writeFileSync(file, prefixed.map((l) => `${l.text}\n`).join(''));
  return file;
}

/** The summary (text and JSON) and page of rs1 and rs2 as one kubectl --prefix stream written in `dir`. */
function prefixedSummary(dir: string): { summary: Summary; text: string; page: string } {
  const page = path.join(dir, 'summary.html');
  return { ...summaryOf(['--html', page, prefixedStream(dir)]), page };
}

/** Each member's count of the lines `which` picks, the most first (ties by name), as `members` says them. */
const countsOf = (which: (l: Line) => boolean) =>
  both
    .map((m) => ({ name: m.pod, count: m.lines.filter(which).length }))
    .filter((m) => m.count > 0)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));

test("rs1 and rs2 as one kubectl --prefix stream: each slowest operation, slow group and warning says whose lines it has (both pods have a conn44; a quoted line has no prefix)", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const file = prefixedStream(dir);
    // testdb.employees: both members' slow updates are among its slowest, their threads' numbers alike.
    const { summary, text } = summaryOf(['--ns', 'testdb.employees', file]);
    const server = summary.server!;
    t.true(server.slowest.length > 0);
    for (const op of server.slowest) {
      const quoted = op.line!.replace(/…$/, '');
      const whose = both.filter((m) => m.lines.some((l) => l.text.startsWith(quoted))).map((m) => m.pod);
      t.deepEqual(whose, [op.member], `${op.time} ${op.connection} ${op.durationMillis}ms: the line of ${String(op.member)}`);
    }
    t.deepEqual([...new Set(server.slowest.map((op) => op.member))].sort(), ['my-db-0', 'my-db-1'], 'both pods among the slowest');
    const slowText = text.slice(text.indexOf('\nSlowest operations'));
    t.regex(slowText, /\n\s+#\s+duration\s+time\s+member\s+connection\s/);
    for (const [i, op] of server.slowest.slice(0, 10).entries()) t.regex(slowText, new RegExp(`\\n\\s+${i + 1}\\s+\\S+\\s+\\S+ \\S+\\s+${op.member!}\\s+${op.connection!}\\s`), `row ${i + 1} names ${op.member!}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("rs1 and rs2 as one kubectl --prefix stream: each slow-operation group and each warning counts its lines by member, in the text, the JSON and the page", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const { summary, text, page } = prefixedSummary(dir);
    const server = summary.server!;
    // Every group's members add up to its count, and each member's to its own slow operations (51803: no group beyond the limit here).
    t.false(server.slowOperations.some((g) => g.ns === '(other shapes)'));
    for (const g of server.slowOperations) t.is(g.members!.reduce((sum, m) => sum + m.count, 0), g.count, `${g.ns} ${g.operation} ${g.shape}`);
    for (const m of both) {
      const counted = server.slowOperations.reduce((sum, g) => sum + (g.members!.find((c) => c.name === m.pod)?.count ?? 0), 0);
      t.is(counted, m.lines.filter((l) => l.id === 51803).length, `${m.pod}: its slow operations, over the groups`);
    }
    const inserts = server.slowOperations.find((g) => g.ns === 'testdb.robots' && g.operation === 'insert')!;
    t.deepEqual(inserts.members, countsOf((l) => l.id === 51803 && l.attr!['ns'] === 'testdb.robots' && (l.attr!['command'] as Record<string, unknown>)['insert'] !== undefined));
    // Every warning's and error's message: each member's lines of its id.
    for (const p of server.problems) t.deepEqual(p.members, countsOf((l) => l.id === p.id && ['W', 'E', 'F'].includes(l.s)), `${String(p.id)} ${p.msg}`);
    t.true(server.problems.some((p) => p.members!.length === 2) && server.problems.some((p) => p.members!.length === 1));
    // The text: a members column in the groups' and the warnings' tables.
    const socket = server.problems.find((p) => p.id === 4615610)!;
    t.regex(text, new RegExp(`\\n\\s+${socket.count}\\s+4615610\\s+W\\s+\\S+ \\S+\\s+\\S+ \\S+\\s+${socket.members!.map((m) => `${m.name} ${m.count}`).join(', ')}\\s+Failed to check socket connectivity\\n`));
    t.regex(text, /\n\s+total\s+count\s+p50\s+p95\s+max\s+examined\/returned\s+members\s+namespace\s/);
    t.regex(text, new RegExp(`\\s${inserts.members!.map((m) => `${m.name} ${m.count}`).join(', ')}\\s+testdb\\.robots\\s+insert\\s`));
    // The page: the same columns.
    const html = fs.readFileSync(page, 'utf8');
    const headers = (className: string): string[] => [...new RegExp(`<table class="${className}"><thead><tr>(.*?)</tr>`).exec(html)![1]!.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1]!);
    t.true(headers('slow').includes('members'));
    t.true(headers('slowest').includes('member'));
    t.true(headers('problems').includes('members'));
    t.true(html.replace(/<span class="pair">([^<]*)<\/span>/g, '$1').includes(`<td class="members">${socket.members!.map((m) => `${m.name} ${m.count}`).join(', ')}</td>`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A secondary's 'Applied op' line (an oplog entry applied slowly). */
const APPLIED_OP = 51801;

test('rs1 and rs2 as one kubectl --prefix stream: the most frequent messages and the oplog entries applied slowly count their lines by member, in the text, the JSON and the page', (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const { summary, text, page } = prefixedSummary(dir);
    const server = summary.server!;
    // Each message's lines by member, as the lines' ids say (every message here has an id).
    t.true(server.messages.length > 5);
    for (const m of server.messages) t.deepEqual(m.members, countsOf((l) => l.id === m.id), `${String(m.id)} ${m.msg}`);
    // Applied entries: each group's members add up to its count, and each member's to its own 51801 lines.
    t.false(server.appliedOperations.some((g) => g.ns === '(other namespaces)'));
    for (const g of server.appliedOperations) t.is(g.members!.reduce((sum, m) => sum + m.count, 0), g.count, `${g.ns} ${g.operation}`);
    for (const m of both) {
      const counted = server.appliedOperations.reduce((sum, g) => sum + (g.members!.find((c) => c.name === m.pod)?.count ?? 0), 0);
      t.is(counted, m.lines.filter((l) => l.id === APPLIED_OP).length, `${m.pod}: its applied entries, over the groups`);
    }
    const crud = (l: Line) => (l.attr?.['CRUD'] ?? {}) as Record<string, unknown>;
    const inserts = server.appliedOperations.find((g) => g.ns === 'testdb.vehicles' && g.operation === 'insert')!;
    t.deepEqual(inserts.members, countsOf((l) => l.id === APPLIED_OP && crud(l)['ns'] === 'testdb.vehicles' && crud(l)['op'] === 'i'));
    t.is(inserts.members!.length, 2, 'both members applied testdb.vehicles inserts');
    // The text: a members column in both tables.
    const words = (members: readonly { name: string; count: number }[]) => members.map((m) => `${m.name} ${m.count.toLocaleString('en-US')}`).join(', ');
    const slowQuery = server.messages.find((m) => m.id === 51803)!;
    t.regex(text, new RegExp(`\\n\\s+most frequent messages \\(15 of ${server.messages.length}; --json and --html have them all\\):\\n\\s+count\\s+id\\s+s\\s+members\\s+message\\n`));
    t.regex(text, new RegExp(`\\n\\s+${slowQuery.count.toLocaleString('en-US')}\\s+51803\\s+I\\s+${words(slowQuery.members!)}\\s+Slow query\\n`));
    const applied = text.slice(text.indexOf('\nOplog entries applied slowly'));
    t.regex(applied, /^\nOplog entries applied slowly \(by secondaries\), by total time.*\n\s+total\s+count\s+p50\s+p95\s+max\s+members\s+namespace\s+operation\n/);
    t.regex(applied, new RegExp(`\\s${words(inserts.members!)}\\s+testdb\\.vehicles\\s+insert\\n`));
    // The page: the same columns, and every applied group.
    const html = fs.readFileSync(page, 'utf8');
    const rows = (className: string): string[][] =>
      [...new RegExp(`<table class="${className}">(.*?)</table>`).exec(html)![1]!.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!));
    const cellText = (cell: string): string => cell.replace(/<[^>]*>/g, '');
    const messages = rows('messages');
    t.deepEqual(messages[0], ['count', 'id', 'severity', 'members', 'message']);
    t.deepEqual(messages.find((r) => r[1] === '51803')?.map(cellText), [slowQuery.count.toLocaleString('en-US'), '51803', 'I', words(slowQuery.members!), 'Slow query']);
    t.is(messages.length - 1, server.messages.length, 'every message on the page');
    const appliedRows = rows('applied');
    t.deepEqual(appliedRows[0], ['total ms', 'count', 'p50 ms', 'p95 ms', 'max ms', 'members', 'namespace', 'operation']);
    t.is(appliedRows.length - 1, server.appliedOperations.length, 'every applied group on the page');
    t.true(appliedRows.some((r) => r.slice(5).map(cellText).join(' ') === `${words(inserts.members!)} testdb.vehicles insert`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("rs1 and rs2, each log beginning with its start and no restart seen: the page's legends say 'start where a log begins', not 'restart', and an E or a violet bar 'election or step-down'; the members' table says its count has both", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const page = path.join(dir, 'summary.html');
    const { summary, text } = summaryOf(['--html', page, ...MEMBERS.map((m) => path.join(REAL_DATA, m.file))]);
    const server = summary.server!;
    t.true(server.restarts.length === 2 && server.restarts.every((r) => r.atLogStart === true), 'two starts, each where its log begins');
    // Each member stepped down once and won an election once: the count has both, as the lines say.
    for (const m of both) {
      const episodes = m.lines.filter((l) => /Election succeeded|Starting an election|step ?down/i.test(l.msg) && !/^Not starting an election/.test(l.msg));
      t.true(episodes.some((l) => /step ?down/i.test(l.msg)) && episodes.some((l) => /Election succeeded/.test(l.msg)), `${m.pod}: an election and a step-down in its lines`);
    }
    const html = fs.readFileSync(page, 'utf8');
    const keys = [...html.matchAll(/<span class="marker-key">(.*?)<\/span>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ''));
    t.true(keys.length >= 3);
    // Both members were stopped by a signal at the end: their shutdowns are marked too.
    for (const key of keys.filter((k) => k.startsWith('marked: '))) t.regex(key, /^marked: R start where a log begins, D shutdown, E election or step-down, S state change /);
    t.true(keys.some((k) => /^on a lane: ▼ start where a log begins, ■ shutdown, \| election or step-down, ● error/.test(k)), keys.join('\n'));
    t.false(keys.some((k) => /\brestart\b/.test(k)), 'no legend says restart');
    t.true(html.includes('<th>elections or step-downs</th>'));
    t.regex(text, /\n\s+member\s+lines\s+warnings\s+errors\s+slow ops\s+restarts\s+elections or step-downs\s+state changes\s/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("rs1 and rs2 as one kubectl --prefix stream: the connections' peak is one member's own count (each server counts its own), and the text and the page name that member", (t) => {
  const dir = tempDir('logtype-members-');
  try {
    const { summary, text, page } = prefixedSummary(dir);
    const peaks = both.map((m) => ({ pod: m.pod, peak: Math.max(...m.lines.flatMap((l) => (typeof l.attr?.['connectionCount'] === 'number' ? [l.attr['connectionCount']] : []))) }));
    const top = peaks.reduce((a, b) => (b.peak > a.peak ? b : a));
    t.true(peaks.every((p) => p.peak > 0) && peaks.some((p) => p.peak < top.peak), `two members, two peaks (${peaks.map((p) => `${p.pod} ${p.peak}`).join(', ')})`);
    t.like(summary.server!.connections, { peak: top.peak, peakMember: top.pod });
    t.regex(text, new RegExp(`\\n  connections: [\\d,]+ opened, [\\d,]+ closed, peak ${top.peak} open, on ${top.pod} \\(each member counts its own\\)\\n`));
    t.true(fs.readFileSync(page, 'utf8').includes(`closed, peak ${top.peak} open, on ${top.pod} (each member counts its own).`));
    // One server alone: its peak, no member named.
    const one = summaryOf([path.join(REAL_DATA, MEMBERS[0]!.file)]);
    t.is(one.summary.server!.connections.peakMember, undefined);
    t.regex(one.text, new RegExp(`\\n  connections: [\\d,]+ opened, [\\d,]+ closed, peak ${peaks[0]!.peak} open\\n`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// From an incident trial: the members' slow ops (7,023 + 3,977) and the slow operations' 8,343 disagreed without a word.
test("rs1 and rs2: the members' slow ops are their slow queries, oplog entries applied slowly and slow transactions, and the text and page say so", (t) => {
  const { summary, text } = summaryOf(MEMBERS.map((m) => path.join(REAL_DATA, m.file)));
  const slow = (m: (typeof both)[number]) => m.lines.filter((l) => l.id === 51803 || l.id === 51801 || l.id === 51802).length;
  t.deepEqual(summary.server!.members!.map((m) => m.slowOperations), both.map(slow));
  t.regex(text, /slow ops: slow queries, oplog entries applied slowly and slow transactions together \(the sections below count each apart\)/);
});

// From a trial of the report: with members named from their files (`mongod-replica-rs1.log.gz`),
// the text's members column was cut at 40 columns, `mongod-replica-rs1 10, mongod-replica-r…`,
// and the second member's count was never visible.
test('rs1 and rs2 as two files with long names: the text names the members by what sets them apart, every count whole', (t) => {
  const files = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz'].map((name) => path.join(REAL_DATA, name));
  const json = JSON.parse(runFilter(['summary', '--json', ...files]).stdout) as Summary;
  const text = runFilter(['summary', '--utc', '--color', 'never', ...files]).stdout;
  const socket = json.server!.problems.find((p) => p.id === 4615610)!;
  t.is(socket.members!.length, 2);
  t.deepEqual(socket.members!.map((m) => m.name), ['mongod-replica-rs1', 'mongod-replica-rs2']);
  t.regex(text, new RegExp(`\\s${socket.members!.map((m) => `${m.name.replace('mongod-replica-', '')} ${m.count}`).join(', ')}\\s+Failed to check socket connectivity\\n`));
  t.notRegex(text, /mongod-replica-r…/);
  // The members' table names them whole.
  t.regex(text, /^\s+mongod-replica-rs1\s/m);
});

// From an incident trial: the kubelet's files of a pod's container (`/var/log/pods/NS_POD_UID/
// CONTAINER/0.log`, a rotation of it, `1.log` after a restart) were members "0" and "1", and
// three pods' were named by their 36-character uid paths.
test('the kubelet\'s CRI files under /var/log/pods: one member a pod, its restarts and rotations together, in their order', (t) => {
  const root = tempDir('var-log-pods');
  const cri = (lines: readonly Line[]): string => lines.map((l) => `${iso(l.time).replace('Z', '000000Z')} stdout F ${l.text}`).join('\n') + '\n';
  const inputs: string[] = [];
  for (const [index, member] of MEMBERS.entries()) {
    const dir = path.join(root, `mongodb_${member.pod}_0f6c1d2e-1111-4a2b-9c3d-5e6f7a8b9c0${index}`, 'mongod');
    fs.mkdirSync(dir, { recursive: true });
    const lines = linesOf(member.file);
    // The first third rotated by the kubelet and gzipped, the second third the rest of 0.log,
    // the last third 1.log: the container restarted.
    const [a, b] = [Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3)];
    fs.writeFileSync(path.join(dir, '0.log.20240318-145000.gz'), gzipSync(cri(lines.slice(0, a))));
    fs.writeFileSync(path.join(dir, '0.log'), cri(lines.slice(a, b)));
    fs.writeFileSync(path.join(dir, '1.log'), cri(lines.slice(b)));
    // As a shell's glob gives them: 0.log, 0.log.DATE.gz, 1.log.
    inputs.push(...['0.log', '0.log.20240318-145000.gz', '1.log'].map((name) => path.join(dir, name)));
  }
  const { summary } = summaryOf(inputs);
  const members = summary.server?.members ?? [];
  t.deepEqual(members.map((m) => m.name), MEMBERS.map((m) => m.pod));
  for (const [index, member] of MEMBERS.entries()) {
    const lines = linesOf(member.file);
    const found = members[index]!;
    t.is(found.lines, lines.length, member.pod);
    t.is(found.first, iso(lines[0]!.time), `${member.pod}: read from its oldest file`);
    t.is(found.last, iso(lines.at(-1)!.time), `${member.pod}: to its newest`);
  }
});

// From an incident trial: one member's clock set back an hour for 30 s drew it in STARTUP for an
// hour before its log began, and a row "57m none said" in who was primary when, without a word.
test('a member whose clock steps back: said, with the step, where its lane and who was primary when are unsure; not for a log in order', (t) => {
  const lines = linesOf(MEMBERS[0]!.file);
  const from = lines[Math.floor(lines.length / 2)]!.time;
  const shifted = lines.map((l) => {
    if (l.time < from || l.time >= from + 30_000) return l.text;
    const line = JSON.parse(l.text) as { t: { $date: string } };
    return JSON.stringify({ ...line, t: { $date: new Date(l.time - 3_600_000).toISOString() } });
  });
  const dir = tempDir('clock-step');
  const [stepped, plain] = [path.join(dir, 'my-db-0.log'), path.join(dir, 'my-db-1.log')];
  fs.writeFileSync(stepped, `${shifted.join('\n')}\n`);
  fs.writeFileSync(plain, `${lines.map((l) => l.text).join('\n')}\n`);
  const steps = (file: string) => (JSON.parse(runFilter(['summary', '--json', '--as', 'mongodb', file]).stdout) as Summary).server?.clockSteps;
  const [step] = steps(stepped) ?? [];
  t.like(step, { member: 'my-db-0', count: 1 });
  t.true(Math.abs(step!.backMillis - 3_600_000) < 60_000, String(step!.backMillis));
  t.is(steps(plain), undefined);
  t.regex(runFilter(['summary', '--color', 'never', '--as', 'mongodb', stepped]).stdout, /^clock: my-db-0's lines step back in time by (59m \d+s|1h 00m), first at .*: its lane and who was primary when are unsure around it$/m);
});

// From a review: /var/log/containers' links of one pod's containers, the previous and the
// current, are named by random container ids: read in their names' order, the member's story
// (and its lane) ran backwards.
test('the kubelet\'s links in /var/log/containers of one pod\'s two containers: read in the order they were written, whatever their ids', (t) => {
  const dir = tempDir('var-log-containers');
  const lines = linesOf(MEMBERS[0]!.file);
  const half = Math.floor(lines.length / 2);
  const cri = (part: readonly Line[]): string => part.map((l) => `${iso(l.time).replace('Z', '000000Z')} stdout F ${l.text}`).join('\n') + '\n';
  const [previous, current] = [path.join(dir, `my-db-0_mongodb_mongod-${'f'.repeat(64)}.log`), path.join(dir, `my-db-0_mongodb_mongod-${'0'.repeat(64)}.log`)];
  fs.writeFileSync(previous, cri(lines.slice(0, half)));
  fs.writeFileSync(current, cri(lines.slice(half)));
  fs.utimesSync(previous, new Date(lines[half - 1]!.time), new Date(lines[half - 1]!.time));
  fs.utimesSync(current, new Date(lines.at(-1)!.time), new Date(lines.at(-1)!.time));
  // As a glob gives them: the current container's id first.
  const { summary } = summaryOf([current, previous]);
  t.is(summary.server?.members, undefined, 'one member: the pod');
  t.is(summary.server?.clockSteps, undefined, 'its lines in order: no step back');
  t.is(summary.server?.bySeverity.length !== 0, true);
  const json = JSON.parse(runFilter(['summary', '--json', current, previous]).stdout) as Summary;
  t.is(json.first, iso(lines[0]!.time));
});

/** A server line of the sidecar's, for `pod` (kubectl's --prefix). */
const podLine = (pod: string, at: string, s: string, id: number, ctx: string, msg: string, attr: Record<string, unknown> = {}): string =>
  `[pod/${pod}/mongodb-agent] ${JSON.stringify({ logType: 'mongodb', contents: JSON.stringify({ t: { $date: `2026-11-27T${at}Z` }, s, c: 'CONTROL', id, ctx, msg, attr }) })}`;

// From a field trial: a crash-looping server summarised with -l warn said "restarts: none" (the
// start lines are info), and a member restarted after a clean shutdown had "down" as its last state.
test('restarts under a selection: the unclean-shutdown warning counts its start, and none is "none among the selected lines"; a member up again after a shutdown is no longer down', (t) => {
  const crashLoop = [
    podLine('rs-0', '10:00:00.000', 'I', 4615611, 'initandlisten', 'MongoDB starting', { pid: 1 }),
    podLine('rs-0', '10:05:00.000', 'F', 23081, 'conn5', 'Fatal assertion', { msgid: 40507 }),
    podLine('rs-0', '10:06:00.000', 'I', 4615611, 'initandlisten', 'MongoDB starting', { pid: 2 }),
    podLine('rs-0', '10:06:01.000', 'W', 22271, 'initandlisten', 'Detected unclean shutdown - Lock file is not empty', { lockFile: '/data/mongod.lock' }),
    podLine('rs-0', '10:10:00.000', 'I', 23138, 'conn9', 'Shutting down', { exitCode: 0 }),
    podLine('rs-0', '10:11:00.000', 'I', 4615611, 'initandlisten', 'MongoDB starting', { pid: 3 }),
    podLine('rs-0', '10:11:01.000', 'I', 23016, 'listener', 'Waiting for connections', { port: 27017 }),
    podLine('rs-1', '10:00:00.000', 'I', 4615611, 'initandlisten', 'MongoDB starting', { pid: 1 }),
  ].join('\n') + '\n';
  const all = runFilter(['summary', '--utc'], crashLoop);
  t.regex(all.stdout, /restarts: 2 \(2026-11-27 10:06:00 rs-0, no shutdown logged before it: killed or crashed; 2026-11-27 10:11:00 rs-0, after a shutdown\)/);
  const warned = runFilter(['summary', '--utc', '-l', 'warn'], crashLoop);
  t.regex(warned.stdout, /restarts: 1 among the selected lines \(2026-11-27 10:06:01, no shutdown among the selected lines before it\)/);
  t.regex(warned.stdout, /connections: 0 opened, 0 closed, peak unknown \(of the selected lines\)/);
  const errors = runFilter(['summary', '--utc', '-l', 'error'], crashLoop);
  t.regex(errors.stdout, /restarts: none among the selected lines \(a start's lines are info: a selection such as -l warn leaves them out\)/);
  const json = JSON.parse(runFilter(['summary', '--json'], crashLoop).stdout) as Summary;
  const rs0 = json.server!.members!.find((m) => m.name === 'rs-0')!;
  t.is(rs0.lastState, null, 'up again after its shutdown: its state not known');
  t.is(rs0.restarts, 2);
});

// From a field trial: `kubectl logs --previous` and the current log saved as two files were two
// members, the crash between them no restart; their start lines name one host, which is said.
test("two inputs that are one server (its previous and current logs, saved as files): said, with how to read them as one", (t) => {
  const dir = tempDir('summary-same-server');
  const start = (at: string, pid: number): string => JSON.stringify({ logType: 'mongodb', contents: JSON.stringify({ t: { $date: `2026-11-27T${at}Z` }, s: 'I', c: 'CONTROL', id: 4615611, ctx: 'initandlisten', msg: 'MongoDB starting', attr: { pid, port: 27017, dbPath: '/data', architecture: '64-bit', host: 'rs0-0' } }) });
  fs.writeFileSync(path.join(dir, 'previous.log'), `${start('10:00:00.000', 1)}\n`);
  fs.writeFileSync(path.join(dir, 'current.log'), `${start('10:06:00.000', 2)}\n`);
  fs.writeFileSync(path.join(dir, 'rs0-1.log'), `${start('10:00:00.000', 1).replace('rs0-0', 'rs0-1')}\n`);
  const files = ['previous.log', 'current.log', 'rs0-1.log'].map((name) => path.join(dir, name));
  const text = runFilter(['summary', '--utc', ...files]).stdout;
  t.regex(text, /members: previous and current are one server \(host rs0-0, their start lines say\), read as 2 members: .*cat OLDER NEWER \| logtype summary/);
  t.notRegex(text, /rs0-1 (?:and|are)/);
  const json = JSON.parse(runFilter(['summary', '--json', ...files]).stdout) as Summary;
  t.deepEqual(json.server!.sameServer, [{ host: 'rs0-0', members: ['previous', 'current'] }]);
  // Given as one input, nothing to say.
  t.notRegex(runFilter(['summary', '--utc'], fs.readFileSync(files[0]!, 'utf8') + fs.readFileSync(files[1]!, 'utf8')).stdout, /members: /);
});
