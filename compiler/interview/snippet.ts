/**
 * A clause as a YAML snippet, the starting text of an edit, and a person's
 * edited snippet back to a clause. Edits are validated by the real judge.yaml
 * parser (a one-rule document around the snippet), so what the interview
 * accepts is exactly what `build` accepts; its diagnostics come back located
 * in the snippet's own lines.
 */
import { Document } from "yaml";
import type { Diagnostic } from "../diagnostics.js";
import { parseJudgeYaml } from "../ir/parse.js";
import { checkData, semanticCheckData, triggerData } from "../ir/serialize.js";
import type { MetaBehavior } from "../ir/types.js";
import type { InterviewClause } from "./evidence.js";
import type { ClauseRef } from "../generate/types.js";

/**
 * A problem in an edited snippet: no file, located in the snippet's own lines
 * (line 0 when it is about the whole edit), its path inside the clause (e.g.
 * `first.action`; "" for the clause itself).
 */
export type SnippetDiagnostic = Diagnostic;

const PLACEHOLDER = "snippet";

/** The clause's fields in judge.yaml's canonical order, the way serializeJudgeYaml writes them. */
export function clauseData(clause: InterviewClause): unknown {
  if (clause.kind === "trigger") return triggerData(clause.trigger);
  return clause.kind === "check" ? checkData(clause.check) : semanticCheckData(clause.semanticCheck);
}

/** The clause as a block-YAML snippet, the starting text of an edit. */
export function clauseYaml(clause: InterviewClause): string {
  return new Document(clauseData(clause), { compat: "yaml-1.1" }).toString({ lineWidth: 0 });
}

interface Wrapper {
  lines: string[];
  /** 0-based index of the wrapper line that holds the snippet's first line. */
  first: number;
  /** Columns the snippet's lines are shifted right by. */
  indent: number;
  /** The clause's path in the wrapper, stripped from diagnostics. */
  path: string;
}

const HEAD = ["version: 1", `behavior: ${PLACEHOLDER}`, "metaBehaviors:", `  - name: ${PLACEHOLDER}`];
const SEMANTIC_TRIGGER = ["    trigger:", `      description: ${PLACEHOLDER}`, "      semantic: true"];

/**
 * A one-rule judge.yaml with the snippet in the clause's slot. Every snippet
 * line is indented past the wrapper's own keys, so no snippet text can close
 * the slot and add keys or rules of its own.
 */
function wrapSnippet(kind: ClauseRef["kind"], snippet: string[]): Wrapper {
  if (kind === "trigger") {
    const lines = [
      ...HEAD,
      "    trigger:",
      ...snippet.map((line) => `      ${line}`),
      "    semanticChecks:",
      `      - { quote: ${PLACEHOLDER}, question: ${PLACEHOLDER} }`,
    ];
    return { lines, first: HEAD.length + 1, indent: 6, path: "metaBehaviors[0].trigger" };
  }
  const list = kind === "check" ? "checks" : "semanticChecks";
  const item = snippet.map((line, i) => (i === 0 ? `      - ${line}` : `        ${line}`));
  const lines = [...HEAD, ...SEMANTIC_TRIGGER, `    ${list}:`, ...item];
  return { lines, first: HEAD.length + SEMANTIC_TRIGGER.length + 1, indent: 8, path: `metaBehaviors[0].${list}[0]` };
}

export type SnippetParse = { ok: true; clause: InterviewClause } | { ok: false; diagnostics: SnippetDiagnostic[] };

/**
 * Reads a person's edit of a clause: block YAML, flow YAML or JSON of one
 * check, semantic check or trigger. Checked by parseJudgeYaml inside a
 * one-rule document; its diagnostics come back located in the snippet.
 */
export function parseClauseSnippet(kind: ClauseRef["kind"], text: string): SnippetParse {
  const { lines, lineOffset, dedent } = tidySnippet(text);
  if (lines.length === 0) {
    return { ok: false, diagnostics: [wholeEdit(`write the ${kindName(kind)} as YAML or JSON`)] };
  }
  const wrapper = wrapSnippet(kind, lines);
  const parsed = parseJudgeYaml(wrapper.lines.join("\n") + "\n", { file: "edit" });
  if (!parsed.ok) {
    return {
      ok: false,
      diagnostics: parsed.diagnostics.map((d) => locateInSnippet(d, wrapper, lines.length, lineOffset, dedent)),
    };
  }
  const meta = parsed.ir.metaBehaviors[0];
  const clause = meta === undefined ? undefined : extractClause(kind, meta);
  if (clause === undefined) {
    return { ok: false, diagnostics: [wholeEdit(`the edit must be exactly one ${kindName(kind)}`)] };
  }
  return { ok: true, clause };
}

function extractClause(kind: ClauseRef["kind"], meta: MetaBehavior): InterviewClause | undefined {
  if (kind === "trigger") return { kind, trigger: meta.trigger };
  if (kind === "check") {
    const check = meta.checks[0];
    return check !== undefined && meta.checks.length === 1 && meta.semanticChecks.length === 0 ? { kind, check } : undefined;
  }
  const semanticCheck = meta.semanticChecks[0];
  return semanticCheck !== undefined && meta.semanticChecks.length === 1 && meta.checks.length === 0 ? { kind, semanticCheck } : undefined;
}

function kindName(kind: ClauseRef["kind"]): string {
  return kind === "trigger" ? "trigger" : kind === "check" ? "check" : "semantic check";
}

/** Drops blank lines around the snippet and its common indentation (a pasted block), remembering both for locations. */
function tidySnippet(text: string): { lines: string[]; lineOffset: number; dedent: number } {
  const all = text.replace(/\r\n?/g, "\n").split("\n");
  let start = 0;
  let end = all.length;
  while (start < end && all[start]!.trim() === "") start++;
  while (end > start && all[end - 1]!.trim() === "") end--;
  const lines = all.slice(start, end);
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length);
  const dedent = indents.length === 0 ? 0 : Math.min(...indents);
  return {
    lines: lines.map((line) => line.slice(Math.min(dedent, /^ */.exec(line)![0].length))),
    lineOffset: start,
    dedent,
  };
}

function locateInSnippet(d: Diagnostic, wrapper: Wrapper, count: number, lineOffset: number, dedent: number): SnippetDiagnostic {
  const index = d.line - 1 - wrapper.first;
  // A problem on the wrapper's own lines is about the clause as a whole.
  const inside = index >= 0 && index < count;
  return {
    ...d,
    file: "",
    line: inside ? index + 1 + lineOffset : 0,
    col: inside ? Math.max(1, d.col - wrapper.indent) + dedent : 0,
    path: stripPath(d.path, wrapper.path),
  };
}

function wholeEdit(message: string): SnippetDiagnostic {
  return { file: "", line: 0, col: 0, path: "", severity: "error", message };
}

function stripPath(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) return path;
  return path.slice(prefix.length).replace(/^\./, "");
}
