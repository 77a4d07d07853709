/**
 * The filter against jq on a million entries (ANCHORS.md §2), in the same run: CPU-seconds,
 * the ratio to jq, and peak RSS.
 */
import path from 'node:path';
import { entriesFile } from './inputs.js';
import { RUNS, fmt, measure, measureInTurns } from './measure.js';

const FILTER = path.resolve(import.meta.dirname, '../bin/logtype.js');

interface Row {
  readonly name: string;
  readonly script: string;
  /** The row of jq this one is compared with. */
  readonly versus?: string;
  readonly target?: number;
}

export function runFilterBench(): string {
  const input = entriesFile();
  const node = process.execPath;
  const rows: Row[] = [
    { name: 'jq -c select(.logType=="mongodb")', script: `jq -c 'select(.logType=="mongodb")' < "${input}" > /dev/null` },
    { name: 'jq -r select(...) | .contents', script: `jq -r 'select(.logType=="mongodb") | .contents' < "${input}" > /dev/null` },
    { name: 'grep -F \'"logType":"mongodb",\' | cat', script: `grep -F '"logType":"mongodb",' < "${input}" | cat > /dev/null` },
    { name: 'logtype -t mongodb -o entry', script: `"${node}" "${FILTER}" -t mongodb -o entry < "${input}" > /dev/null`, versus: 'jq -c select(.logType=="mongodb")', target: 10 },
    { name: 'jq -c select(...) | .contents | fromjson', script: `jq -c 'select(.logType=="mongodb") | .contents | fromjson' < "${input}" > /dev/null` },
    { name: 'logtype -t mongodb -o json (the server objects)', script: `"${node}" "${FILTER}" -t mongodb -o json < "${input}" > /dev/null`, versus: 'jq -c select(...) | .contents | fromjson' },
    { name: 'logtype -t mongodb -o raw', script: `"${node}" "${FILTER}" -t mongodb -o raw < "${input}" > /dev/null`, versus: 'jq -r select(...) | .contents', target: 5 },
    { name: 'cat FILE | logtype -t mongodb -o raw (a pipe, as from kubectl logs; cat\'s CPU counted)', script: `cat "${input}" | "${node}" "${FILTER}" -t mongodb -o raw > /dev/null`, versus: 'jq -r select(...) | .contents' },
    {
      name: 'jq one-line rendering of each server entry',
      script: `jq -r 'select(.logType=="mongodb") | .contents | fromjson | "\\(.t["$date"]) \\(.s) \\(.c) [\\(.ctx)] \\(.msg) \\(.attr|tojson)"' < "${input}" > /dev/null`,
    },
    {
      name: 'logtype -t mongodb -o pretty --color always',
      script: `"${node}" "${FILTER}" -t mongodb -o pretty --color always < "${input}" > /dev/null`,
      versus: 'jq one-line rendering of each server entry',
      target: 4,
    },
    { name: 'logtype -o raw (every type)', script: `"${node}" "${FILTER}" -o raw < "${input}" > /dev/null` },
    { name: 'logtype summary', script: `"${node}" "${FILTER}" summary < "${input}" > /dev/null` },
    { name: 'logtype doctor', script: `"${node}" "${FILTER}" doctor < "${input}" > /dev/null` },
  ];
  measure(`cat "${input}" > /dev/null`); // into the page cache, for every row alike
  const measured = measureInTurns(rows.map((row) => row.script));
  const results = new Map(rows.map((row, i) => [row.name, measured[i]!]));
  const lines = [
    `Input: ${path.basename(input)}, 1,000,000 entries (66.5% mongodb, 3.5% audit, 30% agents). Each figure: the median of ${RUNS} runs, every command run once a turn.`,
    '',
    '| command | CPU-s | fewer CPU-s than jq | target | peak RSS MB |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const ours = results.get(row.name)!;
    const jq = row.versus ? results.get(row.versus) : undefined;
    const ratio = jq ? `${fmt(jq.cpuSeconds / ours.cpuSeconds, 1)}x` : '';
    const target = row.target ? `${row.target}x ${jq && jq.cpuSeconds / ours.cpuSeconds >= row.target ? 'met' : 'NOT met'}` : '';
    lines.push(`| ${row.name.replaceAll('|', '\\|')} | ${fmt(ours.cpuSeconds)} | ${ratio} | ${target} | ${fmt(ours.peakRssMb, 0)} |`);
  }
  // Issue 7: summary within 2x the CPU-seconds of the raw pass over the same input.
  const raw = results.get('logtype -o raw (every type)')!;
  const summary = results.get('logtype summary')!;
  const times = summary.cpuSeconds / raw.cpuSeconds;
  lines.push('', `summary / raw pass: ${fmt(times, 2)}x the CPU-seconds (target: within 2x, ${times <= 2 ? 'met' : 'NOT met'}); peak RSS ${fmt(summary.peakRssMb, 0)} MB`);
  return lines.join('\n');
}
