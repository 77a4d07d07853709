/**
 * escapeTerminal held to the contract (test/_helpers/terminal-code-points.ts) over every code
 * point there is, alone and between ordinary text: a class or an edge left out of its character
 * class, or an escape written another way, fails here by name.
 */
import test from 'ava';
import { escapeTerminal } from '../../src/index.js';
import { terminalSafeJson } from '../../src/render/escape-terminal.js';
import { ESCAPE_SEQUENCES, UNSAFE_CLASSES, UNSAFE_CODE_POINTS, terminalPayloads, terminalView, unsafeCodePoints } from '../_helpers/terminal-code-points.js';


test('every code point from U+0000 to U+10FFFF, alone and between letters, is escaped exactly when the contract says', (t) => {
  const wrong: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    const expected = terminalView(char);
    if (escapeTerminal(char) !== expected || escapeTerminal(`a${char}b`) !== `a${expected}b`) wrong.push(`U+${code.toString(16).padStart(4, '0')}`);
    if (wrong.length > 20) break;
  }
  t.deepEqual(wrong, []);
});

for (const [name, codes] of Object.entries(UNSAFE_CLASSES)) {
  test(`class ${name}: each of its ${codes.length} code points is shown as a visible escape`, (t) => {
    for (const code of codes) {
      const shown = escapeTerminal(`x${String.fromCodePoint(code)}y`);
      t.false([...shown].some((c) => UNSAFE_CODE_POINTS.has(c.codePointAt(0)!)), `U+${code.toString(16)}`);
      t.is(shown, `x${terminalView(String.fromCodePoint(code))}y`);
    }
  });
}

test('escape sequences and generated mixtures: every unsafe character escaped, nothing else changed', (t) => {
  t.is(escapeTerminal(ESCAPE_SEQUENCES.join('')), terminalView(ESCAPE_SEQUENCES.join('')));
  for (const payload of terminalPayloads(7, 200)) t.is(escapeTerminal(payload), terminalView(payload, false), JSON.stringify(payload));
});

test('lone surrogates pass through (Node writes them as U+FFFD), not turned into escapes', (t) => {
  for (const lone of ['\ud800', '\udfff', 'a\udc00b']) t.is(escapeTerminal(lone), lone);
});

test('terminalSafeJson: every unsafe code point JSON leaves raw is written as its \\u escape, and JSON.parse reads the same value back', (t) => {
  const wrong: string[] = [];
  for (const code of UNSAFE_CODE_POINTS) {
    const value = { line: `a${String.fromCodePoint(code)}b`, [`k${String.fromCodePoint(code)}`]: [1, 'x'] };
    const json = terminalSafeJson(JSON.stringify(value));
    const hex = code.toString(16).padStart(4, '0');
    // JSON.stringify escapes C0 itself (\n, \u001b); DEL, C1 and the bidirectional controls are ours to escape.
    const raw = code >= 0x20;
    if (unsafeCodePoints(json, new Set()).length > 0) wrong.push(`U+${hex}: left raw`);
    else if (JSON.stringify(JSON.parse(json)) !== JSON.stringify(value)) wrong.push(`U+${hex}: read back otherwise`);
    else if (raw && json !== JSON.stringify(value).replaceAll(String.fromCodePoint(code), `\\u${hex}`)) wrong.push(`U+${hex}: ${json}`);
  }
  t.deepEqual(wrong, []);
  t.is(terminalSafeJson('{"plain":"text é"}'), '{"plain":"text é"}');
});
