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

export interface AgentHead {
  readonly time: number | undefined;
  readonly level: string;
  readonly source: string;
  /** Where the rest of the line starts. */
  readonly end: number;
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
 * The head of the server line in bytes[start, end), or undefined when it is not there in this
 * form (another shape, or an escape in one of its strings): then parse the line.
 */
export function readServerHead(bytes: Buffer, start: number, end: number, escaped: boolean): ServerHead | undefined {
  const shift = findServerHead(bytes, start, end, escaped);
  if (shift === undefined) return undefined;
  const answer = headAnswer;
  return {
    time: timeAt(bytes, shift),
    severity: textAt(bytes, SEVERITY, shift),
    component: textAt(bytes, COMPONENT, shift),
    id: answer[ID]!,
    contextStart: answer[CONTEXT]! + shift,
    contextEnd: answer[CONTEXT + 1]! + shift,
    message: textAt(bytes, MESSAGE, shift),
    end: answer[HEAD_END]! + shift,
  };
}

/**
 * The bracketed fields of the agent line in bytes[start, end) (a line, or the inside of an
 * entry's literal), or undefined when they are not there or need decoding: then read the line.
 */
export function readAgentHead(bytes: Buffer, start: number, end: number): AgentHead | undefined {
  const shift = findAgentHead(bytes, start, end);
  if (shift === undefined) return undefined;
  return {
    time: timeAt(bytes, shift),
    level: textAt(bytes, SEVERITY, shift),
    source: textAt(bytes, COMPONENT, shift),
    end: headAnswer[HEAD_END]! + shift,
  };
}
