/**
 * The files beside a followed path whose names extend it: `mongodb.log.1`,
 * `mongodb.log.2026-11-20T10-23-09` (logrotate's numbers and date suffixes, mongod's own
 * rotation). Compressed rotations are never read: their bytes are not the log's lines.
 */
import fs from 'node:fs';
import path from 'node:path';

const COMPRESSED = /\.(gz|bz2|xz|zst|lz4|z|zip)$/i;

export interface SiblingFile {
  readonly name: string;
  readonly stat: fs.Stats;
}

/** Regular files beside `file` that extend its name, with their stat; `ignore` drops our own files. */
export function rotatedSiblings(file: string, ignore: (name: string) => boolean = () => false): SiblingFile[] {
  const directory = path.dirname(file);
  const base = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return [];
  }
  const siblings: SiblingFile[] = [];
  for (const entry of names) {
    if (!entry.startsWith(base) || COMPRESSED.test(entry)) continue;
    const name = path.join(directory, entry);
    if (ignore(name)) continue;
    const stat = fs.statSync(name, { throwIfNoEntry: false });
    if (stat?.isFile()) siblings.push({ name, stat });
  }
  return siblings;
}

/** The birth time where the file system keeps one; 0 when it does not (or gives ctime instead). */
export function birthtimeOf(stat: fs.Stats): number {
  return stat.birthtimeMs > 0 && stat.birthtimeMs !== stat.ctimeMs ? stat.birthtimeMs : 0;
}
