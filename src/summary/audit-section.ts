/** The audit log's section of the summary: events by type, failed logins by user and source, other failures. */
import type { Level, LogRecord } from '../parse/log-record.js';
import { BoundedCounts } from './bounded-counts.js';
import { counted } from './counted.js';
import type { SectionCounter } from './section-counter.js';
import type { AuditSummary } from './summary.js';
import { MAX_ATYPES, MAX_FAILED_LOGINS, MAX_OTHER_FAILURES } from './summary-limits.js';

/** Failed logins listed, the most frequent. */
const TOP_FAILED_LOGINS = 50;

export class AuditSection implements SectionCounter {
  readonly #atypes = new BoundedCounts(MAX_ATYPES);
  readonly #failedLogins = new BoundedCounts<{ user: string; source: string }>(MAX_FAILED_LOGINS);
  readonly #otherFailures = new BoundedCounts(MAX_OTHER_FAILURES);

  add(record: LogRecord, _time: number | undefined, _level: Level | undefined, _rank: number): void {
    const atype = record.component ?? '?';
    this.#atypes.add(atype);
    if (record.result === undefined || record.result === 0) return;
    if (atype === 'authenticate') {
      const user = record.users?.join(',') || '(unknown)';
      const source = record.remote?.replace(/:\d+$/, '') ?? '?';
      this.#failedLogins.add(`${user}\u0000${source}`, () => ({ user, source }));
    } else this.#otherFailures.add(atype);
  }

  summary(): AuditSummary {
    return {
      byAtype: counted(this.#atypes),
      failedAuthentications: this.#failedLogins.top(TOP_FAILED_LOGINS).map(({ count, value }) => ({ ...value, count })),
      otherFailures: counted(this.#otherFailures),
    };
  }
}
