/**
 * The namespaces a server text line (before 4.4) names in its message, where the JSON log of
 * 4.4+ puts them in `attr.namespace`: so `--ns` finds a collection's creation, drop and index
 * builds in an old log as in a new one. Slow operations' namespaces are read by slow-operation.ts.
 */

/** The message forms of 3.6-4.2 that name a collection, each with its namespaces as groups. */
const NAMESPACE_MESSAGES: readonly RegExp[] = [
  /^createCollection: (\S+) with /,
  /^build index on: (\S+) properties: /,
  /^index build: (?:starting|done building index \S+) on (?:ns )?(\S+)/,
  /^CMD: (?:drop|dropIndexes) (\S+)/,
  /^dropCollection: (\S+)/,
  /^Finishing collection drop for (\S+)/,
  /^validating collection (\S+)/,
  /^renameCollection: renaming collection (?:\S+ )?from (\S+) to (\S+)/,
];

/** The namespaces a text line's message names (none when it is no such message). */
export function textNamespacesOf(message: string): string[] {
  for (const form of NAMESPACE_MESSAGES) {
    const match = form.exec(message);
    if (match) return match.slice(1).filter((ns): ns is string => ns !== undefined).map(trimmed);
  }
  return [];
}

/** A namespace as a message ends it: `app.orders,` or `app.orders:` names `app.orders`. */
function trimmed(ns: string): string {
  return ns.replace(/[,:;]$/, '');
}
