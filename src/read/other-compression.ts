/**
 * Data logtype does not read, told by its first bytes: compressions other than gzip (which it
 * reads, and rotated logs mostly are), and text in UTF-16 (a log saved by a Windows editor or
 * PowerShell's `>`). Such an input is named with the command that reads it, not read as binary
 * lines that are no entries (and a doctor that finds "no known problem" in them).
 */

export interface OtherCompression {
  /** The format's name, as its tool calls it. */
  readonly name: string;
  /** The command that writes the data out, for `COMMAND FILE | logtype`. */
  readonly command: string;
  /** Not compressed: text in another encoding than UTF-8. */
  readonly encoding?: true;
}

interface Magic extends OtherCompression {
  /** The first bytes of every such stream; alternatives after the common start, where there are. */
  readonly starts: readonly (readonly number[])[];
}

/** An input's data as an error names it, when it is not compressed: `UTF-16 text`. */
interface Encoding extends Magic {
  readonly encoding: true;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The compressions logtype does not read itself. */
const OTHER_MAGICS: readonly Magic[] = [
  { name: 'xz', command: 'xz -dc', starts: [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]] },
  { name: 'zstd', command: 'zstd -dc', starts: [[0x28, 0xb5, 0x2f, 0xfd]] },
  { name: 'lz4', command: 'lz4 -dc', starts: [[0x04, 0x22, 0x4d, 0x18]] },
  // "BZh", the block size ('1'-'9'), then a block's magic (pi's digits) or the end of the stream
  // (sqrt(pi)'s): ten bytes, as no text line begins.
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((size) => ({
    name: 'bzip2',
    command: 'bzip2 -dc',
    starts: [
      [...ascii(`BZh${size}`), 0x31, 0x41, 0x59, 0x26, 0x53, 0x59],
      [...ascii(`BZh${size}`), 0x17, 0x72, 0x45, 0x38, 0x50, 0x90],
    ],
  })),
];

/**
 * UTF-16 text: a byte order mark, or (without one) a NUL beside each of the first two characters
 * of an entry (`{"`), an agent's line (`[2`) or a line that starts with a year (`20`: a text
 * server log, kubectl's --timestamps). No UTF-8 text line holds a NUL there.
 */
const UTF16: readonly Encoding[] = [
  { name: 'UTF-16 text', command: 'iconv -f UTF-16 -t UTF-8', encoding: true, starts: [[0xff, 0xfe], [0xfe, 0xff]] },
  { name: 'UTF-16 text', command: 'iconv -f UTF-16LE -t UTF-8', encoding: true, starts: [[0x7b, 0x00, 0x22, 0x00], [0x5b, 0x00, 0x32, 0x00], [0x32, 0x00, 0x30, 0x00]] },
  { name: 'UTF-16 text', command: 'iconv -f UTF-16BE -t UTF-8', encoding: true, starts: [[0x00, 0x7b, 0x00, 0x22], [0x00, 0x5b, 0x00, 0x32], [0x00, 0x32, 0x00, 0x30]] },
];

/** What logtype's commands do not read, told by the first bytes: other compressions, UTF-16. */
const UNREAD_MAGICS: readonly Magic[] = [...OTHER_MAGICS, ...UTF16];

/** gzip's first bytes (RFC 1952's ID1 and ID2): logtype reads gzip itself. */
export const GZIP_MAGIC: readonly number[] = [0x1f, 0x8b];

/** Every compression told by its first bytes, gzip too: what the sidecar, which follows text logs, does not follow. */
const ALL_MAGICS: readonly Magic[] = [{ name: 'gzip', command: 'gzip -dc', starts: [GZIP_MAGIC] }, ...OTHER_MAGICS];

/** Any compression `bytes` (a file's first bytes) start with, gzip too (a compressed copy is read with logtype). */
export function compressionOf(bytes: Uint8Array): OtherCompression | undefined {
  return magicOf(bytes, ALL_MAGICS);
}

/** True when `bytes`, fewer than a magic, may begin any compression, gzip too: more bytes must tell. */
export function mayBeginCompression(bytes: Uint8Array): boolean {
  return mayBegin(bytes, ALL_MAGICS);
}

/** How many of an input's first bytes tell every compression here apart. */
export const COMPRESSION_HEAD_BYTES = 10;

/** Whether `bytes` and `start` agree as far as both go. */
function agree(bytes: Uint8Array, start: readonly number[]): boolean {
  for (let i = 0; i < Math.min(bytes.length, start.length); i++) if (bytes[i] !== start[i]) return false;
  return true;
}

/** The compression (or UTF-16) `bytes` (an input's first bytes) start with, when it is one logtype does not read. */
export function otherCompression(bytes: Uint8Array): OtherCompression | undefined {
  return magicOf(bytes, UNREAD_MAGICS);
}

/** True when `bytes`, fewer than such a start, are its beginning: more bytes must tell. */
export function mayStartCompression(bytes: Uint8Array): boolean {
  return mayBegin(bytes, UNREAD_MAGICS);
}

/** The first of `magics` whose start `bytes` hold whole. */
function magicOf(bytes: Uint8Array, magics: readonly Magic[]): OtherCompression | undefined {
  const magic = magics.find(({ starts }) => starts.some((start) => start.length <= bytes.length && agree(bytes, start)));
  if (!magic) return undefined;
  return 'encoding' in magic ? { name: magic.name, command: magic.command, encoding: true } : { name: magic.name, command: magic.command };
}

/** Whether `bytes`, shorter than a start of `magics`, agree with it so far. */
function mayBegin(bytes: Uint8Array, magics: readonly Magic[]): boolean {
  return bytes.length > 0 && magics.some(({ starts }) => starts.some((start) => bytes.length < start.length && agree(bytes, start)));
}

/**
 * The error an input of such data is named with: `compressed with xz; logtype reads gzip only
 * (xz -dc FILE | logtype ...)`. `gzipped`: the data was found inside the input's gzip (UTF-16
 * text compressed), so the command reads it out of the gzip first.
 */
export function otherCompressionError(compression: OtherCompression, input: string, gzipped = false): Error {
  const file = input === '-' ? 'FILE' : input;
  const what = compression.encoding ? `${compression.name}; logtype reads UTF-8` : `compressed with ${compression.name}; logtype reads gzip only`;
  const command = gzipped ? `gzip -dc ${file} | ${compression.command}` : `${compression.command} ${file}`;
  return new Error(`${what} (${command} | logtype ...)`);
}

/** Whether the file at `path` starts as gzip does (stdin's bytes cannot be read twice: false for it). */
export function isGzipFile(path: string, head: (path: string, bytes: number) => Uint8Array): boolean {
  if (path === '-') return false;
  try {
    const bytes = head(path, 2);
    return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  } catch {
    return false;
  }
}
