/**
 * Pretty output for a person at a terminal: where the line came from (when several pods are
 * read at once), a coloured badge for its type (its format's short name and colour), the time
 * where known, and the contents, made safe for the terminal.
 */
import { expandedJsonText, jsonText } from './json-text.js';
import { logFormat } from '../formats/log-formats.js';
import type { EntryLine } from '../read/entry-line.js';
import type { Level, LogRecord } from '../parse/log-record.js';
import { firstLineOf } from '../parse/continued-record.js';
import { fieldsObject, valueAt } from '../parse/record-object.js';
import type { JsonMember } from '../parse/json-members.js';
import { attrMembersOf } from '../parse/record-attributes.js';
import { slowOperationOf } from '../parse/slow-operation.js';
import type { Palette, Paint } from './colors.js';
import { escapeTerminal, isTerminalSafe } from './escape-terminal.js';
import { formatTime } from './format-time.js';

export interface PrettyOptions {
  readonly palette: Palette;
  readonly utc: boolean;
  /** Whole attribute values, as indented JSON below the line. */
  readonly expand?: boolean | undefined;
  /** Only these fields of the line's object, as key=value. */
  readonly fields?: readonly (readonly string[])[] | undefined;
  /** The FILE the line was read from, named where several were given (as grep names them): two pods' server logs look alike. */
  readonly file?: string | undefined;
}

/** The line's FILE, as grep writes it before a line (`FILE:`), dimmed; nothing without one. */
function fileLead(file: string | undefined, palette: Palette): string {
  return file === undefined ? '' : `${palette.gray(`${escapeTerminal(file)}:`)} `;
}

/** Badges are padded to this, so the contents start in the same column for every type. */
const BADGE_WIDTH = 13;

export function typeBadge(logType: string, palette: Palette): string {
  return paintedWords(palette).badge.of(logType);
}

/** A known type by its short name in its colour; any other by its name, in bold. */
function paintBadge(logType: string, palette: Palette): string {
  const format = logFormat(logType);
  const label = escapeTerminal(format?.shortName ?? logType).padEnd(BADGE_WIDTH);
  const paint: Paint = format ? palette[format.color] : palette.bold;
  return paint(label);
}

/**
 * Words painted one way, each made once: a word comes back on every line. Bounded: a stream
 * can hold any number of distinct types.
 */
class PaintedWord {
  readonly #painted = new Map<string, string>();
  readonly #paint: (word: string) => string;

  constructor(paint: (word: string) => string) {
    this.#paint = paint;
  }

  of(word: string): string {
    let painted = this.#painted.get(word);
    if (painted === undefined) {
      painted = this.#paint(word);
      if (this.#painted.size < 1024) this.#painted.set(word, painted);
    }
    return painted;
  }
}

/**
 * The painted words of one palette: badges and levels. Components and attribute keys are
 * painted each time: looking up a word cut from each line (its hash made anew) was no faster
 * than painting it (measured).
 */
interface PaintedWords {
  readonly badge: PaintedWord;
  readonly level: PaintedWord;
}

const paintedByPalette = new WeakMap<Palette, PaintedWords>();

function paintedWords(palette: Palette): PaintedWords {
  let words = paintedByPalette.get(palette);
  if (!words) {
    words = {
      badge: new PaintedWord((logType) => paintBadge(logType, palette)),
      level: new PaintedWord((level) => paintLevelLabel(level as Level, palette)),
    };
    paintedByPalette.set(palette, words);
  }
  return words;
}

/** An entry for a person; `record` is its parsed line, undefined when it did not parse. */
export function renderPrettyEntry(entry: EntryLine, record: LogRecord | undefined, options: PrettyOptions): string {
  const { palette } = options;
  let line = fileLead(options.file, palette);
  if (entry.prefix?.source) line += `${palette.gray(escapeTerminal(entry.prefix.source))} `;
  line += typeBadge(entry.logType, palette);
  const time = entry.timeOf(record);
  if (time !== undefined) line += ` ${palette.gray(formatTime(time, options.utc))}`;
  const contents = entry.contents;
  const escape = entry.knownTerminalSafe || isTerminalSafe(contents) ? same : escapeTerminal;
  // Fields may come from beyond the contents (the type): each is escaped.
  if (options.fields) return `${line} ${renderFields(fieldsObject(record, entry.logType, contents), options.fields, palette, escapeTerminal)}`;
  if (!record) return `${line} ${escapeTerminal(contents)}`;
  // One join for the whole line: no string of the record's part made and copied again.
  if (!options.expand) return recordParts(record, palette, escape, VALUE_CHARS, [line]).join(' ') + continuationLines(record, palette);
  // Expanded, the attributes stand in full below the line, not on it too.
  line += ` ${renderRecord(record, palette, escape, 0)}${continuationLines(record, palette)}`;
  if (record.attrs && Object.keys(record.attrs).length > 0) {
    // A text of several lines (the operator's `stacktrace`, an error's detail) is shown as its
    // lines below the others, where JSON would write it as one line of `\n\t` escapes.
    const texts = Object.entries(record.attrs).filter((field): field is [string, string] => typeof field[1] === 'string' && field[1].includes('\n'));
    const attrs = texts.length === 0 ? record.attrs : { ...record.attrs, ...Object.fromEntries(texts.map(([key]) => [key, '(its lines below)'])) };
    // Line by line: JSON writes a control inside a value as an escape, so the only newlines are
    // the indentation's; what JSON leaves as it is (C1 controls, bidi overrides) is escaped here.
    let block = expandedJsonText(attrs, contents.length)!
      .split('\n')
      .map((text) => `    ${escape(text)}`)
      .join('\n');
    for (const [key, text] of texts) block += `\n    ${escapeTerminal(key)}:${text.split('\n').map((part) => `\n      ${escapeTerminal(part)}`).join('')}`;
    return `${line}\n${palette.gray(block)}`;
  }
  return line;
}

const same = (text: string): string => text;

/** Lines that continued a record, each below it where the time column starts. */
function continuationLines(record: LogRecord, palette: Palette): string {
  const lines = record.continuation;
  if (!lines) return '';
  let text = '';
  for (const line of lines) text += `\n${CONTINUATION_INDENT}${palette.bold(escapeTerminal(line))}`;
  return text;
}

const CONTINUATION_INDENT = ' '.repeat(BADGE_WIDTH + 1);

/** A path the line's object does not have is left out, as in the JSON projection (not `attr.ns=undefined`). */
function renderFields(object: unknown, fields: readonly (readonly string[])[], palette: Palette, escape: (text: string) => string): string {
  return fields
    .flatMap((path) => {
      const value = valueAt(object, path);
      return value === undefined ? [] : [`${palette.gray(`${escape(path.join('.'))}=`)}${escape(compactValue(value, Infinity))}`];
    })
    .join(' ');
}

const LEVEL_LABELS: Readonly<Record<Level, string>> = { fatal: 'FATAL', error: 'ERROR', warn: 'WARN ', info: 'INFO ', debug: 'DEBUG' };
/** Attribute values longer than this are cut, with a marker. */
const VALUE_CHARS = 120;


function paintLevelLabel(level: Level, palette: Palette): string {
  const label = LEVEL_LABELS[level];
  switch (level) {
    case 'fatal':
    case 'error':
      return palette.redBadge(label);
    case 'warn':
      return palette.yellow(label);
    case 'debug':
      return palette.gray(label);
    default:
      return palette.green(label);
  }
}

/**
 * One line: level, component, context, message, then the attributes as compact key=value
 * (values cut at `valueChars`; 0 leaves the attributes out).
 */
export function renderRecord(record: LogRecord, palette: Palette, escape: (text: string) => string = escapeTerminal, valueChars = VALUE_CHARS): string {
  return recordParts(record, palette, escape, valueChars, []).join(' ');
}

/** renderRecord's parts, after those in `parts`. */
function recordParts(record: LogRecord, palette: Palette, escape: (text: string) => string, valueChars: number, parts: string[]): string[] {
  const words = paintedWords(palette);
  parts.push(record.level ? words.level.of(record.level) : '     ');
  const { component } = record;
  if (component) parts.push(palette.cyan(escape(component)));
  if (record.context) parts.push(palette.gray(`[${escape(record.context)}]`));
  // Attributes read from the line's text where it can be: no object made, no value written back
  // to JSON. Only a line with a duration is parsed, to show it as a slow operation.
  const members = attrMembersOf(record);
  const slow = members && !hasMember(members, 'durationMillis') ? undefined : slowOperationOf(record, true);
  if (slow) {
    parts.push(palette.bold(`${slow.durationMillis}ms`));
    if (slow.ns) parts.push(escape(slow.ns));
    if (slow.plan) parts.push(slow.plan.startsWith('COLLSCAN') ? palette.redBadge(escape(slow.plan)) : escape(slow.plan));
  }
  parts.push(palette.bold(escape(firstLineOf(record))));
  if (valueChars === 0) return parts;
  // Loops without a closure a line: this is pretty's hottest function.
  if (members) {
    for (let i = 0; i < members.length; i++) {
      const { key, text, isString } = members[i]!;
      if (slow && isSlowFigure(key)) continue;
      const value = cut(isString && text.includes('\\') ? decodedOrAsIs(text) : text, valueChars);
      parts.push(palette.gray(`${escape(key)}=`) + escape(value));
    }
  } else {
    for (const [key, value] of Object.entries(record.attrs ?? {})) {
      if (slow && isSlowFigure(key)) continue;
      parts.push(palette.gray(`${escape(key)}=`) + escape(compactValue(value, valueChars)));
    }
  }
  return parts;
}

/** A string value's inside decoded; one JSON refuses (a raw control beside an escape) is shown as written, not a crash. */
function decodedOrAsIs(inside: string): string {
  try {
    return JSON.parse(`"${inside}"`) as string;
  } catch {
    return inside;
  }
}

/** The figures a slow operation leads with, not repeated among its attributes. */
const isSlowFigure = (key: string): boolean => key === 'durationMillis' || key === 'ns' || key === 'planSummary';

function hasMember(members: readonly JsonMember[], key: string): boolean {
  for (let i = 0; i < members.length; i++) if (members[i]!.key === key) return true;
  return false;
}

function compactValue(value: unknown, valueChars: number): string {
  return cut(typeof value === 'string' ? value : (jsonText(value) ?? String(value)), valueChars);
}

/** Long values end with a marker that says how long they were. */
function cut(text: string, valueChars: number): string {
  return text.length > valueChars ? `${text.slice(0, valueChars)}…(${text.length} chars)` : text;
}

export function renderPrettyOther(line: string, palette: Palette, file?: string): string {
  return fileLead(file, palette) + palette.dim(escapeTerminal(line));
}
