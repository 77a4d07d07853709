/**
 * logtype's library: what the two commands are thin layers over.
 */
export { FILE_LOG_TYPES, KNOWN_LOG_TYPES, SIDECAR_LOG_TYPE, DEFAULT_LOG_DIR, findFileLogType, type FileLogType } from './log-types.js';
export { LOG_FORMATS, OPERATOR_LOG_TYPE, findLogFormat, logFormat } from './formats/log-formats.js';
export type { LogFormat, BadgeColor, QueryFamily, SidecarFile, SummarySection, Writer, LogTypeFacts, LogReading } from './formats/log-format.js';
export type { RecordReader } from './parse/record-reader.js';
export { encodeEntry, entryPrefix, isEntryLine } from './encode/encode-entry.js';
export { LineSplitter, utf8CutPoint, type LineSink, type LineSplitterOptions } from './follow/split-lines.js';
export { FileFollower, type FileFollowerOptions, type FollowEvent, type ResumeFrom } from './follow/file-follower.js';
export type { FileLineSink } from './follow/line-stream.js';
export type { FileCheckpoint } from './follow/file-checkpoint.js';
export { reconcilePath, type PathAction, type PathState, type FileIdentity } from './follow/reconcile.js';
export { StreamSource, openFifo, type StreamSourceOptions } from './follow/stream-source.js';
export { resolveSources, type FileSource, type SourceFlags, type ResolvedSources } from './config/sidecar-config.js';
export { parseSize, parseDurationMs, type Parsed } from './config/parse-size.js';
export { loadState, saveState, type SidecarState, type SavedFile, type LoadedState, type PastFile } from './state/state-file.js';
export { Sidecar, EXIT_OK, EXIT_OUTPUT_FAILED, EXIT_ONCE_MISSING, EXIT_STATE_IN_USE, type SidecarOptions, type SidecarIO } from './sidecar/run-sidecar.js';
export { createDiagnostics, sameStream, type DiagnosticRoute, type Logger } from './diag/logger.js';
export { EntryReader, type EntryHandler } from './read/entry-reader.js';
export { EntryLine } from './read/entry-line.js';
export { parseLinePrefix, type LinePrefix } from './read/line-prefix.js';
export { typeMatcher, type TypeMatcher } from './select/type-matcher.js';
export { escapeTerminal } from './render/escape-terminal.js';
export { colorEnabled, palette, type ColorMode, type Palette, type Paint } from './render/colors.js';
export { renderPrettyEntry, typeBadge, type PrettyOptions } from './render/render-pretty.js';
export type { ByteOutput } from './output/byte-output.js';
export { FilterOutput, runFilter, formatSummary, OUTPUT_MODES, type FilterOptions, type FilterIO, type OutputMode } from './filter/run-filter.js';
export { readEntries, stdinSource, type InputSelection, type InputHandler, type StdinIO, type StdinSource } from './read/read-entries.js';
export { LEVELS, levelOf, parseLogTime, type Level, type LineSource, type EntrySource, type LogRecord } from './parse/log-record.js';
export { parseServerLine } from './parse/parse-server-line.js';
export { slowOperationOf, type SlowOperation } from './parse/slow-operation.js';
export { attrFirstKey, attrMembersOf, attrNumber, attrValue, type AttributeReader, type MemberReader } from './parse/record-attributes.js';
export type { JsonMember } from './parse/json-members.js';
export type { FirstMember } from './parse/attribute-places.js';
export type { TextPlace } from './parse/text-place.js';
export { parseAuditLine } from './parse/parse-audit-line.js';
export { parseAgentLine, parseAgentLogLine, parseLauncherLine } from './parse/parse-agent-line.js';
export { parseOperatorLine, parseDiagnosticLine } from './parse/parse-operator-line.js';
export { parseRecord, parseEntryRecord, readEntryRecord } from './parse/parse-record.js';
export { recordObject, projectFields, parseFieldPaths } from './parse/record-object.js';
export { recordPredicate, parseTimeBound, parseUntilBound, type RecordQuery, type TimesRead } from './select/record-query.js';
export { OptionsError, selectionProblem } from './select/options-error.js';
export { EntrySelector, type Selection, type SelectedSink, type SelectionCounts, type SelectionLimits } from './select/entry-selector.js';
export { renderRecord } from './render/render-pretty.js';
export { SummaryCollector } from './summary/summary-collector.js';
export type { RecordSource } from './summary/slowest-operations.js';
export { collectSummary, runSummary, type SummaryOptions, type ReadProgress } from './summary/run-summary.js';
export { renderSummaryText, type SummaryTextOptions } from './summary/render-summary-text.js';
export { renderSummaryHtml } from './summary/render-summary-html.js';
// The summary's parts, named by a user who reads them (the --json document has the same shape).
export type {
  Summary, Incomplete, TypeMark, TypeSummary, Counted, ServerSummary, MemberCount, MemberSummary, ResponseSize, LongLivedConnection,
  SlowestOperation, SlowestTransaction, SlowPoint, SlowGroup, AppliedGroup, DurationFigures, AuditSummary, TypeProblems, Activity, TimeFocus, MinuteActivity,
} from './summary/summary.js';
export { KNOWN_PROBLEMS, type KnownProblem } from './doctor/known-problems.js';
export { ProblemFinder, type ProblemFinding } from './doctor/find-problems.js';
export { runDoctor, type DoctorOptions, type ReportIO } from './doctor/run-doctor.js';
export type { DoctorReport, DoctorProblem, DoctorIncomplete } from './doctor/render-doctor.js';
export type { TimeSteps } from './summary/time-order.js';
