/**
 * Pretty output for a person at a terminal: where the line came from (when several pods are
 * read at once), a coloured badge for its type, the time where known, and the contents, made
 * safe for the terminal. Type-aware renderers (server, audit, agents, operator) plug in by type.
 */
import type { EntryLine } from '../read/entry-line.js';
import type { Palette, Paint } from './colors.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatTime } from './format-time.js';

export interface PrettyOptions {
  readonly palette: Palette;
  readonly utc: boolean;
}

/** Short labels, so the contents start in the same column for every type. */
const BADGES: Readonly<Record<string, { label: string; color: keyof Palette }>> = {
  mongodb: { label: 'mongodb', color: 'green' },
  'mongodb-audit': { label: 'audit', color: 'magenta' },
  'automation-agent': { label: 'agent', color: 'cyan' },
  'automation-agent-verbose': { label: 'agent-verbose', color: 'blue' },
  'automation-agent-stderr': { label: 'agent-stderr', color: 'red' },
  'automation-agent-stdout': { label: 'agent-stdout', color: 'cyan' },
  'monitoring-agent': { label: 'monitoring', color: 'yellow' },
  'backup-agent': { label: 'backup', color: 'yellow' },
  'agent-launcher-script': { label: 'launcher', color: 'gray' },
  'logtype-sidecar': { label: 'sidecar', color: 'gray' },
};
const BADGE_WIDTH = 13;

export function typeBadge(logType: string, palette: Palette): string {
  const badge = BADGES[logType];
  const label = escapeTerminal(badge?.label ?? logType).padEnd(BADGE_WIDTH);
  const paint = (badge ? palette[badge.color] : palette.bold) as Paint;
  return paint(label);
}

export function renderPrettyEntry(entry: EntryLine, options: PrettyOptions): string {
  const { palette } = options;
  const parts: string[] = [];
  if (entry.prefix?.source) parts.push(palette.gray(escapeTerminal(entry.prefix.source)));
  parts.push(typeBadge(entry.logType, palette));
  if (entry.prefix?.time) parts.push(palette.gray(formatTime(new Date(entry.prefix.time), options.utc)));
  parts.push(escapeTerminal(entry.contents));
  return parts.join(' ');
}

export function renderPrettyOther(line: string, palette: Palette): string {
  return palette.dim(escapeTerminal(line));
}
