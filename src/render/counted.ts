/**
 * A count and its noun, in the number's grammar: "1 line", "2 lines", "1 entry", "3 entries".
 * Every message that counts says it so.
 */
export function counted(count: number, one: string, many = `${one}s`, format: (n: number) => string = String): string {
  return `${format(count)} ${count === 1 ? one : many}`;
}
