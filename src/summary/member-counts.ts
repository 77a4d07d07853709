/**
 * How many of one row's lines (a slow-operation group, a warning's message) each member of the
 * replica set wrote (replica-members.ts), for the input that holds several. Members are held
 * by reference and their names read only at the end: a line costs one comparison with the
 * member counted last (a member's lines come in runs), else a scan of the few counted.
 */
import type { MemberCount } from './summary.js';

/** A member as the summary knows it (replica-members.ts' MemberStats): its name, made once. */
export interface Member {
  readonly name: string;
}

export class MemberCounts {
  readonly #members: Member[] = [];
  readonly #counts: number[] = [];
  #last = -1;

  add(member: Member): void {
    let at = this.#last;
    if (at === -1 || this.#members[at] !== member) {
      at = this.#members.indexOf(member);
      if (at === -1) {
        at = this.#members.length;
        this.#members.push(member);
        this.#counts.push(0);
      }
      this.#last = at;
    }
    this.#counts[at]!++;
  }

  /** Each member's count, the most first (ties by name). */
  summary(): MemberCount[] {
    return this.#members
      .map((member, i) => ({ name: member.name, count: this.#counts[i]! }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'en', { numeric: true }));
  }
}
