/**
 * One file's lines as they leave for the sink: the splitter that cuts them and the checkpoint
 * that counts what has left. A truncated file hands its stream to copytruncate's copy (the same
 * bytes, on in the copy), so a line cut by the truncation continues there.
 */
import type { OtherCompression } from '../read/other-compression.js';
import { FileCheckpoint } from './file-checkpoint.js';
import { LineSplitter } from './split-lines.js';

/** Receives each line (or piece) with its end offset in the file and the file's checkpoint. */
export type FileLineSink = (bytes: Buffer, start: number, end: number, partial: boolean, endOffset: number, checkpoint: FileCheckpoint) => void;

export interface LineOptions {
  readonly maxLineBytes: number;
  readonly sink: FileLineSink;
  /** A file's first bytes are compressed data: it is not read (HeldFile.read); called once a time found. */
  readonly compressed?: (file: string, compression: OtherCompression) => void;
  /** A run of NUL bytes at a line's start was passed over (HeldFile.read): its file, where it starts and how long it is. */
  readonly hole?: (file: string, offset: number, bytes: number) => void;
}

export interface LineStream {
  readonly checkpoint: FileCheckpoint;
  readonly splitter: LineSplitter;
}

/** A stream starting at `position` (inside a line when `midLine`: its first pieces have left). */
export function newLineStream(lines: LineOptions, position: number, midLine: boolean): LineStream {
  const checkpoint = new FileCheckpoint(position, midLine);
  const sink = lines.sink;
  const splitter = new LineSplitter(
    lines.maxLineBytes,
    (bytes, start, end, partial, endOffset) => sink(bytes, start, end, partial, endOffset, checkpoint),
    // The sidecar's sinks copy what they are given before returning.
    { reuseHeldBuffer: true, startOffset: position, pieceOpen: midLine },
  );
  return { checkpoint, splitter };
}
