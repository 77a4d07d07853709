/**
 * The filter: read entries from files or stdin, select them, write them as raw contents, as
 * entry JSON, or pretty for a person. Streams: each entry is written as soon as the chunk that
 * holds it has been read, and memory stays flat whatever the input's size.
 */
import type { TimeSteps } from '../summary/time-order.js';
import { jsonText } from '../render/json-text.js';
import type { Readable, Writable } from 'node:stream';
import { encodeEntry } from '../encode/encode-entry.js';
import { ByteOutput } from '../output/byte-output.js';
import type { EntryLine } from '../read/entry-line.js';
import { readEntries, stdinSource, type StdinIO } from '../read/read-entries.js';
import { cannotRead, repeatedInput } from '../read/read-error.js';
import { EntrySelector, type SelectedSink, type Selection, type SelectionCounts, type SelectionLimits, MAX_TYPES_COUNTED } from '../select/entry-selector.js';
import type { LogRecord } from '../parse/log-record.js';
import { fieldsObject, projectFields, recordObject, valueAt } from '../parse/record-object.js';
import { palette, type Palette } from '../render/colors.js';
import { escapeTerminal, terminalSafeJson } from '../render/escape-terminal.js';
import { renderPrettyEntry, renderPrettyOther } from '../render/render-pretty.js';
import { notLogsHint } from '../select/not-logs-hint.js';
import { drained } from '../output/drained.js';
import { OptionsError, checkSelection } from '../select/options-error.js';
import { repairedJson } from '../parse/json-value.js';
import { counted } from '../render/counted.js';
import { typoNotice, typoTypePatterns, unknownTypePatterns } from '../select/type-matcher.js';
import { readingNotices, timesReadWords } from '../select/reading-notices.js';

export const OUTPUT_MODES = ['raw', 'json', 'entry', 'pretty'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface FilterOptions extends Selection, SelectionLimits {
  /** Files to read, `-` for stdin; none: stdin. */
  readonly inputs: readonly string[];
  /** Read raw log lines as the contents of entries of this type. */
  readonly as?: string | undefined;
  readonly output: OutputMode;
  /** `--fields`: paths into each line's object, for json and pretty output. */
  readonly fields?: readonly (readonly string[])[] | undefined;
  /** `--expand`: pretty output shows whole attributes, indented, below the line. */
  readonly expand: boolean;
  readonly keepPrefix: boolean;
  readonly keepOther: boolean;
  readonly strict: boolean;
  /** `-q`: nothing written; the exit status says whether an entry was selected (reading stops at the first). */
  readonly quiet: boolean;
  readonly summary: boolean;
  readonly color: boolean;
  readonly utc: boolean;
}

export interface FilterIO extends StdinIO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** True when stdout is a terminal: contents are then escaped in every mode. */
  readonly stdoutIsTTY: boolean;
  /** Aborted (the command's Ctrl-C with --summary): reading stops, and what was read is written and counted. */
  readonly interrupted?: AbortSignal | undefined;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Contents that look like one JSON object: braces at both ends. The server writes whole
 * objects; a line cut short (the end of a copied file) is left to the record path, which
 * writes it as its entry rather than as broken JSON.
 */
function looksLikeObject(entry: EntryLine): boolean {
  if (entry.literalStart < 0) {
    const contents = entry.contents;
    return contents.startsWith('{') && contents.endsWith('}');
  }
  return entry.literalEnd - entry.literalStart > 2 && entry.bytes[entry.literalStart + 1] === OPEN_BRACE && entry.bytes[entry.literalEnd - 1] === CLOSE_BRACE;
}

/** Writes selected entries in the output mode. */
export class FilterOutput implements SelectedSink {
  readonly #options: FilterOptions;
  readonly #out: ByteOutput;
  readonly #palette: Palette;
  readonly #escape: boolean;
  /** `--fields` paths no selected line has had yet: named at the end, so an empty `{}` says why. */
  readonly #unseenFields: (readonly string[])[];
  #notValidJson = 0;
  #linesNotJson = 0;
  /** The FILE being read, where pretty output names it (several given). */
  #file: string | undefined;

  constructor(options: FilterOptions, out: ByteOutput, escapeForTerminal: boolean) {
    this.#options = options;
    this.#out = out;
    this.#palette = palette(options.color);
    this.#escape = escapeForTerminal;
    this.#unseenFields = options.fields ? [...options.fields] : [];
  }

  /** The `--fields` paths that no selected line had (dotted, as given). */
  get unseenFields(): string[] {
    return this.#unseenFields.map((path) => path.join('.'));
  }

  #noteFields(object: unknown): void {
    const unseen = this.#unseenFields;
    for (let i = unseen.length - 1; i >= 0; i--) if (valueAt(object, unseen[i]!) !== undefined) unseen.splice(i, 1);
  }

  /** The next lines are read from `input` (`-`: stdin); pretty output names it where several FILEs were given. */
  input(input: string): void {
    if (this.#options.output === 'pretty' && this.#options.inputs.length > 1) this.#file = input === '-' ? '(standard input)' : input;
  }

  /** Pretty output and projections read every line's record; raw and entry output never do. */
  static needsRecords(options: FilterOptions): boolean {
    return options.output === 'pretty' || options.fields !== undefined;
  }

  /** grep's `--` between runs of context that do not follow on (raw and pretty; json and entry stay one JSON value a line). */
  separator(): void {
    const mode = this.#options.output;
    if (mode !== 'raw' && mode !== 'pretty') return;
    this.#out.text(mode === 'pretty' ? this.#palette.gray('--') : '--');
    this.#out.newline();
  }

  other(bytes: Buffer, start: number, end: number): void {
    const out = this.#out;
    if (this.#options.output === 'pretty') {
      out.text(renderPrettyOther(bytes.toString('utf8', start, end), this.#palette, this.#file));
      out.newline();
    } else if (this.#options.keepOther) {
      // json output stays one JSON value a line: the line as a member of its own.
      if (this.#options.output === 'json') this.#json(`{"other":${JSON.stringify(bytes.toString('utf8', start, end))}}`);
      else if (this.#escape) out.text(escapeTerminal(bytes.toString('utf8', start, end)));
      else out.bytes(bytes, start, end);
      out.newline();
    }
  }

  selected(entry: EntryLine, record: LogRecord | undefined, lines?: readonly EntryLine[]): void {
    const options = this.#options;
    // A record over several lines: raw, json and entry output write its lines as they came.
    if (lines && options.output !== 'pretty' && !options.fields) {
      for (const line of lines) this.selected(line, undefined);
      return;
    }
    const out = this.#out;
    // Made once for the fields seen and the projection.
    const fields = options.fields ? fieldsObject(record, entry.logType, entry.contents) : undefined;
    if (fields && this.#unseenFields.length > 0) this.#noteFields(fields);
    switch (options.output) {
      case 'raw':
        this.#contents(entry);
        break;
      case 'json':
        if (fields) this.#json(jsonText(projectFields(fields, options.fields!))!);
        // Types whose lines are JSON objects of their own (their format says so): that object.
        else if (entry.format?.json !== 'line') return this.#entryLine(entry);
        else if (looksLikeObject(entry)) {
          if (this.#escape) this.#json(entry.contents);
          // Surely no control in it (its literal's bytes say so): as it came. Else looked at closer.
          else if (entry.knownTerminalSafe) this.#contents(entry);
          else this.#objectLine(entry);
        } else {
          // A pre-4.4 text line is written in the 4.4 shape; a line that is no record, as its entry.
          const parsed = record ?? entry.format.reader.text(entry.contents);
          if (!parsed) return this.#entryLine(entry);
          this.#json(jsonText(recordObject(parsed))!);
        }
        break;
      case 'entry':
        return this.#entryLine(entry);
      case 'pretty':
        out.text(renderPrettyEntry(entry, record, { palette: this.#palette, utc: options.utc, expand: options.expand, fields: options.fields, file: this.#file }));
        break;
    }
    out.newline();
  }

  #text(text: string): void {
    this.#out.text(this.#escape ? escapeTerminal(text) : text);
  }

  /**
   * A line that is a JSON object (the server's), for json output into a pipe or a file: as it
   * came, unless it holds a raw control character (a line JSON forbids, which a terminal shown
   * the file acts on): then with each in a string as its `\u` escape, and its bare NaN or
   * infinite numbers as extended JSON (repairedJson); one still not JSON leaves as its entry.
   */
  #objectLine(entry: EntryLine): void {
    const text = entry.contents;
    // A tab or CR between members is JSON's own whitespace: such a line is JSON as it came.
    if (!CONTROL.test(text) || isJson(text)) return this.#contents(entry);
    const repaired = repairedJson(text);
    if (repaired !== undefined && isJson(repaired)) return this.#text(repaired);
    this.#linesNotJson++;
    this.#out.text(encodeEntry(entry.logType, text).trimEnd());
  }

  /** JSON text: on a terminal, what it would act on is written as `\u` escapes, so it stays the same JSON (escapeTerminal's `\x9b` is none). */
  #json(text: string): void {
    this.#out.text(this.#escape ? terminalSafeJson(text) : text);
  }

  /** The contents, as jq -r writes them: unescaped from the input's bytes where it can be. */
  #contents(entry: EntryLine): void {
    const fast = !this.#escape && entry.literalStart >= 0 && this.#out.jsonString(entry.bytes, entry.literalStart + 1, entry.literalEnd);
    if (!fast) this.#text(entry.contents);
  }

  /**
   * The entry as a JSON line (prefix removed unless --keep-prefix): as it came when it came as
   * one; a line of a log read as it is (recognised without a wrapper: a server's JSON line, the
   * operator's console or JSON lines, an agent's line) as the entry the sidecar would have
   * written for it, JSON lines too: one stream, one shape (`jq .logType` on every line).
   */
  #entryLine(entry: EntryLine): void {
    const { keepPrefix } = this.#options;
    const out = this.#out;
    if (entry.recognized) {
      this.#json((keepPrefix ? (entry.prefix?.text ?? '') : '') + encodeEntry(entry.logType, entry.contents).trimEnd());
      out.newline();
      return;
    }
    // An entry that is no valid JSON as it came (a raw control or a bad escape in its contents)
    // is written anew, its contents read as far as they can be: the output stays one JSON value a line.
    const asItCame = entry.hasSourceJson && entry.sourceJsonValid;
    if (entry.hasSourceJson && !asItCame) this.#notValidJson++;
    if (asItCame && !this.#escape) {
      out.line(entry.bytes, keepPrefix ? entry.lineStart : entry.start, entry.end);
      return;
    }
    const prefix = keepPrefix ? (entry.prefix?.text ?? '') : '';
    this.#json(prefix + (asItCame ? entry.bytes.toString('utf8', entry.start, entry.end) : encodeEntry(entry.logType, entry.contents).trimEnd()));
    out.newline();
  }

  /** Entries written anew for not being valid JSON as they came (#entryLine). */
  get notValidJson(): number {
    return this.#notValidJson;
  }

  /** Lines of a JSON log that were no JSON object even with their controls escaped (#objectLine): written as their entries. */
  get linesNotJson(): number {
    return this.#linesNotJson;
  }
}

/** A character JSON forbids raw in a string (outside strings a tab or CR is whitespace: then JSON.parse decides). */
const CONTROL = /[\u0000-\u001f]/;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What -q writes: nothing. */
const QUIET_SINK: SelectedSink = { selected: () => undefined, other: () => undefined };

/**
 * Reads every input through the filter; resolves with the exit code: 2 when an input could not
 * be read (the others were, as grep and cat do), 1 with --strict when a line was not an entry,
 * or with -q when no entry was selected; else 0. With -q, a selected entry is 0 whatever else
 * happened (grep -q's rule: the answer was found).
 */
export async function runFilter(options: FilterOptions, io: FilterIO): Promise<number> {
  checkSelection(options);
  if (!OUTPUT_MODES.includes(options.output)) throw new OptionsError(`output must be one of ${OUTPUT_MODES.join(', ')}`);
  if (options.fields?.some((path) => path.length === 0 || path.some((part) => part === ''))) {
    throw new OptionsError('fields: a path with an empty part names no field (parseFieldPaths reads --fields)');
  }
  const out = new ByteOutput(io.stdout);
  const sink = options.quiet ? QUIET_SINK : new FilterOutput(options, out, io.stdoutIsTTY);
  const limits: SelectionLimits = options.quiet ? { maxCount: 1 } : options;
  // --max-count counts records, as with -l or -g: a panic's trace is written with its first line, whatever selects it.
  const countsRecords = !options.quiet && options.maxCount !== undefined;
  const filter = new EntrySelector(options, sink, !options.quiet && FilterOutput.needsRecords(options), limits, countsRecords);
  // The reader went away (| head): the command ends at once (bin/logtype.ts), and --summary,
  // which is for the end, is written before it goes (stderr into a pipe or a file is written at once).
  if (options.summary) {
    io.stdout.prependListener('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') io.stderr.write(formatSummary(filter.counts));
    });
  }
  let unreadable = 0;
  await readEntries(
    options,
    filter,
    stdinSource(io),
    async () => {
      // Flushed before the next chunk: its bytes may be reused then. A stdout destroyed or
      // ended by its reader (a library caller's consumer that went away) wants no more (a
      // flush then writes nothing): the reading stops, as the command's does at EPIPE;
      // destroyed with an error, that is thrown.
      if (!out.flush()) await drained(io.stdout);
      if (io.stdout.errored) throw io.stdout.errored;
      if (out.gone) filter.stop();
    },
    (input, error) => {
      // What came before is out first: the line names the input where it stands in the output.
      out.flush();
      unreadable++;
      io.stderr.write(`logtype: ${cannotRead(input, error)}\n`);
    },
    io.interrupted,
    (input) => {
      if (sink instanceof FilterOutput) sink.input(input);
    },
    (input, first) => {
      out.flush();
      io.stderr.write(`logtype: ${repeatedInput(input, first)}\n`);
    },
  );
  out.flush();
  const { counts } = filter;
  if (options.summary) io.stderr.write(formatSummary(counts));
  const notices = readingNotices(counts, {
    untimed: options.quiet ? undefined : 'not written',
    // Pretty output shows lines that are not entries, and --keep-other writes them: else said here.
    broken: options.output === 'pretty' || options.keepOther ? undefined : 'left out (--keep-other writes them)',
    otherMatched: !options.quiet && options.output !== 'pretty' && !options.keepOther,
  });
  for (const notice of notices) io.stderr.write(`logtype: ${notice}\n`);
  const newestFirst = options.quiet ? undefined : filter.newestFirst;
  if (newestFirst) io.stderr.write(`logtype: ${newestFirstJoinWords(newestFirst)}\n`);
  if (sink instanceof FilterOutput && sink.notValidJson > 0) io.stderr.write(`logtype: ${notValidJsonNotice(sink.notValidJson)}\n`);
  if (sink instanceof FilterOutput && sink.linesNotJson > 0) io.stderr.write(`logtype: ${linesNotJsonNotice(sink.linesNotJson)}\n`);
  const unseen = sink instanceof FilterOutput && counts.selected > 0 ? sink.unseenFields : [];
  if (unseen.length > 0) io.stderr.write(`logtype: ${unseenFieldsNotice(unseen)}\n`);
  const notice = noEntryNotice(options, counts) ?? noneSelectedNotice(options, counts, io.stdoutIsTTY);
  if (notice) io.stderr.write(notice);
  if (options.quiet && counts.selected > 0) return 0;
  if (unreadable > 0) return 2;
  // A -t name logtype does not know, and no entry had it either: a typo (warned of at the start),
  // so the empty output is a usage error, not "nothing found" (-q's 1 would read as "no errors").
  // Only when every -t name is such a one: with a known type beside it, nothing found is an answer.
  const typos = typoTypePatterns(options.unknownTypes ?? unknownTypePatterns(options.types), options.types, counts.byType.keys(), counts.selected);
  if (typos.length > 0) {
    io.stderr.write(`logtype: ${typoNotice(typos)}\n`);
    return 2;
  }
  if (options.quiet) return 1;
  if (options.strict && counts.other > 0) {
    io.stderr.write(`logtype: ${counted(counts.other, 'line was not an entry', 'lines were not entries')} (--strict)\n`);
    return 1;
  }
  return 0;
}

/** Entries that were no valid JSON as they came, written anew (FilterOutput.notValidJson). */
export function notValidJsonNotice(count: number): string {
  return `${counted(count, 'entry was', 'entries were')} not valid JSON as ${count === 1 ? 'it' : 'they'} came (a raw control character, a bad escape or a quote not escaped in the contents: a line garbled by two writers): written anew as JSON, the contents as far as they could be read`;
}

export function linesNotJsonNotice(count: number): string {
  return `${counted(count, 'line')} of a JSON log ${count === 1 ? 'was' : 'were'} no JSON (a raw control character outside its strings): written as ${count === 1 ? 'its entry' : 'their entries'}, so every line of the output stays JSON`;
}

/** `--fields` that no selected line had: the names a line's fields go by. */
export function unseenFieldsNotice(paths: readonly string[]): string {
  const named = paths.map((path) => `"${escapeTerminal(path)}"`).join(', ');
  return `--fields: no selected line has ${named} (every log's lines go by the server's names: t, s, c, id, ctx, msg, attr.NAME; audit and operator lines by their own, as -o json shows them)`;
}

/**
 * Input that held lines but not one entry, whose lines the output mode drops (raw, json and
 * entry without --keep-other; -q): said on stderr, or the empty output and its exit status
 * would read as "nothing matched" when nothing was read at all. That is what a file in another
 * encoding gives (UTF-16, as PowerShell saves it), or a wrapping no reader knows (the shippers'
 * own are read: shipper-record.ts); pretty output shows the lines, so it needs no word.
 */
export function noEntryNotice(options: Pick<FilterOptions, 'output' | 'keepOther' | 'quiet' | 'strict'>, counts: Pick<SelectionCounts, 'entries' | 'other' | 'firstOther'>): string | undefined {
  // --strict says it in its own words.
  if (counts.entries > 0 || counts.other === 0 || options.strict) return undefined;
  if (!options.quiet && (options.output === 'pretty' || options.keepOther)) return undefined;
  const hint = counts.firstOther === undefined ? undefined : notLogsHint(counts.firstOther);
  if (hint) return `logtype: no entry in the ${counted(counts.other, 'line')} read: ${hint}\n`;
  return `logtype: no entry in the ${counted(counts.other, 'line')} read: not one is an entry or a line of a log logtype knows (--keep-other writes them, -o pretty shows them); on a pod that runs logtype-sidecar, its entries are in its own container: kubectl logs POD -c logtype\n`;
}

/**
 * Entries read, none selected, nothing written, on a terminal: said on stderr, or an empty screen after
 * `logtype --since 30m` on a pod quiet for an hour reads as an empty input, or a broken pipe.
 * Not for a pipe or a file (a script's empty result, as grep's), nor with -q or --summary,
 * which say it their own way.
 */
export function noneSelectedNotice(
  options: Pick<FilterOptions, 'quiet' | 'summary' | 'output' | 'keepOther'> & { readonly utc?: boolean },
  counts: Pick<SelectionCounts, 'entries' | 'selected' | 'other' | 'timesRead'>,
  stdoutIsTTY: boolean,
): string | undefined {
  if (!stdoutIsTTY || options.quiet || options.summary || counts.entries === 0 || counts.selected > 0) return undefined;
  // Lines that are not entries may have been written (pretty shows them, --keep-other writes
  // them): then the screen is not empty, and the notice would read as if nothing were shown.
  if (counts.other > 0 && (options.output === 'pretty' || options.keepOther)) return undefined;
  const read = counts.entries === 1 ? 'the one entry read was not selected' : `none of the ${counts.entries} entries read was selected`;
  const times = counts.timesRead ? `; ${timesReadWords(counts.timesRead, options.utc === true)}` : '';
  return `logtype: ${read} (the options that select: -t, -l, --since, --until, -c, -g, …)${times}\n`;
}

/** Types listed by --summary at the most, the most frequent first; the rest are one line. */
const SUMMARY_TYPES = 30;

export function formatSummary(counts: SelectionCounts): string {
  const lines = [
    `logtype: ${counted(counts.entries, 'entry', 'entries')} read, ${counts.selected + counts.context} written${counts.context > 0 ? ` (${counts.context} as context)` : ''}, ${counted(counts.other, 'other line')}`,
  ];
  const types = [...counts.byType.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown: [string, number][] = types.slice(0, SUMMARY_TYPES).map(([type, count]) => [escapeTerminal(type), count]);
  if (types.length > SUMMARY_TYPES) shown.push([`… ${counted(types.length - SUMMARY_TYPES, 'more type')}`, types.slice(SUMMARY_TYPES).reduce((sum, [, count]) => sum + count, 0)]);
  // Types beyond those counted by name (memory is bounded): their entries, together.
  if (counts.otherTypeEntries > 0) shown.push([`… types after the first ${MAX_TYPES_COUNTED}`, counts.otherTypeEntries]);
  const width = Math.max(0, ...shown.map(([type]) => type.length));
  // The rows count what was read, not what was written: said once above them.
  if (shown.length > 0) lines.push('  entries read, by type:');
  for (const [type, count] of shown) lines.push(`  ${type.padEnd(width)}  ${String(count).padStart(9)}`);
  return lines.join('\n') + '\n';
}

/** What the filter says of an input that runs newest first: a record's lines are joined in the order they come. */
function newestFirstJoinWords({ backward, forward }: TimeSteps): string {
  return `the lines run newest first (${backward} of ${backward + forward} steps between a pod's stamped lines go back in time): a record over several lines (an agent's error and its details, a Go panic and its trace) is joined in the order its lines come, so its details are shown with the record written after it; give the lines oldest first (logcli query --forward, a store's ascending sort, or tac FILE | logtype …)`;
}
