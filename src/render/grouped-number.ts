/**
 * A count with its thousands grouped, `1,234,567`, as `toLocaleString('en-US')` writes it:
 * grouped here, so a summary written as text does not load the ICU data for a few hundred
 * numbers (its first call is most of the rendering's time). An integer's digits are grouped;
 * a fraction whose shortest digits (String's, as ICU's) have at most the three decimals
 * toLocaleString keeps is grouped alike (a ratio rounded to tenths); any other number (-0,
 * beyond the safe integers, more decimals to round, an exponent) is left to toLocaleString.
 */
export function groupedNumber(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return groupedDigits(String(n));
  if (Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER && n !== 0) {
    const digits = String(n);
    const point = digits.indexOf('.');
    if (point > 0 && digits.length - point - 1 <= 3 && !digits.includes('e')) return `${groupedDigits(digits.slice(0, point))}${digits.slice(point)}`;
  }
  return n.toLocaleString('en-US');
}

/** An integer's digits (a `-` first, maybe) with a comma before each group of three. */
function groupedDigits(digits: string): string {
  const sign = digits.charCodeAt(0) === 0x2d ? 1 : 0;
  let grouped = '';
  let end = digits.length;
  for (let start = end - 3; start > sign; start -= 3) {
    grouped = `,${digits.slice(start, end)}${grouped}`;
    end = start;
  }
  return `${digits.slice(0, end)}${grouped}`;
}
