/**
 * The filter against jq (docs/anchors.md §2), in the same run, on two inputs of a million
 * entries: generated lines (all ASCII, eight server message kinds) and real ones (the logs of
 * test/fixtures/real replicated, which take the slow paths too). Each row puts our CPU-seconds
 * beside its anchor's and gives the ratio; a row comparing the same work has the two outputs
 * checked byte for byte on a sample of its input, and a row comparing different work says what
 * differs.
 */
import path from 'node:path';
import { type BenchOptions } from './bench-options.js';
import { entriesFile, realEntriesFile, sampleOf } from './inputs.js';
import { JSON_PROGRAM, ONE_LINE_PROGRAM, ONE_LINE_TOLERANT_PROGRAM, PRETTY_PROGRAM, jqProgramFile } from './jq-programs.js';
import { fmt, measure, measureInTurns, type Measured } from './measure.js';
import { checkSameOutput, type OutputCheck } from './same-output.js';

const FILTER = path.resolve(import.meta.dirname, '../bin/logtype.js');

/** Entries of the sample the outputs are compared on: one pass over the real server lines fits in it. */
const SAMPLE_ENTRIES = 25_000;

/** A command of a row: what it writes goes to stdout; `input` is the file it reads. */
interface Command {
  readonly label: string;
  readonly script: (input: string) => string;
}

interface Comparison {
  readonly ours: Command;
  readonly anchor: Command;
  /** What differs in the work, in words; none when the two write the same bytes (checked). */
  readonly differentWork?: string;
  /** At least this many times fewer CPU-seconds than the anchor. */
  readonly target?: number;
}

const logtype = (args: string): Command => ({ label: `logtype ${args}`, script: (input) => `"${process.execPath}" "${FILTER}" ${args} < "${input}"` });
const logtypeFromPipe = (args: string): Command => ({
  label: `cat FILE | logtype ${args} (a pipe, as from kubectl logs)`,
  script: (input) => `cat "${input}" | "${process.execPath}" "${FILTER}" ${args}`,
});
/** `jq FLAGS -f FILE`, the program written to FILE. */
const jqRun = (flags: string, name: string, program: string): string => `jq ${flags} -f "${jqProgramFile(name, program)}"`;
const jq = (label: string, flags: string, name: string, program: string): Command => {
  const run = jqRun(flags, name, program);
  return { label, script: (input) => `${run} < "${input}"` };
};

const SELECT_CONTENTS = 'select(.logType=="mongodb") | .contents';
const JQ_RAW = `jq -r '${SELECT_CONTENTS}'`;
const jqRaw = (): Command => jq(JQ_RAW, '-r', 'select-contents', SELECT_CONTENTS);
const PRETTY = '-t mongodb -o pretty --color always --utc';
const jqPretty = (): Command => jq('jq writing our pretty lines (PRETTY_PROGRAM, bench/jq-programs.ts)', '-n -r', 'pretty', PRETTY_PROGRAM);
const PRETTY_DIFFERENCE =
  'different work: jq writes `attr` whole as JSON after the head, with no badge, colour or terminal check; ours cuts each value at 120 characters';

/** The rows on the generated input. */
function generatedRows(): { comparisons: Comparison[]; references: Command[] } {
  const pretty = logtype(PRETTY);
  return {
    comparisons: [
      { ours: logtype('-t mongodb -o entry'), anchor: jq("jq -c 'select(.logType==\"mongodb\")'", '-c', 'select-entry', 'select(.logType=="mongodb")'), target: 10 },
      { ours: logtype('-t mongodb -o raw'), anchor: jqRaw(), target: 5 },
      {
        ours: logtypeFromPipe('-t mongodb -o raw'),
        anchor: { label: `cat FILE | ${JQ_RAW}`, script: (input) => `cat "${input}" | ${jqRun('-r', 'select-contents', SELECT_CONTENTS)}` },
        target: 5,
      },
      { ours: logtype('-t mongodb -o json'), anchor: jq('jq writing each contents as it is when it is an object (JSON_PROGRAM, bench/jq-programs.ts)', '-n -r', 'json', JSON_PROGRAM) },
      { ours: pretty, anchor: jqPretty(), target: 4 },
      { ours: pretty, anchor: jq('jq one-line rendering (docs/anchors.md §2)', '-r', 'one-line', ONE_LINE_PROGRAM), differentWork: PRETTY_DIFFERENCE, target: 4 },
    ],
    references: [
      { label: "grep -F '\"logType\":\"mongodb\",' | cat (a floor: selection without decoding)", script: (input) => `grep -F '"logType":"mongodb",' < "${input}" | cat` },
      logtype('-o raw'),
      logtype('summary'),
      logtype('doctor'),
    ],
  };
}

/** The rows on the real input. */
function realRows(): { comparisons: Comparison[]; references: Command[] } {
  const pretty = logtype(PRETTY);
  return {
    comparisons: [
      { ours: logtype('-t mongodb -o raw'), anchor: jqRaw(), target: 5 },
      { ours: pretty, anchor: jqPretty(), target: 4 },
      {
        ours: pretty,
        anchor: jq('jq one-line rendering (docs/anchors.md §2), a text line written as it is', '-r', 'one-line-tolerant', ONE_LINE_TOLERANT_PROGRAM),
        differentWork: `${PRETTY_DIFFERENCE}; jq writes a pre-4.4 text line as it is, ours reads its fields`,
        target: 4,
      },
    ],
    references: [logtype('-o raw'), logtype('summary')],
  };
}

const count = (n: number): string => n.toLocaleString('en-US');
const megabytes = (bytes: number): string => `${fmt(bytes / 1e6, 1)} MB`;
const cell = (text: string): string => text.replaceAll('|', '\\|');

function outputCell(comparison: Comparison, check: OutputCheck): string {
  if (comparison.differentWork) {
    const longest = check.longest ? ` (its longest line ${count(check.longest.anchorBytes)} bytes, ours for that entry ${count(check.longest.oursBytes)})` : '';
    return `${comparison.differentWork}; on the sample jq writes ${megabytes(check.anchorBytes)}${longest}, ours ${megabytes(check.oursBytes)}`;
  }
  return check.text;
}

/**
 * Checks every comparison's outputs on the sample, then measures every command in turns and
 * writes the table.
 */
function runRows(input: string, description: string, rows: { comparisons: Comparison[]; references: Command[] }, options: BenchOptions): string {
  const sampleEntries = Math.min(SAMPLE_ENTRIES, options.entries);
  const sample = sampleEntries < options.entries ? sampleOf(input, sampleEntries) : input;
  const checks = rows.comparisons.map((row) => checkSameOutput(row.ours.script, row.anchor.script, sample, sampleEntries));

  const commands = new Map<string, Command>();
  for (const command of [...rows.comparisons.flatMap((row) => [row.anchor, row.ours]), ...rows.references]) commands.set(command.script(input), command);
  const scripts = [...commands.keys()];
  measure(`cat "${input}" > /dev/null`); // into the page cache, for every command alike
  const measured = measureInTurns(
    scripts.map((script) => `${script} > /dev/null`),
    options.turns,
  );
  const cpu = new Map<string, Measured>(scripts.map((script, i) => [script, measured[i]!]));
  const of = (command: Command): Measured => cpu.get(command.script(input))!;

  const lines = [
    `${description} Each figure: the median of ${options.turns} runs, every command run once a turn. Outputs compared on the first ${count(sampleEntries)} entries.`,
    '',
    '| logtype | CPU-s | anchor (same run) | CPU-s | fewer CPU-s than the anchor | target | output | peak RSS MB (ours) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  rows.comparisons.forEach((row, i) => {
    const ours = of(row.ours);
    const anchor = of(row.anchor);
    const ratio = anchor.cpuSeconds / ours.cpuSeconds;
    const target = row.target === undefined ? '' : `${row.target}x: ${ratio >= row.target ? 'met' : 'NOT met'}`;
    lines.push(
      `| ${cell(row.ours.label)} | ${fmt(ours.cpuSeconds)} | ${cell(row.anchor.label)} | ${fmt(anchor.cpuSeconds)} | **${fmt(ratio, 1)}x** | ${target} | ${cell(outputCell(row, checks[i]!))} | ${fmt(ours.peakRssMb, 0)} |`,
    );
  });
  lines.push('', 'For scale, in the same turns:', '', '| command | CPU-s | peak RSS MB |', '|---|---|---|');
  for (const command of rows.references) lines.push(`| ${cell(command.label)} | ${fmt(of(command).cpuSeconds)} | ${fmt(of(command).peakRssMb, 0)} |`);

  // Issue 7: summary within 2x the CPU-seconds of the raw pass over the same input (every type).
  const raw = of(logtype('-o raw'));
  const summary = of(logtype('summary'));
  const times = summary.cpuSeconds / raw.cpuSeconds;
  lines.push('', `summary / the raw pass (\`logtype -o raw\`, every type, same input): ${fmt(times, 2)}x the CPU-seconds (target: within 2x, ${times <= 2 ? 'met' : 'NOT met'}); peak RSS ${fmt(summary.peakRssMb, 0)} MB`);
  return lines.join('\n');
}

export function runFilterBench(options: BenchOptions): string {
  const input = entriesFile(options.entries);
  return runRows(
    input,
    `Input: ${path.basename(input)}, ${count(options.entries)} generated entries (66.5% mongodb, 3.5% audit, 30% agents; every line ASCII, eight server message kinds, 0.5% slow queries of 2-20 KB).`,
    generatedRows(),
    options,
  );
}

export function runRealFilterBench(options: BenchOptions): string {
  const input = realEntriesFile(options.entries);
  return runRows(
    input,
    `Input: ${path.basename(input)}, ${count(options.entries)} entries of real lines in the same mix of types (test/fixtures/real: the two replica-set members' JSON logs of Hatchet, the 4.0 and 4.2 text logs of mtools, real audit events and agent lines; each type's lines taken in turn, as the sidecar encodes them).`,
    realRows(),
    options,
  );
}
