/**
 * logtype's library: what the two commands are thin layers over.
 */
export { FILE_LOG_TYPES, KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE, DEFAULT_LOG_DIR, findFileLogType, type FileLogType } from './log-types.js';
export { encodeEntry, entryPrefix, isEntryLine } from './encode/encode-entry.js';
export { LineSplitter, utf8CutPoint, type LineSink } from './follow/split-lines.js';
export { FileFollower, type FileFollowerOptions, type FollowEvent } from './follow/file-follower.js';
export { reconcilePath, type PathAction, type PathState, type FileIdentity } from './follow/reconcile.js';
export { StreamSource, openFifo } from './follow/stream-source.js';
export { resolveSources, type FileSource, type SourceFlags } from './config/sidecar-config.js';
export { parseSize, parseDurationMs } from './config/parse-size.js';
export { loadState, saveState, type SidecarState, type SavedFile } from './state/state-file.js';
export { Sidecar, type SidecarOptions, type SidecarIO } from './sidecar/run-sidecar.js';
export { createDiagnostics } from './diag/logger.js';
export { EntryReader, type EntryHandler } from './read/entry-reader.js';
export { EntryLine } from './read/entry-line.js';
export { parseLinePrefix, type LinePrefix } from './read/line-prefix.js';
export { typeMatcher, type TypeMatcher } from './select/type-matcher.js';
export { escapeTerminal } from './render/escape-terminal.js';
export { colorEnabled, palette, type ColorMode, type Palette } from './render/colors.js';
export { renderPrettyEntry, typeBadge } from './render/render-pretty.js';
export { FilterOutput, runFilter, formatSummary, type FilterOptions, type FilterIO, type OutputMode } from './filter/run-filter.js';
