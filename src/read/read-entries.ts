/**
 * Every input (files, gzip files, `-` for stdin) through one handler, in order: entry lines
 * as the sidecar writes them, or with `--as TYPE` raw log lines as the contents of entries.
 */
import type { Readable } from 'node:stream';
import { LineSplitter } from '../follow/split-lines.js';
import { logFormat } from '../formats/log-formats.js';
import { EntryLine } from './entry-line.js';
import { EntryReader, MAX_INPUT_LINE_BYTES, type EntryHandler } from './entry-reader.js';
import { inputChunks } from './open-input.js';

export interface InputSelection {
  /** Files to read, `-` for stdin; none: stdin. */
  readonly inputs: readonly string[];
  /** Read raw log lines as the contents of entries of this type. */
  readonly as?: string | undefined;
}

interface LineReader {
  push(chunk: Buffer): void;
  end(): void;
}

/**
 * Reads the inputs; `afterChunk` runs after each chunk was handled (output is flushed there:
 * the chunk's bytes may be reused once it returns). The handler's `end` runs at the very end.
 */
export async function readEntries(
  selection: InputSelection,
  handler: EntryHandler & { end(): void },
  /** stdin, asked for only when it is read as a stream (making the stream turns the descriptor non-blocking). */
  stdin: () => Readable,
  afterChunk: (bytes: number) => Promise<void> | void,
): Promise<void> {
  const inputs = selection.inputs.length > 0 ? selection.inputs : ['-'];
  for (const input of inputs) {
    const reader = selection.as ? rawLineReader(selection.as, handler) : new EntryReader(handler);
    for await (const chunk of inputChunks(input, stdin)) {
      reader.push(chunk);
      await afterChunk(chunk.length);
    }
    reader.end();
  }
  handler.end();
}

/** `--as TYPE`: every raw line is the contents of an entry of that type. */
function rawLineReader(logType: string, handler: EntryHandler): LineReader {
  const format = logFormat(logType);
  const splitter = new LineSplitter(MAX_INPUT_LINE_BYTES, (bytes, start, end, partial) => {
    if (partial) handler.other(bytes, start, end);
    else handler.entry(EntryLine.fromRawLine(logType, format, bytes, start, end));
  });
  return { push: (chunk) => splitter.push(chunk), end: () => splitter.flush() };
}
