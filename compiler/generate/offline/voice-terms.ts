/**
 * A contract's defined terms (voice.ts, issue 25). A contract schedule names its tools once, in a
 * definitions paragraph ("The "Register Lookup" is the tool lookup_key_system", ""Handover" is the
 * tool `hand_over`", ""Lost Key Report" means report_lost"), and its clauses then speak only of the
 * term, capitalised: "Prior to each Handover, …", "Upon a Lost Key Report for a Key System, …". The
 * readers find an act by its name or the words it is called by, and a defined term is neither, so
 * the clause is read with the term's tool in its place ("Before each hand_over, …"). The spans are
 * kept (voice-spans.ts): a quote is still the clause's own words.
 */
import type { BehaviorSpec } from "../../behavior-md/load.js";
import type { Lexicon } from "./lexicon.js";
import { escapeRegExp } from "./shape.js";
import { rewrite, type Voiced } from "./voice-spans.js";

/**
 * ""Handover" is the tool `hand_over`", "The "Register Lookup" is the tool lookup_key_system",
 * ""Lost Key Report" means report_lost": a quoted term, "means" or "is (the tool)", then a name. A
 * term that means something else (""Key System" means a restricted master-key system") is no tool's.
 */
const DEFINITION =
  /["\u201c]([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})["\u201d]\s+(?:means|is|shall\s+mean|refers\s+to)\s+(?:the\s+(?:tool|action|call|function)\s+)?`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+)`?(?=[\s,.;:)]|$)/g;

/** Per defined term, the action it names, from the spec's description and preamble; only terms naming one of `actions`. */
export function definedTerms(texts: readonly string[], actions: ReadonlySet<string>): Map<string, string> {
  const terms = new Map<string, string>();
  for (const text of texts)
    for (const m of text.replace(/\s+/g, " ").matchAll(DEFINITION)) if (actions.has(m[2]!) && !terms.has(m[1]!)) terms.set(m[1]!, m[2]!);
  return terms;
}

/** The lexicon with the spec's defined terms that name one of its actions (none: the lexicon as it was). */
export function withDefinedTerms(lexicon: Lexicon, spec: Pick<BehaviorSpec, "description" | "preamble">): Lexicon {
  const terms = definedTerms([spec.description, spec.preamble], new Set(lexicon.actions.map((a) => a.name)));
  return terms.size === 0 ? lexicon : { ...lexicon, definedTerms: terms };
}

/**
 * The sentence with each defined term (as written, capitalised; a plural too) read as the tool it names.
 * `anyCase`: a sentence written in capitals (voice-case.ts) lost the terms' initials, so any case matches.
 */
export function withTerms(v: Voiced, terms: ReadonlyMap<string, string> | undefined, anyCase = false): Voiced {
  if (terms === undefined || terms.size === 0) return v;
  // Longest first: "Register Lookup" before a term "Lookup" of its own.
  const names = [...terms.keys()].sort((a, b) => b.length - a.length);
  const byLower = new Map(names.map((n) => [n.toLowerCase(), terms.get(n)!]));
  const pattern = new RegExp(
    `\\b(${names.map((n) => escapeRegExp(n).replace(/\s+/g, "\\s+")).join("|")})(?:s|es)?\\b`,
    anyCase ? "gi" : "g",
  );
  return rewrite(v, pattern, (m) => {
    const term = m[1]!.replace(/\s+/g, " ");
    return anyCase ? byLower.get(term.toLowerCase()) : terms.get(term);
  });
}
