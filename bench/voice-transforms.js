// Meaning-preserving rewrites of a BEHAVIOR.md, for bench/offline-drafter-voice.js (issue 25): the
// same rules in another voice, so a draft that changes under one of them read the voice, not the rule.
//
// Each transform takes the file's text and returns the new text. None touches the frontmatter,
// fenced code blocks, or any text between backticks (action and key names are the samples' own).
// Only `caps` touches headings (upper-cased, as a laminated card writes them): the bench maps each
// section's new heading back to the spec's by position, since the hand labels are keyed by rule name.

/** The frontmatter (with its fences and the newline after them) and the body. */
function splitFrontmatter(text) {
  const m = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m === null ? ["", text] : [m[0], text.slice(m[0].length)];
}

const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const LIST_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$/;

/**
 * The body's lines, each with what it is: "fence" (a code fence or a line inside one), "heading",
 * "table" (a row), "blank", or "text".
 */
function linesOf(body) {
  let fenced = null;
  return body.split("\n").map((line) => {
    const fence = FENCE.exec(line);
    if (fenced !== null) {
      if (fence !== null && fence[1] === fenced) fenced = null;
      return { line, kind: "fence" };
    }
    if (fence !== null) {
      fenced = fence[1];
      return { line, kind: "fence" };
    }
    if (line.trim() === "") return { line, kind: "blank" };
    if (HEADING.test(line)) return { line, kind: "heading" };
    // A table's rows: a line put before one, or a motion inside one, would break the table.
    if (/^\s*\|/.test(line)) return { line, kind: "table" };
    return { line, kind: "text" };
  });
}

/** `f` applied to the parts of `line` outside inline code spans (`…`); a lone backtick opens nothing. */
function outsideBackticks(line, f) {
  let out = "";
  let at = 0;
  for (const m of line.matchAll(/(`+)[^`]*?\1/g)) {
    out += f(line.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + f(line.slice(at));
}

/** Every letter outside backticks, the frontmatter and code blocks upper-cased, headings included (a laminated card). */
export function caps(text) {
  const [front, body] = splitFrontmatter(text);
  const lines = linesOf(body).map(({ line, kind }) => (kind === "fence" ? line : outsideBackticks(line, (s) => s.toUpperCase())));
  return front + lines.join("\n");
}

/**
 * The paragraphs of the body outside headings and code blocks: runs of "text" lines, each as
 * [first line, last line] indices. A list item starts a paragraph of its own (each item of a list
 * is one statement), and so does a line after a heading.
 */
function paragraphsOf(lines) {
  const paragraphs = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].kind !== "text") continue;
    const continues = i > 0 && lines[i - 1].kind === "text" && !LIST_ITEM.test(lines[i].line);
    if (continues) paragraphs[paragraphs.length - 1][1] = i;
    else paragraphs.push([i, i]);
  }
  return paragraphs;
}

// Message headers of a thread: who wrote and when. The dates and times are no thresholds of any rule.
const HEADERS = ["**R. Okafor · Thu 4 Mar, 16:20**", "**J. Kowalski · Fri 5 Mar, 09:05**", "**R. Okafor · Mon 8 Mar, 11:47**"];

/**
 * A message header line ("**R. Okafor · Thu 4 Mar, 16:20**") before each paragraph, as in a thread
 * of e-mails: a paragraph here is a block between blank lines. A block that starts with a list item
 * or an indented line, or follows a lead-in ("… the clerk must:"), continues the message before it
 * and gets none: a header there would cut a list from the sentence it completes.
 */
export function headers(text) {
  const [front, body] = splitFrontmatter(text);
  const lines = linesOf(body);
  const out = [];
  let k = 0;
  let lastText = "";
  lines.forEach(({ line, kind }, i) => {
    const starts = kind === "text" && (i === 0 || lines[i - 1].kind !== "text");
    if (starts && !LIST_ITEM.test(line) && !/^\s/.test(line) && !/:\s*$/.test(lastText)) out.push(HEADERS[k++ % HEADERS.length]);
    if (kind !== "blank") lastText = kind === "text" ? line : "";
    out.push(line);
  });
  return front + out.join("\n");
}

/** Words that make a paragraph an obligation (a duty, a ban, a limit or a condition on an act). */
const OBLIGATION =
  /\b(?:must|shall|never|only|always|required|requires?|is to|are to|may not|cannot|can't|mustn't|no later than|at most|not more than|no more than|unless|without|until|forbidden|prohibited)\b/i;
const MOTION = "Agreed (proposed R.O., seconded J.K.): ";

/**
 * Each paragraph (or list item) that states an obligation prefixed with a committee's "Agreed
 * (proposed R.O., seconded J.K.): ", as minutes record a rule. After a list item's marker, and after
 * a block quote's ">", so the item stays an item.
 */
export function minutes(text) {
  const [front, body] = splitFrontmatter(text);
  const lines = linesOf(body);
  const starts = new Set();
  for (const [first, last] of paragraphsOf(lines)) {
    const words = lines.slice(first, last + 1).map(({ line }) => line.replace(/(`+)[^`]*?\1/g, ""));
    if (OBLIGATION.test(words.join(" "))) starts.add(first);
  }
  const out = lines.map(({ line }, i) => {
    if (!starts.has(i)) return line;
    const m = /^(\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?)(.*)$/.exec(line);
    return m[1] + MOTION + m[2];
  });
  return front + out.join("\n");
}

/** The transforms by name, in the bench's order. */
export const TRANSFORMS = { caps, headers, minutes };
