/**
 * The page's colours: each type logtype knows has a colour of its own, none the errors' red or
 * the warnings' orange; a type it does not know keeps one colour whatever else is on the page.
 */
import test from 'ava';
import { LOG_FORMATS } from '../../src/formats/log-formats.js';
import { COLLSCAN_COLOR, ERROR_COLOR, INFO_COLOR, MARKER_COLORS, OTHER_TYPES_COLOR, WARNING_COLOR, typeColor } from '../../src/summary/chart-colors.js';
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
