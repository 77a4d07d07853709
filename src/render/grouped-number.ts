/**
 * A count with its thousands grouped, `1,234,567`, as `toLocaleString('en-US')` writes it: an
 * integer's digits grouped here, so a summary written as text does not load the ICU data for
 * a few hundred counts (its first call is most of the rendering's time); any other number
 * (a fraction, -0, beyond the safe integers) is left to toLocaleString.
 */
export function groupedNumber(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n);
  const sign = n < 0 ? 1 : 0;
  let grouped = '';
  let end = digits.length;
  for (let start = end - 3; start > sign; start -= 3) {
    grouped = `,${digits.slice(start, end)}${grouped}`;
    end = start;
  }
  return `${digits.slice(0, end)}${grouped}`;
}
