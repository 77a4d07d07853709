/**
 * `-t/--type` and `-x/--exclude`: names, comma lists and globs (`automation-agent*`). The
 * decision for each type is made once and remembered: a stream holds a handful of types.
 */
export type TypeMatcher = (logType: string) => boolean;

export function globToRegExp(glob: string, flags = ''): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${source}$`, flags);
}

/** Splits repeated flags and comma lists into patterns, dropping empty ones. */
export function typePatterns(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(',')).map((p) => p.trim()).filter(Boolean);
}

export function typeMatcher(include: readonly string[], exclude: readonly string[]): TypeMatcher {
  const includes = typePatterns(include).map((glob) => globToRegExp(glob));
  const excludes = typePatterns(exclude).map((glob) => globToRegExp(glob));
  const decided = new Map<string, boolean>();
  return (logType) => {
    let selected = decided.get(logType);
    if (selected === undefined) {
      selected =
        (includes.length === 0 || includes.some((re) => re.test(logType))) && !excludes.some((re) => re.test(logType));
      decided.set(logType, selected);
    }
    return selected;
  };
}
