/**
 * A section body as the drafters read it: paragraphs, then sentences, each
 * kept verbatim (up to whitespace) so that any slice of one is a valid
 * `quote`. Rationale paragraphs ("**Why:** …") and the occurrence line
 * ("Each X is one occurrence.") are told apart from the rule's own text.
 */
import { literalLines } from "../../behavior-md/load.js";
import { normalizeWhitespace } from "./words.js";
import { contextKinds, type ContextKind } from "./context.js";
import { messageHeader } from "./header.js";
import { banHeading, banLeadIn, bareAct, dontColumn } from "./banned-acts.js";

/** "context": a header, a question, a report, an action item, a closing or a superseded draft (context.ts). */
export type SentenceRole = "rule" | "occurrence" | "rationale" | "context";

export interface SpecSentence {
  /** The sentence without its final period, whitespace collapsed: a verbatim quote. */
  text: string;
  role: SentenceRole;
  /** 0-based paragraph index within the section. */
  paragraph: number;
  /** What kind of context a "context" sentence is. */
  context?: ContextKind;
  /** A bare act its place bans: a "Don't" column's cell, an item under "Never:" (banned-acts.ts). */
  banned?: true;
}

const RATIONALE = /^(?:\*\*|__)?(?:why|rationale|background|context|notes?|examples?|because)\b/i;
const OCCURRENCE = /\b(?:is|counts as|are)\s+(?:one|an|a single)\s+occurrences?\b/i;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/;
/** Words before a period that do not end a sentence. */
const ABBREVIATIONS = new Set([
  "e.g",
  "i.e",
  "etc",
  "vs",
  "cf",
  "no",
  "nos",
  "rev",
  "proc",
  "mr",
  "mrs",
  "ms",
  "dr",
  "st",
  "approx",
  "inc",
  "ltd",
  "fig",
  "sec",
  "u.s",
]);

/**
 * Paragraphs and list items of a Markdown body, and the table cells that are rules (ruleCells);
 * headings, fences, HTML comments, the rest of a table and HTML are left out.
 */
export function paragraphs(body: string): string[] {
  return readParagraphs(body).map((p) => p.text);
}

/** A paragraph as the readers read it: `banned` when its place bans the bare act it writes (banned-acts.ts). */
export interface ReadParagraph {
  text: string;
  banned?: true;
}

/**
 * paragraphs(), each with whether its place bans it: a "Don't" column's cell or an item of a list
 * under a "Never:" lead-in or a "### Don'ts" heading, written as a bare act. The lead-in itself
 * ("Never:") says nothing of its own and is left out.
 */
export function readParagraphs(body: string): ReadParagraph[] {
  const out: ReadParagraph[] = [];
  let current: string[] = [];
  let table: string[][] = [];
  let item = false;
  // Under a ban's heading or lead-in: its list's items are bans; a paragraph that is no item ends a lead-in's list.
  let under: "heading" | "lead" | undefined;
  const flush = () => {
    if (current.length > 0) {
      const text = normalizeWhitespace(current.join(" "));
      if (!item && under === "lead") under = undefined;
      if (!item && banLeadIn(text)) under = "lead";
      else out.push(under !== undefined && item && bareAct(text) ? { text, banned: true } : { text });
    }
    current = [];
    item = false;
    if (table.length > 0) out.push(...ruleCells(cellsOf(table)));
    table = [];
  };
  const lines = body.split(/\r\n|\r|\n/);
  // The loader's reading of fences and comments: what it does not split at, the drafters do not read.
  const literal = literalLines(lines);
  for (const [i, line] of lines.entries()) {
    if (literal[i] !== true && /^\s*\|/.test(line)) {
      if (table.length === 0) flush();
      table.push(tableRow(line));
      continue;
    }
    if (literal[i] !== true && /^\s{0,3}#/.test(line)) {
      flush();
      under = banHeading(line) ? "heading" : undefined;
      continue;
    }
    if (literal[i] === true || line.trim() === "" || /^\s*</.test(line)) {
      flush();
      continue;
    }
    if (table.length > 0) flush();
    // A message's header ("**Helen Marsh · Tue 9 Mar, 13:02**") is a paragraph of its own, not the start of the message's
    // first sentence, whether that sentence is on the next line or after the header on its own (header.ts).
    const header = messageHeader(line);
    if (header !== undefined) {
      flush();
      current.push(header);
      flush();
      const rest = line.trim().slice(header.length).trim();
      if (rest !== "") current.push(rest);
      continue;
    }
    if (LIST_MARKER.test(line)) {
      flush();
      item = true;
      current.push(line.replace(LIST_MARKER, ""));
      continue;
    }
    current.push(line);
  }
  flush();
  return out.filter((p) => p.text !== "");
}

/** One cell of a Markdown table in a body: its text (whitespace normalized) and its column's header cell. */
export interface TableCell {
  text: string;
  /** The header cell of the cell's column ("" for a table without a delimiter row, or a header cell itself). */
  column: string;
}

/** A table's delimiter row: `|---|:--:|`. */
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * The cells of a body's pipe tables (lines that start with `|`, outside fences and comments), in
 * order. Coverage reads every cell, so that an obligation written in one ("| Don't | Mix theatre
 * linen with ward linen |") is said to be not covered when no clause quotes it; the readers read
 * only the cells that are rules as written (ruleCells).
 */
export function tableCells(body: string): TableCell[] {
  const lines = body.split(/\r\n|\r|\n/);
  const literal = literalLines(lines);
  const out: TableCell[] = [];
  let table: string[][] = [];
  for (const [i, line] of lines.entries()) {
    if (literal[i] !== true && /^\s*\|/.test(line)) table.push(tableRow(line));
    else {
      out.push(...cellsOf(table));
      table = [];
    }
  }
  out.push(...cellsOf(table));
  return out;
}

/** A table's rows as cells: the delimiter row left out, each body cell with its column's header cell. */
function cellsOf(table: string[][]): TableCell[] {
  const out: TableCell[] = [];
  const delimited = table.length > 1 && table[1]!.every((cell) => /^:?-+:?$/.test(cell));
  const header = delimited ? table[0]! : [];
  for (const [r, row] of table.entries()) {
    if (delimited && r === 1) continue;
    for (const [c, cell] of row.entries()) {
      const text = normalizeWhitespace(cell);
      if (text !== "") out.push({ text, column: delimited && r > 0 ? normalizeWhitespace(header[c] ?? "") : "" });
    }
  }
  return out;
}

/** A column of imperatives to do: "Do", "Must", "Always", "Rules". */
const DO_COLUMN = /^(?:do|dos|do's|must|always|required|rules?|shall)$/i;

/**
 * The cells a reader reads: each cell of a "Do" column, and each cell of a "Don't" column: as
 * written when it forbids in its own words, else `banned` (a bare act, "Mix theatre linen with ward
 * linen", which read alone would be an order to do it: banned-acts.ts).
 */
function ruleCells(cells: readonly TableCell[]): ReadParagraph[] {
  return cells.flatMap((cell): ReadParagraph[] => {
    const column = cell.column.replace(/[*_`:.!]/g, "").trim();
    if (DO_COLUMN.test(column)) return [{ text: cell.text }];
    if (!dontColumn(column)) return [];
    return [bareAct(cell.text) ? { text: cell.text, banned: true } : { text: cell.text }];
  });
}

function tableRow(line: string): string[] {
  return DELIMITER_ROW.test(line) ? delimiterCells(line) : rowCells(line);
}

/** A row's cells: split at pipes not escaped with a backslash, the outer pipes' empty ends dropped. */
function rowCells(line: string): string[] {
  const cells = line.trim().split(/(?<!\\)\|/);
  if (cells[0]!.trim() === "") cells.shift();
  if (cells.length > 0 && cells[cells.length - 1]!.trim() === "") cells.pop();
  return cells;
}

function delimiterCells(line: string): string[] {
  return rowCells(line).map((c) => c.trim());
}

/** Splits a paragraph after . ! ? followed by a capital, a quote or emphasis, skipping abbreviations. */
export function splitSentences(paragraph: string): string[] {
  return splitRaw(paragraph)
    .map(stripFinalStop)
    .filter((s) => s !== "");
}

/** The paragraph's sentences as written, each with its final stop ("?" says it asks). */
function splitRaw(paragraph: string): string[] {
  const sentences: string[] = [];
  const boundary = /[.!?]["')\]*_]*\s+(?=["'(*_`]*[A-Z0-9])/g;
  let start = 0;
  for (const match of paragraph.matchAll(boundary)) {
    const end = match.index!;
    const before = /([A-Za-z.]+)$/.exec(paragraph.slice(start, end))?.[1]?.toLowerCase() ?? "";
    // A single letter is an initial ("J. Smith"), unless it is a unit after a number ("more than 15 g.").
    const unit = /\d\s?[a-z]$/i.test(paragraph.slice(start, end));
    if (ABBREVIATIONS.has(before) || (/^[a-z]$/i.test(before) && !unit)) continue;
    sentences.push(paragraph.slice(start, end + 1));
    start = end + match[0].length;
  }
  if (start < paragraph.length) sentences.push(paragraph.slice(start));
  return sentences;
}

/** "…session." → "…session": hand-written quotes leave the period out. */
function stripFinalStop(sentence: string): string {
  return sentence
    .trim()
    .replace(/[.!?]+$/, "")
    .trim();
}

/**
 * A section body without its rationale paragraphs ("**Why:** …"): the rule's own words. A value the
 * rationale names (the lift of an old incident) is a story, not a matcher the rule states.
 */
export function ruleParagraphs(body: string): string {
  return paragraphs(body)
    .filter((p) => !RATIONALE.test(p))
    .join("\n\n");
}

/**
 * A sentence that opens with a message's header ("**Owen Pryce · Mon 8 Mar, 11:30** Once a permit …", after the
 * sentence before it on the same line) as two: the header, and the sentence the message says (header.ts).
 */
function unheaded(raw: string): { raw: string; header: boolean }[] {
  const header = messageHeader(raw);
  const rest = header === undefined ? "" : raw.trim().slice(header.length).trim();
  // A header the sentence is all of stands on a line of its own, and paragraphs() has made it a paragraph.
  return rest === ""
    ? [{ raw, header: false }]
    : [
        { raw: header!, header: true },
        { raw: rest, header: false },
      ];
}

/** Every sentence of a section body, with its role. */
export function sectionSentences(body: string): SpecSentence[] {
  const all = readParagraphs(body).flatMap(({ text, banned }, paragraph) => {
    const rationale = RATIONALE.test(text);
    const wholly = messageHeader(text) === text;
    return (
      splitRaw(text)
        .flatMap((raw) => (wholly ? [{ raw, header: true }] : unheaded(raw)))
        .map(({ raw, header }) => ({ text: stripFinalStop(raw), asked: /\?["')\]*_]*\s*$/.test(raw), header }))
        .filter((s) => s.text !== "")
        // The act its place bans is the cell's or item's first sentence; one after it ("The bees get angry.") says why.
        .map((s, k) => ({ ...s, paragraph, rationale, ...(banned === true && k === 0 ? { banned } : {}) }))
    );
  });
  // What is context is judged among the sentences that are not rationale, in order (context.ts).
  const told = all.filter((s) => !s.rationale);
  const kinds = contextKinds(told);
  return all.map((s): SpecSentence => {
    const context = s.rationale ? undefined : kinds[told.indexOf(s)];
    const base = { text: s.text, paragraph: s.paragraph, ...(s.banned === true ? { banned: s.banned } : {}) };
    if (s.rationale) return { ...base, role: "rationale" };
    if (context !== undefined) return { ...base, role: "context", context };
    return { ...base, role: OCCURRENCE.test(s.text) ? "occurrence" : "rule" };
  });
}
