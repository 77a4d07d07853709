/**
 * The followed files and their writers, for real, with a model of every byte: each line's
 * file generation and offset, each generation's life (created, renamed, copied, truncated,
 * unlinked) and what the sidecar was doing at each moment. The oracle judges from this model.
 *
 * A generation is one inode's contents between two truncations: a truncate starts a new
 * generation on the same inode. A copy (copytruncate's `cp`) is a generation of its own that
 * holds a prefix of the generation it copied, at the same offsets.
 *
 * Writers behave as loggers do: one descriptor per path, opened O_APPEND; after a rename or an
 * unlink they keep writing to the old file until told to reopen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expectedContents, hashText, lineBytes, type SizeClass } from './line-content.js';

/** What the sidecar was doing: reading, running with its reader stalled, signalled, or not running. */
export type Condition = 'up' | 'stalled' | 'stopping' | 'down';

export interface LineRecord {
  readonly file: number;
  readonly seq: number;
  readonly size: SizeClass;
  readonly banner: boolean;
  /** The generation its bytes were written to, at `offset`; `bytes` counts the newline. */
  readonly gen: number;
  readonly offset: number;
  readonly bytes: number;
  /** Hash and length of the contents the sidecar must deliver. */
  readonly hash: string;
  readonly chars: number;
  /** When its last byte was written (ms since the schedule began), by which step. */
  writtenAt: number;
  step: number;
  condition: Condition;
  /** Written in two parts: when the first part was written, and how many bytes it had. */
  partial?: { readonly at: number; readonly step: number; readonly firstBytes: number };
  /** Written after copytruncate's copy and before its truncate: on disk nowhere afterwards. */
  destroyed?: boolean;
  /**
   * When the only file holding it was rewritten by a copy made over it (copy-over-rotated): on
   * disk nowhere afterwards. Owed all the same when a sidecar had long enough to read it before.
   */
  overwrittenAt?: number;
  /** Written to a renamed or deleted file after a pause of --rotate-wait or more: beyond the contract. */
  late?: boolean;
}

export interface GenEvent {
  readonly at: number;
  readonly step: number;
  /** left-path: renamed away from the followed path; shifted: `.k` renamed to `.k+1`. */
  readonly kind: 'created' | 'left-path' | 'shifted' | 'copied' | 'truncated' | 'deleted' | 'overwritten';
  readonly what: string;
  readonly condition: Condition;
}

export interface Generation {
  readonly id: number;
  readonly file: number;
  readonly ino: number;
  readonly dev: number;
  readonly origin: 'created' | 'copy' | 'truncated';
  /** The generation this one copies (copy) or follows on the same inode (truncated). */
  readonly from?: number;
  /** copy: how many bytes of `from` it holds. */
  readonly copyBytes?: number;
  /** created: the inode number of the file just deleted at this path was handed out again. */
  readonly reusedInode?: boolean;
  /**
   * The file's birth time, where the file system keeps one (a truncated generation keeps its
   * file's): tells a saved position of this generation from one of an earlier file on the same
   * inode number.
   */
  readonly birthtimeMs?: number;
  readonly createdAt: number;
  readonly createdStep: number;
  readonly createdCondition: Condition;
  /** Its name now; undefined once unlinked. */
  name: string | undefined;
  size: number;
  /** Sequence numbers of the lines written to it, in offset order. */
  readonly lines: number[];
  readonly events: GenEvent[];
  /** When the writer's path stopped leading to it (renamed away or unlinked) while it still wrote. */
  detachedAt?: number;
  /** When it stopped being the file at the followed path (renamed away or unlinked). */
  leftPathAt?: number;
  lastWriteAt?: number;
  /** When it stopped being reachable by name (truncated, or unlinked). */
  endedAt?: number;
  unlinked?: { readonly at: number; readonly step: number; readonly condition: Condition; readonly held: boolean | undefined };
}

export interface LogFilesOptions {
  readonly dir: string;
  readonly types: readonly string[];
  readonly seed: number;
  readonly rotateWaitMs: number;
  /** ms since the schedule began. */
  readonly clock: () => number;
  readonly condition: () => Condition;
  /** Whether a running sidecar holds this inode open (from /proc); undefined when none runs. */
  readonly sidecarHolds: (ino: number, dev: number) => boolean | undefined;
}

/** Rotated files kept beside the path: `.1` … `.MAX_ROTATED`; an older one is deleted. */
export const MAX_ROTATED = 6;
/** Attempts at getting a deleted file's inode number back for a new file (ext4 usually gives it at once). */
const INODE_REUSE_TRIES = 32;

interface Writer {
  fd: number | undefined;
  gen: number | undefined;
  pending: { readonly seq: number; readonly line: Buffer; written: number } | undefined;
}

export class LogFiles {
  readonly lines: LineRecord[][];
  readonly gens: Generation[] = [];
  /** The step being performed, for the records. */
  step = 0;
  readonly #options: LogFilesOptions;
  readonly #writers: Writer[];
  /** Generation now reachable through each linked inode. */
  readonly #linked = new Map<number, number>();
  /** Every generation of each inode number, in order, for "which file did a save mean". */
  readonly #byInode = new Map<number, number[]>();
  bytesWritten = 0;

  constructor(options: LogFilesOptions) {
    this.#options = options;
    this.lines = options.types.map(() => []);
    this.#writers = options.types.map(() => ({ fd: undefined, gen: undefined, pending: undefined }));
  }

  pathOf(file: number): string {
    return path.join(this.#options.dir, `${this.#options.types[file]}.log`);
  }

  /** The generation an inode number meant at time `at` (a save's time), if it was linked then. */
  generationAt(ino: number, at: number): Generation | undefined {
    const ids = this.#byInode.get(ino) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const gen = this.gens[ids[i]!]!;
      if (gen.createdAt <= at && (gen.endedAt === undefined || gen.endedAt > at)) return gen;
    }
    return undefined;
  }

  /** `count` whole lines, in one write (a logger's batch). Returns the lines written. */
  write(file: number, count: number, size: SizeClass): number {
    const writer = this.#writers[file]!;
    if (writer.fd === undefined || writer.pending || count <= 0) return 0;
    const gen = this.gens[writer.gen!]!;
    const parts: Buffer[] = [];
    let offset = gen.size;
    for (let i = 0; i < count; i++) {
      const line = this.#newLine(file, size, false, gen, offset);
      parts.push(line, NEWLINE);
      offset += line.length + 1;
    }
    this.#append(writer, gen, Buffer.concat(parts));
    return count;
  }

  /** The first part of a line, without its newline: the rest comes with `finishPartial`. */
  writePartial(file: number, size: SizeClass, fraction: number): boolean {
    const writer = this.#writers[file]!;
    if (writer.fd === undefined || writer.pending) return false;
    const gen = this.gens[writer.gen!]!;
    const line = this.#newLine(file, size, false, gen, gen.size);
    const first = Math.min(line.length - 1, Math.max(1, Math.floor(line.length * fraction)));
    const record = this.lines[file]!.at(-1)!;
    record.partial = { at: this.#options.clock(), step: this.step, firstBytes: first };
    writer.pending = { seq: record.seq, line, written: first };
    this.#append(writer, gen, line.subarray(0, first));
    return true;
  }

  finishPartial(file: number): boolean {
    const writer = this.#writers[file]!;
    const pending = writer.pending;
    if (!pending || writer.fd === undefined) return false;
    writer.pending = undefined;
    const gen = this.gens[writer.gen!]!;
    const record = this.lines[file]![pending.seq - 1]!;
    record.writtenAt = this.#options.clock();
    record.step = this.step;
    record.condition = this.#options.condition();
    this.#append(writer, gen, Buffer.concat([pending.line.subarray(pending.written), NEWLINE]));
    return true;
  }

  /** Close and open the path again (creating it), as a logger does after a rotation. */
  reopen(file: number, banner: boolean): void {
    const writer = this.#writers[file]!;
    this.finishPartial(file);
    if (writer.fd !== undefined) fs.closeSync(writer.fd);
    writer.fd = fs.openSync(this.pathOf(file), 'a');
    this.#attach(file, writer, banner, false);
  }

  /** Rename rotation: older rotations shift (`.1`→`.2` …), then the path becomes `.1`. The writer keeps writing to it. */
  rename(file: number): boolean {
    const from = this.pathOf(file);
    const gen = this.#linkedAt(from);
    if (!gen) return false;
    this.#shift(file);
    const to = `${from}.1`;
    fs.renameSync(from, to);
    gen.name = to;
    gen.leftPathAt = this.#options.clock();
    this.#event(gen, 'left-path', `renamed ${base(from)} -> ${base(to)}`);
    if (this.#writers[file]!.gen === gen.id) gen.detachedAt = this.#options.clock();
    return true;
  }

  /** copytruncate's first half: older rotations shift, then the path is copied to `.1`. */
  copy(file: number): boolean {
    const from = this.pathOf(file);
    const source = this.#linkedAt(from);
    if (!source) return false;
    this.#shift(file);
    this.#copyTo(file, source, `${from}.1`, 'copied to');
    return true;
  }

  /** Copies the path's file (`source`) to `to`: a new copy generation holding the lines the copy took whole. */
  #copyTo(file: number, source: Generation, to: string, said: string): fs.Stats {
    fs.copyFileSync(this.pathOf(file), to);
    const stat = fs.statSync(to);
    const copy = this.#newGen(file, stat, 'copy', to, { from: source.id, copyBytes: stat.size });
    copy.size = stat.size;
    for (const seq of source.lines) {
      const line = this.lines[file]![seq - 1]!;
      if (line.offset + line.bytes <= stat.size) copy.lines.push(seq);
    }
    this.#event(source, 'copied', `${said} ${base(to)} (${stat.size} B)`);
    return stat;
  }

  /**
   * A home-made copytruncate's first half: the path copied over `.1` in place (cp rewrites its
   * inode), the older rotations left alone. What `.1` held is gone: its lines held nowhere else
   * are destroyed (a sidecar that had not read them cannot). Without a `.1` to copy over (or
   * with one its writer still writes), an ordinary copy. Returns what was done; undefined: nothing.
   */
  copyOver(file: number): string | undefined {
    const from = this.pathOf(file);
    const to = `${from}.1`;
    const old = this.#linkedAt(to);
    const source = this.#linkedAt(from);
    if (!source) return undefined;
    if (!old || this.#writers.some((w) => w.gen === old.id)) return this.copy(file) ? 'no .1 to copy over: copied as logrotate does' : undefined;
    const now = this.#options.clock();
    old.endedAt = now;
    old.name = undefined;
    this.#linked.delete(old.ino);
    this.#event(old, 'overwritten', `${base(to)} rewritten in place by a copy of ${base(from)}`);
    const stat = this.#copyTo(file, source, to, 'copied over');
    // Lines only the overwritten file held are on disk nowhere now.
    for (const line of this.lines[file]!) {
      if (line.destroyed || line.overwrittenAt !== undefined || !this.#heldBy(line, old)) continue;
      if (!this.gens.some((g) => g !== old && g.endedAt === undefined && g.name !== undefined && this.#heldBy(line, g))) line.overwrittenAt = now;
    }
    return stat.ino === old.ino ? 'copied over .1 in place' : 'copied over .1 (a new inode)';
  }

  /** Whether `gen` holds `line`: its own file's, or a copy of that taken after it was written. */
  #heldBy(line: LineRecord, gen: Generation): boolean {
    return gen.id === line.gen || (gen.origin === 'copy' && gen.from === line.gen && line.offset + line.bytes <= gen.copyBytes!);
  }

  /** copytruncate's second half: the path's file is cut to 0 bytes; lines not in a copy are gone. */
  truncate(file: number): boolean {
    const at = this.pathOf(file);
    const old = this.#linkedAt(at);
    if (!old) return false;
    fs.truncateSync(at, 0);
    const now = this.#options.clock();
    old.endedAt = now;
    this.#event(old, 'truncated', 'truncated to 0');
    const copied = Math.max(0, ...this.gens.filter((g) => g.origin === 'copy' && g.from === old.id).map((g) => g.copyBytes!));
    for (const seq of old.lines) {
      const line = this.lines[file]![seq - 1]!;
      if (line.offset + line.bytes > copied) line.destroyed = true;
    }
    const next = this.#newGen(file, { ino: old.ino, dev: old.dev, birthtimeMs: old.birthtimeMs }, 'truncated', at, { from: old.id });
    for (const writer of this.#writers) if (writer.gen === old.id) writer.gen = next.id;
    return true;
  }

  /** Deletes the path's file; its writer keeps writing to it until told to reopen. */
  unlink(file: number): boolean {
    const at = this.pathOf(file);
    const gen = this.#linkedAt(at);
    if (!gen) return false;
    this.#unlinkName(at, gen, 'deleted');
    if (this.#writers[file]!.gen === gen.id) gen.detachedAt = this.#options.clock();
    return true;
  }

  /**
   * Delete and create again at once, getting the deleted file's inode number back when the
   * file system hands it out (it does when nobody holds the old file open).
   */
  recreateSameInode(file: number, banner: boolean): void {
    const at = this.pathOf(file);
    const writer = this.#writers[file]!;
    this.finishPartial(file);
    const gen = this.#linkedAt(at);
    if (writer.fd !== undefined) fs.closeSync(writer.fd);
    writer.fd = undefined;
    if (!gen) {
      this.reopen(file, banner);
      return;
    }
    this.#unlinkName(at, gen, 'deleted (to be created again at once)');
    const spares: string[] = [];
    for (let n = 0; n < INODE_REUSE_TRIES && writer.fd === undefined; n++) {
      const spare = path.join(this.#options.dir, `.reuse-${n}`);
      const fd = fs.openSync(spare, 'ax');
      if (fs.fstatSync(fd).ino === gen.ino) {
        fs.renameSync(spare, at);
        writer.fd = fd;
      } else {
        fs.closeSync(fd);
        spares.push(spare);
      }
    }
    for (const spare of spares) fs.unlinkSync(spare);
    writer.fd ??= fs.openSync(at, 'a');
    this.#attach(file, writer, banner, true);
  }

  /** Closes every writer (the schedule's end). */
  close(): void {
    for (let file = 0; file < this.#writers.length; file++) {
      this.finishPartial(file);
      const writer = this.#writers[file]!;
      if (writer.fd !== undefined) fs.closeSync(writer.fd);
      writer.fd = undefined;
    }
  }

  #attach(file: number, writer: Writer, banner: boolean, recreated: boolean): void {
    const at = this.pathOf(file);
    const stat = fs.fstatSync(writer.fd!);
    const linked = this.#linked.get(stat.ino);
    if (linked !== undefined && this.gens[linked]!.name === at) {
      writer.gen = linked;
      return;
    }
    const reused = recreated ? this.gens.some((g) => g.file === file && g.ino === stat.ino) : false;
    const gen = this.#newGen(file, stat, 'created', at, reused ? { reusedInode: true } : {});
    writer.gen = gen.id;
    if (banner) {
      const line = this.#newLine(file, 'short', true, gen, 0);
      this.#append(writer, gen, Buffer.concat([line, NEWLINE]));
    }
  }

  #newGen(
    file: number,
    stat: { ino: number; dev: number; birthtimeMs?: number | undefined },
    origin: Generation['origin'],
    name: string,
    extra: { from?: number; copyBytes?: number; reusedInode?: boolean },
  ): Generation {
    const now = this.#options.clock();
    const gen: Generation = {
      id: this.gens.length,
      file,
      ino: stat.ino,
      dev: stat.dev,
      origin,
      ...extra,
      ...(stat.birthtimeMs ? { birthtimeMs: stat.birthtimeMs } : {}),
      createdAt: now,
      createdStep: this.step,
      createdCondition: this.#options.condition(),
      name,
      size: 0,
      lines: [],
      events: [],
    };
    this.gens.push(gen);
    this.#linked.set(gen.ino, gen.id);
    const list = this.#byInode.get(gen.ino) ?? [];
    list.push(gen.id);
    this.#byInode.set(gen.ino, list);
    const how = origin === 'copy' ? `copy of generation ${extra.from}` : origin === 'truncated' ? `truncated generation ${extra.from} written again` : 'created';
    this.#event(gen, 'created', `${how} as ${base(name)} (inode ${gen.ino}${extra.reusedInode ? ', reused' : ''})`);
    return gen;
  }

  #newLine(file: number, size: SizeClass, banner: boolean, gen: Generation, offset: number): Buffer {
    const seq = this.lines[file]!.length + 1;
    const line = lineBytes({ seed: this.#options.seed, file, seq, size, banner });
    const contents = expectedContents(line);
    const now = this.#options.clock();
    this.lines[file]!.push({
      file,
      seq,
      size,
      banner,
      gen: gen.id,
      offset,
      bytes: line.length + 1,
      hash: hashText(contents),
      chars: contents.length,
      writtenAt: now,
      step: this.step,
      condition: this.#options.condition(),
    });
    gen.lines.push(seq);
    return line;
  }

  #append(writer: Writer, gen: Generation, bytes: Buffer): void {
    const now = this.#options.clock();
    if (gen.detachedAt !== undefined) {
      // The contract: a rotated or deleted file is read until it has been quiet for --rotate-wait.
      const quiet = now - Math.max(gen.lastWriteAt ?? 0, gen.detachedAt);
      if (quiet >= this.#options.rotateWaitMs - 50) {
        for (let i = gen.lines.length - 1; i >= 0; i--) {
          const line = this.lines[gen.file]![gen.lines[i]! - 1]!;
          if (line.offset < gen.size) break;
          line.late = true;
        }
      }
    }
    fs.writeSync(writer.fd!, bytes);
    gen.size += bytes.length;
    gen.lastWriteAt = now;
    this.bytesWritten += bytes.length;
  }

  #linkedAt(name: string): Generation | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(name);
    } catch {
      return undefined;
    }
    const id = this.#linked.get(stat.ino);
    return id === undefined ? undefined : this.gens[id];
  }

  /** `.k` becomes `.k+1` from the oldest; the oldest kept is deleted. */
  #shift(file: number): void {
    const from = this.pathOf(file);
    for (let k = MAX_ROTATED; k >= 1; k--) {
      const name = `${from}.${k}`;
      const gen = this.#linkedAt(name);
      if (!gen) continue;
      if (k === MAX_ROTATED) {
        this.#unlinkName(name, gen, 'deleted as the oldest rotation');
      } else {
        fs.renameSync(name, `${from}.${k + 1}`);
        gen.name = `${from}.${k + 1}`;
        this.#event(gen, 'shifted', `renamed ${base(name)} -> ${base(gen.name)}`);
      }
    }
  }

  #unlinkName(name: string, gen: Generation, what: string): void {
    const held = this.#options.sidecarHolds(gen.ino, gen.dev);
    fs.unlinkSync(name);
    const now = this.#options.clock();
    gen.name = undefined;
    gen.endedAt = now;
    gen.leftPathAt ??= now;
    gen.unlinked = { at: now, step: this.step, condition: this.#options.condition(), held };
    this.#linked.delete(gen.ino);
    this.#event(gen, 'deleted', `${what} (${base(name)}; the sidecar ${held === undefined ? 'was not running' : held ? 'held it open' : 'did not hold it open'})`);
  }

  #event(gen: Generation, kind: GenEvent['kind'], what: string): void {
    gen.events.push({ at: this.#options.clock(), step: this.step, kind, what, condition: this.#options.condition() });
  }
}

const NEWLINE = Buffer.from('\n');

function base(file: string): string {
  return path.basename(file);
}
