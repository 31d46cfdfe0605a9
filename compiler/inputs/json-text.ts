/** JSON text as the readers meet it: where a parse failed, and the line of each element of an array. */
import { printable } from "../report/printable.js";
import { findJsonSyntaxError, lineAndColumn } from "../files/json-syntax.js";

/**
 * Why JSON.parse refused `text`, located: the scanner finds the first error
 * itself, since the engine's message names no position for some mistakes
 * (Node 20's "Unexpected token") and quotes the input instead. `line` is the
 * text's first line in its file (JSONL). The engine's own words are kept only
 * if the scanner finds the text valid (a string too long to build, say).
 */
export function invalidJson(text: string, error: unknown, line = 1): { line?: number; col?: number; error: string } {
  const found = findJsonSyntaxError(text);
  if (found === undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: `cannot parse the JSON: ${printable(message.split("\n")[0]!.slice(0, 200))}` };
  }
  const at = lineAndColumn(text, found.offset);
  return { line: line + at.line - 1, col: at.col, error: `invalid JSON: ${printable(found.message)}` };
}

/** A byte order mark (Windows editors write one) is not JSON; RFC 8259 lets readers ignore it. */
export const BOM = "\uFEFF";

/**
 * The 1-based line on which each element of a top-level JSON array starts, so
 * an error in case 412 of a large file can name its line too. One pass over
 * text that JSON.parse has already accepted: only strings and nesting matter.
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character (never a line break in valid JSON)
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (expectElement && c !== 93) lines.push(line);
    expectElement = false;
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth === 1 && c === 91) expectElement = true;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 44 && depth === 1) expectElement = true;
  }
  return lines;
}
