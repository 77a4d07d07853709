/**
 * Lines a server's log holds twice: the same log given twice (a rotated copy that overlaps the
 * current file, a `kubectl logs` capture appended to itself). Every count would then be twice
 * the truth, and nothing would say so. One line in SAMPLE_EVERY, chosen by its time and id (so
 * a repeat is sampled as its first was), is remembered by its time, id, context and a hash of
 * its text, at most MAX_REMEMBERED a member: memory stays bounded whatever the input, and only
 * the sampled lines' text is read.
 *
 * A server may write the same line twice in one millisecond, so a few repeats say nothing:
 * REPEATS_TO_SAY of them, and a hundredth of the sampled lines, before the summary says so.
 */

/** One line in this many is sampled (a power of two). */
export const SAMPLE_EVERY = 16;
const MAX_REMEMBERED = 65_536;
const REPEATS_TO_SAY = 8;

export class RepeatedLines {
  readonly #seen = new Set<string>();
  #sampled = 0;
  #repeated = 0;

  /** A server line of the member: its time (ms), id and context, and its text (read when sampled). */
  line(time: number | undefined, id: number | undefined, context: string | undefined, text: () => string): void {
    if (time === undefined || !Number.isFinite(time)) return;
    if (((time + (id ?? 0)) & (SAMPLE_EVERY - 1)) !== 0) return;
    this.#sampled++;
    const key = `${time} ${id ?? ''} ${context ?? ''} ${textHash(text())}`;
    if (this.#seen.has(key)) this.#repeated++;
    else if (this.#seen.size < MAX_REMEMBERED) this.#seen.add(key);
  }

  /** About how many of the member's `lines` came twice (its share of repeats among those sampled); 0 when too few say so. */
  estimate(lines: number): number {
    if (this.#repeated < REPEATS_TO_SAY || this.#repeated * 100 < this.#sampled) return 0;
    return Math.round((lines * this.#repeated) / this.#sampled);
  }
}

/** A 32-bit hash of a line's text (FNV-1a over its UTF-16 units), with its length. */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}
