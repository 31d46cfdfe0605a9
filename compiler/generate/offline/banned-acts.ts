/**
 * Acts a spec bans by where it writes them, not by their words (issue 25): a "Don't" column's cell
 * written as a bare act ("| Don't | Mix theatre linen with ward linen |"), a list under a "Never:" /
 * "Prohibited:" lead-in or a "### Don'ts" heading ("- Open a hive in the rain"). Read alone, each is
 * an order to do the act; its place says it is a ban. sentences.ts marks such a paragraph `banned`,
 * and the voice layer reads it with "Never " before it (voice.ts), so its quote stays the cell's or
 * the item's own words. A cell or item that forbids in its own words ("Never mix …", "must not …")
 * is read as written.
 */
import { joined, rewrite, type Voiced } from "./voice-spans.js";

/** A column of things not to do: "Don't", "Never", "Must not", "Prohibited". */
export const DONT_COLUMN =
  /^(?:don't|don'ts|dont|do not|must not|mustn't|never|not allowed|not permitted|forbidden|prohibited|banned|avoid|shall not)$/i;

/** Words that forbid on their own: a cell or item written with them reads the same outside its column or list. */
export const OWN_BAN = /^\W*(?:please\s+)?(?:don't|do not|never|no\s)|\b(?:must not|mustn't|may not|shall not|cannot|can't|never)\b/i;

/** A heading or a lead-in's label that bans what is listed under it: "Don't", "Never", "Prohibited", "Things to avoid". */
const BAN_LABEL = new RegExp(
  String.raw`^(?:${DONT_COLUMN.source.slice(4, -2)}|don[’']t|never\s+(?:do|ever)|off[- ]limits|what\s+not\s+to\s+do|things\s+(?:to\s+avoid|not\s+to\s+do|(?:we|you)\s+(?:never|don't|do\s+not)\s+do)|red\s+lines|hard\s+no(?:'s|s)?)$`,
  "i",
);

/**
 * A lead-in sentence that bans each item of the list after it: "The assistant must never:", "You must not:",
 * "Under no circumstances should the agent:", "The following are prohibited:", "Never do any of these:".
 */
const BAN_LEAD = new RegExp(
  String.raw`^(?:(?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:must|should|shall|may|will|can|is\s+to)\s*(?:not|never)(?:\s+ever)?|(?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:never|does\s+not|doesn['’]t)|under\s+no\s+circumstances\s+(?:may|should|must|will|can|shall|does)\s+(?:the\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?|(?:the\s+following|these)\s+(?:are|is)\s+(?:(?:strictly|never)\s+)?(?:prohibited|forbidden|not\s+allowed|not\s+permitted|banned)|(?:never|don['’]t|do\s+not)(?:\s+(?:ever\s+)?do)?(?:\s+(?:any\s+of\s+)?(?:the\s+following|these|this))?)(?:\s+(?:do\s+)?(?:any\s+of\s+)?(?:the\s+following|these))?$`,
  "i",
);

/** A heading's or a lead-in's words, its marks gone: "**Don'ts:**" → "Don'ts". */
function bare(text: string): string {
  return text
    .replace(/^\s{0,3}#+\s*/, "")
    .replace(/[*_`]/g, "")
    .replace(/\s*#+\s*$/, "")
    .trim();
}

/** Whether a table column's header makes its cells bans. */
export function dontColumn(header: string): boolean {
  return DONT_COLUMN.test(header.replace(/[*_`:.!]/g, "").trim());
}

/** Whether a heading line ("### Don'ts", "#### Never") bans the list under it. */
export function banHeading(line: string): boolean {
  return BAN_LABEL.test(
    bare(line)
      .replace(/[:.!]$/, "")
      .trim(),
  );
}

/** Whether a paragraph is a lead-in that bans the list after it ("Never:", "The assistant must not:"): nothing but that, and a colon. */
export function banLeadIn(paragraph: string): boolean {
  const text = bare(paragraph);
  if (!/:$/.test(text)) return false;
  const words = text.slice(0, -1).trim();
  return BAN_LABEL.test(words) || BAN_LEAD.test(words);
}

/** Whether a cell or an item under a ban is a bare act: read alone, an order to do it. */
export function bareAct(text: string): boolean {
  return !OWN_BAN.test(text);
}

/**
 * A banned bare act in the voice of a ban: "Mix theatre linen with ward linen" read as "Never mix theatre
 * linen with ward linen". The "Never " stands for no words of the cell, so a quote that starts in it starts
 * at the cell's first word (voice-spans.ts joined): the quote is the cell as written.
 */
export function readAsBan(v: Voiced): Voiced {
  const lowered = rewrite(v, /^[A-Z](?=[a-z])/g, (m) => m[0].toLowerCase());
  return joined(lowered, "Never ");
}
