/**
 * Options a library caller built, checked as the commands check theirs before reading
 * (cli/selection-options.ts): a caller's mistake is an error it can tell by its type
 * (OptionsError, code `ELOGTYPE_OPTIONS`), not an empty result, a TypeError from deep in the
 * reading, or a status that means "an input could not be read" as well.
 */
import { contradiction } from './record-query.js';
import type { Selection } from './entry-selector.js';
import { knownTypesNamed } from './type-matcher.js';
import { LEVELS } from '../parse/log-record.js';

export class OptionsError extends Error {
  readonly code = 'ELOGTYPE_OPTIONS';

  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

/** What is wrong with the selection, in one line; undefined when it is sound. */
export function selectionProblem(selection: Selection): string | undefined {
  const { grep, query } = selection;
  if (query.level !== undefined && !LEVELS.includes(query.level)) return `query.level must be one of ${LEVELS.join(', ')}`;
  if (grep !== undefined && !(grep instanceof RegExp)) return 'grep must be a RegExp (new RegExp(pattern)), as --grep makes it';
  if (query.message !== undefined && !(query.message instanceof RegExp)) return 'query.message must be a RegExp, as --message makes it';
  for (const bound of ['since', 'until'] as const) {
    const time = query[bound];
    if (time !== undefined && (!(time instanceof Date) || Number.isNaN(time.getTime()))) {
      return `query.${bound} must be a valid Date (${bound === 'since' ? 'parseTimeBound' : 'parseUntilBound'} reads --${bound}'s forms)`;
    }
  }
  if (query.since && query.until && query.since.getTime() > query.until.getTime()) return 'query.since is after query.until: no line can be both';
  return contradiction(selection.types, selection.exclude, query, knownTypesNamed);
}

/** Throws an OptionsError when the selection is not sound: the library's commands call it before reading. */
export function checkSelection(selection: Selection): void {
  const problem = selectionProblem(selection);
  if (problem !== undefined) throw new OptionsError(problem);
}
