/**
 * Every byte of log contents that reaches a terminal passes here: C0 controls (but tab), DEL,
 * C1 controls (8-bit CSI on some terminals) and the bidirectional overrides that reorder what
 * a line shows are written as visible escapes, so a crafted line cannot move the cursor, clear
 * the screen, set the title or hide text. `\n` and `\r` are escaped too: one entry, one line.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

export function escapeTerminal(text: string): string {
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, visible) : text;
}
