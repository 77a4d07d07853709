/**
 * Bad usage as a value: the argument parsers return it, and only the command's end writes it,
 * as one line on stderr naming --help, and exits 2 (bin/ and cli/logtype-main.ts).
 */
import type { Parsed } from '../config/parse-size.js';
import { escapeTerminal } from '../render/escape-terminal.js';

/** The exit status of bad usage. */
export const USAGE_EXIT = 2;

/** A command line read: its options, `'help'` or `'version'` when that was asked for, or a usage error. */
export type CommandLine<T> = Parsed<T | 'help' | 'version'>;

export function usageError(message: string): { readonly ok: false; readonly error: string } {
  return { ok: false, error: message };
}

/**
 * The line a person reads: the message's first line, and where to read more. A message quotes
 * what was typed (a file name a glob found, a value pasted from a log): it reaches the terminal
 * escaped, as log contents do.
 */
export function usageLine(command: string, message: string): string {
  return `${command}: ${usageMessage(command, message)}\n`;
}

/** usageLine's words, without the command in front: the sidecar's usage diagnostic says it as its `msg`. */
export function usageMessage(command: string, message: string): string {
  return `${escapeTerminal(message.split('\n')[0]!)} (see ${command} --help)`;
}
