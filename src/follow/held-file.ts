/**
 * One file held open by descriptor (Vector's FileWatcher): it reads from its position with
 * `pread`, splits lines, and knows what it read and what it saw, so a truncation is noticed
 * whether or not reading waits for the output. Its name may change under it (rotation); its
 * descriptor is what is read.
 *
 * All calls are synchronous: a pread of a page-cached log file takes microseconds, and one
 * decision at a time keeps rotation free of races between reads and checks.
 */
import fs from 'node:fs';
import type { SavedFile } from '../state/state-file.js';
import type { FileCheckpoint } from './file-checkpoint.js';
import { ByteMarker, MARKER_BYTES } from './byte-marker.js';
import type { KnownHead } from './compressed-rotation.js';
import { FINGERPRINT_BYTES, TAIL_BYTES, fingerprintOf, fingerprintOfBytes, fnv1a64, tailHashOf, type Fingerprint } from './fingerprint.js';
import { newLineStream, type LineOptions, type LineStream } from './line-stream.js';
import { COMPRESSION_HEAD_BYTES, compressionOf, mayBeginCompression } from '../read/other-compression.js';
import { RecentBytes } from './recent-bytes.js';
import { isTruncated, type FileIdentity } from './reconcile.js';
import { birthtimeOf } from './rotated-siblings.js';
import type { LineSplitter } from './split-lines.js';

export type { FileLineSink, LineOptions, LineStream } from './line-stream.js';

/**
 * How the file came to be held: at the name, renamed or deleted from it, copytruncate's copy,
 * or a rotated file found beside it that nobody had read.
 */
export type HeldRole = 'current' | 'rotated' | 'deleted' | 'copy' | 'unseen';

/** Bytes read per pread: large enough for throughput, small enough to stay within memory. */
const READ_BYTES = 256 * 1024;
/** Longer than the file system clock's tick (Linux: a jiffy, 1-10 ms), with room to spare. */
const SAME_TICK_MS = 50;

/** One read buffer for every file: reads are synchronous and the sink copies each line before
 * the next read, so nothing outlives its turn in the buffer. */
const readBuffer = Buffer.allocUnsafe(READ_BYTES);

/** Where #headIn reads a file's first bytes (one file at a time: the follower is single-threaded). */
const headScratch = Buffer.allocUnsafe(FINGERPRINT_BYTES);

/** Bytes read at a time looking back for the start of a file's last line. */
const LOOK_BACK_BYTES = 64 * 1024;

/**
 * Where a file's last line starts, for a follower that begins at its end (`tail -F -n0`): its
 * end when it ends with a newline, else after its last newline, so a line a writer is in the
 * middle of leaves whole once finished, not as its tail alone. A last line longer than
 * `maxLineBytes` (it leaves in pieces anyway), or a file that cannot be read back, begins at the end.
 */
export function lineStartAtEnd(fd: number, size: number, maxLineBytes: number): number {
  if (size === 0) return 0;
  const buffer = Buffer.alloc(Math.min(LOOK_BACK_BYTES, size));
  const floor = Math.max(0, size - maxLineBytes);
  try {
    for (let end = size; end > floor; ) {
      const start = Math.max(floor, end - buffer.length);
      const read = fs.readSync(fd, buffer, 0, end - start, start);
      if (read < end - start) return size;
      // The last byte first: a file that ends with a newline begins at its end.
      const newline = buffer.subarray(0, read).lastIndexOf(0x0a);
      if (newline !== -1) return start + newline + 1;
      end = start;
    }
  } catch {
    return size;
  }
  // No newline in the last maxLineBytes: a line over the bound, or a file of one unfinished line.
  return floor === 0 ? 0 : size;
}

export class HeldFile implements FileIdentity {
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  /**
   * The birth time where the file system keeps one (0 until known: a file written within the
   * clock tick it was made in shows its ctime there, so it is asked again at each save).
   */
  birthtimeMs: number;
  /** Where it was found (the followed path, or a name beside it). */
  readonly name: string;
  role: HeldRole;
  /** Bytes read (handed to the splitter). */
  position: number;
  /** The largest size seen while reading waited; at most `position` once reading caught up. */
  seenSize: number;
  /** When it last grew (or began draining). */
  quietSince: number;
  /** Held lines were emitted for good (the file drained): waiting for them to leave. */
  ended = false;
  /**
   * The last read reached the end of the file: it is not read again until a look at its size
   * (a wake: inotify or the poll) finds more. Saves a read per file per turn while catching up.
   */
  atEnd = false;
  /**
   * The file's first bytes as last looked at for compressed data (`--file mongodb=rs1.log.gz`,
   * a compressed copy under the log's name), which is not read: its bytes would leave as lines
   * of garbage. `undefined`: not looked at yet; `compressed: false`: text, read. A compressed
   * file is looked at again when its size changes (emptied and written again, or its inode
   * taken by a new file).
   */
  #looked: { readonly compressed: boolean; readonly size: number } | undefined;
  #stream: LineStream;
  readonly #lines: LineOptions;
  /** The bytes before `position`, and before `seenSize`, as read or seen there. */
  readonly #marker = new ByteMarker();
  readonly #seenMarker = new ByteMarker();
  #fingerprint: Fingerprint | undefined;
  /** The last bytes read, kept only for the file at the name (the only one copytruncate copies). */
  readonly #recent = new RecentBytes();
  /** The file's first bytes (up to FINGERPRINT_BYTES) as read: what a copy of it starts with. */
  readonly #head = Buffer.allocUnsafe(FINGERPRINT_BYTES);
  #headLength = 0;
  #tail: { position: number; hash: string | undefined } | undefined;
  /** The modification time at the last look that compared the bytes before `position` (see `rewrittenInPlace`). */
  #checkedMtime = { mtimeMs: -1, at: 0 };

  private constructor(fd: number, stat: fs.Stats, name: string, role: HeldRole, position: number, now: number, lines: LineOptions, stream: LineStream, tailHash: string | undefined) {
    this.fd = fd;
    this.dev = stat.dev;
    this.ino = stat.ino;
    this.birthtimeMs = birthtimeOf(stat);
    this.name = name;
    this.role = role;
    this.position = position;
    this.seenSize = position;
    this.quietSince = now;
    this.#lines = lines;
    this.#stream = stream;
    this.#marker.readFrom(fd, position);
    this.#readHead();
    if (role === 'current') this.#keepBytesBefore(position);
    if (tailHash !== undefined && position > 0) this.#tail = { position, hash: tailHash };
  }

  /**
   * Opens `name` and holds it from `from` (a position, or its end): a new line stream (resumed inside a line when
   * `midLine`), or the one handed over by a truncated file. Throws what open/fstat throw; a
   * name that is not a regular file throws ENOTFILE, one that is not `identity` any more EMOVED.
   */
  static open(
    name: string,
    role: HeldRole,
    from: number | 'end',
    now: number,
    lines: LineOptions,
    options: { midLine?: boolean; stream?: LineStream; identity?: FileIdentity; tailHash?: string | undefined } = {},
  ): HeldFile {
    const fd = fs.openSync(name, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw Object.assign(new Error(`${name} is not a regular file`), { code: 'ENOTFILE' });
      // Listed as one file, renamed away before this open (a rotation going on): not that file.
      if (options.identity && (stat.dev !== options.identity.dev || stat.ino !== options.identity.ino)) {
        throw Object.assign(new Error(`${name} is another file now`), { code: 'EMOVED' });
      }
      const position = from === 'end' ? lineStartAtEnd(fd, stat.size, lines.maxLineBytes) : from;
      const stream = options.stream ?? newLineStream(lines, position, options.midLine === true);
      return new HeldFile(fd, stat, name, role, position, now, lines, stream, from === 'end' ? undefined : options.tailHash);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  get checkpoint(): FileCheckpoint {
    return this.#stream.checkpoint;
  }

  /** Its lines as read so far (handed to the file when it is opened again after waiting by name). */
  get lineStream(): LineStream {
    return this.#stream;
  }

  get splitter(): LineSplitter {
    return this.#stream.splitter;
  }

  /** Every line read (and the held ones, once emitted) has left the process. */
  get allDelivered(): boolean {
    return this.#stream.checkpoint.upTo >= this.#stream.splitter.offset - this.#stream.splitter.heldBytes;
  }

  size(): number {
    return fs.fstatSync(this.fd).size;
  }

  links(): number {
    return fs.fstatSync(this.fd).nlink;
  }

  /**
   * Shorter than what was read or seen: truncated, told by the size alone. (Truncated and
   * grown again past those places is told by their bytes, when the file is next read or seen.)
   */
  shrunk(size: number): boolean {
    return isTruncated({ position: this.position, seenSize: this.seenSize, size, markerMatches: true, seenMarkerMatches: true });
  }

  /** Truncated since we last read or looked (see reconcile.ts `isTruncated`): size and bytes. */
  truncated(size: number): boolean {
    const markerMatches = size < this.position || this.#sameBytesBefore();
    const seenMarkerMatches = this.seenSize <= this.position || size < this.seenSize || this.#seenMarker.foundIn(this.fd, this.seenSize);
    return isTruncated({ position: this.position, seenSize: this.seenSize, size, markerMatches, seenMarkerMatches });
  }

  /**
   * Truncated and written again to exactly the size read (a look finds `size === position`, so
   * no read would compare the bytes before the position): told by those bytes and by the file's
   * first bytes (lines that end alike, such as padded ones, leave the bytes before the position
   * as they were), compared when the file was modified since the last comparison. A comparison
   * made within a clock tick of the modification time is made again at the next look: a rewrite
   * in that tick leaves the time as it was.
   */
  rewrittenInPlace(size: number, mtimeMs: number | undefined, now: number): boolean {
    if (size !== this.position || this.position === 0 || mtimeMs === undefined) return false;
    const checked = this.#checkedMtime;
    if (mtimeMs === checked.mtimeMs && checked.at - mtimeMs > SAME_TICK_MS) return false;
    this.#checkedMtime = { mtimeMs, at: now };
    return !this.#sameBytesBefore();
  }

  /** Whether the file still holds, before the read position, what was read there: its last bytes and its first. */
  #sameBytesBefore(): boolean {
    if (this.position === 0) return true;
    return this.#marker.foundIn(this.fd, this.position) && (this.#markerTellsRewrite() || this.#startsAsRead());
  }

  /**
   * Whether the bytes before the position alone tell a rewrite from the file read: they hold the
   * whole last line and the end of the one before it (a line's own words, its time or its
   * number, at the same offset), or everything from the file's start. A line longer than them
   * can end alike in another file (padding), so its file's first bytes are compared too: one
   * read more, which most lines (shorter) spare.
   */
  #markerTellsRewrite(): boolean {
    const marker = this.#marker;
    return marker.length >= this.position || marker.holdsLineStart();
  }

  /**
   * Whether the file (or the one open as `fd`: a copy of it) still starts with the bytes of its
   * first KiB that lie before the read position. The head may reach past it (read at open from a
   * file resumed at a position within its first KiB): those bytes were never delivered, and a
   * file cut back to the position is not rewritten.
   */
  #startsAsRead(fd = this.fd): boolean {
    const length = Math.min(this.#headLength, this.position);
    return length === 0 || this.#headIn(fd, length);
  }

  /** Whether the file open as `fd` starts with the first `length` bytes of this file's head as read. */
  #headIn(fd: number, length: number): boolean {
    try {
      return fs.readSync(fd, headScratch, 0, length, 0) === length && headScratch.compare(this.#head, 0, length, 0, length) === 0;
    } catch {
      return false;
    }
  }

  /**
   * Whether `fd` (of `size` bytes) holds, just before our read position, the bytes read there:
   * copytruncate's copy, to be read on from that position. (Bytes seen but not read may be
   * missing from it: written between the copy and the truncation, they are on no disk.) With
   * nothing read yet there is nothing to compare: such a copy is read whole, as an unseen file.
   * As a read checks the file's own bytes: where the bytes before the position do not alone
   * tell (lines ending alike, such as padded ones), the copy must also start as the file did.
   */
  matchesCopy(fd: number, size: number): boolean {
    if (this.position === 0 || this.#marker.length === 0 || size < this.position) return false;
    return this.#marker.foundIn(fd, this.position) && (this.#markerTellsRewrite() || this.#startsAsRead(fd));
  }

  /**
   * Whether `fd` (of `size` bytes) is a copy of what was already read here: no longer than the
   * read position, starting with this file's first bytes. copytruncate copied it after we had
   * read past its end (lines written between the copy and the truncation): nothing in it is
   * new, and it is not a rotated file to read.
   */
  isReadCopy(fd: number, size: number): boolean {
    if (size === 0 || size > this.position || this.#headLength === 0) return false;
    // Its end must lie among the last bytes we read, and be those bytes.
    const back = this.position - size;
    if (back > this.#recent.length - Math.min(size, MARKER_BYTES)) return false;
    const tail = Math.min(size, MARKER_BYTES);
    const head = Math.min(size, this.#headLength);
    const theirs = Buffer.allocUnsafe(head + tail);
    try {
      if (fs.readSync(fd, theirs, 0, head, 0) !== head || fs.readSync(fd, theirs, head, tail, size - tail) !== tail) return false;
    } catch {
      return false;
    }
    return theirs.subarray(0, head).equals(this.#head.subarray(0, head)) && theirs.subarray(head).equals(this.#recent.endingBefore(back, tail));
  }

  /**
   * Whether the file open as `fd` starts as this file did when we read it (its first KiB): a
   * copy of this file (copytruncate's), whether or not this file has been truncated since. Only
   * once something was read here.
   */
  startsLike(fd: number): boolean {
    const length = this.#headLength;
    if (this.position === 0 || length === 0) return false;
    return this.#headIn(fd, length);
  }

  /**
   * Whether the file open as `fd` (of `size` bytes) holds only what this file holds at the same
   * offsets (its first KiB and its last bytes): copytruncate's copy of it, made (or being made)
   * before the truncation. Not a rotated file to read: this file has those lines.
   */
  holdsPrefixOf(fd: number, size: number): boolean {
    if (size === 0) return true;
    if (this.size() < size) return false;
    return sameEnds(this.fd, fd, size);
  }

  /**
   * Remembers what is there while reading waits (backpressure), to notice a truncation later.
   * Returns false, remembering nothing, when the file was truncated meanwhile.
   */
  noteSeen(size: number): boolean {
    if (size <= this.seenSize || size <= this.position) return true;
    if (this.truncated(size)) return false;
    this.seenSize = size;
    this.#seenMarker.readFrom(this.fd, size);
    return true;
  }

  /**
   * After a truncation: the line stream so far goes to the copy (returned), and this file is
   * read again from 0 as a new stream. Without a copy, an unfinished line leaves as it is.
   */
  restartAtZero(now: number, copied: boolean): LineStream {
    const old = this.#stream;
    if (!copied) old.splitter.end();
    // A hole the file ended in is said before its bytes are read anew.
    this.#holeEnded();
    this.#stream = newLineStream(this.#lines, 0, false);
    this.position = 0;
    this.atEnd = false;
    this.seenSize = 0;
    this.#marker.clear();
    this.#seenMarker.clear();
    this.#fingerprint = undefined;
    this.#tail = undefined;
    this.#headLength = 0;
    this.#looked = undefined;
    this.#recent.clear();
    this.#checkedMtime = { mtimeMs: -1, at: 0 };
    this.quietSince = now;
    return old;
  }

  /**
   * Reads from the position, up to `budget` bytes (and what one pread gives); returns the bytes
   * read, or -1 (nothing read) when the file changed under us: the bytes just before the
   * position are not those read there (truncated, and perhaps grown again). That check costs
   * nothing more: the first pread starts that many bytes early. `knownSize` (from a stat just
   * made) spares a read at the end of the file. Nothing past `upTo` is read (and the file is not
   * at its end for stopping there).
   */
  read(budget: number, now: number, knownSize?: number, upTo = Infinity): number {
    if (knownSize !== undefined) this.atEnd = knownSize <= this.position;
    // Looked at before anything is read, even from the end: a compressed file is said at once.
    if (this.#looked?.compressed !== false && !this.#textAtHead(knownSize)) {
      this.atEnd = true;
      return 0;
    }
    if (this.atEnd || upTo <= this.position) return 0;
    if (this.seenSize > this.position && !this.#seenMarker.foundIn(this.fd, this.seenSize)) return -1;
    const splitter = this.#stream.splitter;
    let lead = this.#marker.length;
    // The bytes before the position can match by chance after a truncation and a rewrite past
    // it (lines whose last 256 bytes are alike); then the file's first bytes tell too.
    if (lead > 0 && !this.#markerTellsRewrite() && !this.#startsAsRead()) return -1;
    let total = 0;
    let last = 0;
    while (total < budget) {
      const want = Math.min(READ_BYTES - lead, Math.max(budget - total, 4096), upTo - this.position);
      if (want <= 0) break;
      last = fs.readSync(this.fd, readBuffer, 0, lead + want, this.position - lead);
      if (lead > 0 && !this.#marker.leads(readBuffer, last)) return total > 0 ? total : -1;
      const got = last - lead;
      if (got <= 0) {
        this.atEnd = true;
        break;
      }
      this.#keepHead(readBuffer, lead, last);
      this.position += got;
      total += got;
      this.#pushLines(splitter, readBuffer, lead, last);
      if (this.role === 'current') this.#recent.keep(readBuffer, lead, last);
      this.#marker.advance(readBuffer, lead, last);
      if (got < want) {
        this.atEnd = true;
        break;
      }
      lead = 0;
    }
    if (total > 0) {
      this.quietSince = now;
      if (this.seenSize < this.position) this.seenSize = this.position;
    }
    return total;
  }

  /**
   * Pushes bytes[start, end) to the splitter, passing over each run of NUL bytes that stands at
   * a line's start: a hole in the file (after copytruncate, a writer that did not open it with
   * O_APPEND writes on at its old offset, and the bytes before read as zeros; space a writer
   * preallocated). Sent, it would be a line of megabytes of \u0000 with the writer's next line
   * glued to its end. NUL bytes inside a line are the line's and stay. One memchr a read when
   * there is none.
   */
  #pushLines(splitter: LineSplitter, bytes: Buffer, start: number, end: number): void {
    // A hole the last read ended in, ended by this one's first byte.
    if (this.#hole && start < end && bytes[start] !== 0) this.#holeEnded();
    let from = start;
    // Looked for within [from, end) only: the read buffer's bytes past `end` are a former read's.
    for (let nul = nulAt(bytes, from, end); nul !== -1; nul = nulAt(bytes, from, end)) {
      let run = nul + 1;
      while (run < end && bytes[run] === 0) run++;
      splitter.push(bytes, from, nul);
      if (splitter.heldBytes > 0 || splitter.pieceOpen) splitter.push(bytes, nul, run);
      else {
        const offset = splitter.offset;
        splitter.skip(run - nul);
        this.#stream.checkpoint.passHole(offset, offset + run - nul);
        const hole = this.#hole;
        if (hole && hole.offset + hole.bytes === offset) hole.bytes += run - nul;
        else this.#hole = { offset, bytes: run - nul };
        // Said once it ends (a read may end inside it).
        if (run < end) this.#holeEnded();
      }
      from = run;
    }
    if (from < end) splitter.push(bytes, from, end);
  }

  /** A hole being passed over, until a byte that is not NUL ends it. */
  #hole: { offset: number; bytes: number } | undefined;

  #holeEnded(): void {
    const hole = this.#hole;
    if (!hole) return;
    this.#hole = undefined;
    this.#lines.hole?.(this.name, hole.offset, hole.bytes);
  }

  /**
   * Whether the file's first bytes are text, to be read: false while they are compressed data
   * (said once a time found), or may begin it and are too few yet to tell. One small pread at
   * the file's open, and again only when a compressed file's size changes.
   */
  #textAtHead(knownSize: number | undefined): boolean {
    const size = knownSize ?? this.size();
    // Empty (a log just made): nothing to tell by yet, nor to read.
    if (size === 0) return false;
    if (this.#looked?.compressed && this.#looked.size === size) return false;
    const head = headScratch.subarray(0, fs.readSync(this.fd, headScratch, 0, COMPRESSION_HEAD_BYTES, 0));
    const compression = compressionOf(head);
    if (!compression && mayBeginCompression(head)) return false;
    const wasCompressed = this.#looked?.compressed === true;
    this.#looked = { compressed: compression !== undefined, size };
    if (compression && !wasCompressed) this.#lines.compressed?.(this.name, compression);
    return compression === undefined;
  }

  /**
   * Held unfinished lines out (shutdown, `--once`, a drained file): as a partial piece, or as the
   * line's end. Returns the bytes of a line that left as ended without its newline (0: none).
   */
  emitHeld(asPiece: boolean): number {
    const splitter = this.#stream.splitter;
    if (asPiece) {
      splitter.flushPiece();
      return 0;
    }
    const unterminated = splitter.heldBytes;
    splitter.end();
    return unterminated;
  }

  /** Given up (too many files held): held bytes dropped; returns the bytes not delivered from here on. */
  giveUp(): number {
    let unread = 0;
    try {
      unread = Math.max(0, this.size() - this.position);
    } catch {
      unread = 0;
    }
    return unread + this.#stream.splitter.abandon();
  }

  /**
   * Its first bytes' hash as a compression of it would show them: those read where in hand, else
   * the file's own now (a held file is read to its end through its descriptor, whatever a copy of
   * it holds). `readTo` is whoever asks (compressed-rotation.ts): Infinity for a file held.
   */
  knownHead(): KnownHead {
    try {
      const print = this.#headLength > 0 ? fingerprintOfBytes(this.#head, this.#headLength) : fingerprintOf(this.fd, FINGERPRINT_BYTES);
      return { ...print, readTo: Number.POSITIVE_INFINITY };
    } catch {
      // Unreadable now: nothing to know it by (an empty hash matches no compressed file).
      return { ...fingerprintOfBytes(Buffer.alloc(0), 0), readTo: Number.POSITIVE_INFINITY };
    }
  }

  /** What the state file keeps for this file: where its delivered lines end, and what tells it apart. */
  savedFile(): SavedFile {
    const { checkpoint } = this.#stream;
    const delivered = checkpoint.upTo;
    const { midLine } = checkpoint;
    const wanted = Math.min(this.position, FINGERPRINT_BYTES);
    if (!this.birthtimeMs) this.birthtimeMs = birthtimeOf(fs.fstatSync(this.fd));
    // From the bytes as read where they are in hand, not the file now: a file truncated and
    // written again between a read and this save (its new first KiB alike, a banner) would
    // otherwise be saved as the file read, and a restart would skip its new lines up to here.
    if (!this.#fingerprint || this.#fingerprint.fingerprintBytes < wanted) {
      this.#fingerprint = this.#headLength >= wanted ? fingerprintOfBytes(this.#head, wanted) : fingerprintOf(this.fd, wanted);
    }
    if (this.#tail?.position !== delivered) this.#tail = { position: delivered, hash: this.#tailAsRead(delivered) ?? tailHashOf(this.fd, delivered) };
    return {
      dev: this.dev,
      ino: this.ino,
      position: delivered,
      ...this.#fingerprint,
      ...(this.#tail.hash === undefined ? {} : { tailHash: this.#tail.hash }),
      ...(this.birthtimeMs ? { birthtimeMs: this.birthtimeMs } : {}),
      ...(midLine ? { midLine: true } : {}),
      ...(this.role !== 'current' && !midLine && this.#readToEnd(delivered) ? { readToEnd: true } : {}),
    };
  }

  /** Whether the file holds nothing past `delivered` now (one fstat; false when it fails). */
  #readToEnd(delivered: number): boolean {
    try {
      return this.size() <= delivered;
    } catch {
      return false;
    }
  }

  /**
   * The tail hash of `delivered` from the bytes last read (recent-bytes.ts), when they reach back
   * that far. Only the file at the name keeps them: once rotated (behind) it reads on without
   * them, and what they hold no longer ends at its position.
   */
  #tailAsRead(delivered: number): string | undefined {
    if (this.role !== 'current') return undefined;
    const back = this.position - delivered;
    const count = Math.min(delivered, TAIL_BYTES);
    if (back < 0 || count === 0 || back + count > this.#recent.length) return undefined;
    const bytes = this.#recent.endingBefore(back, count);
    return fnv1a64(bytes, 0, bytes.length);
  }

  /** Its mtime now (undefined when the descriptor cannot be read). */
  mtimeMs(): number | undefined {
    try {
      return fs.fstatSync(this.fd).mtimeMs;
    } catch {
      return undefined;
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /**
   * Whether the file open as `fd` (of `size` bytes) holds this file as it is now, to its end:
   * the same first KiB and the same last bytes at the same offsets (a copy of it renamed over
   * its name, made after its last write). Then nothing this file holds is missing from it.
   */
  isWholeIn(fd: number, size: number): boolean {
    let own: number;
    try {
      own = this.size();
    } catch {
      return false;
    }
    if (own === 0 || size < own) return false;
    return sameEnds(this.fd, fd, own);
  }

  /**
   * The head follows the bytes read, as the marker does: `bytes[start, end)` were just read at
   * the position. Read from the file again, it could hold another file's bytes: a file opened
   * at 0 and truncated and written again before its first read kept, from its open, the first
   * KiB of what it held then, and its next read took the new bytes for a rewrite (the same
   * lines delivered twice). Bytes of the head past the position, read at the open, go.
   */
  #keepHead(bytes: Buffer, start: number, end: number): void {
    const at = this.position;
    if (at >= FINGERPRINT_BYTES) return;
    if (this.#headLength < at) {
      // The head read at the open was cut short (a failed read): nothing better than the file now.
      this.#readHead();
      return;
    }
    const length = Math.min(end - start, FINGERPRINT_BYTES - at);
    bytes.copy(this.#head, at, start, start + length);
    this.#headLength = at + length;
  }

  /**
   * The recent bytes start with those before the position it is opened at (already delivered,
   * as the marker takes them): a save soon after a restart then hashes the tail of its delivered
   * position from them, not from the file, which copytruncate may have cut meanwhile.
   */
  #keepBytesBefore(position: number): void {
    const length = Math.min(position, TAIL_BYTES);
    if (length === 0) return;
    try {
      const bytes = Buffer.allocUnsafe(length);
      if (fs.readSync(this.fd, bytes, 0, length, position - length) === length) this.#recent.keep(bytes, 0, length);
    } catch {
      // Unreadable now: the tail is hashed from the file at the save, as before any read.
    }
  }

  #readHead(): void {
    try {
      this.#headLength = fs.readSync(this.fd, this.#head, 0, FINGERPRINT_BYTES, 0);
    } catch {
      this.#headLength = 0;
    }
  }
}

/**
 * Whether the files open as `a` and `b` hold the same bytes at the two ends of their first
 * `length` bytes: the first KiB and the last MARKER_BYTES before `length` (false when either
 * cannot be read that far).
 */
function sameEnds(a: number, b: number, length: number): boolean {
  const head = Math.min(length, FINGERPRINT_BYTES);
  const tail = Math.min(length, MARKER_BYTES);
  const ours = Buffer.allocUnsafe(head + tail);
  const theirs = Buffer.allocUnsafe(head + tail);
  try {
    for (const [from, into] of [
      [a, ours],
      [b, theirs],
    ] as const) {
      if (fs.readSync(from, into, 0, head, 0) !== head || fs.readSync(from, into, head, tail, length - tail) !== tail) return false;
    }
  } catch {
    return false;
  }
  return ours.equals(theirs);
}

/** The first NUL byte in bytes[from, end), or -1 (a memchr over those bytes alone). */
function nulAt(bytes: Buffer, from: number, end: number): number {
  if (from >= end) return -1;
  const at = bytes.subarray(from, end).indexOf(0);
  return at < 0 ? -1 : from + at;
}
