/**
 * The sidecar's outputs as the oracle reads them: every run's bytes split into lines, each line
 * checked to be one entry (`{"logType","contents"[,"partial":true]}`, valid JSON in valid UTF-8,
 * no other keys), and pieces marked partial joined per type in order, as the filter joins them.
 *
 * Pieces are joined across runs too: a restart may go on with the rest of a line. Pieces left
 * open when a run was SIGKILLed and followed by the start of another line were cut by the
 * kill; an entry cut at the very end of a SIGKILLed run's output is what a kill inside a write
 * does. Both are counted, neither is a problem. Anything else that is not an entry is invalid.
 */
import { isUtf8 } from 'node:buffer';
import { startsALine } from './line-content.js';
import type { SidecarRun } from './sidecar-run.js';

/** One line of output, or the pieces of one line joined. */
export interface Joined {
  readonly run: number;
  /** Order in the whole output (runs in order), of its first piece. */
  readonly order: number;
  /** When its first piece arrived, ms since the schedule began. */
  readonly at: number;
  readonly logType: string;
  readonly contents: string;
  readonly pieces: number;
  /** Closed because another line of its type began before its last piece came. */
  interleaved: boolean;
  /** Its last piece never came: its run was SIGKILLed first. */
  cutByKill: boolean;
}

export interface InvalidLine {
  readonly at: number;
  readonly run: number;
  readonly detail: string;
}

export interface Output {
  readonly joined: Joined[];
  readonly invalid: InvalidLine[];
  /** Valid entry lines, pieces included. */
  readonly entries: number;
  readonly pieces: number;
  readonly cutByKill: number;
  /** Pieces a restart sent again (from the last save, inside a line a SIGKILLed run had begun): allowed. */
  readonly piecesAgain: number;
}

const ENTRY_KEYS = new Set(['logType', 'contents', 'partial']);

/** Lines in pieces remembered per type as finished (long lines are rare; a run's output since its last save holds few). */
const MAX_FINISHED_IN_PIECES = 1000;

export function readOutput(runs: readonly SidecarRun[]): Output {
  const joined: Joined[] = [];
  const invalid: InvalidLine[] = [];
  let entries = 0;
  let pieces = 0;
  let cutByKill = 0;
  let piecesAgain = 0;
  let order = 0;
  const open = new Map<string, { first: Joined; parts: string[]; killed: boolean; lastRun: number }>();
  /**
   * By type, the lines in pieces that runs finished, newest last: a restart after a SIGKILL
   * resumes from the killed run's last save, which may lie inside any line it finished after
   * that save (not only the last one), and sends that line's last pieces again.
   */
  const finished = new Map<string, { run: number; parts: string[] }[]>();
  /** By type, the pieces of such a line still expected again, in order. */
  const again = new Map<string, { parts: string[]; next: number }>();
  const killed = new Set<number>();
  const close = (logType: string, last?: { contents: string }, run?: number): void => {
    const pending = open.get(logType);
    if (!pending) return;
    open.delete(logType);
    const parts = last ? [...pending.parts, last.contents] : pending.parts;
    joined.push({ ...pending.first, contents: parts.join(''), pieces: parts.length });
    if (last && run !== undefined) {
      const lines = finished.get(logType) ?? [];
      lines.push({ run, parts });
      if (lines.length > MAX_FINISHED_IN_PIECES) lines.shift();
      finished.set(logType, lines);
    }
  };
  /**
   * Whether the entry is a piece of a line a SIGKILLed run finished, sent again by a later run
   * from the last save (which was inside the line): dropped, counted with piecesAgain.
   */
  const sentAgain = (logType: string, contents: string, partial: boolean, run: number, firstOfType: boolean): boolean => {
    // The empty last piece that closes a line the state file left open when its file is gone
    // at the restart; after a SIGKILL the killed run may have finished that line after its save.
    if (contents === '' && !partial && firstOfType && !open.has(logType) && killed.has(run - 1)) return true;
    const expected = again.get(logType);
    if (expected) {
      again.delete(logType);
      if (expected.parts[expected.next] === contents) {
        if (partial && expected.next + 1 < expected.parts.length) again.set(logType, { parts: expected.parts, next: expected.next + 1 });
        return true;
      }
    }
    // A line of its own begun by the killed run may be open (its first piece sent after the
    // save): the piece sent again is still the finished line's, not that line's rest.
    const pending = open.get(logType);
    if ((pending && !pending.killed) || startsALine(contents)) return false;
    const lines = finished.get(logType) ?? [];
    for (let at = lines.length - 1; at >= 0; at--) {
      const line = lines[at]!;
      if (line.run >= run || !killed.has(line.run)) continue;
      const index = line.parts.indexOf(contents, 1);
      if (index < 0) continue;
      // Sent again by this run: if it too is SIGKILLed before a save past the line, the next
      // run sends the same pieces once more.
      lines.splice(at, 1);
      lines.push({ run, parts: line.parts });
      if (partial && index + 1 < line.parts.length) again.set(logType, { parts: line.parts, next: index + 1 });
      return true;
    }
    return false;
  };
  for (const run of runs) {
    const output = Buffer.concat(run.chunks);
    const typesSeen = new Set<string>();
    let start = 0;
    while (start < output.length) {
      const newline = output.indexOf(0x0a, start);
      const end = newline === -1 ? output.length : newline;
      const at = run.arrivalOf(start);
      const entryOrder = order++;
      const entry = newline === -1 ? undefined : parseEntry(output, start, end);
      if (!entry && newline === -1 && run.endedBy?.signal === 'SIGKILL') {
        cutByKill++;
        break;
      }
      if (!entry) {
        const text = JSON.stringify(output.toString('utf8', start, Math.min(end, start + 80)));
        invalid.push({ at, run: run.index, detail: `${newline === -1 ? 'cut: no newline at the end of the output' : 'not a valid entry'}: ${text}` });
        start = end + 1;
        continue;
      }
      entries++;
      start = end + 1;
      const firstOfType = !typesSeen.has(entry.logType);
      typesSeen.add(entry.logType);
      if (sentAgain(entry.logType, entry.contents, entry.partial, run.index, firstOfType)) {
        pieces++;
        piecesAgain++;
        continue;
      }
      const pending = open.get(entry.logType);
      if (pending && startsALine(entry.contents)) {
        if (pending.killed) pending.first.cutByKill = true;
        else pending.first.interleaved = true;
        close(entry.logType);
      }
      if (entry.partial) {
        pieces++;
        const still = open.get(entry.logType);
        if (still) {
          piecesAgain += dropRepeated(still, run.index, entry.contents);
          still.parts.push(entry.contents);
        }
        else
          open.set(entry.logType, {
            first: { run: run.index, order: entryOrder, at, logType: entry.logType, contents: '', pieces: 0, interleaved: false, cutByKill: false },
            parts: [entry.contents],
            killed: false,
            lastRun: run.index,
          });
        continue;
      }
      const ending = open.get(entry.logType);
      if (ending) {
        pieces++;
        piecesAgain += dropRepeated(ending, run.index, entry.contents);
        close(entry.logType, entry, run.index);
        continue;
      }
      joined.push({ run: run.index, order: entryOrder, at, logType: entry.logType, contents: entry.contents, pieces: 1, interleaved: false, cutByKill: false });
    }
    if (run.endedBy?.signal === 'SIGKILL') {
      killed.add(run.index);
      for (const pending of open.values()) pending.killed = true;
    }
  }
  for (const logType of [...open.keys()]) close(logType);
  return { joined: joined.sort((a, b) => a.order - b.order), invalid, entries, pieces, cutByKill, piecesAgain };
}

/**
 * A line a SIGKILLed run had sent some pieces of goes on in the next run from the last save,
 * which may be before the last piece sent: the same pieces come again (cut where they were,
 * from the same place). They are dropped from the join, as a reader of a restarted stream
 * would see them again; the count says how many.
 */
function dropRepeated(pending: { first: Joined; parts: string[]; killed: boolean; lastRun: number }, run: number, contents: string): number {
  // Only the first piece a later run sends can go back: the rest follow it.
  const continues = pending.killed && run !== pending.lastRun;
  pending.lastRun = run;
  if (!continues) return 0;
  const index = pending.parts.indexOf(contents, 1);
  if (index < 0) return 0;
  const dropped = pending.parts.length - index;
  pending.parts.length = index;
  return dropped;
}

function parseEntry(output: Buffer, start: number, end: number): { logType: string; contents: string; partial: boolean } | undefined {
  if (!isUtf8(output.subarray(start, end))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(output.toString('utf8', start, end));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry['logType'] !== 'string' || typeof entry['contents'] !== 'string') return undefined;
  if (!Object.keys(entry).every((key) => ENTRY_KEYS.has(key))) return undefined;
  if (entry['partial'] !== undefined && entry['partial'] !== true) return undefined;
  return { logType: entry['logType'], contents: entry['contents'], partial: entry['partial'] === true };
}
