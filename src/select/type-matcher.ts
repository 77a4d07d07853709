/**
 * `-t/--type` and `-x/--exclude`: names, comma lists and globs (`automation-agent*`). A type
 * logtype knows is matched by its name or by the short name pretty output labels it with
 * (`audit`, `agent`, `sidecar`: the registry's), so what a person reads is what they can type.
 * The decision for each type is made once and remembered: a stream holds a handful of types
 * (and the memory is bounded for one that holds any number).
 */
import { LOG_FORMATS, logFormat } from '../formats/log-formats.js';
import { escapeTerminal } from '../render/escape-terminal.js';

export type TypeMatcher = (logType: string) => boolean;

/** Decisions remembered at the most; a type beyond is decided each time it comes. */
const MAX_DECIDED = 1024;

/** Whether a pattern is a glob (`*`, `?`) rather than one name. */
export function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

export function globToRegExp(glob: string, flags = ''): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${source}$`, flags);
}

/** Splits repeated flags and comma lists into patterns, dropping empty ones. */
export function typePatterns(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',')).map((p) => p.trim()).filter(Boolean);
}

/** True when a pattern names the type: its name, or its short name when logtype knows it. */
function namesType(pattern: RegExp, logType: string): boolean {
  if (pattern.test(logType)) return true;
  const shortName = logFormat(logType)?.shortName;
  return shortName !== undefined && shortName !== logType && pattern.test(shortName);
}

export function typeMatcher(include: readonly string[], exclude: readonly string[]): TypeMatcher {
  const includes = typePatterns(include).map((glob) => globToRegExp(glob));
  const excludes = typePatterns(exclude).map((glob) => globToRegExp(glob));
  if (includes.length === 0 && excludes.length === 0) return () => true;
  const decided = new Map<string, boolean>();
  return (logType) => {
    let selected = decided.get(logType);
    if (selected === undefined) {
      selected = (includes.length === 0 || includes.some((re) => namesType(re, logType))) && !excludes.some((re) => namesType(re, logType));
      if (decided.size < MAX_DECIDED) decided.set(logType, selected);
    }
    return selected;
  };
}

/** Every name a person may give a known type: names and short names, in the registry's order. */
export function knownTypeNames(): string[] {
  return [...new Set(LOG_FORMATS.flatMap((format) => [format.name, format.shortName]))];
}

/**
 * The patterns that name no type logtype knows (a typo, most likely: entries of such a type are
 * still matched, as a stream may carry types logtype does not know).
 */
export function unknownTypePatterns(values: readonly string[]): string[] {
  return typePatterns(values).filter((pattern) => {
    const re = globToRegExp(pattern);
    return !LOG_FORMATS.some((format) => namesType(re, format.name));
  });
}

/** Of `patterns`, those that name none of the types `seen` (the input's entries'). */
export function unseenTypePatterns(patterns: readonly string[], seen: Iterable<string>): string[] {
  const types = [...seen];
  return patterns.filter((pattern) => {
    const re = globToRegExp(pattern);
    return !types.some((type) => namesType(re, type));
  });
}

/**
 * The known types `values` (-t or -x, repeated or comma lists) name, by name or short name;
 * undefined when a pattern names no known type (the stream may carry types logtype does not know).
 */
export function knownTypesNamed(values: readonly string[]): string[] | undefined {
  const patterns = typePatterns(values);
  if (unknownTypePatterns(patterns).length > 0) return undefined;
  const regexps = patterns.map((pattern) => globToRegExp(pattern));
  return LOG_FORMATS.filter((format) => regexps.some((re) => namesType(re, format.name))).map((format) => format.name);
}

/**
 * The -t patterns that were typos: every -t names a type logtype does not know, no entry of
 * the input had any of them, and nothing was selected. Their empty result is then a usage
 * error (exit 2, said by typoNotice), not "nothing found". With a known type beside them,
 * nothing found is an answer: none.
 */
export function typoTypePatterns(unknown: readonly string[], types: readonly string[], seen: Iterable<string>, selected: number): string[] {
  if (unknown.length === 0 || selected > 0 || unknown.length !== typePatterns(types).length) return [];
  const typos = unseenTypePatterns(unknown, seen);
  return typos.length === unknown.length ? typos : [];
}

/** The stderr line for typoTypePatterns's patterns, after the command's name. */
export function typoNotice(typos: readonly string[]): string {
  return `${typos.map((pattern) => `-t "${escapeTerminal(pattern)}"`).join(', ')} matched no entry of the input either (exit 2)`;
}
