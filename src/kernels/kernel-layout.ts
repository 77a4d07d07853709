/**
 * The WebAssembly kernels' memory, declared once. kernels.wat names these places (`@name`) and
 * `npm run wasm` writes the numbers in; json-kernels.ts and line-head.ts read them from here; the
 * module exports each region's start, and json-kernels.ts refuses at load a module built from
 * another layout, or a layout whose regions overlap. See README.md in this folder.
 */

/** The longest source one escape takes: the writer escapes longer lines in segments this long. */
export const MAX_ESCAPE_BYTES = 32 * 1024;
/** The longest literal one unescape, terminal check or members pass takes. */
export const MAX_UNESCAPE_BYTES = 256 * 1024;
/** A file's chunk read straight into the module's memory. */
export const KERNEL_INPUT_BYTES = 1 << 20;
/** The output chunks leased from the module's memory, each followed by spare bytes. */
export const OUTPUT_CHUNK_BYTES = 256 * 1024;
export const OUTPUT_CHUNKS = 8;
/** Room after each chunk for the kernels' 16-byte stores past the end of what they write. */
export const OUTPUT_SPARE_BYTES = 64;
/** A line's head is read within this many bytes of its start (longer ones are read another way). */
export const MAX_HEAD_BYTES = 1024;
/** The most members one objectMembers call reads (its answer is four i32s a member). */
export const MAX_OBJECT_MEMBERS = 64;
/** Worst case of an escape: every byte becomes \u00XX. */
export const escapedBytesBound = (length: number): number => length * 6;

/** One 16-byte SIMD store may pass the end of what a kernel writes by this much, less one. */
const WIDE = 16;
/**
 * The wide loops read up to this many bytes past the end of what they look at (the terminal
 * check reads a byte and the one after it; a kept text's bytes are compared sixteen at a time,
 * a time thirty-two): there must be memory there, whatever it holds.
 */
export const READ_PAST_BYTES = 32;

/**
 * The texts serverHead and agentHead know by their bytes (keepText): a table of `slots`
 * entries of 16 bytes (hash, where the bytes are, length, index + 1; 0: free), at most `most`
 * of them used (half, so probes stay short), each at most `longest` bytes, `bytes` in all.
 */
export const KEPT_TEXTS = { slots: 4096, most: 2048, longest: 256, bytes: 128 * 1024 } as const;

/**
 * The punctuation of a 4.4+ server line's head, in the server's order, as serverHead compares
 * it: laid out one after another as a line writes it, and again escaped once more, as an
 * entry's contents literal holds it (each `"` as `\"`).
 */
export const HEAD_PUNCTUATION = {
  open: '{"t":{"$date":"',
  timeClose: '"},',
  severity: '"s":"',
  textClose: '",',
  component: '"c":"',
  id: '"id":',
  context: '"ctx":"',
  message: '"msg":"',
} as const;
export type PunctuationName = keyof typeof HEAD_PUNCTUATION;

export const escapedPunctuation = (text: string): string => text.replaceAll('"', '\\"');
const punctuationBytes = (escaped: boolean): number =>
  Object.values(HEAD_PUNCTUATION).reduce((sum, text) => sum + Buffer.byteLength(escaped ? escapedPunctuation(text) : text), 0);

/**
 * serverHead's and agentHead's answer: the i32 slots of `headAnswer`, places in the module's
 * memory. A text takes three slots from its own (its start, its end where its closing quote
 * starts, its kept index: -1 when not kept); the time and the context two (start, end). An
 * agent line's level is in the severity's slots, its source in the component's, and where its
 * rest starts in `end`.
 */
export const HEAD_SLOT = { time: 0, severity: 2, component: 5, id: 8, context: 9, message: 11, end: 14 } as const;
export const HEAD_SLOTS = 16;

export interface Region {
  /** The first byte. */
  readonly start: number;
  readonly bytes: number;
  /** What it holds, and which kernel reads or writes it. */
  readonly holds: string;
}

const region = (start: number, bytes: number, holds: string): Region => ({ start, bytes, holds });

export const PAGE_BYTES = 64 * 1024;
export const MEMORY_PAGES = 69;

/** Every region of the module's memory; nothing else is read or written. */
export const LAYOUT = {
  escapeLetters: region(0, 128, 'the short escape letter of each ASCII byte, 0 for none (escape)'),
  hexDigits: region(256, 16, '0123456789abcdef (escape\'s \\u00XX)'),
  escapedPunctuation: region(272, punctuationBytes(true), 'a server head\'s punctuation, escaped once more (serverHead, objectMembers)'),
  unescapedBytes: region(512, 128, 'the byte each escape letter stands for, 0 for none (unescape)'),
  punctuation: region(768, punctuationBytes(false), 'a server head\'s punctuation as a line writes it (serverHead, objectMembers)'),
  headAnswer: region(896, HEAD_SLOTS * 4, 'serverHead\'s and agentHead\'s answer, i32 slots (HEAD_SLOT)'),
  headMillis: region(960, 8, 'the head\'s time in milliseconds, an f64; NaN when not in the form the kernel reads'),
  lastTime: region(968, 32, 'the bytes of the last time read whole (a time of its minute is read by its seconds)'),
  escapeSource: region(1024, MAX_ESCAPE_BYTES, 'a line copied in to be escaped'),
  escapeTarget: region(40960, escapedBytesBound(MAX_ESCAPE_BYTES) + WIDE, 'escape\'s output when its target is not in memory'),
  unescapeSource: region(262144, MAX_UNESCAPE_BYTES, 'a literal copied in for unescape, terminalUnsafe, the heads, objectMembers'),
  unescapeTarget: region(524288, MAX_UNESCAPE_BYTES + WIDE, 'unescape\'s output when its target is not in memory (decoding never grows)'),
  input: region(1 << 20, KERNEL_INPUT_BYTES, 'a file\'s chunk read straight in: its literals are read where they lie'),
  outputChunks: region(2 << 20, OUTPUT_CHUNKS * (OUTPUT_CHUNK_BYTES + OUTPUT_SPARE_BYTES), 'output chunks the kernels write into directly'),
  keptTable: region(4259840, KEPT_TEXTS.slots * 16, 'the kept texts\' hash table (keepText)'),
  keptBytes: region(4325376, KEPT_TEXTS.bytes, 'the kept texts\' bytes (keepText)'),
  membersAnswer: region(4456448, MAX_OBJECT_MEMBERS * 16, 'objectMembers\' answer: key start and end, value start and end, a member'),
} as const satisfies Record<string, Region>;
export type RegionName = keyof typeof LAYOUT;

/** Where each piece of the head's punctuation is, as a line writes it or escaped once more. */
export function punctuationAt(escaped: boolean): Record<PunctuationName, Region> {
  let at = escaped ? LAYOUT.escapedPunctuation.start : LAYOUT.punctuation.start;
  const places = {} as Record<PunctuationName, Region>;
  for (const [name, text] of Object.entries(HEAD_PUNCTUATION) as [PunctuationName, string][]) {
    const bytes = Buffer.byteLength(escaped ? escapedPunctuation(text) : text);
    places[name] = region(at, bytes, text);
    at += bytes;
  }
  return places;
}

/**
 * What is wrong with a layout: regions that overlap, that pass the end of memory (with room for
 * the wide loops' reads past an end), or that are not whole. Empty when it is sound.
 */
export function layoutProblems(layout: Readonly<Record<string, Region>> = LAYOUT, memoryBytes = MEMORY_PAGES * PAGE_BYTES): string[] {
  const problems: string[] = [];
  const regions = Object.entries(layout).sort(([, a], [, b]) => a.start - b.start);
  for (const [name, { start, bytes }] of regions) {
    if (!Number.isInteger(start) || !Number.isInteger(bytes) || start < 0 || bytes <= 0) problems.push(`${name}: [${start}, +${bytes}) is not a range of memory`);
    if (start + bytes + READ_PAST_BYTES > memoryBytes) problems.push(`${name} ends at ${start + bytes}, within ${READ_PAST_BYTES} bytes of the memory's end (${memoryBytes})`);
  }
  for (let i = 0; i < regions.length; i++) {
    for (let j = i + 1; j < regions.length; j++) {
      const [name, a] = regions[i]!;
      const [other, b] = regions[j]!;
      if (a.start < b.start + b.bytes && b.start < a.start + a.bytes) problems.push(`${name} [${a.start}, ${a.start + a.bytes}) overlaps ${other} [${b.start}, ${b.start + b.bytes})`);
    }
  }
  return problems;
}
