/**
 * Lines a server's log holds twice: the same log given twice (a rotated copy that overlaps the
 * current file, a `kubectl logs` capture appended to itself). Every count would then be twice
 * the truth, and nothing would say so. One line in SAMPLE_EVERY, chosen by its time and id (so
 * a repeat is sampled as its first was), is remembered by its time, id, context and a hash of
 * its text, at most MAX_REMEMBERED a member: memory stays bounded whatever the input, and only
 * the sampled lines' text is read.
 *
 * A server may write the same line twice in one millisecond, even a burst of them (a sampled
 * time takes the whole burst): a line again among the lines of its millisecond just before
 * it is not counted. Repeats of a few lines say nothing: REPEATS_TO_SAY distinct lines
 * repeated, and a twentieth of the sampled lines and of the distinct ones, before the summary
 * says so (a log given twice repeats half of them; a real log's own bursts a few in a thousand).
 *
 * A small log given twice has too few sampled lines to tell (a 500-line log, 8 of them), so a
 * member's first DENSE_LINES lines are also remembered every one, apart: while a member has no
 * more, what they say is the whole truth, and is asked where the sample cannot tell.
 */

/** One line in this many is sampled (a power of two). */
export const SAMPLE_EVERY = 64;
const MAX_REMEMBERED = 65_536;
const REPEATS_TO_SAY = 8;
/** A member's first lines, up to this many, are remembered every one (besides the sample). */
export const DENSE_LINES = 4096;

/** Whether a line of this time and id is one of those sampled (asked of every line: nothing else is read before). */
export function isSampled(time: number | undefined, id: number | undefined): time is number {
  return time !== undefined && ((time + (id ?? 0)) & (SAMPLE_EVERY - 1)) === 0 && Number.isFinite(time);
}

export class RepeatedLines {
  /** The sampled lines' keys, and whether each came again. */
  readonly #seen = new Map<string, boolean>();
  #sampled = 0;
  #repeated = 0;
  /** Distinct lines that came again: one burst of the same line is one. */
  #repeatedLines = 0;

  /** Lines of the member sampled (isSampled). */
  get sampled(): number {
    return this.#sampled;
  }

  /** The millisecond of the lines looked at last, and their keys: a burst of the server's own is a key again among them. */
  #runTime = Number.NaN;
  readonly #runKeys = new Set<string>();

  /**
   * A sampled server line of the member (isSampled), by its key (sampledLineKey) and time. A line
   * that came already among the lines of its millisecond just before it is a burst of the
   * server's own (its blank startup lines before 4.4 come so, one burst a start): not counted as
   * a repeat. Given again later, after other times, it is.
   */
  line(key: string, time: number): void {
    this.#sampled++;
    if (time !== this.#runTime) {
      this.#runTime = time;
      this.#runKeys.clear();
    }
    const burst = this.#runKeys.has(key);
    this.#runKeys.add(key);
    const again = this.#seen.get(key);
    if (again === undefined) {
      if (this.#seen.size < MAX_REMEMBERED) this.#seen.set(key, false);
      return;
    }
    if (burst) return;
    this.#repeated++;
    if (!again) {
      this.#seen.set(key, true);
      this.#repeatedLines++;
    }
  }

  /** Forgets every line (what it says is no longer asked: a member past DENSE_LINES). */
  clear(): void {
    this.#seen.clear();
    this.#runKeys.clear();
  }

  /**
   * About how many of the member's `lines` came twice (its share of repeats among those sampled);
   * 0 when too few say so. A twentieth of the distinct lines must have come again too, not only
   * of all: a pre-4.4 server writes its blank startup lines in one millisecond, a burst of one
   * line, and a small log of a server restarting again and again (a crash loop) is many bursts,
   * never a log given twice.
   */
  estimate(lines: number): number {
    if (this.#repeatedLines < REPEATS_TO_SAY || this.#repeated * 20 < this.#sampled || this.#repeatedLines * 20 < this.#seen.size) return 0;
    return Math.round((lines * this.#repeated) / this.#sampled);
  }
}

/** What tells a sampled server line from another: its time (ms), id, context and a hash of its text. */
export function sampledLineKey(time: number, id: number | undefined, context: string | undefined, text: string): string {
  return `${time}:${id ?? ''}:${context ?? ''}:${textHash(text)}`;
}

/**
 * Which member each sampled line was first seen in, over all members (MAX_REMEMBERED at the
 * most): a member whose sampled lines nearly all came first from another is that member's log
 * again, under another name (the same file given twice, `cat pod.log | logtype summary - pod.log`).
 */
export class SampledLineOwners<Member> {
  readonly #owners = new Map<string, Member>();
  /** By member: its sampled lines first seen in each other member. */
  readonly #from = new Map<Member, Map<Member, number>>();

  line(key: string, member: Member): void {
    const owner = this.#owners.get(key);
    if (owner === undefined) {
      if (this.#owners.size < MAX_REMEMBERED) this.#owners.set(key, member);
      return;
    }
    if (owner === member) return;
    let from = this.#from.get(member);
    if (!from) this.#from.set(member, (from = new Map()));
    from.set(owner, (from.get(owner) ?? 0) + 1);
  }

  /** The member whose lines `member`'s are, again (COPY_SHARE of its `sampled` lines at least, REPEATS_TO_SAY of them); undefined when none. */
  copyOf(member: Member, sampled: number): Member | undefined {
    if (sampled < REPEATS_TO_SAY) return undefined;
    for (const [owner, count] of this.#from.get(member) ?? []) if (count >= COPY_SHARE * sampled) return owner;
    return undefined;
  }
}

/** The share of a member's sampled lines first seen in another that makes it a copy of that one. */
const COPY_SHARE = 0.9;

/** Characters of a line hashed at the most: its start and its length tell lines apart (a slow query's attributes run to kilobytes). */
const HASHED_CHARS = 512;

/** A 32-bit hash of a line's text (FNV-1a over its first UTF-16 units), with its length. */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  const end = Math.min(text.length, HASHED_CHARS);
  for (let i = 0; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}
