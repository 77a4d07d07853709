/**
 * A JSON key as it stands in a line's bytes, to look for: `"key":` as the server writes it,
 * and escaped once more inside an entry's contents literal (`\"key\":`). Made once a key.
 */
import { matchesAt } from './match-bytes.js';

export interface KeyNeedles {
  /** The key's own bytes, to compare with a key the kernel found. */
  readonly name: Buffer;
  readonly plain: Buffer;
  readonly escaped: Buffer;
}

/** Keys come from the code that asks for them (a handful), not from the lines. */
const needlesByKey = new Map<string, KeyNeedles>();

export function needlesOf(key: string): KeyNeedles {
  let needles = needlesByKey.get(key);
  if (!needles) {
    needles = { name: Buffer.from(key), plain: Buffer.from(`"${key}":`), escaped: Buffer.from(`\\"${key}\\":`) };
    needlesByKey.set(key, needles);
  }
  return needles;
}

/** `"key":` as it stands in bytes that are a line (escaped false) or inside a literal. */
export function keyNeedle(key: string, escaped: boolean): Buffer {
  const needles = needlesOf(key);
  return escaped ? needles.escaped : needles.plain;
}

/** Where `needle` last stands in bytes[from, to), or -1. */
export function lastIndexBetween(bytes: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  for (let at = to - needle.length; at >= from; at--) {
    if (bytes[at] === needle[0] && matchesAt(bytes, at, needle)) return at;
  }
  return -1;
}
