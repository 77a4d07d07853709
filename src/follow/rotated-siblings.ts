/**
 * The files beside a followed path whose names say they are its rotations (rotatedName).
 * Compressed rotations are never read: their bytes are not the log's lines.
 */
import fs from 'node:fs';
import path from 'node:path';

const COMPRESSED = /\.(gz|bz2|xz|zst|lz4|z|zip)$/i;
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';
/** A date's eight digits, right after a name (dateext's `dateformat %Y%m%d…` with no separator). */
const DATE_DIGITS = /^\d{8}/;

/**
 * Which names beside a file named `base` are its rotations, in the same directory, as the
 * rotators a pod may run name them:
 * - `base.` and a digit: logrotate's numbers (`mongodb.log.1`) and mongod's own rename
 *   (`mongodb.log.2026-11-20T10-23-09`); not a name after the dot, which is another file's
 *   (`mongod.log.audit`, the audit log beside `mongod.log`, and its rotations), or a copy of
 *   someone's (`.bak`);
 * - `base-` or `base_` and a digit: logrotate's `dateext` (`mongodb.log-20261126`), and `base`
 *   and eight digits, a date: `dateext` with a `dateformat` of no separator (`mongodb.log20261128014637`);
 * - the name without its extension, then `.`, `-` or `_` and a digit, then the extension:
 *   logrotate's `extension` (`mongodb.1.log`, `mongodb-20261126.log`) and Go's lumberjack
 *   (`mongodb-2026-11-26T05-00-00.000.log`).
 * The digit keeps the pod's other logs apart: `mongodb-audit.log` is no rotation of
 * `mongodb.log`, nor `automation-agent-verbose.log` of `automation-agent.log`. Never a
 * compressed file. Made once a followed path: inotify asks it of every name that changes.
 */
export function rotatedNames(base: string): (entry: string) => boolean {
  const extension = path.extname(base);
  const stem = base.slice(0, base.length - extension.length);
  return (entry) => {
    if (entry.startsWith(base)) {
      const separator = entry[base.length];
      const rotation = separator === '.' || separator === '-' || separator === '_' ? isDigit(entry[base.length + 1]) : DATE_DIGITS.test(entry.slice(base.length));
      return rotation && !COMPRESSED.test(entry);
    }
    if (extension === '' || !entry.startsWith(stem) || !entry.endsWith(extension) || entry.length < base.length + 2) return false;
    const separator = entry[stem.length];
    return (separator === '.' || separator === '-' || separator === '_') && isDigit(entry[stem.length + 1]) && !COMPRESSED.test(entry);
  };
}

/**
 * The compressed rotations beside `file` made (or changed) at or after `since` (epoch ms), with
 * their stat, oldest first: where the lines of a file rotated and compressed while nobody read it
 * went (they are never read: `logtype --as TYPE NAME` reads them). By ctime: logrotate gives a
 * compressed file its text's mtime, which is older than the compression.
 */
export function compressedSiblingsSince(file: string, since: number): SiblingFile[] {
  const isRotation = compressedRotationNames(path.basename(file));
  return filesBeside(file, isRotation)
    .filter((sibling) => sibling.stat.ctimeMs >= since)
    .sort((a, b) => a.stat.ctimeMs - b.stat.ctimeMs);
}

/** Which names beside a file named `base` are its compressed rotations (`mongodb.log.1.gz`): rotatedNames once the compression's suffix is off. */
export function compressedRotationNames(base: string): (entry: string) => boolean {
  const isRotation = rotatedNames(base);
  return (entry) => COMPRESSED.test(entry) && isRotation(entry.replace(COMPRESSED, ''));
}

/** Whether `entry` names a rotation of the file named `base` (rotatedNames). */
export const rotatedName = (base: string, entry: string): boolean => rotatedNames(base)(entry);

/** The shapes whose file can be told from the rotation's name alone: `.N`, mongod's `.YYYY-MM-DDTHH-MM-SS`, dateext's `-YYYYMMDD`. */
const ROTATION_SUFFIX = /^(.+)(?:\.\d+|\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}|[-_]\d{8,})$/;

/**
 * The name of the file `entry` is a rotation of, compressed or not (`mongodb.log.1.gz`,
 * `mongodb.log.2026-11-20T10-23-09`, `mongodb.log-20261126` are `mongodb.log`'s): the first of
 * `names` (files beside it) it is a rotation of by rotatedNames, else the name its suffix tells
 * (ROTATION_SUFFIX, the part before it keeping an extension); undefined for no rotation.
 */
export function unrotatedName(entry: string, names: readonly string[] = []): string | undefined {
  const plain = entry.replace(COMPRESSED, '');
  for (const base of names) if (base !== entry && base !== plain && rotatedName(base, plain)) return base;
  const base = ROTATION_SUFFIX.exec(plain)?.[1];
  return base !== undefined && path.extname(base) !== '' ? base : undefined;
}

/** A rotated name's age from its suffix: logrotate's `.N` (the larger, the older), a date's digits (the smaller, the older). */
function rotationAge(name: string): { readonly number?: number; readonly date?: string } {
  const plain = name.replace(COMPRESSED, '');
  const number = /\.(\d{1,6})$/.exec(plain)?.[1];
  if (number !== undefined) return { number: Number(number) };
  const date = /(\d{4}-?\d{2}-?\d{2}(?:T\d{2}-\d{2}-\d{2})?)[^/]*$/.exec(plain)?.[1];
  return date === undefined ? {} : { date: date.replaceAll('-', '') };
}

/**
 * Orders two rotations of one file by their names, the older first: logrotate's numbers (`.2`
 * before `.1`), dated names by their date; 0 where the names do not tell (a sort keeps their order).
 */
export function olderRotationFirst(a: string, b: string): number {
  const [x, y] = [rotationAge(a), rotationAge(b)];
  if (x.number !== undefined && y.number !== undefined) return y.number - x.number;
  if (x.date !== undefined && y.date !== undefined) return x.date < y.date ? -1 : x.date > y.date ? 1 : 0;
  return 0;
}

export interface SiblingFile {
  readonly name: string;
  readonly stat: fs.Stats;
}

/**
 * Regular files whose names say they are rotations of `file` (rotatedNames), with their stat;
 * `ignore` drops our own files. Listed beside `file`, and, when `file` is a symbolic link to
 * another name (`target`, its linkTarget, when the caller has it already), beside that name
 * too: a rotator works on the file it was given, so a link's target is renamed beside the
 * target, under the target's name (`mongodb.log -> /data/mongod.log` rotates as
 * `/data/mongod.log.1`).
 */
export function rotatedSiblings(file: string, ignore: (name: string) => boolean = () => false, target = linkTarget(file)): SiblingFile[] {
  const siblings = listRotations(file, ignore);
  if (target === undefined) return siblings;
  for (const sibling of listRotations(target, ignore)) if (!siblings.some((s) => s.name === sibling.name)) siblings.push(sibling);
  return siblings;
}

function listRotations(file: string, ignore: (name: string) => boolean): SiblingFile[] {
  const isRotation = rotatedNames(path.basename(file));
  return filesBeside(file, (entry, name) => isRotation(entry) && !ignore(name));
}

/** The regular files beside `file` whose names are `wanted` (its entry's name, its path); none when the directory cannot be listed. */
function filesBeside(file: string, wanted: (entry: string, name: string) => boolean): SiblingFile[] {
  const directory = path.dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return [];
  }
  const siblings: SiblingFile[] = [];
  for (const entry of names) {
    const name = path.join(directory, entry);
    if (!wanted(entry, name)) continue;
    const stat = fs.statSync(name, { throwIfNoEntry: false });
    if (stat?.isFile()) siblings.push({ name, stat });
  }
  return siblings;
}

/** Links followed before giving up (the kernel's own limit for one path). */
const MAX_LINKS = 40;

/**
 * The name a symbolic link at `file` leads to, through a chain of links, relative targets taken
 * from each link's directory; whether anything is there does not matter (a rotation leaves the
 * link dangling until the new file is made). Undefined when `file` is no link, or the chain
 * loops or leads back to the name itself.
 */
export function linkTarget(file: string): string | undefined {
  let at = path.resolve(file);
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    let next: string;
    try {
      next = fs.readlinkSync(at);
    } catch {
      // Not a link (EINVAL), or nothing there: `at` is where the chain ends.
      return hop === 0 || at === path.resolve(file) ? undefined : at;
    }
    at = path.resolve(path.dirname(at), next);
  }
  return undefined;
}

/** The birth time where the file system keeps one; 0 when it does not (or gives ctime instead). */
export function birthtimeOf(stat: fs.Stats): number {
  return stat.birthtimeMs > 0 && stat.birthtimeMs !== stat.ctimeMs ? stat.birthtimeMs : 0;
}
