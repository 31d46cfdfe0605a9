/**
 * The terminal interview's structured edit: the clause's fields one prompt
 * at a time, each prefilled and checked by the parser as it is answered
 * (see the answer format in terminal.ts).
 */
import type { CheckType } from "../../runtime/types.js";
import { formatDiagnostic } from "../diagnostics.js";
import {
  CHECK_TYPES,
  emptyBinding,
  emptyMatcher,
  isEmptyBinding,
  isEmptyMatcher,
  isWindowed,
  PATTERN_ROLES,
  retype,
  type BindingFields,
  type CheckForm,
  type ClauseForm,
  type MatcherFields,
} from "./fields.js";
import { formSnippet } from "./form-snippet.js";
import { parseClauseSnippet } from "./snippet.js";
import type { InterviewAction, InterviewState } from "./state.js";
import type { LineReader } from "./terminal-lines.js";
import { formatPreview, indent } from "./terminal-screens.js";
import { previewEdit, type QuestionView } from "./view.js";

/** Writes text to the person's terminal, escaped. */
export type Write = (text: string) => void;

/** One field of the form: where it is (the parser's path for it), and how to read and set it. */
interface Field {
  path: string;
  /** What stays the same while the field is edited (a name's fields move with the name): the path unless given. */
  id?: string;
  hint?: string;
  get(): string;
  set(value: string): void;
}

type Form = ClauseForm;

/**
 * Walks the person through the clause's fields, each prefilled. Every answer
 * is checked by the parser at once (the form as it stands, written with the
 * quote kept); a value it refuses is undone and the field asked again. Once
 * the form parses, its preview is shown and the person saves it or not.
 */
export async function editByField(
  state: InterviewState,
  view: QuestionView,
  lines: LineReader,
  write: Write,
): Promise<InterviewAction | "again"> {
  let form: Form = structuredClone(view.forms[view.formKind] ?? view.forms.trigger!);
  const quote = view.quote ?? "";
  write(`current: ${view.editOneLine}\n`);
  write(
    'Edit field by field: Enter keeps the value in [brackets], "-" clears it; or type the whole clause as one line of JSON or flow YAML ({…}).\n',
  );
  if (view.quote !== undefined) write(`  quote (kept verbatim): ${JSON.stringify(quote)}\n`);
  let first = true;
  for (;;) {
    for (let i = 0; ; i++) {
      // The list is rebuilt after each answer: a new type brings other fields.
      const fields = formFields(form, view, (next) => (form = next));
      const field = fields[i];
      if (field === undefined) break;
      const before = structuredClone(form);
      write(`  ${field.path}${field.hint === undefined ? "" : ` (${field.hint})`} [${field.get()}]: `);
      const line = await lines.next();
      if (line === undefined) return { type: "accept" };
      if (first && line.trim().startsWith("{")) return { type: "edit", text: line, as: pastedKind(view, line) };
      first = false;
      if (line.trim() === "") continue;
      field.set(line.trim() === "-" ? "" : line.trim());
      const problems = fieldProblems(form, quote, field.path);
      if (problems.length > 0) {
        for (const d of problems) write(`!   ${formatDiagnostic(d)}\n`);
        form = before;
        i--;
        continue;
      }
      // Go on after this field in the form as it is now; a field the answer took away (semantic: no) is not skipped past.
      const at = formFields(form, view, (next) => (form = next)).findIndex((f) => (f.id ?? f.path) === (field.id ?? field.path));
      i = at >= 0 ? at : i - 1;
    }
    form = withoutClearedAlternatives(form);
    const text = formSnippet(form, quote);
    const preview = previewEdit(state, text, form.kind);
    if (!preview.ok) {
      write("! the edit is not a valid clause yet:\n");
      for (const d of preview.diagnostics) write(`!   ${formatDiagnostic({ ...d, line: 0, col: 0 })}\n`);
      write("  the fields again, with your values:\n");
      continue;
    }
    write(`  your edit:\n${indent(preview.yaml, "    ")}\n`);
    write(`${formatPreview(preview.preview, "with your edit").join("\n")}\n`);
    for (const warning of preview.warnings) write(`  warning: ${warning}\n`);
    write("save this edit? [Y/n] (e: the fields again): ");
    const answer = (await lines.next())?.trim().toLowerCase();
    if (answer === "e") continue;
    if (answer === "n" || answer === "no") return "again";
    return { type: "edit", text, as: form.kind };
  }
}

/** A whole clause typed at a check or semantic check's question is an event check when it has a type, else a question. */
function pastedKind(view: QuestionView, line: string): QuestionView["formKind"] {
  if (view.clause.kind === "trigger") return "trigger";
  return /(?:^|[{,\s])["']?type["']?\s*:/.test(line) ? "check" : "semanticCheck";
}

/** The parser's problems with the field just answered; the rest wait until the whole form is answered. */
function fieldProblems(form: Form, quote: string, path: string) {
  const kind = form.kind;
  const parsed = parseClauseSnippet(kind, formSnippet(form, quote));
  if (parsed.ok) return [];
  return parsed.diagnostics
    .filter((d) => d.path === path || d.path.startsWith(`${path}.`) || d.path.startsWith(`${path}[`))
    .map((d) => ({ ...d, line: 0, col: 0 }));
}

/** An alternative whose every field was cleared is gone, unless it was the only one. */
function withoutClearedAlternatives(form: Form): Form {
  const prune = (matchers: MatcherFields[]) => {
    const kept = matchers.filter((m) => !isEmptyMatcher(m));
    return kept.length === 0 ? matchers.slice(0, 1) : kept;
  };
  if (form.kind === "trigger") return { ...form, match: prune(form.match) };
  if (form.kind !== "check") return form;
  const patterns: Record<string, MatcherFields[]> = {};
  for (const [role, matchers] of Object.entries(form.patterns)) patterns[role] = prune(matchers);
  const bindings = form.with.filter((b) => !isEmptyBinding(b)).map((b) => ({ ...b, pattern: prune(b.pattern) }));
  return { ...form, patterns, after: form.after.filter((m) => !isEmptyMatcher(m)), with: bindings };
}

/** The fields of a form in the order they are asked. `replace` swaps the whole form (a change of type or kind). */
function formFields(form: Form, view: QuestionView, replace: (form: Form) => void): Field[] {
  const text = (path: string, get: () => string, set: (v: string) => void, hint?: string): Field => ({
    path,
    get,
    set,
    ...(hint === undefined ? {} : { hint }),
  });
  if (form.kind === "trigger") {
    const fields = [
      text(
        "description",
        () => form.description,
        (v) => (form.description = v),
      ),
    ];
    // A semantic trigger may get events to match again (s makes a trigger semantic).
    if (form.semantic) {
      fields.push(
        text(
          "semantic",
          () => "yes",
          (v) => {
            if (/^(?:n|no)$/i.test(v))
              replace({ ...form, semantic: false, match: form.match.length === 0 ? [emptyMatcher()] : form.match });
          },
          "no: match events instead",
        ),
      );
    }
    if (!form.semantic) fields.push(...matcherFields("match", form.match));
    return fields;
  }
  const types = `${CHECK_TYPES.join(", ")}, or semantic`;
  const typeField = text(
    "type",
    () => (form.kind === "check" ? form.type : "semantic"),
    (v) => {
      const next = v.toLowerCase();
      if (next === "semantic") {
        if (form.kind === "check") replace(structuredClone(view.forms.semanticCheck!));
        return;
      }
      // Not a type: left for the parser, whose message lists the types.
      const type = next as CheckType;
      if (!CHECK_TYPES.includes(type)) {
        if (form.kind === "check") replace({ ...form, type });
        else replace({ ...structuredClone(view.forms.check!), type } as Form);
        return;
      }
      const asCheck = form.kind === "check" ? form : (structuredClone(view.forms.check!) as Extract<Form, { kind: "check" }>);
      replace(retype(asCheck, type));
    },
    types,
  );
  if (form.kind === "semanticCheck")
    return [
      typeField,
      text(
        "question",
        () => form.question,
        (v) => (form.question = v),
      ),
    ];
  if (!CHECK_TYPES.includes(form.type)) return [typeField];
  return [typeField, ...checkFields(form, text)];
}

type TextField = (path: string, get: () => string, set: (v: string) => void, hint?: string) => Field;

/** A check's fields after its type: its patterns, its window, and the fields of its type. */
function checkFields(form: CheckForm, text: TextField): Field[] {
  const fields: Field[] = [];
  const own = (key: "on" | "fresh" | "within" | "per" | "sum" | "min" | "max" | "distinctBy" | "when", hint: string) =>
    fields.push(
      text(
        key,
        () => form[key],
        (v) => (form[key] = v),
        hint,
      ),
    );
  for (const role of PATTERN_ROLES[form.type]) fields.push(...matcherFields(role, form.patterns[role]!));
  if (isWindowed(form.type)) {
    // No window yet: one empty alternative to fill in, left out again when it stays empty.
    if (form.after.length === 0) form.after.push(emptyMatcher());
    fields.push(...matcherFields("after", form.after, "a window: only events after its first match count; empty for none"));
  }
  if (form.type === "condition") {
    // One empty name to fill in, left out again when it stays empty.
    if (!form.with.some(isEmptyBinding)) form.with.push(emptyBinding());
    form.with.forEach((binding, i) => fields.push(...bindingFields(binding, i, text)));
    own("when", 'the expression over the names, e.g. r.status == "ok" && event.amount <= 500');
    return fields;
  }
  const sides = form.type === "ordering" ? "first, before" : form.type === "pairing" ? "each, followedBy" : "after, match";
  own("on", `metadata.<key>: both events share its value; or {${sides}: metadata.<key>} each side its own; empty for none`);
  if (form.type === "ordering") own("fresh", "true: every before event needs its own first event since the previous one");
  if (form.type === "pairing") own("within", "N: the follower is one of the next N events");
  if (form.type === "count") {
    own("min", "at least this many");
    own("max", "at most this many");
    own("distinctBy", "content or metadata.<key>");
    own("per", "metadata.<key>: the bounds hold for each of its values");
    own("sum", "metadata.<key>: bound the sum of its values, not the number of events");
  }
  return fields;
}

/** A condition's name: its name first; once it has one, the side, the pattern and `on`. */
function bindingFields(binding: BindingFields, i: number, text: TextField): Field[] {
  const name = binding.name.trim();
  const at = `with.${name === "" ? `[${i}]` : name}`;
  const fields: Field[] = [
    {
      ...text(
        at,
        () => binding.name,
        (v) => (binding.name = v),
        name === "" ? "a new name for an earlier event; empty for none" : "the name",
      ),
      id: `with[${i}]`,
    },
  ];
  if (name === "") return fields;
  fields.push({
    ...text(
      at,
      () => binding.side,
      (v) => (binding.side = v),
      "latest or first: which earlier event the name is bound to",
    ),
    id: `with[${i}].side`,
  });
  const side = binding.side.trim() === "" ? "latest" : binding.side.trim();
  fields.push(...matcherFields(`${at}.${side}`, binding.pattern).map((f, k) => ({ ...f, id: `with[${i}].pattern.${k}` })));
  fields.push({
    ...text(
      `${at}.on`,
      () => binding.on,
      (v) => (binding.on = v),
      "metadata.<key>: shares the each event's value; empty for none",
    ),
    id: `with[${i}].on`,
  });
  return fields;
}

const MATCHER_HINTS: Record<keyof MatcherFields, string> = {
  action: 'a name, or {in: [a, b]}, {matches: "^re"}, {not: a}',
  actor: "user, agent or tool",
  contentIncludes: "text the content contains",
  content: 'the whole content: {matches: "re", flags: i}, {equals: "yes"}',
  metadata: "key: value, key: {gt: 500}, key: {exists: false}, …",
};

function matcherFields(role: string, matchers: MatcherFields[], hint?: string): Field[] {
  return matchers.flatMap((matcher, i) =>
    (["action", "actor", "contentIncludes", "content", "metadata"] as const).map((key, k): Field => {
      const fieldHint = k === 0 && hint !== undefined ? hint : MATCHER_HINTS[key];
      return {
        path: `${role}[${i}].${key}`,
        get: () => matcher[key],
        set: (v) => (matcher[key] = v),
        ...(fieldHint === undefined ? {} : { hint: fieldHint }),
      };
    }),
  );
}
