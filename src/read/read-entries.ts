/**
 * Every input (files, gzip files, `-` for stdin) through one handler, in order: entry lines
 * as the sidecar writes them, or with `--as TYPE` raw log lines as the contents of entries.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { EntryReader, MAX_INPUT_LINE_BYTES, type EntryHandler } from './entry-reader.js';
import { inputChunks, type StdinSource } from './open-input.js';
import { COMPRESSION_HEAD_BYTES, isGzipFile, mayStartCompression, otherCompression, otherCompressionError } from './other-compression.js';
import { fileHead } from './file-head.js';

export type { StdinSource };
import { rawLineReader } from './raw-line-reader.js';

export interface InputSelection {
  /** Files to read, `-` for stdin; none: stdin. */
  readonly inputs: readonly string[];
  /** Read raw log lines as the contents of entries of this type. */
  readonly as?: string | undefined;
}


/** What reads the lines: it may say it wants no more (`done`: --max-count, -q). */
export type InputHandler = EntryHandler & { end(): void; readonly done?: boolean };

/**
 * The files read so far, by device and inode: the same file given twice (a shell's glob and its
 * name, a link) would count every line twice. stdin and what cannot be looked at are never
 * taken for one read before (a missing file's error comes when it is read).
 */
class InputFiles {
  readonly #seen = new Map<string, string>();

  /** The input given before that is the same file as `input`, if any; else `input` is noted. */
  seenAs(input: string): string | undefined {
    if (input === '-') return undefined;
    let key: string;
    try {
      const stat = fs.statSync(input);
      if (!stat.isFile()) return undefined;
      key = `${stat.dev}:${stat.ino}`;
    } catch {
      return undefined;
    }
    const first = this.#seen.get(key);
    if (first === undefined) this.#seen.set(key, input);
    return first;
  }
}

/**
 * How long the input may pause before a line held back for its continuation is taken as it
 * is: when following a live stream, a record's lines come together, and its last line is
 * shown within this.
 */
export const HELD_LINE_WAIT_MS = 200;

/**
 * Reads the inputs; `afterChunk` runs after each chunk was handled (output is flushed there:
 * the chunk's bytes may be reused once it returns). The handler's `end` runs at the very end.
 * An input that cannot be read (or stops being readable) is given to `unreadable`, and the next
 * one is read, as cat and grep do; without `unreadable`, its error ends the reading.
 */
export async function readEntries(
  selection: InputSelection,
  handler: InputHandler,
  /** Where `-` is read from: a stream made only when read (stdinSource gives it from an IO). */
  stdin: StdinSource,
  afterChunk: (bytes: number) => Promise<void> | void,
  unreadable?: (input: string, error: unknown) => void,
  /** Aborted (Ctrl-C): reading stops after the chunk in hand, and the handler ends as at the input's end. */
  interrupted?: AbortSignal,
  /** Told each input's name (`-`: stdin) before its first entry; the previous input's entries were all handled by then. */
  inputStarted?: (input: string) => void,
  /** Told of an input that is a file given before (by another name, or the same): it is not read again. */
  repeated?: (input: string, first: string) => void,
): Promise<void> {
  const inputs = selection.inputs.length > 0 ? selection.inputs : ['-'];
  const files = new InputFiles();
  for (const input of inputs) {
    if (handler.done || interrupted?.aborted) break;
    const first = files.seenAs(input);
    if (first !== undefined) {
      repeated?.(input, first);
      continue;
    }
    inputStarted?.(input);
    const reader = selection.as ? rawLineReader(selection.as, handler) : new EntryReader(handler);
    const chunks = inputChunks(input, stdin, interrupted, () => handler.holding?.() === true, () => handler.done === true);
    // The input's first bytes, until there are enough to tell a compression logtype does not
    // read: a pipe's first read may bring fewer.
    let head: Buffer | undefined;
    let headTold = false;
    /** Reading stopped before the input's end (the handler wants no more, or Ctrl-C): a line it holds unfinished is the last chunk's cut. */
    let leftEarly = false;
    /** Left while a read waits for the input's next bytes: the generator cannot end before that read does. */
    let readPending = false;
    try {
      for (;;) {
        const pending = chunks.next();
        if (handler.holding?.() && (await pausedFor(pending, HELD_LINE_WAIT_MS))) {
          handler.release!();
          await afterChunk(0);
          // The record let go was the one wanted (-q, --max-count): a stream that stays open
          // (`kubectl logs -f`) is not waited on; the read waiting sees `done` at its next poll.
          if (handler.done) {
            leftEarly = true;
            readPending = true;
            break;
          }
        }
        let next: IteratorResult<Buffer>;
        try {
          next = await pending;
        } catch (error) {
          if (!unreadable) throw error;
          unreadable(input, error);
          break;
        }
        if (next.done) {
          // Too short to be a compressed stream: its bytes are read as they are.
          if (head) reader.push(head);
          break;
        }
        let chunk = next.value;
        if (!headTold) {
          chunk = head ? Buffer.concat([head, chunk]) : chunk;
          head = undefined;
          if (chunk.length < COMPRESSION_HEAD_BYTES && mayStartCompression(chunk)) {
            // Kept past the chunk's turn: the reader reuses its buffer.
            head = Buffer.from(chunk);
            continue;
          }
          headTold = true;
          const compression = otherCompression(chunk);
          if (compression) {
            const error = otherCompressionError(compression, input, compression.encoding === true && isGzipFile(input, fileHead));
            if (!unreadable) throw error;
            unreadable(input, error);
            break;
          }
        }
        reader.push(chunk);
        handler.chunkEnd?.();
        await afterChunk(chunk.length);
        if (handler.done || interrupted?.aborted) {
          leftEarly = true;
          break;
        }
      }
    } finally {
      // Closes the input when it was left early (done, or an error in the handler). A read still
      // waiting holds the generator's return until it ends: not waited for (a pipe's poll ends
      // at `done`; a stream read, when the command's end destroys stdin).
      if (readPending) void chunks.return(undefined).catch(() => undefined);
      else await chunks.return(undefined);
    }
    reader.end(leftEarly);
    handler.release?.();
    handler.inputEnd?.();
  }
  handler.end();
}

/** True when `next` has not settled within `ms`. */
async function pausedFor(next: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const paused = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  try {
    return await Promise.race([next.then(() => false, () => false), paused]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the commands' IO says stdin is: the process's own descriptor (`stdinFd`), or only a stream. */
export interface StdinIO {
  readonly stdin: Readable;
  /**
   * The descriptor `stdin` reads, when it is the process's own (the commands pass 0): read
   * directly when it is a file or a pipe, and `stdin` is then not made. Without it, `stdin`
   * is read as the stream it is, whatever the process's descriptor 0 holds.
   */
  readonly stdinFd?: number | undefined;
}

/** `io.stdin` as readEntries takes it: its getter is called only when it is read as a stream. */
export function stdinSource(io: StdinIO): StdinSource {
  const fd = io.stdinFd;
  return fd === undefined ? () => io.stdin : { fd, stream: () => io.stdin };
}
