/**
 * A clause form (fields.ts) back to a block-YAML snippet of one clause, for
 * parseClauseSnippet: what the person typed reaches the real parser, so what
 * it says about a field is what `build` would say.
 *
 * Names, descriptions, questions and keys become quoted scalars, so an
 * action is never read as a number or a flow collection; a value matcher,
 * metadata and `on` are read by field-values.ts (strings stay strings,
 * bounds are numbers); bounds, `within` and `fresh` are written as typed
 * (`2`, `true`), so "two" or "-1" reach the parser, which says what it
 * accepts. No field can add a line to the snippet.
 */
import {
  isEmptyBinding,
  isEmptyMatcher,
  isWindowed,
  PATTERN_ROLES,
  type BindingFields,
  type CheckForm,
  type ClauseForm,
  type MatcherFields,
} from "./fields.js";
import { quoted, readMetadataField, readOnField, readValueField, snippetValueText } from "./field-values.js";

/** One line: a form field never adds lines to the snippet. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

function matcherLines(m: MatcherFields): string[] {
  const lines: string[] = [];
  if (m.action.trim() !== "") lines.push(`action: ${snippetValueText(readValueField(m.action))}`);
  if (m.actor.trim() !== "") lines.push(`actor: ${quoted(m.actor.trim())}`);
  // Content is matched as a substring, so its spaces are kept.
  if (m.contentIncludes !== "") lines.push(`contentIncludes: ${quoted(m.contentIncludes)}`);
  if (m.content.trim() !== "") lines.push(`content: ${snippetValueText(readValueField(m.content))}`);
  const metadata = oneLine(m.metadata).replace(/^\{([\s\S]*)\}$/, "$1");
  if (metadata.trim() !== "") lines.push(`metadata: ${snippetValueText(readMetadataField(metadata))}`);
  return lines;
}

/** A pattern's lines under its key, one item per alternative; an empty alternative stays, for the parser to point at. */
function patternLines(key: string, matchers: readonly MatcherFields[]): string[] {
  // No alternative left: an empty pattern, which the parser refuses with its own message.
  if (matchers.length === 0) return [`${key}: []`];
  const lines = [`${key}:`];
  for (const matcher of matchers) {
    const fields = matcherLines(matcher);
    if (fields.length === 0) lines.push("  - {}");
    fields.forEach((line, i) => lines.push(`${i === 0 ? "  - " : "    "}${line}`));
  }
  return lines;
}

function indented(lines: readonly string[], by: string): string[] {
  return lines.map((line) => by + line);
}

/** A condition's names: each a key under `with`, its side's pattern and its `on`. A slot left empty is no name. */
function bindingLines(bindings: readonly BindingFields[]): string[] {
  const named = bindings.filter((b) => !isEmptyBinding(b));
  if (named.length === 0) return [];
  const lines = ["with:"];
  for (const binding of named) {
    lines.push(`  ${quoted(oneLine(binding.name))}:`);
    // Not latest or first: written as typed, so the parser names the key it does not know.
    const side = oneLine(binding.side) === "" ? "latest" : oneLine(binding.side);
    lines.push(...indented(patternLines(quoted(side), binding.pattern), "    "));
    if (binding.on.trim() !== "") lines.push(`    on: ${snippetValueText(readOnField(oneLine(binding.on)))}`);
  }
  return lines;
}

/** `fresh`: true and false as the words people use for them; anything else as typed, for the parser to refuse. */
function freshValue(text: string): string {
  const word = oneLine(text).toLowerCase();
  if (word === "true" || word === "yes" || word === "y") return "true";
  if (word === "false" || word === "no" || word === "n") return "false";
  return quoted(oneLine(text));
}

/** The lines of a check's own fields beyond its patterns, for its type only. */
function checkExtraLines(form: CheckForm): string[] {
  const lines: string[] = [];
  const typed = (key: string, text: string) => {
    if (oneLine(text) !== "") lines.push(`${key}: ${oneLine(text)}`);
  };
  const text = (key: string, value: string) => {
    if (value.trim() !== "") lines.push(`${key}: ${quoted(value.trim())}`);
  };
  if (form.type === "condition") {
    lines.push(...bindingLines(form.with));
    // The expression is kept exactly as written: its spaces are the IR's.
    if (form.when.trim() !== "") lines.push(`when: ${quoted(form.when)}`);
    return lines;
  }
  if (form.on.trim() !== "") lines.push(`on: ${snippetValueText(readOnField(oneLine(form.on)))}`);
  if (form.type === "ordering" && form.fresh.trim() !== "") lines.push(`fresh: ${freshValue(form.fresh)}`);
  if (form.type === "pairing") typed("within", form.within);
  if (form.type === "count") {
    typed("min", form.min);
    typed("max", form.max);
    text("distinctBy", form.distinctBy);
    text("per", form.per);
    text("sum", form.sum);
  }
  return lines;
}

/**
 * The form as a block-YAML snippet of one clause for parseClauseSnippet,
 * with `quote` (the clause's current one) written verbatim.
 */
export function formSnippet(form: ClauseForm, quote: string): string {
  const lines: string[] = [];
  switch (form.kind) {
    case "semanticCheck":
      lines.push(`quote: ${quoted(quote)}`, `question: ${quoted(form.question)}`);
      break;
    case "trigger":
      lines.push(`description: ${quoted(form.description)}`);
      if (form.semantic) lines.push("semantic: true");
      else lines.push(...patternLines("match", form.match));
      break;
    case "check": {
      lines.push(`type: ${quoted(form.type)}`, `quote: ${quoted(quote)}`);
      for (const role of PATTERN_ROLES[form.type] ?? []) lines.push(...patternLines(role, form.patterns[role] ?? []));
      if (isWindowed(form.type) && form.after.some((m) => !isEmptyMatcher(m))) lines.push(...patternLines("after", form.after));
      lines.push(...checkExtraLines(form));
      break;
    }
  }
  return `${lines.join("\n")}\n`;
}
