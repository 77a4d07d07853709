/**
 * Events of the server's members kept for the report (shutdowns, log rotations): the first
 * `limit`, each with its member's name, the rest only counted; listed in time order.
 */
export class KeptEvents<T extends { readonly at: number }> {
  readonly #limit: number;
  readonly #kept: { readonly event: T; readonly member: string }[] = [];
  #notKept = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  keep(event: T, member: string): void {
    // Bumped for every event, by 0 or 1 (docs/design.md, "bounds bumped by 0 or 1").
    const room = this.#kept.length < this.#limit;
    this.#notKept += room ? 0 : 1;
    if (room) this.#kept.push({ event, member });
  }

  /** Those beyond the limit. */
  get notKept(): number {
    return this.#notKept;
  }

  /** The events kept, earliest first. */
  inTimeOrder(): { readonly event: T; readonly member: string }[] {
    return [...this.#kept].sort((a, b) => a.event.at - b.event.at);
  }
}
