/**
 * The safe builder for generated code (after ajv's `_` template): a `Code` is
 * text that is code, and there are only four ways to make one.
 *
 *   code`…${x}…`   code written here, with holes that accept only Code, numbers and booleans
 *   lit(text)      user text (names, quotes, actions, metadata) as a string literal
 *   name(p, n)     an identifier from a fixed prefix and a counter, never from user text
 *   comment(text)  a `//` line comment that user text cannot end early
 *
 * Splicing a plain string into `code` is a type error (and, should a cast
 * sneak one past the checker, a runtime error), so user text can only reach
 * generated code through `lit` or `comment`.
 */

/** Makes a Code; bound by Code's static block, so it exists only inside this module. */
let mint: (text: string) => Code;

/** Text that is code. Only this module can make one: the private field makes the type nominal. */
export class Code {
  readonly #text: string;
  private constructor(text: string) {
    this.#text = text;
  }
  static {
    mint = (text) => new Code(text);
  }
  toString(): string {
    return this.#text;
  }
}

/** What a `code` hole accepts. Numbers print as written (finite only); booleans as `true`/`false`. */
export type Hole = Code | number | boolean;

function holeText(hole: Hole): string {
  if (hole instanceof Code) return hole.toString();
  if (typeof hole === "boolean") return hole ? "true" : "false";
  if (typeof hole === "number" && Number.isFinite(hole)) return String(hole);
  throw new TypeError(`internal: code\`\` accepts only Code, finite numbers and booleans, got ${typeof hole}`);
}

/** Code written in this repository, with holes for Code, numbers and booleans. */
export function code(strings: TemplateStringsArray, ...holes: Hole[]): Code {
  let text = strings[0]!;
  for (let k = 0; k < holes.length; k++) text += holeText(holes[k]!) + strings[k + 1]!;
  return mint(text);
}

/** `parts` with `separator` between them (default `, `). */
export function join(parts: readonly Code[], separator: Code = code`, `): Code {
  return mint(parts.map(String).join(separator.toString()));
}

/**
 * `</` becomes `<\/`, so a judge inlined into an HTML page cannot close its
 * script element. The one place this is done: string literals (`lit`),
 * comments (`comment`) and the bundled judge.mjs (build/bundle.ts) all call it.
 * Inside a string, a regex or a comment `<\/` means the same as `</`.
 */
export function escapeScriptClose(text: string): string {
  return text.replace(/<\//g, "<\\/");
}

/**
 * A string literal for `text`: JSON escaping, plus U+2028/U+2029 (which JSON
 * allows raw but older JavaScript parsers take for line breaks), plus `</`.
 */
export function lit(text: string): Code {
  const json = JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return mint(escapeScriptClose(json));
}

/** A `// text` line comment: every line break (U+2028/9 too) becomes a space, so the comment ends where it should. */
export function comment(text: string): Code {
  return mint(`// ${escapeScriptClose(text.replace(/[\r\n\u2028\u2029]+/g, " "))}`);
}

/**
 * The identifier `${prefix}${counter}`: `name("first", 0)` is `first0`. The
 * prefix must be a literal written in the generator: a `string` variable (user
 * text) does not type-check.
 */
export function name<const P extends string>(prefix: string extends P ? never : P, counter: number): Code {
  if (!/^[A-Za-z_$][A-Za-z_$]*$/.test(prefix)) throw new TypeError(`internal: ${JSON.stringify(prefix)} is not an identifier prefix`);
  if (!Number.isSafeInteger(counter) || counter < 0) throw new TypeError(`internal: ${counter} is not an identifier counter`);
  return mint(`${prefix}${counter}`);
}

/** The identifier `${prefix}${a}_${b}`: a counter pair, for what a check has several of (a condition's bindings). */
export function name2<const P extends string>(prefix: string extends P ? never : P, a: number, b: number): Code {
  return mint(`${String(name(prefix, a))}_${String(name("n", b)).slice(1)}`);
}
