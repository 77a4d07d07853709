/**
 * A record that went on over several physical lines: its first line's record, with the lines
 * after it as the rest of its message (formats/log-format.ts, `continuesRecords`, says whose
 * records do). Everything else is the first line's.
 */
import type { LogRecord } from './log-record.js';

export class ContinuedRecord implements LogRecord {
  readonly #head: LogRecord;
  readonly continuation: readonly string[];
  readonly message: string;

  constructor(head: LogRecord, continuation: readonly string[]) {
    this.#head = head;
    this.continuation = continuation;
    this.message = [head.message, ...continuation].join('\n');
  }

  get time(): number | undefined {
    return this.#head.time;
  }

  get level(): LogRecord['level'] {
    return this.#head.level;
  }

  get severity(): string | undefined {
    return this.#head.severity;
  }

  get component(): string | undefined {
    return this.#head.component;
  }

  get context(): string | undefined {
    return this.#head.context;
  }

  get id(): number | undefined {
    return this.#head.id;
  }

  get attrs(): LogRecord['attrs'] {
    return this.#head.attrs;
  }

  get resource(): string | undefined {
    return this.#head.resource;
  }

  /** The first line's object (a zap console line's), its message the whole record's. */
  get object(): LogRecord['object'] {
    const object = this.#head.object;
    return object && { ...object, msg: this.message };
  }
}

/** A record's message on its first line: without the lines that continued it. */
export function firstLineOf(record: LogRecord): string {
  const lines = record.continuation;
  if (!lines) return record.message;
  let length = lines.length;
  for (const line of lines) length += line.length;
  return record.message.slice(0, record.message.length - length);
}
