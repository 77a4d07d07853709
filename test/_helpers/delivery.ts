/**
 * Written vs delivered, for numbered lines: what the loss tables in ANCHORS.md count.
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
  readonly outOfOrder: number;
  readonly invalidJson: number;
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

/** Numbers of `${tag}-NNNNNNNN` lines of one type, checked against 1..written. */
export function checkNumbered(lines: readonly string[], logType: string, tag: string, written: number): Delivery {
  const { entries, invalidJson } = parseEntries(lines);
  const seen = new Set<number>();
  let duplicated = 0;
  let outOfOrder = 0;
  let last = 0;
  const pattern = new RegExp(`^${tag}-(\\d{8}) `);
  for (const entry of entries) {
    if (entry.logType !== logType) continue;
    const match = pattern.exec(entry.contents);
    if (!match) continue;
    const n = Number(match[1]);
    if (seen.has(n)) duplicated++;
    if (n < last) outOfOrder++;
    last = Math.max(last, n);
    seen.add(n);
  }
  const lost: number[] = [];
  for (let n = 1; n <= written; n++) if (!seen.has(n)) lost.push(n);
  return { delivered: seen.size, lost, duplicated, outOfOrder, invalidJson };
}
