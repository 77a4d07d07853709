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
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;

/** The bytes a connection line's attributes start and end with, as a line and inside a literal. */
const SHAPES = [false, true].map((escaped) => {
  const q = escaped ? '\\"' : '"';
  return {
    head: Buffer.from(`,${q}attr${q}:{${q}remote${q}:${q}`),
    count: Buffer.from(`,${q}connectionCount${q}:`),
    id: Buffer.from(`${q}connectionId${q}:`),
  };
});

/** Where a connection line's remote and host stand, and its numbers; reused from line to line. */
export class ConnectionAttributes {
  bytes: Buffer = Buffer.alloc(0);
  remoteStart = 0;
  remoteEnd = 0;
  /** The remote without its port (remoteHost): [remoteStart, hostEnd). */
  hostEnd = 0;
  connectionId = 0;
  connectionCount = 0;
}

/**
 * Reads the attributes of the connection line whose head ends at bytes[headEnd] and which ends
 * at bytes[end] (`escaped`: inside a literal) into `into`; false when the line is not in the
 * server's shape (then read them one by one).
 */
export function readConnectionAttributes(bytes: Buffer, headEnd: number, end: number, escaped: boolean, into: ConnectionAttributes): boolean {
  const shape = SHAPES[escaped ? 1 : 0]!;
  const head = shape.head;
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
  const remoteEnd = i;
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
  into.remoteStart = remoteStart;
  into.remoteEnd = remoteEnd;
  into.hostEnd = portAfter(bytes, firstColon, lastColon, remoteStart, remoteEnd) ? lastColon : remoteEnd;
  into.connectionId = digitsValue(bytes, at, digitsEnd);
  into.connectionCount = connectionCount;
  return true;
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
