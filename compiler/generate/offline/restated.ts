/**
 * A ban (or a requirement) the rule's condition spells out: "No unit is handed over on an old or borrowed crossmatch.
 * For each `issue_unit`, the latest crossmatch result for that same unit has to say
 * `compatible: yes`…", "A possession is never granted on a line that trains can still run on.
 * Whenever Blockpost calls `grant_possession`, the most recent get_section result … must show
 * `line_state: blocked`". The opening sentence says in the domain's words what the condition
 * says in the tools' ("handed over" is `issue_unit`, "an old crossmatch" is the look-up's
 * values), and its qualifier ("on a line that trains can still run on") is what no matcher of a
 * plain ban carries: read alone it forbids the act, or the look-up, outright, which the condition
 * on the same act says it may do. Such a ban is no check of its own: it becomes a question, the
 * clause the drafter could not map that it is, with a note naming the condition. Folding it into
 * the condition's quote would hide what its qualifier adds ("is never hired for longer than the
 * insurance allows" after a condition on the look-up), so the person decides.
 */
import type { Check, ConditionCheck, Pattern, SemanticCheck } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { DraftNote } from "../types.js";
import { semanticFor, type ClauseOutcome } from "./clauses.js";

type Note = Omit<DraftNote, "rule">;

const actionsOf = (pattern: Pattern): string[] =>
  pattern.flatMap((m) => {
    const a = exactValue(m.action);
    if (a !== undefined) return [a];
    return typeof m.action === "object" && m.action !== null && "in" in m.action ? (m.action.in as string[]) : [];
  });

/** The actions a condition on a latest look-up is about: its act, the look-up, and the look-up's call. */
function conditioned(check: ConditionCheck): Set<string> {
  const out = new Set(actionsOf(check.each));
  for (const binding of Object.values(check.with ?? {}))
    if ("latest" in binding && binding.latest !== undefined)
      for (const a of actionsOf(binding.latest)) {
        out.add(a);
        out.add(a.replace(/_result$/, ""));
      }
  return out;
}

/**
 * Whether a check is a plain ban or requirement (no window, no tie) of some action a condition of
 * the rule is about, with no value narrowing it there: "Every shot needs a second pair of eyes"
 * read as "a shot must occur", before the condition on each shot's approval.
 */
function restates(ban: Check, conditions: readonly ConditionCheck[]): ConditionCheck | undefined {
  if ((ban.type !== "forbidden" && ban.type !== "required") || ban.after !== undefined || ban.on !== undefined) return undefined;
  return conditions.find((c) => {
    const about = conditioned(c);
    return ban.match.some((m) => m.metadata === undefined && m.content === undefined && about.has(exactValue(m.action) ?? ""));
  });
}

/**
 * The rule's checks with each ban a condition of the rule restates turned into a question; the
 * notes follow their checks.
 */
export function restatedBansAsQuestions(
  checks: readonly Check[],
  semanticChecks: readonly SemanticCheck[],
  notes: readonly Note[],
): { checks: Check[]; semanticChecks: SemanticCheck[]; notes: Note[] } {
  const conditions = checks.filter((c): c is ConditionCheck => c.type === "condition" && c.with !== undefined);
  const out = checks.slice();
  const semantic = semanticChecks.slice();
  const added: Note[] = [];
  const dropped = new Set<number>();
  checks.forEach((ban, i) => {
    const condition = restates(ban, conditions);
    if (condition === undefined) return;
    dropped.add(i);
    const forbidding = ban.type === "forbidden";
    const question = semanticFor(ban.quote, forbidding, "") as Extract<ClauseOutcome, { kind: "semantic" }>;
    const read = forbidding
      ? `read as a ban, it would forbid what the condition "${condition.quote}" allows`
      : `read as a requirement, it would ask every session for what the condition "${condition.quote}" is about`;
    added.push({
      clause: { kind: "semanticCheck", index: semantic.length },
      kind: "unmapped-clause",
      message: `${read}, so it became a semantic question: edit it, map it to events, or drop it if the condition says it all`,
    });
    semantic.push(question.semantic);
  });
  if (dropped.size === 0) return { checks: out, semanticChecks: semantic, notes: notes.slice() };
  // The notes on a dropped check go with it; those on later checks move up.
  const moved = notes.flatMap((note) => {
    if (note.clause?.kind !== "check") return [note];
    const was = note.clause.index;
    if (dropped.has(was)) return [];
    const index = was - [...dropped].filter((d) => d < was).length;
    return [{ ...note, clause: { kind: "check" as const, index } }];
  });
  return { checks: out.filter((_, i) => !dropped.has(i)), semanticChecks: semantic, notes: [...moved, ...added] };
}
