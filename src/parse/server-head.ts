/**
 * The fields every 4.4+ server line starts with (`t`, `s`, `c`, `id`, `ctx`, `msg`, in the
 * server's order and padding), read from the line's bytes by the kernel (json-string.wat,
 * serverHead): as the server wrote them, or inside an entry's contents literal, escaped once
 * more (`{\"t\":…`), where most lines are read without decoding them at all. Most lines are
 * counted or rendered by these fields alone.
 */
import { findServerHead, keepHeadText, serverHeadAnswer, serverHeadMillis } from '../encode/json-kernels.js';
import { parseLogTime } from './log-record.js';

export interface ServerHead {
  readonly time: number | undefined;
  readonly severity: string;
  readonly component: string;
  readonly id: number;
  readonly contextStart: number;
  readonly contextEnd: number;
  readonly message: string;
  /** Where the head ends: attributes are looked for after it. */
  readonly end: number;
}

/** Where serverHeadAnswer holds each field (json-string.wat, serverHead). */
const TIME = 0;
const SEVERITY = 2;
const COMPONENT = 5;
const ID = 8;
const CONTEXT = 9;
const MESSAGE = 11;
const HEAD_END = 14;

/**
 * Severities, components and messages, by the index the kernel keeps their bytes under: a
 * server writes a few hundred of them, each decoded once (a call into C++ for a few bytes
 * costs more than the kernel's comparing them with the ones it knows).
 */
const keptTexts: string[] = [];

/** The text whose start, end and kept index are at `at` in the answer. */
function textAt(bytes: Buffer, at: number, shift: number): string {
  const answer = serverHeadAnswer;
  const index = answer[at + 2]!;
  if (index >= 0) return keptTexts[index]!;
  const start = answer[at]!;
  const end = answer[at + 1]!;
  const text = bytes.toString('utf8', start + shift, end + shift);
  const kept = keepHeadText(start, end);
  if (kept >= 0) keptTexts[kept] = text;
  return text;
}

/**
 * The head of the line in bytes[start, end), or undefined when it is not there in this form
 * (another shape, or an escape in one of its strings): then parse the line.
 */
export function readServerHead(bytes: Buffer, start: number, end: number, escaped: boolean): ServerHead | undefined {
  const shift = findServerHead(bytes, start, end, escaped);
  if (shift === undefined) return undefined;
  const answer = serverHeadAnswer;
  const millis = serverHeadMillis[0]!;
  return {
    time: Number.isNaN(millis) ? parseLogTime(bytes.toString('utf8', answer[TIME]! + shift, answer[TIME + 1]! + shift)) : millis,
    severity: textAt(bytes, SEVERITY, shift),
    component: textAt(bytes, COMPONENT, shift),
    id: answer[ID]!,
    contextStart: answer[CONTEXT]! + shift,
    contextEnd: answer[CONTEXT + 1]! + shift,
    message: textAt(bytes, MESSAGE, shift),
    end: answer[HEAD_END]! + shift,
  };
}
