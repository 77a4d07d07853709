/**
 * "Did you mean": the known name nearest to what was typed, as git and kubectl suggest a
 * command. Near means few edits (a letter left out, added, changed, or two swapped): at most
 * one for a short word, a third of its length for a longer one, so a word that merely shares a
 * few letters is not offered.
 */

/** Edits between two words: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The name nearest to `typed` (case aside), or undefined when none is near enough. */
export function nearestName(typed: string, names: Iterable<string>): string | undefined {
  const word = typed.toLowerCase();
  const most = Math.max(1, Math.floor(word.length / 3));
  let nearest: string | undefined;
  let distance = Infinity;
  for (const name of names) {
    const d = editDistance(word, name.toLowerCase());
    if (d <= most && d < distance) {
      nearest = name;
      distance = d;
    }
  }
  return nearest;
}
