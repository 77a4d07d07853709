/**
 * A 4.4+ connection line's attributes (22943, 22944) read in one pass over its bytes, where
 * the server writes them: `"attr":{"remote":"IP:PORT", … ,"connectionId":N,"connectionCount":M}}`,
 * as a line or escaped inside an entry's contents literal. A third of a busy server's lines
 * are these; read so, they make no string and need no other reading of their attributes.
 *
 * The answer is the reference's, where one is given: the remote is what stringAfterKey reads
 * (the first `"remote":`), the host what remoteHost cuts of it, the numbers what
 * AttributeReader.number reads (the last `"connectionId":` and `"connectionCount":`). A line
 * in any other shape (another order, an escape or a byte beyond ASCII in the remote, a
 * bracketed IPv6 remote, more than 15 digits) is left to that reference reading: false.
 *
 * A client metadata line (51800) starts its attributes alike, `{"remote":"IP:PORT","client":…`,
 * and ends with its document: readMetadataPlaces finds the remote, its host and where the
 * document stands, reading only the few short members between (strings, arrays of strings).
 * The document itself is not read: it is the rest of the attributes, and its caller takes it
 * only when its bytes are a document the reference reading found before (complete, so it is
 * the last member); anything else is left to the reference.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** The bytes a connection line's attributes start and end with, as a line and inside a literal. */
const SHAPES = [false, true].map((escaped) => {
  const q = escaped ? '\\"' : '"';
  return {
    head: Buffer.from(`,${q}attr${q}:{${q}remote${q}:${q}`),
    count: Buffer.from(`,${q}connectionCount${q}:`),
    id: Buffer.from(`${q}connectionId${q}:`),
  };
});

/** Where a line's remote and its host stand in `bytes`; reused from line to line. */
class RemotePlace {
  bytes: Buffer = Buffer.alloc(0);
  remoteStart = 0;
  remoteEnd = 0;
  /** The remote without its port (remoteHost): [remoteStart, hostEnd). */
  hostEnd = 0;
}

/** Where a connection line's remote and host stand, and its numbers. */
export class ConnectionAttributes extends RemotePlace {
  connectionId = 0;
  connectionCount = 0;
}

/**
 * Reads the attributes of the connection line whose head ends at bytes[headEnd] and which ends
 * at bytes[end] (`escaped`: inside a literal) into `into`; false when the line is not in the
 * server's shape (then read them one by one, and `into` says nothing).
 */
export function readConnectionAttributes(bytes: Buffer, headEnd: number, end: number, escaped: boolean, into: ConnectionAttributes): boolean {
  if (!readRemote(bytes, headEnd, end, escaped, into)) return false;
  const shape = SHAPES[escaped ? 1 : 0]!;
  const remoteEnd = into.remoteEnd;
  // The numbers, from the end: `…,"connectionId":N,"connectionCount":M}}`.
  if (bytes[end - 1] !== CLOSE_BRACE || bytes[end - 2] !== CLOSE_BRACE) return false;
  let digitsEnd = end - 2;
  let at = digitsStart(bytes, digitsEnd, remoteEnd);
  if (at < 0 || !endsWith(bytes, at, shape.count)) return false;
  const connectionCount = digitsValue(bytes, at, digitsEnd);
  digitsEnd = at - shape.count.length;
  at = digitsStart(bytes, digitsEnd, remoteEnd);
  if (at < 0 || !endsWith(bytes, at, shape.id)) return false;
  into.bytes = bytes;
  into.connectionId = digitsValue(bytes, at, digitsEnd);
  into.connectionCount = connectionCount;
  return true;
}

/** Where a client metadata line's remote, host and document stand. */
export class MetadataPlaces extends RemotePlace {
  /** The rest of the attributes after `"doc":`, up to their closing brace (not included): the document, when it is one. */
  docStart = 0;
  docEnd = 0;
}

/**
 * Reads where the remote and the document of the client metadata line whose head ends at
 * bytes[headEnd] and which ends at bytes[end] (`escaped`: inside a literal) stand, into
 * `into`: `,"attr":{"remote":"IP:PORT"`, then members whose values are strings or arrays of
 * strings (no escape, control or byte beyond ASCII in them, nor in their keys), then
 * `"doc":{…}}}` ending the line. False for any other shape (then read them one by one, and
 * `into` says nothing). That
 * the document is one value, the last, is not checked here: it is, when its bytes are those of
 * a document the reference reading found.
 */
export function readMetadataPlaces(bytes: Buffer, headEnd: number, end: number, escaped: boolean, into: MetadataPlaces): boolean {
  if (!readRemote(bytes, headEnd, end, escaped, into) || bytes[end - 1] !== CLOSE_BRACE || bytes[end - 2] !== CLOSE_BRACE) return false;
  const quote = escaped ? 2 : 1;
  let i = into.remoteEnd + quote;
  while (i < end && bytes[i] === COMMA) {
    const keyStart = i + 1 + quote;
    const keyEnd = plainStringEnd(bytes, i + 1, end, escaped);
    if (keyEnd < 0 || bytes[keyEnd + quote] !== COLON) return false;
    const value = keyEnd + quote + 1;
    if (keyEnd - keyStart === 3 && bytes[keyStart] === 0x64 && bytes[keyStart + 1] === 0x6f && bytes[keyStart + 2] === 0x63) {
      // `doc`: an object, the rest of the attributes.
      if (bytes[value] !== OPEN_BRACE || value >= end - 2) return false;
      into.bytes = bytes;
      into.docStart = value;
      into.docEnd = end - 2;
      return true;
    }
    i = stringsEnd(bytes, value, end, escaped);
    if (i < 0) return false;
  }
  return false;
}

/**
 * Reads where the remote of `,"attr":{"remote":"…` at bytes[headEnd] stands (up to its closing
 * quote) and where its host ends, into `into`; false when the line does not start its
 * attributes so, or the remote is not plain ASCII without brackets. The bytes are its caller's
 * to set, once the whole line is read: a line read in vain holds no input chunk.
 */
function readRemote(bytes: Buffer, headEnd: number, end: number, escaped: boolean, into: RemotePlace): boolean {
  const head = SHAPES[escaped ? 1 : 0]!.head;
  if (end - headEnd < head.length + 4 || !startsWith(bytes, headEnd, head)) return false;
  const remoteStart = headEnd + head.length;
  if (bytes[remoteStart] === OPEN_BRACKET) return false;
  let firstColon = -1;
  let lastColon = -1;
  let i = remoteStart;
  for (; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === QUOTE || byte === BACKSLASH) break;
    if (byte < 0x20 || byte >= 0x80) return false;
    if (byte === COLON) {
      if (firstColon < 0) firstColon = i;
      lastColon = i;
    }
  }
  // The closing quote: `"`, or `\"` inside a literal (any other backslash is an escape).
  if (i >= end || (escaped ? bytes[i] !== BACKSLASH || bytes[i + 1] !== QUOTE : bytes[i] !== QUOTE)) return false;
  into.remoteStart = remoteStart;
  into.remoteEnd = i;
  into.hostEnd = portAfter(bytes, firstColon, lastColon, remoteStart, i) ? lastColon : i;
  return true;
}

/**
 * The string whose opening quote is at bytes[at] (`\"` inside a literal): where its closing
 * quote is; -1 when there is none, or the string has an escape, a control or a byte beyond ASCII.
 */
function plainStringEnd(bytes: Buffer, at: number, end: number, escaped: boolean): number {
  let i = at;
  if (escaped) {
    if (bytes[i] !== BACKSLASH) return -1;
    i++;
  }
  if (bytes[i] !== QUOTE) return -1;
  for (i++; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === BACKSLASH) return escaped && bytes[i + 1] === QUOTE ? i : -1;
    if (byte === QUOTE) return escaped ? -1 : i;
    if (byte < 0x20 || byte >= 0x80) return -1;
  }
  return -1;
}

/** After the value at bytes[at], a string or an array of strings (plainStringEnd's): where it ends; -1 for any other value. */
function stringsEnd(bytes: Buffer, at: number, end: number, escaped: boolean): number {
  const quote = escaped ? 2 : 1;
  if (bytes[at] !== OPEN_BRACKET) {
    const close = plainStringEnd(bytes, at, end, escaped);
    return close < 0 ? -1 : close + quote;
  }
  let i = at + 1;
  if (bytes[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const close = plainStringEnd(bytes, i, end, escaped);
    if (close < 0) return -1;
    i = close + quote;
    if (bytes[i] === CLOSE_BRACKET) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i++;
  }
}

/** remoteHost's rule for an ASCII remote without brackets: one colon, not first, with digits after it. */
function portAfter(bytes: Buffer, firstColon: number, lastColon: number, start: number, end: number): boolean {
  if (lastColon <= start || lastColon === end - 1 || firstColon !== lastColon) return false;
  for (let i = lastColon + 1; i < end; i++) if (bytes[i]! < 0x30 || bytes[i]! > 0x39) return false;
  return true;
}

/** Where the 1 to 15 digits that end at bytes[end] start (after `floor`), or -1. */
function digitsStart(bytes: Buffer, end: number, floor: number): number {
  let at = end;
  while (at > floor && bytes[at - 1]! >= 0x30 && bytes[at - 1]! <= 0x39) at--;
  return at === end || end - at > 15 ? -1 : at;
}

function digitsValue(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + bytes[i]! - 0x30;
  return value;
}

function startsWith(bytes: Buffer, at: number, expected: Buffer): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/** True when `expected` ends right before bytes[at]. */
function endsWith(bytes: Buffer, at: number, expected: Buffer): boolean {
  const start = at - expected.length;
  return start >= 0 && startsWith(bytes, start, expected);
}
