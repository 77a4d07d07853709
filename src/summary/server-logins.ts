/**
 * The server's own failed logins, by user and client: its log says who and from where whether
 * or not the audit log is on (it is off by default in these pods). 5.0 and later write id
 * 5286307 (`Failed to authenticate`: attr.user, db, client, error), 4.4 id 20249
 * (`Authentication failed`: attr.principalName, authenticationDatabase, remote, error), and the
 * text before it `authentication failed for USER on DB from client IP:PORT ; ERROR`.
 */
import type { LogRecord } from '../parse/log-record.js';
import { attrString } from '../parse/record-attributes.js';
import { BoundedCounts } from './bounded-counts.js';
import { MAX_FAILED_LOGINS } from './summary-limits.js';

export const FAILED_LOGIN_ID = 5286307;
export const AUTHENTICATION_FAILED_ID = 20249;

/** Failed logins listed, the most frequent. */
const TOP_FAILED_LOGINS = 50;

const TEXT_FAILURE = /authentication failed for (\S*) on (\S+) from client (\S+?)(?::\d+)? ;/;

export interface FailedLogin {
  /** `user@db` (`(none)@db` for a login that named no user). */
  readonly user: string;
  /** The client's address, without its port. */
  readonly source: string;
}

/** The failed login a server line tells of; undefined for any other line. */
export function failedLoginOf(record: LogRecord): FailedLogin | undefined {
  const { id } = record;
  // Each version's names, then the other's (a line of one version in the other's words reads the same).
  if (id === FAILED_LOGIN_ID || id === AUTHENTICATION_FAILED_ID) {
    const text = (first: string, second: string): string | undefined => attrString(record, first) ?? attrString(record, second);
    return id === FAILED_LOGIN_ID
      ? login(text('user', 'principalName'), text('db', 'authenticationDatabase'), text('client', 'remote'))
      : login(text('principalName', 'user'), text('authenticationDatabase', 'db'), text('remote', 'client'));
  }
  if (id !== undefined || record.component !== 'ACCESS') return undefined;
  const text = TEXT_FAILURE.exec(record.message);
  return text ? login(text[1], text[2], text[3]) : undefined;
}

function login(user: string | undefined, db: string | undefined, client: string | undefined): FailedLogin {
  return { user: `${user || '(none)'}@${db ?? '?'}`, source: client?.replace(/:\d+$/, '') ?? '?' };
}

export class ServerLogins {
  readonly #failed = new BoundedCounts<FailedLogin>(MAX_FAILED_LOGINS);

  add(login: FailedLogin): void {
    this.#failed.add(`${login.user}\u0000${login.source}`, () => login);
  }

  /** The most frequent, with their counts; empty when none failed. */
  summary(): { readonly user: string; readonly source: string; readonly count: number }[] {
    return this.#failed.top(TOP_FAILED_LOGINS).map(({ count, value }) => ({ ...value, count }));
  }
}
