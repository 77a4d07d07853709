/**
 * The filter: read entries from files or stdin, select them, write them as raw contents, as
 * entry JSON, or pretty for a person. Streams: each entry is written as soon as the chunk that
 * holds it has been read, and memory stays flat whatever the input's size.
 */
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { encodeEntry } from '../encode/encode-entry.js';
import { ByteOutput } from '../output/byte-output.js';
import { EntryLine } from '../read/entry-line.js';
import { EntryReader, MAX_INPUT_LINE_BYTES, type EntryHandler } from '../read/entry-reader.js';
import { inputChunks } from '../read/open-input.js';
import { typeMatcher, type TypeMatcher } from '../select/type-matcher.js';
import { palette, type Palette } from '../render/colors.js';
import { escapeTerminal } from '../render/escape-terminal.js';
import { renderPrettyEntry, renderPrettyOther } from '../render/render-pretty.js';
import { LineSplitter } from '../follow/split-lines.js';

export type OutputMode = 'raw' | 'json' | 'pretty';

export interface FilterOptions {
  /** Files to read, `-` for stdin; none: stdin. */
  readonly inputs: readonly string[];
  /** Read raw log lines as the contents of entries of this type. */
  readonly as?: string | undefined;
  readonly types: readonly string[];
  readonly exclude: readonly string[];
  readonly grep?: RegExp | undefined;
  readonly invertGrep: boolean;
  readonly output: OutputMode;
  readonly keepPrefix: boolean;
  readonly keepOther: boolean;
  readonly strict: boolean;
  readonly summary: boolean;
  readonly color: boolean;
  readonly utc: boolean;
}

export interface FilterIO {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** True when stdout is a terminal: contents are then escaped in every mode. */
  readonly stdoutIsTTY: boolean;
}

export interface FilterCounts {
  entries: number;
  other: number;
  selected: number;
  readonly byType: Map<string, number>;
}

/** Split pieces of one line waiting for the rest, by where they came from and their type. */
interface PendingLine {
  readonly pieces: string[];
  length: number;
  readonly first: EntryLine;
}

export class EntryFilter implements EntryHandler {
  readonly counts: FilterCounts = { entries: 0, other: 0, selected: 0, byType: new Map() };
  readonly #options: FilterOptions;
  readonly #out: ByteOutput;
  readonly #selected: TypeMatcher;
  readonly #palette: Palette;
  readonly #escape: boolean;
  readonly #pending = new Map<string, PendingLine>();

  constructor(options: FilterOptions, out: ByteOutput, escapeForTerminal: boolean) {
    this.#options = options;
    this.#out = out;
    this.#selected = typeMatcher(options.types, options.exclude);
    this.#palette = palette(options.color);
    this.#escape = escapeForTerminal;
  }

  wants(logType: string): boolean {
    return this.#selected(logType);
  }

  counted(logType: string): void {
    const counts = this.counts;
    counts.entries++;
    counts.byType.set(logType, (counts.byType.get(logType) ?? 0) + 1);
  }

  entry(entry: EntryLine): void {
    this.counted(entry.logType);
    if (!this.#selected(entry.logType)) return;
    const whole = this.#join(entry);
    if (whole) this.#emit(whole);
  }

  other(bytes: Buffer, start: number, end: number): void {
    this.counts.other++;
    const out = this.#out;
    if (this.#options.output === 'pretty') {
      out.text(renderPrettyOther(bytes.toString('utf8', start, end), this.#palette));
      out.newline();
    } else if (this.#options.keepOther) {
      if (this.#escape) out.text(escapeTerminal(bytes.toString('utf8', start, end)));
      else out.bytes(bytes, start, end);
      out.newline();
    }
  }

  /** The end of the input: split lines whose last piece never came are written as they are. */
  end(): void {
    for (const pending of this.#pending.values()) this.#emit(this.#joined(pending, ''));
    this.#pending.clear();
  }

  /** Joins split pieces; returns the entry to write, or undefined while pieces are pending. */
  #join(entry: EntryLine): EntryLine | undefined {
    if (!entry.partial && this.#pending.size === 0) return entry;
    const key = `${entry.prefix?.source ?? ''}\u0000${entry.logType}`;
    const pending = this.#pending.get(key);
    if (!entry.partial) {
      if (!pending) return entry;
      this.#pending.delete(key);
      return this.#joined(pending, entry.contents);
    }
    if (!pending) {
      this.#pending.set(key, { pieces: [entry.contents], length: entry.contents.length, first: entry });
      return undefined;
    }
    pending.pieces.push(entry.contents);
    pending.length += entry.contents.length;
    if (pending.length < MAX_INPUT_LINE_BYTES) return undefined;
    // Bounded memory: a line longer than we hold leaves as it is so far.
    this.#pending.delete(key);
    return this.#joined(pending, '');
  }

  #joined(pending: PendingLine, last: string): EntryLine {
    return EntryLine.fromContents(pending.first.logType, pending.pieces.join('') + last, pending.first.prefix);
  }

  #emit(entry: EntryLine): void {
    const options = this.#options;
    if (options.grep && options.grep.test(entry.contents) === options.invertGrep) return;
    this.counts.selected++;
    const out = this.#out;
    switch (options.output) {
      case 'raw': {
        const fast = !this.#escape && entry.literalStart >= 0 && out.jsonString(entry.bytes, entry.literalStart + 1, entry.literalEnd);
        if (!fast) out.text(this.#escape ? escapeTerminal(entry.contents) : entry.contents);
        break;
      }
      case 'json': {
        if (entry.hasSourceJson && !this.#escape) {
          // The entry line as it came: a byte copy, newline included.
          out.line(entry.bytes, options.keepPrefix ? entry.lineStart : entry.start, entry.end);
          return;
        }
        const prefix = options.keepPrefix ? (entry.prefix?.text ?? '') : '';
        const json = entry.hasSourceJson
          ? entry.bytes.toString('utf8', entry.start, entry.end)
          : encodeEntry(entry.logType, entry.contents).trimEnd();
        out.text(this.#escape ? escapeTerminal(prefix + json) : prefix + json);
        break;
      }
      case 'pretty':
        out.text(renderPrettyEntry(entry, { palette: this.#palette, utc: options.utc }));
        break;
    }
    out.newline();
  }
}

/** Reads every input through the filter; resolves with the exit code. */
export async function runFilter(options: FilterOptions, io: FilterIO): Promise<number> {
  const out = new ByteOutput(io.stdout);
  const filter = new EntryFilter(options, out, io.stdoutIsTTY);
  const inputs = options.inputs.length > 0 ? options.inputs : ['-'];
  for (const input of inputs) {
    const reader = options.as ? rawLineReader(options.as, filter) : new EntryReader(filter);
    for await (const chunk of inputChunks(input, io.stdin)) {
      reader.push(chunk);
      // Flushed before the next chunk: its bytes may be reused then.
      if (!out.flush()) await once(io.stdout, 'drain');
    }
    reader.end();
  }
  filter.end();
  out.flush();
  const { counts } = filter;
  if (options.summary) io.stderr.write(formatSummary(counts));
  if (options.strict && counts.other > 0) {
    io.stderr.write(`logtype: ${counts.other} line${counts.other === 1 ? ' was' : 's were'} not entries (--strict)\n`);
    return 1;
  }
  return 0;
}

/** `--as TYPE`: every raw line is the contents of an entry of that type. */
function rawLineReader(logType: string, filter: EntryFilter): { push(chunk: Buffer): void; end(): void } {
  const splitter = new LineSplitter(MAX_INPUT_LINE_BYTES, (bytes, start, end, partial) => {
    if (partial) filter.other(bytes, start, end);
    else filter.entry(EntryLine.fromContents(logType, bytes.toString('utf8', start, end)));
  });
  return { push: (chunk) => splitter.push(chunk), end: () => splitter.flush() };
}

export function formatSummary(counts: FilterCounts): string {
  const lines = [`logtype: ${counts.entries} entries read, ${counts.selected} written, ${counts.other} other lines`];
  const types = [...counts.byType.entries()].sort((a, b) => b[1] - a[1]);
  const width = Math.max(0, ...types.map(([type]) => type.length));
  for (const [type, count] of types) lines.push(`  ${escapeTerminal(type).padEnd(width)}  ${String(count).padStart(9)}`);
  return lines.join('\n') + '\n';
}
