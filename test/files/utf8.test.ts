/** Strict UTF-8 (compiler/files/utf8.ts): refused exactly when TextDecoder refuses, located at the first bad sequence. */
import { describe, expect, test } from "vitest";
import { decodeUtf8 } from "../../compiler/files/utf8.js";

const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

describe("decodeUtf8", () => {
  test("decodes valid text exactly as Node does, a byte order mark included", () => {
    const text = "\uFEFFid: café ✓ 𝄞\r\nline two";
    expect(decodeUtf8(Buffer.from(text, "utf8"))).toEqual({ ok: true, text });
  });

  test.each([
    ["a lone continuation byte", [0x61, 0x0a, 0x62, 0x80], { byteOffset: 3, line: 2, col: 2, bytes: "0x80" }],
    ["a byte that never starts a character", [0xff], { byteOffset: 0, line: 1, col: 1, bytes: "0xFF" }],
    ["an overlong slash", [0x2f, 0xc0, 0xaf], { byteOffset: 1, line: 1, col: 2, bytes: "0xC0" }],
    ["an encoded surrogate", [0xed, 0xa0, 0x80], { byteOffset: 0, line: 1, col: 1, bytes: "0xED 0xA0" }],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], { byteOffset: 0, line: 1, col: 1, bytes: "0xF4 0x90" }],
    ["a sequence cut by the end", [0xc3, 0xa9, 0xe2, 0x82], { byteOffset: 2, line: 1, col: 2, bytes: "0xE2 0x82" }],
    [
      "a bad third byte after valid text on line 3",
      [0x0a, 0x0a, 0xf0, 0x9d, 0x84, 0x9e, 0xe2, 0x82, 0x41],
      { byteOffset: 6, line: 3, col: 3, bytes: "0xE2 0x82 0x41" },
    ],
  ])("locates %s", (_name, bytes, invalid) => {
    expect(decodeUtf8(Uint8Array.from(bytes))).toEqual({ ok: false, invalid });
  });

  test("agrees with TextDecoder on random bytes: same verdict, and the valid text stops where the first U+FFFD starts", () => {
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return (state >>> 8) % n;
    };
    const pieces = [
      [0x41],
      [0x0a],
      [0xc3, 0xa9],
      [0xe2, 0x9c, 0x93],
      [0xf0, 0x9d, 0x84, 0x9e],
      [0x80],
      [0xbf],
      [0xc0],
      [0xc2],
      [0xe0],
      [0xed],
      [0xf4],
      [0xf5],
      [0xff],
      [0xa0],
      [0x90],
    ];
    let refused = 0;
    for (let k = 0; k < 5000; k++) {
      const bytes = Uint8Array.from(Array.from({ length: 1 + random(6) }, () => pieces[random(pieces.length)]!).flat());
      const decoded = decodeUtf8(bytes);
      const loose = lenient.decode(bytes);
      expect(decoded.ok).toBe(!loose.includes("\uFFFD"));
      if (decoded.ok) continue;
      refused++;
      const { byteOffset, line, col } = decoded.invalid;
      const before = lenient.decode(bytes.subarray(0, byteOffset));
      expect(loose.indexOf("\uFFFD")).toBe(before.length);
      expect(line).toBe(before.split("\n").length);
      expect(col).toBe(before.length - before.lastIndexOf("\n"));
    }
    expect(refused).toBeGreaterThan(1000);
  });
});
