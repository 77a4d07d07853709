/**
 * The other logs' notable events for the time axis, through the real `logtype summary --json`
 * on real agent, operator and audit lines: every error and warning of an agent or the operator
 * that has a time, with its first line's words, in time order; none of the server's.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { runFilter } from '../_helpers/filter-process.js';
import { REAL_DATA } from '../_helpers/sidecar-process.js';
import type { Summary } from '../../src/summary/summary.js';

const FILES = ['agent-issue-threads.log', 'operator-issue-threads.log', 'kubectl-logs-enterprise-agent.log', 'agent-community-operator.log', 'audit-json.log', 'mongod-replica-rs1.log.gz'];

test("the agents' and the operator's errors and warnings with a time are marks, in time order, with their words; the server's are not", (t) => {
  const run = runFilter(['summary', '--json', ...FILES.map((f) => path.join(REAL_DATA, f))]);
  t.is(run.status, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as Summary;
  const marks = summary.marks ?? [];
  const text = FILES.filter((f) => !f.endsWith('.gz')).map((f) => fs.readFileSync(path.join(REAL_DATA, f), 'utf8')).join('\n');
  t.true(marks.length > 0);
  t.deepEqual(marks.map((m) => m.time), marks.map((m) => m.time).sort(), 'in time order');
  for (const mark of marks) {
    t.false(['mongodb', 'mongodb-audit'].includes(mark.logType), `${mark.logType}: not the server's, and no audit failure in these lines`);
    const type = summary.types.find((ty) => ty.logType === mark.logType)!;
    t.true(mark.time >= type.first! && mark.time <= type.last!, `${mark.logType}: ${mark.time} within its lines`);
    t.true(mark.kind === 'error' ? type.errors > 0 : type.warnings > 0);
    // Its words as the line wrote them (a JSON-escaped line's with its escapes undone).
    const words = mark.label.replace(/…$/, '');
    t.true(text.includes(words) || text.includes(JSON.stringify(words).slice(1, -1)), `"${words}" is in the lines`);
  }
  // Each type's problems with a time are its marks: every error and warning but the lines without one.
  for (const problems of summary.problems) {
    const of = marks.filter((m) => m.logType === problems.logType);
    t.true(of.length <= problems.errors + problems.warnings && of.length >= problems.errors + problems.warnings - 1, `${problems.logType}: ${of.length} marks of ${problems.errors + problems.warnings} problems (one line of the stdout stream has no time)`);
  }
  // The server's warnings are many in rs1's log; none is a mark.
  t.true((summary.server?.problems.length ?? 0) > 0);
});
