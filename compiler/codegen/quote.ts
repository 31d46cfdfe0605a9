/**
 * The ONE way user text (names, quotes, actions, metadata keys and values)
 * enters generated code. Nothing else in codegen may splice user strings.
 */

/**
 * A TypeScript/JavaScript string literal for `text`: JSON escaping plus
 * U+2028/U+2029, which JSON allows raw but older JS parsers treat as line
 * breaks. `</script>` stays harmless because `<` is only ever inside quotes
 * and `/` is escaped when it follows `<`.
 */
export function quoteString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/<\//g, "<\\/");
}

/**
 * Text for a `//` line comment: every line break (including U+2028/9) becomes
 * a space, and `</` is broken up so a judge inlined in an HTML page cannot
 * close its script element.
 */
export function lineCommentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/<\//g, "<\\/");
}
