import { isUtf8 } from "node:buffer";

/**
 * The lines of a byte stream with the file offset of each, split where
 * readline splits ("\n", "\r\n", or a lone "\r"). Bytes, not text: each line
 * is decoded on its own, so an invalid sequence is one line's error. A line
 * that spans chunks is joined once, at its end.
 */
export async function* byteLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ByteLine> {
  for await (const batch of byteLineBatches(chunks)) yield* batch;
}

/** A line's bytes (without its line break) and the file offset of its first byte. */
export interface ByteLine {
  bytes: Uint8Array;
  offset: number;
}

/**
 * The same lines as byteLines, a batch per chunk read: every line that ends
 * in the chunk (the line begun in earlier chunks included), so a reader
 * handles them in one synchronous pass rather than a promise per line, and
 * still has each as soon as its chunk arrives (a filter between pipes).
 * Chunks that end no line yield nothing. A batch's lines may be views of
 * their chunk, so they are valid until the next batch is asked for when the
 * source reads every chunk into one buffer; `firstOffset` is the offset of
 * the first chunk's first byte.
 */
export async function* byteLineBatches(chunks: AsyncIterable<Uint8Array>, firstOffset = 0): AsyncGenerator<ByteLine[]> {
  let pending: Uint8Array[] = [];
  let offset = firstOffset;
  // The previous chunk ended with "\r": a "\n" opening this one ends the same line.
  let afterCr = false;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const batch: ByteLine[] = [];
    let start = 0;
    if (afterCr && chunk[0] === 0x0a) {
      start = 1;
      offset++;
    }
    afterCr = false;
    // Next "\n" and "\r" at or after `start`, each searched for again only once passed.
    let lf = chunk.indexOf(0x0a, start);
    let cr = chunk.indexOf(0x0d, start);
    for (;;) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      if (end === -1) break;
      const tail = chunk.subarray(start, end);
      const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
      pending = [];
      batch.push({ bytes, offset });
      let next = end + 1;
      if (end === cr) {
        if (next === chunk.length) afterCr = true;
        else if (chunk[next] === 0x0a) next++;
      }
      offset += bytes.length + (next - end);
      start = next;
      if (lf !== -1 && lf < start) lf = chunk.indexOf(0x0a, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(0x0d, start);
    }
    // A copy: a source may read every chunk into the same buffer (run/range-worker.ts).
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
    if (batch.length > 0) yield batch;
  }
  if (pending.length > 0) yield [{ bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending), offset }];
}

/**
 * A batch of the lines byteLineBatches gives, as decoded text when their
 * bytes are UTF-8 (nearly always): the bytes of every line the chunk ends
 * are checked and decoded in one call, not one per line (issue 26). Lines in
 * bytes that are not UTF-8 come as bytes with their offsets, to be decoded
 * (and their mistake located) one by one.
 */
export type LineBatch = { text: true; lines: string[] } | { text: false; lines: ByteLine[] };

/**
 * The lines of byteLineBatches, a batch per chunk that ends a line, decoded
 * where they are UTF-8 (LineBatch). A text batch's lines are strings, so
 * nothing of the chunk is held: a source may read every chunk into the same
 * buffer.
 */
export async function* lineBatches(chunks: AsyncIterable<Uint8Array>, firstOffset = 0): AsyncGenerator<LineBatch> {
  let pending: Uint8Array[] = [];
  let offset = firstOffset;
  let afterCr = false;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    let start = 0;
    if (afterCr && chunk[0] === 0x0a) {
      start = 1;
      offset++;
    }
    afterCr = false;
    // The chunk's last line break: the lines up to it are whole, the bytes after it wait for the next chunk.
    const last = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
    if (last < start) {
      if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
      continue;
    }
    const head = chunk.subarray(start, last + 1);
    const bytes = pending.length === 0 ? head : Buffer.concat([...pending, head]);
    pending = [];
    if (chunk[last] === 0x0d && last === chunk.length - 1) afterCr = true;
    const text = utf8Text(bytes);
    const batch: LineBatch =
      text !== undefined ? { text: true, lines: textLines(text) } : { text: false, lines: byteLinesOf(bytes, offset) };
    offset += bytes.length;
    yield batch;
    // A copy: a source may read every chunk into the same buffer.
    if (last + 1 < chunk.length) pending.push(Buffer.from(chunk.subarray(last + 1)));
  }
  if (pending.length > 0) yield { text: false, lines: [{ bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending), offset }] };
}

/** `bytes` as text when they are UTF-8; undefined when not, or too long for one string (each line is then decoded on its own). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    if (!isUtf8(bytes)) return undefined;
    return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString("utf8");
  } catch {
    return undefined;
  }
}

/** The lines of `text`, which ends with a line break: split at "\n", "\r\n" and a lone "\r", as byteLineBatches splits. */
export function textLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  if (text.indexOf("\r") === -1) {
    for (let end; (end = text.indexOf("\n", start)) !== -1; start = end + 1) lines.push(text.slice(start, end));
    return lines;
  }
  while (start < text.length) {
    const lf = text.indexOf("\n", start);
    const cr = text.indexOf("\r", start);
    const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
    if (end === -1) break;
    lines.push(text.slice(start, end));
    start = end === cr && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
  }
  return lines;
}

/** The lines of `bytes`, which end with a line break, with their offsets (`offset` is the first byte's). */
function byteLinesOf(bytes: Uint8Array, offset: number): ByteLine[] {
  const lines: ByteLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = start;
    while (end < bytes.length && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
    if (end === bytes.length) break;
    lines.push({ bytes: bytes.subarray(start, end), offset: offset + start });
    start = bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
  }
  return lines;
}
