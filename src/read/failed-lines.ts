/**
 * Lines a report's reading failed on: a defect of ours, or a line damaged in a way no test
 * foresaw. The report goes on without them; they are counted, and the first is named at the end
 * (a broken line is counted and shown, never the end of a report).
 */
import { escapeTerminal } from '../render/escape-terminal.js';

/** How much of the first failed line is named. */
const SHOWN_CHARS = 200;

export class FailedLines {
  count = 0;
  #first = '';

  /** A line whose reading threw `error` (in the reader's catch: the hot path allocates nothing for this). */
  failed(error: unknown, logType: string | undefined, contents: string): void {
    if (this.count++ === 0) this.#first = `${error instanceof Error ? error.message : String(error)} (${logType === undefined ? 'a line that is no entry' : `a line of ${logType}`}: ${escapeTerminal(contents.slice(0, SHOWN_CHARS))})`;
  }

  /** What the report itself says of them (its JSON and page too, what a ticket gets): none when none failed. */
  get incomplete(): { readonly failedLines: number; readonly firstFailure: string } | undefined {
    return this.count === 0 ? undefined : { failedLines: this.count, firstFailure: this.#first };
  }

  /** The stderr line for `command`, or undefined when none failed. */
  message(command: string, what: string): string | undefined {
    if (this.count === 0) return undefined;
    return `${command}: ${this.count} ${this.count === 1 ? 'line was' : 'lines were'} counted but not ${what} (a logtype defect: please report it with the line); the first: ${this.#first}`;
  }
}
