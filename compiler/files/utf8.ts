/**
 * Strict UTF-8 for every file a person hands us (judge.yaml, BEHAVIOR.md,
 * trajectories). Node's "utf8" decoding replaces each invalid sequence with
 * U+FFFD, so two different invalid ids could read as the same one; here an
 * invalid sequence is an error that says where it is.
 */
import { isUtf8 } from "node:buffer";

/** Keeps a byte order mark as U+FEFF, as Node's "utf8" does, so callers handle it as before. */
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Where the first invalid sequence starts. */
export interface InvalidUtf8 {
  /** 0-based offset of the sequence's first byte in the bytes decoded. */
  byteOffset: number;
  /** 1-based line ("\n" ends a line) and column (in characters of the valid text before it). */
  line: number;
  col: number;
  /** The bytes read as the sequence, up to and including the first wrong one, in hex: "0xE2 0x28". */
  bytes: string;
}

/** Bytes as text, or where they stop being UTF-8. */
export type DecodedUtf8 = { ok: true; text: string } | { ok: false; invalid: InvalidUtf8 };

export function decodeUtf8(bytes: Uint8Array): DecodedUtf8 {
  // Checked first, then decoded by Buffer's own path: the strict decoder took a fifth of reading a large file.
  try {
    if (isUtf8(bytes)) {
      const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return { ok: true, text: buffer.toString("utf8") };
    }
  } catch {
    // A text too long for one string: the strict decoder says so as before.
  }
  try {
    return { ok: true, text: strictDecoder.decode(bytes) };
  } catch {
    return { ok: false, invalid: locateInvalidUtf8(bytes) };
  }
}

/**
 * `invalid UTF-8 at byte 1234: 0xFF`; `base` adds the offset of these bytes
 * in their file (a JSONL line), so the offset is always the file's.
 */
export function describeInvalidUtf8(invalid: InvalidUtf8, base = 0): string {
  return `invalid UTF-8 at byte ${base + invalid.byteOffset}: ${invalid.bytes}`;
}

/** Reads a file strictly (fs errors are thrown as usual). */
export async function readUtf8File(file: string): Promise<DecodedUtf8> {
  // node:fs/promises loads with the first file read so: a judge run reads its trajectories without it (issue 26).
  const { readFile } = await import("node:fs/promises");
  return decodeUtf8(await readFile(file));
}

/**
 * The first ill-formed sequence (Unicode §3.9, table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF). Only runs once TextDecoder has
 * refused the bytes, so it may be a plain loop.
 */
function locateInvalidUtf8(bytes: Uint8Array): InvalidUtf8 {
  let i = 0;
  let badLength = 1;
  scan: while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes after the lead, and the range of the first one.
    let need = 0;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead === 0xe0) [need, low] = [2, 0xa0];
    else if (lead === 0xed) [need, high] = [2, 0x9f];
    else if (lead >= 0xe1 && lead <= 0xef) need = 2;
    else if (lead === 0xf0) [need, low] = [3, 0x90];
    else if (lead === 0xf4) [need, high] = [3, 0x8f];
    else if (lead >= 0xf1 && lead <= 0xf3) need = 3;
    else break; // 0x80–0xC1 and 0xF5–0xFF never start a character
    for (let k = 1; k <= need; k++) {
      const byte = bytes[i + k];
      const ok = byte !== undefined && (k === 1 ? byte >= low && byte <= high : byte >= 0x80 && byte <= 0xbf);
      if (!ok) {
        badLength = Math.min(k + 1, bytes.length - i);
        break scan;
      }
    }
    i += need + 1;
  }
  // TextDecoder refused these bytes, so the loop stopped at the sequence it refused.
  const byteOffset = Math.min(i, bytes.length);
  // (A negative fromIndex would count from the end.)
  const lineStart = byteOffset === 0 ? 0 : bytes.lastIndexOf(0x0a, byteOffset - 1) + 1;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < byteOffset; at = bytes.indexOf(0x0a, at + 1)) line++;
  const before = strictDecoder.decode(bytes.subarray(lineStart, byteOffset));
  const shown = Array.from(bytes.subarray(byteOffset, byteOffset + badLength), (b) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`);
  return { byteOffset, line, col: before.length + 1, bytes: shown.join(" ") };
}
