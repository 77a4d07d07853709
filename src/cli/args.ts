/** Argument values as parsers give them: one string for one use of a flag, an array for several. */
export function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function lastOf(value: string | string[] | undefined): string | undefined {
  return asList(value).at(-1);
}
