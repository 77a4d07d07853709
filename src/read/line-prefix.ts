/**
 * What `kubectl logs` and its neighbours put in front of an entry (docs/formats.md):
 * `--timestamps` (RFC 3339 and a space), `--prefix` (`[pod/NAME/CONTAINER] `), both at once,
 * and stern's `POD CONTAINER ` (coloured on a terminal), with `--all-namespaces` its
 * `NAMESPACE POD CONTAINER `, and with `--timestamps` the time after them: RFC 3339 (stern's
 * default, in any `--timezone`), or `--timestamps=short`'s `MM-DD hh:mm:ss`, which has no year
 * and no zone and so is kept as text only; logcli's default output (`TIME {LABELS} LINE`, Loki's
 * query client), its `pod` label the line's source. Works on the head of a line only.
 */
import { matchCriHead } from './cri-line.js';

export interface LinePrefix {
  /** Length of the prefix in the line's head (UTF-16 units = bytes: prefixes are ASCII). */
  readonly length: number;
  /** The prefix as it was, for `--keep-prefix`. */
  readonly text: string;
  /** The time kubectl (or stern) stamped the line with. */
  readonly time?: string;
  /** `pod/NAME/CONTAINER`, `POD CONTAINER` or `NAMESPACE POD CONTAINER`. */
  readonly source?: string;
}

/** An RFC 3339 time as kubectl, stern and logcli stamp lines with. */
const TIME = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)`;
const KUBECTL = new RegExp(String.raw`^(?:\[([^\]\s]+)\] )?(?:(${TIME}) )?`);
const RFC3339 = new RegExp(`^${TIME}$`);

/** True for an RFC 3339 time as kubectl, stern and the shippers stamp lines with (`2026-11-27T10:00:00.123456789Z`). */
export const isStampTime = (text: string): boolean => RFC3339.test(text);
/**
 * logcli's `TIME {job="logtype", pod="…"} `: its time and the labels its streams do not share
 * (`{}` when one stream answered), padded with spaces to the longest (grafana/loki,
 * pkg/logcli/output/default.go); no brace inside them.
 */
const LOGCLI = new RegExp(String.raw`^(${TIME}) (\{(?:[^{}]*="[^{}]*)?\}) +`);
const POD_LABEL = /(?:^\{|, ?)pod="([^"]+)"/;
const SHORT_DAY = /^\d\d-\d\d$/;
const SHORT_TIME = /^\d\d:\d\d:\d\d$/;
const ANSI = /\x1b\[[0-9;]*m/g;
/** A word of stern's: no space, no control but its colours'. */
const STERN_WORD = /^[^\s\x00-\x1f]+$/;

/** Bytes of a line's head worth looking at for a prefix. */
export const PREFIX_HEAD_BYTES = 400;

/**
 * The prefix in front of an entry (`{`), or undefined when the head does not look like a
 * prefixed entry.
 */
export function parseLinePrefix(head: string): LinePrefix | undefined {
  if (head.startsWith('{')) return { length: 0, text: '' };
  const cri = criPrefix(head);
  if (cri) return head[cri.length] === '{' ? cri : undefined;
  const logcli = logcliPrefix(head);
  if (logcli) return head[logcli.length] === '{' ? logcli : undefined;
  const kubectl = KUBECTL.exec(head);
  if (kubectl && kubectl[0].length > 0 && head[kubectl[0].length] === '{') {
    return {
      length: kubectl[0].length,
      text: kubectl[0],
      ...(kubectl[2] === undefined ? {} : { time: kubectl[2] }),
      ...(kubectl[1] === undefined ? {} : { source: kubectl[1] }),
    };
  }
  return sternPrefix(head);
}

/** logcli's time and labels: the time is the line's stamp, its `pod` label its source. */
function logcliPrefix(head: string): LinePrefix | undefined {
  const match = LOGCLI.exec(head);
  if (!match) return undefined;
  const pod = POD_LABEL.exec(match[2]!)?.[1];
  return { length: match[0].length, text: match[0], time: match[1]!, ...(pod === undefined ? {} : { source: pod }) };
}

/** stern's words before the entry: NAMESPACE? POD CONTAINER, then its time, if any. */
function sternPrefix(head: string): LinePrefix | undefined {
  const brace = head.indexOf(' {');
  if (brace < 3) return undefined;
  return sternWords(head.slice(0, brace).split(' '), head.slice(0, brace + 1));
}

/**
 * A CRI log file's head (cri-line.ts): its time is the line's stamp, as kubectl's; the file is
 * one container's, so its lines have no source of their own (stdout and stderr are one stream,
 * as kubectl shows them). A piece's tag is no part of what is kept: pieces are joined before.
 */
function criPrefix(head: string): LinePrefix | undefined {
  const cri = matchCriHead(head);
  return cri ? { length: cri[0].length, text: cri[0], time: cri[1]! } : undefined;
}

/** stern's prefix `text` made of `words`: NAMESPACE? POD CONTAINER and its time, if any; else undefined. */
function sternWords(words: string[], text: string): LinePrefix | undefined {
  let time: string | undefined;
  if (RFC3339.test(words.at(-1)!)) time = words.pop();
  else if (words.length > 3 && SHORT_TIME.test(words.at(-1)!) && SHORT_DAY.test(words.at(-2)!)) words.length -= 2;
  const names = words.map((word) => word.replace(ANSI, ''));
  if (names.length < 2 || names.length > 3 || !names.every((name) => STERN_WORD.test(name))) return undefined;
  return { length: text.length, text, source: names.join(' '), ...(time === undefined ? {} : { time }) };
}

/**
 * The prefix in front of a line of text that is not an entry (a log read as it is, with
 * kubectl's `--prefix` or `--timestamps`): kubectl's alone, as stern's two words would match
 * any line's first two. Undefined when there is none.
 */
export function parseTextPrefix(head: string): LinePrefix | undefined {
  const cri = criPrefix(head);
  if (cri) return cri;
  const logcli = logcliPrefix(head);
  if (logcli) return logcli;
  const kubectl = KUBECTL.exec(head);
  if (!kubectl || kubectl[0].length === 0 || (kubectl[1] !== undefined && !kubectl[1].startsWith('pod/'))) return undefined;
  return {
    length: kubectl[0].length,
    text: kubectl[0],
    ...(kubectl[2] === undefined ? {} : { time: kubectl[2] }),
    ...(kubectl[1] === undefined ? {} : { source: kubectl[1] }),
  };
}

/**
 * The prefixes that may stand in front of a line of a log's own text, to try in this order:
 * kubectl's (and, when it has a pod and a time, the pod alone: the time may be the line's
 * own, as a pre-4.4 server line's or a pasted console line's after `--prefix` without
 * `--timestamps`), then stern's.
 */
export function textLinePrefixes(head: string): LinePrefix[] {
  const kubectl = parseTextPrefix(head);
  const stern = sternPrefixes(head);
  if (!kubectl) return stern;
  const pod = podAlone(kubectl);
  return pod ? [kubectl, pod, ...stern] : [kubectl, ...stern];
}

/** kubectl's prefix with a pod and a time, as the pod alone (the time then belongs to the line); else undefined. */
function podAlone(kubectl: LinePrefix): LinePrefix | undefined {
  if (kubectl.source === undefined || kubectl.time === undefined) return undefined;
  const text = `[${kubectl.source}] `;
  return { length: text.length, text, source: kubectl.source };
}

/**
 * The prefixes stern may have put in front of a line of text (its first two to five words: POD
 * CONTAINER, NAMESPACE before them, a time after them), shortest first. Any line's first words
 * could be these: only worth asking where what follows one of them is then recognised.
 */
export function sternPrefixes(head: string): LinePrefix[] {
  const tokens = head.split(' ', 6);
  const prefixes: LinePrefix[] = [];
  // The last token may be cut by the head's end, and something must follow the prefix.
  for (let count = 2; count <= 5 && count < tokens.length; count++) {
    const words = tokens.slice(0, count);
    const prefix = sternWords(words, words.join(' ') + ' ');
    if (prefix) prefixes.push(prefix);
  }
  return prefixes;
}
