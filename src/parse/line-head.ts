/**
 * The fields lines start with, read from their bytes by the kernel (kernels.wat): where
 * the input was read into its memory, inside an entry's contents literal (still escaped), most
 * lines are read without decoding them at all, and counted or rendered by these fields alone.
 * - A 4.4+ server line's `t`, `s`, `c`, `id`, `ctx`, `msg`, in the server's order and padding
 *   (serverHead), as the server wrote them or escaped once more (`{\"t\":…`).
 * - An agent line's `[time] [level] [source]` (agentHead).
 */
import { findAgentHead, findServerHead, headAnswer, headMillis, keepHeadText } from '../kernels/json-kernels.js';
import { HEAD_SLOT } from '../kernels/kernel-layout.js';
import { parseLogTime } from './log-record.js';

/**
 * A server line's head as read. One is filled line after line (every line asks, and its
 * fields are copied into the line's record at once): reading makes no object.
 */
export class ServerHead {
  time: number | undefined = undefined;
  severity = '';
  component = '';
  id = 0;
  contextStart = 0;
  contextEnd = 0;
  message = '';
  /** Where the head ends: attributes are looked for after it. */
  end = 0;
}

/** An agent line's head as read, filled line after line as ServerHead is. */
export class AgentHead {
  time: number | undefined = undefined;
  level = '';
  source = '';
  /** Where the rest of the line starts. */
  end = 0;
}

/** Where headAnswer holds each field (kernel-layout.ts: serverHead's and agentHead's answer). */
const TIME = HEAD_SLOT.time;
const SEVERITY = HEAD_SLOT.severity;
const COMPONENT = HEAD_SLOT.component;
const ID = HEAD_SLOT.id;
const CONTEXT = HEAD_SLOT.context;
const MESSAGE = HEAD_SLOT.message;
const HEAD_END = HEAD_SLOT.end;

/**
 * Severities, components, messages, levels and sources, by the index the kernel keeps their
 * bytes under: a log writes a few hundred of them, each decoded once (a call into C++ for a few
 * bytes costs more than the kernel's comparing them with the ones it knows).
 */
const keptTexts: string[] = [];

/** The text whose start, end and kept index are at `at` in the answer. */
function textAt(bytes: Buffer, at: number, shift: number): string {
  const answer = headAnswer;
  const index = answer[at + 2]!;
  if (index >= 0) return keptTexts[index]!;
  const start = answer[at]!;
  const end = answer[at + 1]!;
  const text = bytes.toString('utf8', start + shift, end + shift);
  const kept = keepHeadText(start, end);
  if (kept >= 0) keptTexts[kept] = text;
  return text;
}

/** The head's time: the kernel's, or its text read by parseLogTime. */
function timeAt(bytes: Buffer, shift: number): number | undefined {
  const millis = headMillis[0]!;
  return Number.isNaN(millis) ? parseLogTime(bytes.toString('utf8', headAnswer[TIME]! + shift, headAnswer[TIME + 1]! + shift)) : millis;
}

/**
 * Fills `head` with the head of the server line in bytes[start, end); false when it is not
 * there in this form (another shape, or an escape in one of its strings): then parse the line.
 */
export function readServerHead(bytes: Buffer, start: number, end: number, escaped: boolean, head: ServerHead): boolean {
  const shift = findServerHead(bytes, start, end, escaped);
  if (shift === undefined) return false;
  const answer = headAnswer;
  head.time = timeAt(bytes, shift);
  head.severity = textAt(bytes, SEVERITY, shift);
  head.component = textAt(bytes, COMPONENT, shift);
  head.id = answer[ID]!;
  head.contextStart = answer[CONTEXT]! + shift;
  head.contextEnd = answer[CONTEXT + 1]! + shift;
  head.message = textAt(bytes, MESSAGE, shift);
  head.end = answer[HEAD_END]! + shift;
  return true;
}

/**
 * Fills `head` with the bracketed fields of the agent line in bytes[start, end) (a line, or the
 * inside of an entry's literal); false when they are not there or need decoding: then read the line.
 */
export function readAgentHead(bytes: Buffer, start: number, end: number, head: AgentHead): boolean {
  const shift = findAgentHead(bytes, start, end);
  if (shift === undefined) return false;
  head.time = timeAt(bytes, shift);
  head.level = textAt(bytes, SEVERITY, shift);
  head.source = textAt(bytes, COMPONENT, shift);
  head.end = headAnswer[HEAD_END]! + shift;
  return true;
}
