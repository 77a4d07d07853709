/**
 * ByteMarker.holdsLineStart decides whether the bytes before a read position alone tell a
 * rewrite (held-file.ts): only when the last line lies whole inside them.
 */
import test from 'ava';
import { ByteMarker, MARKER_BYTES } from '../../src/follow/byte-marker.js';

const markerOf = (text: string): ByteMarker => {
  const marker = new ByteMarker();
  const bytes = Buffer.from(text);
  marker.advance(bytes, 0, bytes.length);
  return marker;
};

for (const [held, holds, why] of [
  ['', false, 'nothing held'],
  ['\n', false, 'one newline: no line inside'],
  ['a line without its end', false, 'a line longer than what is held, cut'],
  ['the end of a line\n', false, 'only the end of one line'],
  ['\nthe next line\n', true, 'a whole line after the newline before it'],
  ['end of one\nthe next, not finished', true, 'a line being written, whole from its start'],
  ['a\nb\nc\n', true, 'several short lines'],
  [`${'x'.repeat(MARKER_BYTES - 1)}\n`, false, 'padding that fills the marker'],
  [`${'x'.repeat(2 * MARKER_BYTES)}\nline 7 ${'x'.repeat(20)}\n`, true, 'only the last MARKER_BYTES kept: the last line is among them'],
  [`line 7\n${'x'.repeat(2 * MARKER_BYTES)}\n`, false, 'the newline that started the line fell out of what is kept'],
] as const) {
  test(`holdsLineStart: ${why}`, (t) => {
    t.is(markerOf(held).holdsLineStart(), holds);
  });
}
