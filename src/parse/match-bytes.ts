/** True when `expected` stands at `at`. A byte loop: for keys this short it is several times faster than Buffer.compare. */
export function matchesAt(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  if (at < 0 || at + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}
