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
