/**
 * The real log lines of test/fixtures/real (SOURCES.md says where each comes from), by the type
 * the sidecar gives them, in their files' order. Lines are taken as written: replicated, never
 * edited, so the filter meets what the field writes (pre-4.4 text lines, offsets other than
 * UTC, duplicate keys, integers above 2^53, `truncated` attributes, three agent time styles).
 *
 * Left out: the operator's lines. They are no database pod's entries (the operator runs in its
 * own deployment and is read from `kubectl logs deployment/…`), and jq, the anchor, stops at the
 * first line of its console format, which is not JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const REAL_DIR = path.resolve(import.meta.dirname, '../../test/fixtures/real');

/** A pool: the contents of one type's lines, taken in turn. */
export interface RealPool {
  readonly logType: string;
  readonly lines: readonly string[];
}

function linesOf(file: string): string[] {
  const bytes = fs.readFileSync(path.join(REAL_DIR, file));
  const text = (file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Lines some files hold as entries already (pasted from kubectl logs): their type and contents. */
function asEntry(line: string, rawType: string): { logType: string; contents: string } {
  if (line.startsWith('{"logType":')) {
    const entry = JSON.parse(line) as { logType: string; contents: string };
    return { logType: entry.logType, contents: entry.contents };
  }
  return { logType: rawType, contents: line };
}

/** The server's pool (both replica members' JSON logs, then the two text logs), the audit pool, the agents' pool. */
export function realPools(): { server: RealPool; audit: RealPool; agents: readonly { logType: string; contents: string }[] } {
  const server = ['mongod-replica-rs1.log.gz', 'mongod-replica-rs2.log.gz', 'mongod-4.2-text.log', 'mongod-4.0-text-slow-transactions.log'].flatMap(linesOf);
  const audit = linesOf('audit-json.log');
  const agents = [
    ...linesOf('kubectl-logs-enterprise-agent.log').map((line) => asEntry(line, 'automation-agent-verbose')),
    ...linesOf('agent-issue-threads.log').map((line) => asEntry(line, 'automation-agent')),
    ...linesOf('agent-community-operator.log').map((line) => asEntry(line, 'automation-agent')),
    ...linesOf('agent-stderr-disk-full.log').map((line) => asEntry(line, 'automation-agent-stderr')),
  ];
  return { server: { logType: 'mongodb', lines: server }, audit: { logType: 'mongodb-audit', lines: audit }, agents };
}
