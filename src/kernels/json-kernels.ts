/**
 * The kernels (kernels.wat, compiled and embedded in kernels-wasm.ts): the byte loops of JSON
 * strings in a small WebAssembly module using 128-bit SIMD, escaping for the sidecar and
 * unescaping for the filter, and the readers of a line's head and of an object's members. Each
 * takes its input in the module's memory: where the input was read into it, where it lies;
 * else copied in. Outputs land in chunks leased from the same memory, so nothing is copied out.
 * Where each thing lies in that memory is kernel-layout.ts; reference-kernels.ts is the same
 * work in plain TypeScript, the oracle of the property tests.
 */
import {
  HEAD_SLOTS,
  KERNEL_INPUT_BYTES,
  LAYOUT,
  MAX_ESCAPE_BYTES,
  MAX_HEAD_BYTES,
  MAX_OBJECT_MEMBERS,
  MAX_UNESCAPE_BYTES,
  MEMORY_PAGES,
  OUTPUT_CHUNKS,
  OUTPUT_CHUNK_BYTES,
  OUTPUT_SPARE_BYTES,
  PAGE_BYTES,
  layoutProblems,
} from './kernel-layout.js';
import { WASM_BASE64 } from './kernels-wasm.js';
import { referenceLiteralValid } from './reference-kernels.js';

export { KERNEL_INPUT_BYTES, MAX_ESCAPE_BYTES, MAX_HEAD_BYTES, MAX_OBJECT_MEMBERS, MAX_UNESCAPE_BYTES, escapedBytesBound } from './kernel-layout.js';

/** The little of the WebAssembly global used here (the compiler's libraries leave it out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
};

type Kernel = (source: number, end: number, target: number) => number;

const instanceExports = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'))).exports;
const { memory, escape, unescape, literalInvalid, terminalUnsafe, serverHead, keepText, objectMembers, agentHead } = instanceExports as {
  memory: { buffer: ArrayBuffer };
  escape: Kernel;
  unescape: Kernel;
  literalInvalid: (source: number, end: number) => number;
  terminalUnsafe: (source: number, end: number) => number;
  serverHead: (source: number, end: number, escaped: number) => number;
  keepText: (source: number, end: number) => number;
  objectMembers: (source: number, end: number, escaped: number, max: number) => number;
  agentHead: (source: number, end: number) => number;
};
/** The memory never grows: its buffer is this one for good (and asking the module costs). */
const memoryBuffer = memory.buffer;
const heap = Buffer.from(memoryBuffer);

/**
 * What is wrong between the layout and a module built from it (its exports, its memory's
 * size): a region that overlaps another or passes the memory's end, a module built from
 * another layout. Empty when sound.
 */
export function moduleLayoutProblems(moduleExports: Record<string, unknown>, memoryBytes: number): string[] {
  const problems = layoutProblems();
  if (memoryBytes !== MEMORY_PAGES * PAGE_BYTES) problems.push(`the module has ${memoryBytes} bytes of memory, the layout ${MEMORY_PAGES * PAGE_BYTES}`);
  for (const [name, { start }] of Object.entries(LAYOUT)) {
    const exported = (moduleExports[`layout.${name}`] as { value: number } | undefined)?.value;
    if (exported !== start) problems.push(`${name} starts at ${start} in the layout and at ${exported} in the module`);
  }
  return problems;
}

/** The problems of the module loaded here (none: it would not have loaded). */
export const kernelLayoutProblems = (): string[] => moduleLayoutProblems(instanceExports, memoryBuffer.byteLength);

const problems = kernelLayoutProblems();
if (problems.length > 0) throw new Error(`The WebAssembly kernels do not fit their layout (run npm run wasm after changing kernel-layout.ts): ${problems.join('; ')}`);

/** Where the kernels read and write (kernel-layout.ts). */
const ESCAPE_SOURCE = LAYOUT.escapeSource.start;
const ESCAPE_TARGET = LAYOUT.escapeTarget.start;
const UNESCAPE_SOURCE = LAYOUT.unescapeSource.start;
const UNESCAPE_TARGET = LAYOUT.unescapeTarget.start;
/** Where a file's chunk may be read straight into the module's memory, unescaped without a copy. */
const INPUT_AT = LAYOUT.input.start;
let inputLeased = false;

/**
 * A buffer inside the module's memory for reading input into, so literals in it are read where
 * they lie, without a copy in. One holder at a time: undefined while it is leased. Give it back
 * with `releaseKernelInput`.
 */
export function leaseKernelInput(): Buffer | undefined {
  if (inputLeased) return undefined;
  inputLeased = true;
  return heap.subarray(INPUT_AT, INPUT_AT + KERNEL_INPUT_BYTES);
}

export function releaseKernelInput(): void {
  inputLeased = false;
}

let outputChunksLeased = 0;

/**
 * An output chunk inside the module's memory (OUTPUT_CHUNK_BYTES), kept by its holder for good
 * (there are OUTPUT_CHUNKS); undefined when all are taken. The kernels write into it without a
 * copy out.
 */
export function leaseKernelOutputChunk(): Buffer | undefined {
  if (outputChunksLeased === OUTPUT_CHUNKS) return undefined;
  const at = LAYOUT.outputChunks.start + outputChunksLeased++ * (OUTPUT_CHUNK_BYTES + OUTPUT_SPARE_BYTES);
  return heap.subarray(at, at + OUTPUT_CHUNK_BYTES);
}

/** Where a kernel writes for `target[at]`: in place when the target is in its memory. */
const inPlace = (target: Buffer, at: number): number => (target.buffer === memoryBuffer ? target.byteOffset + at : -1);

/**
 * Writes the escaped bytes of an ASCII line source[start, end) (at most MAX_ESCAPE_BYTES) at
 * target[at], with jq's escapes; returns the end of what was written, or -1 (nothing usable
 * written) when the line has a byte >= 0x80: it may be invalid UTF-8, which must become
 * U+FFFD, so it takes the string path.
 */
export function escapeAsciiJson(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  if (end - start > MAX_ESCAPE_BYTES) throw new RangeError(`escapeAsciiJson takes at most ${MAX_ESCAPE_BYTES} bytes a call`);
  source.copy(heap, ESCAPE_SOURCE, start, end);
  const direct = inPlace(target, at);
  const into = direct >= 0 ? direct : ESCAPE_TARGET;
  const written = escape(ESCAPE_SOURCE, ESCAPE_SOURCE + end - start, into);
  if (written < 0) return -1;
  return direct >= 0 ? at + written - direct : at + heap.copy(target, at, ESCAPE_TARGET, written);
}

/** unescapeLiteral's answer when the literal holds a \u escape: decode it another way. */
export const HAS_UNICODE_ESCAPE = -2;

/**
 * Decodes the inside of a JSON string literal source[start, end) (at most MAX_UNESCAPE_BYTES)
 * to UTF-8 bytes at target[at] (needing end - start bytes of room). Returns the end of what
 * was written, -1 when the literal is not valid, or HAS_UNICODE_ESCAPE.
 */
export function unescapeLiteral(source: Buffer, start: number, end: number, target: Buffer, at: number): number {
  if (end - start > MAX_UNESCAPE_BYTES) throw new RangeError(`unescapeLiteral takes at most ${MAX_UNESCAPE_BYTES} bytes a call`);
  const from = literalInMemory(source, start, end);
  const direct = inPlace(target, at);
  const into = direct >= 0 ? direct : UNESCAPE_TARGET;
  const written = unescape(from, from + end - start, into);
  if (written < 0) return written;
  return direct >= 0 ? at + written - direct : at + heap.copy(target, at, UNESCAPE_TARGET, written);
}

/**
 * The inside of a JSON string literal source[start, end) decoded to a string by the kernel, or
 * undefined when the kernel can't (a \u escape, a broken literal, too long): then JSON.parse
 * it.
 */
export function unescapeLiteralToString(source: Buffer, start: number, end: number): string | undefined {
  if (end - start > MAX_UNESCAPE_BYTES) return undefined;
  const written = unescapeLiteral(source, start, end, heap, UNESCAPE_TARGET);
  return written < 0 ? undefined : heap.toString('utf8', UNESCAPE_TARGET, written);
}

/**
 * True when the JSON string literal source[start, end) surely decodes to text safe for a
 * terminal (kernels.wat, terminalUnsafe); false says nothing: look closer.
 */
export function literalTerminalSafe(source: Buffer, start: number, end: number): boolean {
  if (end - start > MAX_UNESCAPE_BYTES) return false;
  const from = literalInMemory(source, start, end);
  return terminalUnsafe(from, from + end - start) === 0;
}

/**
 * True when source[start, end) is the inside of a valid JSON string (kernels.wat,
 * literalInvalid): a line's bytes may then be written as they came. A literal longer than the
 * kernels take is looked at by the reference's byte loop.
 */
export function literalValid(source: Buffer, start: number, end: number): boolean {
  if (end - start > MAX_UNESCAPE_BYTES) return referenceLiteralValid(source, start, end);
  const from = literalInMemory(source, start, end);
  return literalInvalid(from, from + end - start) === 0;
}

/**
 * serverHead's and agentHead's answer (kernels.wat): places in the module's memory (add the
 * shift findServerHead or findAgentHead returns to make them indexes of the source), kept
 * indexes and the id, in the slots of kernel-layout.ts's HEAD_SLOT. Overwritten by the next call.
 */
export const headAnswer = new Int32Array(memoryBuffer, LAYOUT.headAnswer.start, HEAD_SLOTS);
/** The head's time in milliseconds; NaN when the time is not in the form the kernel reads. */
export const headMillis = new Float64Array(memoryBuffer, LAYOUT.headMillis.start, 1);


/** Runs a head kernel on source[start, end) in memory: the shift to the source's indexes, or undefined. */
function headShift(kernel: (from: number, end: number, escaped: number) => number, source: Buffer, start: number, end: number, escaped: boolean): number | undefined {
  const stop = Math.min(end, start + MAX_HEAD_BYTES);
  const from = literalInMemory(source, start, stop);
  return kernel(from, from + stop - start, escaped ? 1 : 0) === 1 ? start - from : undefined;
}

/**
 * Reads the head of a 4.4+ server line source[start, end), as the server wrote it or (escaped)
 * inside an entry's contents literal, into headAnswer; returns the shift from its places to
 * indexes of `source`, or undefined when the head is not there in that form.
 */
export function findServerHead(source: Buffer, start: number, end: number, escaped: boolean): number | undefined {
  return headShift(serverHead, source, start, end, escaped);
}

/**
 * Reads the bracketed fields an agent's line starts with from source[start, end) (a line, or
 * the inside of an entry's literal) into headAnswer; returns the shift, or undefined when they
 * are not there, or need decoding.
 */
export function findAgentHead(source: Buffer, start: number, end: number): number | undefined {
  return headShift(agentHead, source, start, end, false);
}

/**
 * Keeps the text at the module's memory[start, end) (places headAnswer gave, before the next
 * call) for the head kernels to know by its bytes: its index, or -1 when there is no room.
 */
export function keepHeadText(start: number, end: number): number {
  return keepText(start, end);
}

/** objectMembers' answer (kernels.wat): four places a member. */
const membersAnswer = new Int32Array(memoryBuffer, LAYOUT.membersAnswer.start, MAX_OBJECT_MEMBERS * 4);

/**
 * The members of the JSON object whose `{` is at source[start], within source[start, end), as
 * a line writes it or (escaped) inside an entry's contents literal (kernels.wat,
 * objectMembers): four indexes of `source` a member (where its key starts and ends, where its
 * value starts and ends), for at most `max` members (MAX_OBJECT_MEMBERS); undefined when the
 * text is not such an object, or a key has an escape of its own.
 */
export function objectMembersAt(source: Buffer, start: number, end: number, escaped: boolean, max: number): Int32Array | undefined {
  if (end - start > MAX_UNESCAPE_BYTES || max > MAX_OBJECT_MEMBERS) return undefined;
  const from = literalInMemory(source, start, end);
  const count = objectMembers(from, from + end - start, escaped ? 1 : 0, max);
  if (count < 0) return undefined;
  const places = membersAnswer.slice(0, count * 4);
  const shift = start - from;
  for (let i = 0; i < places.length; i++) places[i]! += shift;
  return places;
}

/**
 * The last source asked about, and where it is in the module's memory (-1: not there). The
 * lines of a chunk come one after another, and asking a buffer where it is costs more than
 * comparing it with the last one.
 */
let lastSource: Buffer | undefined;
let lastSourceAt = -1;

/** Where source[start, end) is in the module's memory: where it was read, or copied there. */
function literalInMemory(source: Buffer, start: number, end: number): number {
  if (source !== lastSource) {
    lastSource = source;
    lastSourceAt = source.buffer === memoryBuffer ? source.byteOffset : -1;
  }
  if (lastSourceAt >= 0) return lastSourceAt + start;
  source.copy(heap, UNESCAPE_SOURCE, start, end);
  return UNESCAPE_SOURCE;
}
