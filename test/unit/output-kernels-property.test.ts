/**
 * The kernels as their writers use them, on random lines: the sidecar's EntryWriter (escape,
 * lines cut into segments of at most MAX_ESCAPE_BYTES at character boundaries, chunks of the
 * kernels' memory filled to their end) against encodeEntry of the line's decoded text, and the
 * filter's ByteOutput (unescape into the same chunks) against JSON.parse.
 */
import test from 'ava';
import { Writable } from 'node:stream';
import { encodeWithPrefix, entryPrefix } from '../../src/encode/encode-entry.js';
import { MAX_ESCAPE_BYTES, OUTPUT_CHUNK_BYTES } from '../../src/kernels/kernel-layout.js';
import { ByteOutput } from '../../src/output/byte-output.js';
import { EntryWriter } from '../../src/output/entry-writer.js';
import { BASE_SEED, given, property, randomBytes, seededRandom, showBytes, type Random, type Verdict } from '../_helpers/property.js';

/** A stream that keeps a copy of what it is given (the writers reuse their chunks once written). */
function collector(): { stream: Writable; take: () => Buffer } {
  let parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(Buffer.from(chunk));
      done();
    },
  });
  return {
    stream,
    take: () => {
      const all = Buffer.concat(parts);
      parts = [];
      return all;
    },
  };
}

/** Undefined when `written` is the expected pieces one after another; else the first piece that differs. */
function comparePieces(written: Buffer, pieces: readonly { bytes: Buffer; input: string }[]): Verdict {
  let at = 0;
  for (const { bytes, input } of pieces) {
    if (!written.subarray(at, at + bytes.length).equals(bytes)) {
      return `what was written for ${input} differs from the reference at byte ${at}:\n  written:  ${showBytes(written.subarray(at, at + bytes.length))}\n  expected: ${showBytes(bytes)}`;
    }
    at += bytes.length;
  }
  return at === written.length ? undefined : `${written.length - at} bytes more were written than expected`;
}

/** A line's length: short, at and around the segment and the chunk, or long. */
function lineLength(random: Random): number {
  const roll = random();
  if (roll < 0.3) return random.between(0, 200);
  if (roll < 0.5) return 16 * random.between(1, 8) + random.between(-1, 1);
  if (roll < 0.7) return MAX_ESCAPE_BYTES + random.between(-20, 20);
  if (roll < 0.78) return 2 * MAX_ESCAPE_BYTES + random.between(-4, 4);
  if (roll < 0.8) return OUTPUT_CHUNK_BYTES + random.between(-8, 8);
  return random.between(0, 5000);
}

/** Non-ASCII bytes, valid or not, where a segment may be cut. */
function seedCutPoints(random: Random, line: Buffer): void {
  for (let cut = MAX_ESCAPE_BYTES; cut < line.length; cut += MAX_ESCAPE_BYTES) {
    const near = randomBytes(random, 8, { specials: 0.8, escapes: 'none' });
    near.copy(line, Math.max(0, cut - random.between(0, 8)));
  }
}

test('EntryWriter: any line, of any length, is written as encodeEntry writes its decoded text', (t) => {
  const { stream, take } = collector();
  const writer = new EntryWriter(stream);
  const text = entryPrefix('mongodb');
  const prefix = { text, bytes: Buffer.from(text) };
  let pending: { bytes: Buffer; input: string }[] = [];
  property(t, 300, (random, round) => {
    const ascii = random.chance(0.6);
    const line = randomBytes(random, lineLength(random), ascii ? { utf8: false, invalid: false, escapes: 'none', specials: 0.05 } : { escapes: 'none', specials: random.pick([0.001, 0.05]) });
    if (!ascii && random.chance(0.5)) seedCutPoints(random, line);
    const partial = random.chance(0.1);
    const before = random.between(0, 5);
    const source = Buffer.concat([randomBytes(random, before), line, randomBytes(random, 5)]);
    const input = given(`the line ${showBytes(line)}${partial ? ', partial' : ''}`);
    writer.writeLine(prefix, source, before, before + line.length, partial);
    pending.push({ bytes: Buffer.from(encodeWithPrefix(text, line.toString('utf8'), partial)), input });
    // Now and then, and at the end: the writer fills its chunks up to their end in between.
    if (round % 25 !== 24 && round !== 299) return undefined;
    writer.flush();
    const verdict = comparePieces(take(), pending);
    pending = [];
    return verdict;
  });
});

test('ByteOutput: literals decoded into chunks up to their end are the bytes of JSON.parse, between lines and texts', (t) => {
  const { stream, take } = collector();
  const out = new ByteOutput(stream);
  let pending: { bytes: Buffer; input: string }[] = [];
  property(t, 1500, (random, round) => {
    const roll = random();
    if (roll < 0.7) {
      const text = randomBytes(random, random.chance(0.02) ? OUTPUT_CHUNK_BYTES - random.between(0, 4) : random.between(0, 3000), { invalid: false, escapes: 'none', specials: 0.05 }).toString('utf8');
      const literal = Buffer.from(JSON.stringify(text).slice(1, -1));
      if (literal.length > OUTPUT_CHUNK_BYTES) return undefined;
      const source = Buffer.concat([Buffer.from('"'), literal, Buffer.from('"')]);
      const input = given(`the literal ${showBytes(literal)}`);
      if (!out.jsonString(source, 1, 1 + literal.length)) return `${input} was refused`;
      pending.push({ bytes: Buffer.from(JSON.parse(source.toString('utf8')) as string), input });
    } else if (roll < 0.85) {
      const line = randomBytes(random, random.between(0, 300));
      const source = Buffer.concat([line, Buffer.from(random.chance(0.5) ? '\n' : 'x')]);
      out.line(source, 0, line.length);
      pending.push({ bytes: Buffer.concat([line, Buffer.from('\n')]), input: `the line ${showBytes(line)}` });
    } else {
      const text = randomBytes(random, random.between(0, 200), { invalid: false }).toString('utf8');
      out.text(text);
      pending.push({ bytes: Buffer.from(text), input: `the text ${JSON.stringify(text)}` });
    }
    if (round % 50 !== 49 && round !== 1499) return undefined;
    out.flush();
    const verdict = comparePieces(take(), pending);
    pending = [];
    return verdict;
  });
});

test('ByteOutput: a run of lines longer than several chunks is written whole, and the input may be reused once flushed while the stream still holds what it was given', async (t) => {
  const held: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Read when the stream is done with it, as a pipe's write is: it must be unchanged till then.
      setImmediate(() => {
        held.push(Buffer.from(chunk));
        done();
      });
    },
  });
  const out = new ByteOutput(stream);
  const random = seededRandom(BASE_SEED);
  const expected: Buffer[] = [];
  for (const total of [OUTPUT_CHUNK_BYTES - 1, OUTPUT_CHUNK_BYTES + 1, 3 * OUTPUT_CHUNK_BYTES + 17, 5 * OUTPUT_CHUNK_BYTES]) {
    const lines: Buffer[] = [];
    for (let size = 0; size < total; ) {
      const line = Buffer.concat([randomBytes(random, random.between(0, 2000), { escapes: 'none' }).map((b) => (b === 0x0a ? 0x20 : b)), Buffer.from('\n')]);
      lines.push(line);
      size += line.length;
    }
    const source = Buffer.concat(lines);
    let at = 0;
    for (const line of lines) {
      out.line(source, at, at + line.length - 1);
      at += line.length;
    }
    out.flush();
    expected.push(Buffer.from(source));
    // The reader's next chunk lands where this one was.
    source.fill(0xee);
  }
  await new Promise<void>((resolve) => out.flush(() => resolve()));
  t.true(Buffer.concat(held).equals(Buffer.concat(expected)));
});
