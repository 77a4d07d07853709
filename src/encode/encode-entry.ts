/**
 * The entry line: `{"logType":"<type>","contents":"<line>"}`, compact, keys in that order,
 * with `,"partial":true` on every piece of a split line but the last.
 *
 * JSON.stringify escapes what jq escapes (C0 controls, `"`, `\`) and leaves DEL and
 * U+2028/U+2029 raw, which is valid JSON; invalid UTF-8 has already become U+FFFD when the
 * bytes were decoded, so every line encodes to valid JSON.
 */
export function entryPrefix(logType: string): string {
  return `{"logType":${JSON.stringify(logType)},"contents":`;
}

const WHOLE_SUFFIX = '}\n';
const PARTIAL_SUFFIX = ',"partial":true}\n';

/** Encodes with a prefix made once per source by `entryPrefix` (the hot path). */
export function encodeWithPrefix(prefix: string, contents: string, partial: boolean): string {
  return prefix + JSON.stringify(contents) + (partial ? PARTIAL_SUFFIX : WHOLE_SUFFIX);
}

/** One entry line, newline included. */
export function encodeEntry(logType: string, contents: string, partial = false): string {
  return encodeWithPrefix(entryPrefix(logType), contents, partial);
}

/**
 * True when a line is already an entry of the compact shape the launcher's jq writes, so the
 * sidecar passes it through instead of wrapping it a second time.
 */
export function isEntryLine(line: string): boolean {
  if (!line.startsWith('{"logType":"')) return false;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entry = value as Record<string, unknown>;
    return typeof entry['logType'] === 'string' && typeof entry['contents'] === 'string';
  } catch {
    return false;
  }
}
