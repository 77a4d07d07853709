/**
 * Written vs delivered, for numbered lines: what the loss tables count. Contents are checked
 * too, not only numbers: an entry of the type must be exactly a line the writer wrote.
 */
export interface Entry {
  readonly logType: string;
  readonly contents: string;
  readonly partial?: boolean;
}

export interface Delivery {
  readonly delivered: number;
  readonly lost: number[];
  readonly duplicated: number;
  /** The numbers delivered more than once (each as often as it was repeated). */
  readonly repeats: number[];
  readonly outOfOrder: number;
  readonly invalidJson: number;
  /** Entries of the type that are not a line the writer wrote (cut, joined, altered, or partial). */
  readonly wrongContents: number;
}

export function parseEntries(lines: readonly string[]): { entries: Entry[]; invalidJson: number } {
  const entries: Entry[] = [];
  let invalidJson = 0;
  for (const line of lines) {
    try {
      entries.push(JSON.parse(line) as Entry);
    } catch {
      invalidJson++;
    }
  }
  return { entries, invalidJson };
}

/**
 * Numbers of `${tag}-NNNNNNNN <padding>` lines of one type, checked against 1..written. Without
 * `lineOf` (the writer's own line), an entry's contents must be the tag, the number and padding
 * of `x` as long as every other line's.
 */
export function checkNumbered(lines: readonly string[], logType: string, tag: string, written: number, lineOf?: (n: number) => string): Delivery {
  const { entries, invalidJson } = parseEntries(lines);
  const seen = new Set<number>();
  const repeats: number[] = [];
  let outOfOrder = 0;
  let wrongContents = 0;
  let last = 0;
  let padding: number | undefined;
  const pattern = new RegExp(`^${tag}-(\\d{8}) (x*)$`);
  for (const entry of entries) {
    if (entry.logType !== logType) continue;
    const match = pattern.exec(entry.contents);
    if (!match || entry.partial) {
      wrongContents++;
      continue;
    }
    const n = Number(match[1]);
    padding ??= match[2]!.length;
    if (lineOf ? entry.contents !== lineOf(n) : match[2]!.length !== padding) wrongContents++;
    if (seen.has(n)) repeats.push(n);
    if (n < last) outOfOrder++;
    last = Math.max(last, n);
    seen.add(n);
  }
  const lost: number[] = [];
  for (let n = 1; n <= written; n++) if (!seen.has(n)) lost.push(n);
  return { delivered: seen.size, lost, duplicated: repeats.length, repeats, outOfOrder, invalidJson, wrongContents };
}
