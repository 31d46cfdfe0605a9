/**
 * Text from outside (trajectories, judge.yaml, BEHAVIOR.md, label files, a
 * model's reply, file names) that is printed for a person: every character a
 * terminal or log viewer acts on, or that cannot be seen, is shown as a
 * visible escape. The one place that decides which characters those are,
 * used by the text reports, the interview and every error message that
 * quotes input.
 */

/**
 * C0 controls and DEL, C1 controls (U+009B alone starts an escape sequence on
 * some terminals), the soft hyphen, bidi controls (U+061C, U+200E/F,
 * U+202A–U+202E, U+2066–U+2069: they reorder what follows), zero-width and
 * invisible characters (U+180E, U+200B–U+200D, U+2060–U+2064, U+206A–U+206F,
 * U+FEFF, U+FFF9–U+FFFB, the tag characters U+E0000–U+E007F: `R` and `R` +
 * U+200B would look the same), and the line and paragraph separators
 * U+2028/U+2029 (a line break to some viewers).
 */
const CONTROLS = String.raw`\u0000-\u001f\u007f-\u009f`;
const INVISIBLE = String.raw`\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}`;
const ACTIVE = new RegExp(`[${CONTROLS}${INVISIBLE}]`, "gu");
/** The same set without the controls: what a page or an XML report shows as it is, and the reader cannot see. */
const INVISIBLE_ONLY = new RegExp(`[${INVISIBLE}]`, "gu");

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\u001b` as JSON and JavaScript write it; a character beyond U+FFFF as `\u{e0041}`. */
function escapeOne(c: string): string {
  const code = c.codePointAt(0)!;
  return SHORT_ESCAPES[c] ?? (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`);
}

/** Text of printable ASCII only has nothing to escape: one quick test saves the replace (issue 26). */
const NOT_PLAIN_ASCII = /[^\x20-\x7e]/;

/** For one line of output: line breaks and tabs are escaped too, so the text can neither drive the terminal nor forge a line. */
export function printable(text: string): string {
  return NOT_PLAIN_ASCII.test(text) ? text.replace(ACTIVE, escapeOne) : text;
}

/** For a message of several lines (located diagnostics, an interview screen): keeps line breaks and tabs, escapes the rest. */
export function printableLines(text: string): string {
  return text.replace(ACTIVE, (c) => (c === "\n" || c === "\t" ? c : escapeOne(c)));
}

/**
 * For an HTML page or an XML report, which escape markup and controls their
 * own way: the invisible and bidi characters above as visible escapes, so
 * trajectory text cannot reorder what is printed around it ("Fail order-17
 * PASS" from a right-to-left override) or hide in plain sight.
 */
export function visibleFormatting(text: string): string {
  return text.replace(INVISIBLE_ONLY, escapeOne);
}
