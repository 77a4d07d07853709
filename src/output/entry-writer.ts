/**
 * The one writer that owns the sidecar's output stream. Entries are gathered into chunks (ASCII
 * lines escaped straight from their bytes) and handed to the stream one chunk at a time: the
 * next only once the reader has taken the last (the pipe accepted all of it). So at any moment
 * we know which entries have left the process: each chunk carries, for every line of a file in
 * it, the file's checkpoint and the line's end offset, and those checkpoints move when the chunk
 * is taken. A restart resumes there: nothing lost, nothing repeated.
 *
 * Why one chunk at a time: stdout on a pipe is asynchronous on Linux (libuv writes what the pipe
 * takes and queues the rest), and process.exit drops that queue, so an exit while the reader
 * waits could end the stream inside an entry. With one chunk out we can tell how much of it the
 * pipe took (`finishCutEntry`), finish the one entry it cut, and stop there.
 *
 * `full` tells sources to stop reading until `onRoom`: what waits here is bounded by the
 * high-water mark, so a line of a quiet file is never queued behind much more than that.
 */
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { escapeAsciiJson, escapedBytesBound, leaseKernelOutputChunk, MAX_ESCAPE_BYTES } from '../kernels/json-kernels.js';
import type { FileCheckpoint } from '../follow/file-checkpoint.js';
import { utf8CutPoint } from '../follow/split-lines.js';
import { terminalSafeJson } from '../render/escape-terminal.js';

export interface EntryWriterOptions {
  /** Bytes waiting here (not yet handed to the stream) above which sources pause. */
  readonly highWaterBytes?: number;
  /** Called after a chunk was taken by the reader (its lines' checkpoints moved). */
  readonly onDelivered?: () => void;
  /**
   * The stream is a terminal (someone ran the sidecar by hand): what a terminal would act on
   * and JSON leaves raw (DEL, C1 controls, the bidirectional overrides) is written as `\u`
   * escapes, the same JSON. Into a pipe or a file the bytes are jq's, unchanged.
   */
  readonly terminal?: boolean;
}

/** An entry's fixed start for one type, as bytes and as a string. */
export interface EntryPrefix {
  readonly text: string;
  readonly bytes: Buffer;
}

/** A chunk's buffer: one of the JSON kernels' output slots, so escapes land in it directly. */
export const CHUNK_BYTES = 256 * 1024;
/**
 * A chunk is handed on once it holds this much: what one write gives the pipe, and so what a
 * line of a quiet file may wait behind, with the high-water mark (at 1.3 MB/s, a slow
 * shipper's pace, the two are 0.2 s).
 */
const SEAL_BYTES = 128 * 1024;
const DEFAULT_HIGH_WATER_BYTES = 128 * 1024;
const WHOLE_SUFFIX = Buffer.from('}\n');
const PARTIAL_SUFFIX = Buffer.from(',"partial":true}\n');
/** Lines are escaped in segments of at most this many bytes. */
const SEGMENT_BYTES = Math.min(MAX_ESCAPE_BYTES, Math.floor(CHUNK_BYTES / 8));
const QUOTE = Buffer.from('"');
const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** Where each file line in a chunk ends, and what its file's checkpoint becomes once it left. */
class Marks {
  count = 0;
  ends = new Int32Array(1024);
  positions = new Float64Array(1024);
  partial = new Uint8Array(1024);
  checkpoints: (FileCheckpoint | undefined)[] = new Array<FileCheckpoint | undefined>(1024);

  add(end: number, checkpoint: FileCheckpoint, position: number, partial: boolean): void {
    const i = this.count++;
    if (i === this.ends.length) this.#grow();
    this.ends[i] = end;
    this.positions[i] = position;
    this.partial[i] = partial ? 1 : 0;
    this.checkpoints[i] = checkpoint;
  }

  /** Moves the checkpoints of the lines that end at or before `upTo` (all by default). */
  deliver(from: number, upTo = Infinity): number {
    let i = from;
    for (; i < this.count && this.ends[i]! <= upTo; i++) {
      const checkpoint = this.checkpoints[i]!;
      checkpoint.delivered = this.positions[i]!;
      checkpoint.midLine = this.partial[i] === 1;
    }
    return i;
  }

  #grow(): void {
    const size = this.ends.length * 2;
    const ends = new Int32Array(size);
    ends.set(this.ends);
    const positions = new Float64Array(size);
    positions.set(this.positions);
    const partial = new Uint8Array(size);
    partial.set(this.partial);
    this.ends = ends;
    this.positions = positions;
    this.partial = partial;
    this.checkpoints.length = size;
  }
}

interface Chunk {
  readonly buffer: Buffer;
  used: number;
  readonly marks: Marks;
  /** Marks already delivered (at a stop deadline, part of a chunk may have left). */
  delivered: number;
}

/**
 * Bytes of diagnostics that may wait while the reader stalls (writeDiagnostic): warnings and
 * errors (what was lost, and why) have more room than the health lines.
 */
const DIAGNOSTIC_ROOM = 64 * 1024;
const WARNING_ROOM = 1024 * 1024;

/** What the pipe took of the chunk out when the stop deadline came. */
export type CutEntry =
  /** Nothing was cut: every entry that left is whole. */
  | { readonly kind: 'whole' }
  /** An entry was cut: `rest` are its missing bytes; `finish` writes them (blocking), then moves its checkpoint. */
  | { readonly kind: 'cut'; readonly rest: number; finish(): void };

/** The stream's libuv handle, where it has one: how many bytes of the last write it still holds. */
interface StreamHandle {
  readonly writeQueueSize?: number;
}

export class EntryWriter {
  readonly #stream: Writable;
  readonly #highWaterBytes: number;
  readonly #onDelivered: () => void;
  readonly #terminal: boolean;
  /**
   * stdout's descriptor when it is a file (a stream without a libuv handle: Node's
   * SyncWriteStream, which makes one write and drops what a short one left, as a full disk or a
   * file size limit gives): chunks are then written here, to their last byte or an error.
   */
  readonly #fileFd: number | undefined;
  #chunk: Chunk;
  readonly #queue: Chunk[] = [];
  #queuedBytes = 0;
  #inFlight: Chunk | undefined;
  /** Diagnostics waiting to go out between chunks (writeDiagnostic), their bytes, and the write of them out now. */
  readonly #diagnostics: string[] = [];
  #diagnosticBytes = 0;
  #diagnosticsOut: Buffer | undefined;
  readonly #free: Chunk[] = [];
  /** Everything the reader took so far ends with a whole entry. */
  #atEntryEnd = true;
  #roomListeners: (() => void)[] = [];
  #idleListeners: (() => void)[] = [];
  #closed = false;
  #droppedDiagnostics = 0;
  /** The stop deadline passed: nothing more is handed to the stream. */
  #stopped = false;
  #lines = 0;

  constructor(stream: Writable, options: EntryWriterOptions = {}) {
    this.#stream = stream;
    this.#highWaterBytes = options.highWaterBytes ?? DEFAULT_HIGH_WATER_BYTES;
    this.#onDelivered = options.onDelivered ?? (() => undefined);
    this.#terminal = options.terminal === true;
    const streamFd = (stream as unknown as { fd?: unknown }).fd;
    this.#fileFd = typeof streamFd === 'number' && (stream as unknown as { _handle?: unknown })._handle === undefined ? streamFd : undefined;
    this.#chunk = this.#newChunk();
    const closed = (): void => {
      this.#closed = true;
      this.#notify();
    };
    stream.on('close', closed);
    stream.on('error', closed);
  }

  /** JSON text as the stream takes it: escaped for a terminal (EntryWriterOptions.terminal). */
  #terminalSafe(json: string): string {
    return this.#terminal ? terminalSafeJson(json) : json;
  }

  /** Entries handed to the writer so far. */
  get lines(): number {
    return this.#lines;
  }

  /** True while more than the high-water mark waits here: sources should pause. */
  get full(): boolean {
    return this.#queuedBytes + this.#chunk.used >= this.#highWaterBytes;
  }

  get closed(): boolean {
    return this.#closed || this.#stream.destroyed;
  }

  /** Nothing waits and nothing is out: every entry written has been taken by the reader. */
  get idle(): boolean {
    return this.#inFlight === undefined && this.#queue.length === 0 && this.#chunk.used === 0 && this.#diagnosticsOut === undefined && this.#diagnostics.length === 0;
  }

  /**
   * One entry whose contents are the UTF-8 line bytes[start, end), from a file whose checkpoint
   * becomes `endOffset` once the entry left (none for a stream's line). A short ASCII line is
   * escaped in one go; a long or non-ASCII one in segments cut at character boundaries, so no
   * large string is ever made (a 100 MB line without newline once took RSS to 104 MB). An entry
   * longer than a chunk spans chunks; nothing else is written between its parts.
   */
  writeLine(prefix: EntryPrefix, bytes: Buffer, start: number, end: number, partial: boolean, checkpoint?: FileCheckpoint, endOffset = 0): void {
    this.#lines++;
    const suffix = partial ? PARTIAL_SUFFIX : WHOLE_SUFFIX;
    if (end - start <= SEGMENT_BYTES && !this.#terminal) {
      this.#ensure(prefix.bytes.length + 2 + escapedBytesBound(end - start) + suffix.length);
      const chunk = this.#chunk;
      const target = chunk.buffer;
      let next = chunk.used + prefix.bytes.copy(target, chunk.used);
      target[next++] = 0x22;
      next = escapeAsciiJson(bytes, start, end, target, next);
      if (next >= 0) {
        target[next++] = 0x22;
        chunk.used = next + suffix.copy(target, next);
        if (checkpoint) chunk.marks.add(chunk.used, checkpoint, endOffset, partial);
        if (chunk.used >= SEAL_BYTES) this.#seal();
        return;
      }
    }
    this.#bytes(prefix.bytes);
    this.#bytes(QUOTE);
    for (let at = start; at < end; ) {
      const cut = end - at > SEGMENT_BYTES ? utf8CutPoint(bytes, at, SEGMENT_BYTES) : end;
      this.#ensure(escapedBytesBound(cut - at));
      const chunk = this.#chunk;
      const escaped = this.#terminal ? -1 : escapeAsciiJson(bytes, at, cut, chunk.buffer, chunk.used);
      // Not ASCII (or for a terminal): decoded (invalid UTF-8 becomes U+FFFD) and escaped by JSON.stringify.
      if (escaped >= 0) chunk.used = escaped;
      else this.#text(this.#terminalSafe(JSON.stringify(bytes.toString('utf8', at, cut)).slice(1, -1)));
      at = cut;
    }
    this.#bytes(QUOTE);
    this.#bytes(suffix);
    if (checkpoint) this.#chunk.marks.add(this.#chunk.used, checkpoint, endOffset, partial);
    if (this.#chunk.used >= SEAL_BYTES) this.#seal();
  }

  /** A line that already is an entry (newline included), from a file as in writeLine; `partial`: a piece of a line. */
  writeEntry(line: string, checkpoint?: FileCheckpoint, endOffset = 0, partial = false): void {
    this.#lines++;
    this.#text(this.#terminal ? `${terminalSafeJson(line.slice(0, -1))}\n` : line);
    if (checkpoint) this.#chunk.marks.add(this.#chunk.used, checkpoint, endOffset, partial);
    if (this.#chunk.used >= SEAL_BYTES) this.#seal();
  }

  /** Diagnostic lines given up (writeDiagnostic) because the reader left no room for them. */
  get droppedDiagnostics(): number {
    return this.#droppedDiagnostics;
  }

  /**
   * A line of the program's own (a diagnostic, newline included) between two entries, when its
   * stderr is this stream too (DiagnosticRoute): not an entry, so not counted among `lines`. It
   * waits in a queue of its own and is handed out before the next chunk, once what the stream
   * took ends with a whole entry (at once when nothing is out). While the reader stalls, at most
   * DIAGNOSTIC_ROOM bytes of them wait (WARNING_ROOM for a warning or an error, `important`),
   * and the rest are dropped and counted. False when it was not taken (dropped, or closed).
   * After the stop deadline they wait for takeDiagnostics.
   */
  writeDiagnostic(line: string, important = false): boolean {
    if (this.closed) return false;
    if (this.#diagnosticBytes + line.length > (important ? WARNING_ROOM : DIAGNOSTIC_ROOM)) {
      this.#droppedDiagnostics++;
      return false;
    }
    this.#diagnostics.push(line);
    this.#diagnosticBytes += line.length;
    this.#pump();
    return true;
  }

  /**
   * At the end, after the stop deadline: the diagnostics not handed out, and the rest of one the
   * stream holds part of, to be written straight after the entry the pipe holds part of.
   */
  takeDiagnostics(): string {
    const waiting = this.#diagnostics.join('');
    this.#diagnostics.length = 0;
    this.#diagnosticBytes = 0;
    return waiting;
  }

  /** Hands what is gathered to the stream (after what waits before it). */
  flush(): void {
    this.#seal();
    this.#pump();
  }

  /** Calls `listener` once, when the writer has room again (or is closed). */
  onRoom(listener: () => void): void {
    this.#roomListeners.push(listener);
  }

  /** Resolves when every entry written has been taken by the reader, or the stream closed. */
  whenIdle(): Promise<void> {
    this.flush();
    if (this.idle || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.#idleListeners.push(resolve));
  }

  /**
   * The stop deadline: nothing more is handed to the stream. Entries of the chunk out that the
   * pipe took wholly have their checkpoints moved; if the pipe took part of an entry, its rest
   * is returned to be finished (a blocking write: see CutEntry).
   */
  stopAtDeadline(): CutEntry {
    const chunk = this.#inFlight;
    const handle = (this.#stream as unknown as { _handle?: StreamHandle })._handle;
    this.#stopped = true;
    const diagnostics = this.#diagnosticsOut;
    if (diagnostics && typeof handle?.writeQueueSize === 'number' && handle.writeQueueSize > 0) {
      // Diagnostics the pipe took part of: their rest goes first (they are whole lines).
      const rest = diagnostics.subarray(diagnostics.length - handle.writeQueueSize);
      const fd = (this.#stream as unknown as { fd?: number }).fd ?? (handle as { fd?: number }).fd;
      return { kind: 'cut', rest: rest.length, finish: () => (typeof fd === 'number' ? writeAll(fd, rest, rest.length) : undefined) };
    }
    if (!chunk || typeof handle?.writeQueueSize !== 'number') return { kind: 'whole' };
    const taken = chunk.used - handle.writeQueueSize;
    chunk.delivered = chunk.marks.deliver(chunk.delivered, taken);
    const atEnd = taken === 0 ? this.#atEntryEnd : chunk.buffer[taken - 1] === NEWLINE;
    if (atEnd) return { kind: 'whole' };
    // The cut entry's rest: to the next newline, in this chunk or (a long entry) the next ones.
    const parts: Buffer[] = [];
    let rest = 0;
    let last: { chunk: Chunk; end: number } | undefined;
    for (const [index, part] of [chunk, ...this.#queue, this.#chunk].entries()) {
      const from = index === 0 ? taken : 0;
      const newline = part.buffer.subarray(0, part.used).indexOf(NEWLINE, from);
      const end = newline === -1 ? part.used : newline + 1;
      parts.push(part.buffer.subarray(from, end));
      rest += end - from;
      if (newline !== -1) {
        last = { chunk: part, end };
        break;
      }
    }
    const fd = (this.#stream as unknown as { fd?: number }).fd ?? (handle as { fd?: number }).fd;
    this.#stopped = true;
    return {
      kind: 'cut',
      rest,
      finish: () => {
        if (typeof fd !== 'number') return;
        for (const part of parts) writeAll(fd, part, part.length);
        if (last) last.chunk.delivered = last.chunk.marks.deliver(last.chunk.delivered, last.end);
      },
    };
  }

  #ensure(room: number): void {
    if (CHUNK_BYTES - this.#chunk.used < room) this.#seal();
  }

  #bytes(source: Buffer): void {
    this.#ensure(source.length);
    this.#chunk.used += source.copy(this.#chunk.buffer, this.#chunk.used);
  }

  #text(text: string): void {
    for (let rest = text; ; ) {
      const chunk = this.#chunk;
      const { read, written } = encoder.encodeInto(rest, chunk.buffer.subarray(chunk.used));
      chunk.used += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.#seal();
    }
  }

  #seal(): void {
    const chunk = this.#chunk;
    if (chunk.used === 0) return;
    this.#queue.push(chunk);
    this.#queuedBytes += chunk.used;
    this.#chunk = this.#newChunk();
  }

  /** Hands the next chunk to the stream once the last was taken. */
  #pump(): void {
    while (!this.#inFlight && this.#diagnosticsOut === undefined && !this.closed && !this.#stopped) {
      // Diagnostics first, once what left ends with a whole entry.
      if (this.#diagnostics.length > 0 && this.#atEntryEnd) {
        this.#handDiagnostics();
        continue;
      }
      if (this.#queue.length === 0) break;
      const chunk = this.#queue.shift()!;
      this.#queuedBytes -= chunk.used;
      this.#inFlight = chunk;
      if (this.#fileFd !== undefined) {
        this.#writeToFile(this.#fileFd, chunk);
        continue;
      }
      this.#stream.write(chunk.buffer.subarray(0, chunk.used), (error) => this.#written(chunk, error));
      // The pipe took it all at once (the common case): the next may go now.
      if (this.#inFlight === chunk && this.#takenAtOnce()) this.#taken(chunk);
    }
    this.#notify();
  }

  /**
   * True when the stream holds nothing of the write just made: it is in the pipe (or file).
   * Neither in libuv's queue nor in the Writable's own buffer: a write made while the stream
   * still counts an earlier one as in progress waits there, with libuv's queue empty (a 10 MiB
   * line's chunks were taken for delivered that way, and `--once` exited with 786 KB unwritten).
   */
  #takenAtOnce(): boolean {
    // A write that failed at once (EPIPE: the reader closed the pipe) left the stream errored
    // (destroyed only on the next tick) with nothing counted as waiting: none of it was taken.
    if (this.#stream.destroyed || this.#stream.errored) return false;
    if (this.#stream.writableLength > 0) return false;
    const handle = (this.#stream as unknown as { _handle?: StreamHandle })._handle;
    if (handle) return handle.writeQueueSize === 0;
    // Without a handle (a file's SyncWriteStream, a Writable whose write calls back at once) the
    // Writable's own count says it all: nothing of the write is left in it.
    return true;
  }

  /** Hands the waiting diagnostics to the stream, as one write. */
  #handDiagnostics(): void {
    const bytes = Buffer.from(this.#diagnostics.join(''));
    this.#diagnostics.length = 0;
    this.#diagnosticBytes = 0;
    if (this.#fileFd !== undefined) {
      const { error } = writeAll(this.#fileFd, bytes, bytes.length);
      if (error) this.#stream.destroy(error);
      return;
    }
    this.#diagnosticsOut = bytes;
    this.#stream.write(bytes, () => {
      if (this.#diagnosticsOut !== bytes) return;
      this.#diagnosticsOut = undefined;
      if (!this.#stopped) this.#pump();
    });
    if (this.#diagnosticsOut === bytes && this.#takenAtOnce()) this.#diagnosticsOut = undefined;
  }

  /**
   * A chunk written to stdout's file, to its last byte: a short write (the disk fills, a file
   * size limit) is written on, and its error ends the output, with only the entries wholly
   * written counted as delivered (their positions saved; the next start sends the rest).
   */
  #writeToFile(fd: number, chunk: Chunk): void {
    const { written, error } = writeAll(fd, chunk.buffer, chunk.used);
    if (error) {
      chunk.delivered = chunk.marks.deliver(chunk.delivered, written);
      this.#inFlight = undefined;
      this.#stream.destroy(error);
    } else this.#taken(chunk);
    this.#recycle(chunk);
  }

  /** The stream is done with the chunk's buffer: it may be filled again. */
  #recycle(chunk: Chunk): void {
    chunk.used = 0;
    chunk.delivered = 0;
    chunk.marks.count = 0;
    this.#free.push(chunk);
  }

  #taken(chunk: Chunk): void {
    chunk.delivered = chunk.marks.deliver(chunk.delivered);
    this.#atEntryEnd = chunk.buffer[chunk.used - 1] === NEWLINE;
    this.#inFlight = undefined;
    this.#onDelivered();
  }

  #written(chunk: Chunk, error: Error | null | undefined): void {
    // After the stop deadline only what stopAtDeadline counted has left (a stream torn down may
    // still call back as if its write were done).
    if (this.#inFlight === chunk && !this.#stopped) {
      if (error) this.#inFlight = undefined;
      else this.#taken(chunk);
    }
    this.#recycle(chunk);
    this.#pump();
  }

  #notify(): void {
    if (this.#roomListeners.length > 0 && (!this.full || this.closed)) {
      const listeners = this.#roomListeners;
      this.#roomListeners = [];
      for (const listener of listeners) listener();
    }
    if (this.#idleListeners.length > 0 && (this.closed || (this.#inFlight === undefined && this.#queue.length === 0))) {
      const listeners = this.#idleListeners;
      this.#idleListeners = [];
      for (const listener of listeners) listener();
    }
  }

  #newChunk(): Chunk {
    return this.#free.pop() ?? { buffer: leaseKernelOutputChunk() ?? Buffer.allocUnsafe(CHUNK_BYTES), used: 0, marks: new Marks(), delivered: 0 };
  }
}

/**
 * Writes bytes[0, length) to a descriptor: on through short writes (a file filling up), waiting
 * out EAGAIN (a non-blocking pipe); the bytes written, and the error that stopped it.
 */
function writeAll(fd: number, bytes: Buffer, length: number): { written: number; error?: NodeJS.ErrnoException } {
  let written = 0;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (written < length) {
    try {
      written += fs.writeSync(fd, bytes, written, length - written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') Atomics.wait(pause, 0, 0, 5);
      else return { written, error: error as NodeJS.ErrnoException };
    }
  }
  return { written };
}

