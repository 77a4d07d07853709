/**
 * The page's colours: each type logtype knows has a colour of its own, none the errors' red or
 * the warnings' orange; a type it does not know keeps one colour whatever else is on the page.
 */
import test from 'ava';
import { LOG_FORMATS } from '../../src/formats/log-formats.js';
import { COLLSCAN_COLOR, ERROR_COLOR, INFO_COLOR, MARKER_COLORS, OTHER_TYPES_COLOR, UNKNOWN_TYPE_COLORS, WARNING_COLOR, typeColor } from '../../src/summary/chart-colors.js';
import { OTHER_TYPES } from '../../src/summary/summary-limits.js';

test('every known type has a colour of its own, never the errors\' red, the warnings\' orange, the COLLSCAN mark or an event mark\'s (restart, shutdown, election, state)', (t) => {
  const colours = LOG_FORMATS.map((format) => typeColor(format.name));
  t.is(new Set(colours).size, LOG_FORMATS.length);
  for (const colour of colours) t.false([ERROR_COLOR, WARNING_COLOR, INFO_COLOR, COLLSCAN_COLOR, OTHER_TYPES_COLOR, ...Object.values(MARKER_COLORS)].includes(colour), colour);
  t.is(typeColor('mongodb'), LOG_FORMATS.find((f) => f.name === 'mongodb')!.chartColor);
});

test('a type logtype does not know: the same colour every time, not red; the other types\' row grey', (t) => {
  for (const name of ['my-app', 'sidecar-x', 'é😀']) {
    t.is(typeColor(name), typeColor(name));
    t.not(typeColor(name), ERROR_COLOR);
    t.not(typeColor(name), WARNING_COLOR);
  }
  t.is(typeColor(OTHER_TYPES), OTHER_TYPES_COLOR);
});

/** CIE76 colour difference (ΔE) of two `#rrggbb` colours, through sRGB, XYZ (D65) and Lab. */
function colourDifference(a: string, b: string): number {
  const lab = (hex: string): number[] => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
    }) as [number, number, number];
    const f = (v: number): number => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
    const [x, y, z] = [(r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047, r * 0.2126 + g * 0.7152 + b * 0.0722, (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883].map(f) as [number, number, number];
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

// From a review of the report: elections and step-downs were drawn in nearly the audit log's
// purple, state changes in nearly the automation agent's teal, restarts in nearly a type's slate.
test('an event mark\'s colour is far from every type\'s (known or not), from red and orange and from the COLLSCAN mark (ΔE 20 at least): a mark is never read as a type\'s', (t) => {
  for (const [kind, marker] of Object.entries(MARKER_COLORS)) {
    for (const colour of [...LOG_FORMATS.map((format) => typeColor(format.name)), ...UNKNOWN_TYPE_COLORS, ERROR_COLOR, WARNING_COLOR, COLLSCAN_COLOR]) {
      t.true(colourDifference(marker, colour) >= 20, `${kind} ${marker} against ${colour}: ΔE ${colourDifference(marker, colour).toFixed(0)}`);
    }
  }
});
