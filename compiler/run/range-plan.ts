/**
 * How `judge --workers N` cuts one JSONL file into byte ranges (ranges.ts):
 * at line breaks, counting the lines before each range so workers number
 * lines as one thread does, and guessing its first case.
 */
import { closeSync, openSync, readSync } from "node:fs";

const SCAN_CHUNK = 1 << 20;

/**
 * Bytes `[start, end)` of the file; `firstLine` is the line it starts on;
 * `firstCase`, the number its first case would have if every non-blank
 * line before it took one (a guess: a trace line takes none, a line of
 * other white space is blank).
 */
export interface Range {
  start: number;
  end: number;
  firstLine: number;
  firstCase: number;
}

/** Where a scan of the file stands between chunks. */
interface ScanState {
  /** The last chunk ended with "\r": the next one's first byte tells whether it was a lone one. */
  cr: boolean;
  /** The line the last chunk ended in has a byte other than a space, a tab or "\r". */
  content: boolean;
}

/**
 * In `chunk[0, to)`: the line breaks as byte-lines.ts splits lines ("\n",
 * "\r\n" as one, a lone "\r"), which number the lines exactly, and the
 * "\n"-ended lines with something other than spaces and tabs, which guess
 * the cases (ranges.ts numbers a range's cases from this guess and checks it).
 */
function scanChunk(chunk: Uint8Array, to: number, state: ScanState): { breaks: number; cases: number } {
  let breaks = 0;
  let cases = 0;
  if (state.cr && to > 0) {
    if (chunk[0] !== 0x0a) breaks++;
    state.cr = false;
  }
  let start = 0;
  for (let lf = chunk.indexOf(0x0a); lf !== -1 && lf < to; lf = chunk.indexOf(0x0a, lf + 1)) {
    breaks++;
    let content = state.content;
    for (let i = start; !content && i < lf; i++) {
      const byte = chunk[i];
      content = byte !== 0x20 && byte !== 0x09 && byte !== 0x0d;
    }
    if (content) cases++;
    state.content = false;
    start = lf + 1;
  }
  for (let i = start; !state.content && i < to; i++) {
    const byte = chunk[i];
    state.content = byte !== 0x20 && byte !== 0x09 && byte !== 0x0d;
  }
  for (let i = chunk.indexOf(0x0d); i !== -1 && i < to; i = chunk.indexOf(0x0d, i + 1)) {
    if (i + 1 < to) {
      if (chunk[i + 1] !== 0x0a) breaks++;
    } else state.cr = true;
  }
  return { breaks, cases };
}

/**
 * The file cut into ranges of about `rangeBytes`, each ending just after a
 * "\n" (so no line, and no "\r\n", is cut in two) or at the file's end: a
 * line longer than a range makes its range longer. Each range knows its
 * first line, from the line breaks counted before it, and guesses its first
 * case. Computed as they are asked for, reading each byte once.
 */
export function* planRanges(file: string, size: number, rangeBytes: number): Generator<Range> {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(SCAN_CHUNK);
    let start = 0;
    let firstLine = 1;
    let firstCase = 0;
    while (start < size) {
      const target = start + Math.max(1, rangeBytes);
      if (target >= size) {
        yield { start, end: size, firstLine, firstCase };
        return;
      }
      const state: ScanState = { cr: false, content: false };
      let breaks = 0;
      let cases = 0;
      let at = start;
      let end = size;
      while (at < size) {
        const read = readSync(fd, buffer, 0, Math.min(SCAN_CHUNK, size - at), at);
        if (read === 0) break;
        const chunk = buffer.subarray(0, read);
        // The first "\n" at or after the target's last byte ends the range.
        const from = Math.max(0, target - 1 - at);
        const lf = from < read ? chunk.indexOf(0x0a, from) : -1;
        const scanned = scanChunk(chunk, lf !== -1 ? lf + 1 : read, state);
        breaks += scanned.breaks;
        cases += scanned.cases;
        if (lf !== -1) {
          end = at + lf + 1;
          break;
        }
        at += read;
      }
      yield { start, end, firstLine, firstCase };
      start = end;
      firstLine += breaks;
      firstCase += cases;
    }
  } finally {
    closeSync(fd);
  }
}
