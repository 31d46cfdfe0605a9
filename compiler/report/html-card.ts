/**
 * One trajectory's card in the HTML report (html.ts): its verdict, each
 * rule's section with its clauses, their evidence and what followed. Every
 * untrusted text goes through escapeHtml.
 */
import type {
  Clause,
  MetaBehaviorJudgment,
  NaReason,
  Trajectory,
  TrajectoryEvent,
  TrajectoryJudgment,
  Verdict,
} from "../../runtime/types.js";
import type { RuleInfo } from "../../runtime/judge.js";
import { citationsInOrder, eventOrigin } from "../../runtime/citations.js";
import { CITATIONS_SHOWN, groupDigits, moreCitations, undecidedSummary } from "../../runtime/format-judgment.js";
import { escapeHtml as escapeMarkup } from "../web/page.js";
import { proposeLabels } from "../analyses/label.js";
import { safeStem } from "../files/case-file-names.js";
import { visibleFormatting } from "./printable.js";
import { isModelError } from "../analyses/tally.js";
import { fileNaReason, verdictLabel } from "./summary.js";
import { plural } from "./plural.js";
import { labelsAgree, type LabelComparison } from "../../testing/labels.js";

/**
 * Every text of the report is HTML-escaped, and its bidi and invisible
 * characters shown as escapes (as the text report shows them): an override
 * in a trajectory id made a failing card read "Fail order-17 PASS".
 */
export function escapeHtml(value: unknown): string {
  return escapeMarkup(visibleFormatting(String(value ?? "")));
}

/** One judged trajectory, with the file it came from. */
export interface ReportResult {
  readonly file: string;
  readonly judgment: TrajectoryJudgment;
  /** The judged trajectory; without it the evidence panel can only list event ids. */
  readonly trajectory?: Trajectory;
  /** `calibrate`: the case's labels against the verdicts; each verdict then shows its label, disagreements marked. */
  readonly labels?: LabelComparison;
}

/** `Label: Fail`, and `— disagrees` when the verdict beside it is not the label (a model error never agrees); nothing without labels. */
function labelMark(label: { expected: Verdict | null; agree: boolean; unlabeled?: true } | undefined): string {
  if (label === undefined) return "";
  if (label.unlabeled === true || label.expected === null) return ` <span class="label-check unlabeled">No label</span>`;
  const text = `Label: ${LABEL_NAMES[label.expected]}`;
  return label.agree
    ? ` <span class="label-check agree" title="The label agrees with the verdict">${escapeHtml(text)}</span>`
    : ` <span class="label-check disagree" title="The label disagrees with the verdict">${escapeHtml(text)} — disagrees</span>`;
}

/** Marks what disagrees with its label, for the "only failures, errors and disagreements" filter. */
function disagreeAttribute(label: { agree: boolean } | undefined): string {
  return label !== undefined && !label.agree ? ` data-disagree="true"` : "";
}

/** A label as the report names it (a label of na carries no reason). */
const LABEL_NAMES: Record<Verdict, string> = { true: "Pass", false: "Fail", na: "N/A" };

export function ruleAnchor(trajectoryIndex: number, ruleIndex: number): string {
  return `trajectory-${trajectoryIndex}-rule-${ruleIndex}`;
}

export function verdictClass(verdict: Verdict, naReason: NaReason | null, error?: true): string {
  if (isModelError({ verdict, ...(error !== undefined ? { error } : {}) })) return "error";
  if (verdict === "true") return "pass";
  if (verdict === "false") return "fail";
  return naReason === "not_applicable" ? "na" : "noverdict";
}

/** `error` is the rule's or trajectory's marker: ERROR instead of a na that would read as "no evidence". */
function badge(verdict: Verdict, naReason: NaReason | null, error?: true): string {
  return `<span class="badge ${verdictClass(verdict, naReason, error)}">${escapeHtml(verdictLabel(verdict, naReason, error))}</span>`;
}

/** Marks a card or rule section the "only failures and errors" filter keeps besides failures. */
function errorAttribute(judged: { verdict: Verdict; error?: true }): string {
  return isModelError(judged) ? ` data-error="true"` : "";
}

/** What every card is rendered with. */
export interface CardOptions {
  readonly rules: readonly RuleInfo[];
  readonly names: readonly string[];
  /** A model was configured (see ReportInput.model). */
  readonly model: boolean;
  /** The judge, as a saved labeled case names it (`proposedBy`); without it, the behavior's name alone. */
  readonly proposedBy?: Readonly<Record<string, string>>;
}

/** The events of the judged trajectory, by id and in order (a failed pairing shows what followed). */
interface EventIndex {
  readonly byId: ReadonlyMap<string, TrajectoryEvent>;
  readonly position: ReadonlyMap<string, number>;
  readonly ordered: readonly TrajectoryEvent[];
}

function indexEvents(events: readonly TrajectoryEvent[]): EventIndex {
  return {
    byId: new Map(events.map((e) => [e.id, e] as const)),
    position: new Map(events.map((e, i) => [e.id, i] as const)),
    ordered: events,
  };
}

/** `(1 clause undecided: no model)` beside a Pass or Fail that rests on fewer clauses than the spec states. */
function undecidedNote(verdict: Verdict, error: true | undefined, clauses: readonly Clause[]): string {
  if (verdict === "na" || isModelError({ verdict, ...(error !== undefined ? { error } : {}) })) return "";
  const summary = undecidedSummary(clauses);
  return summary === undefined ? "" : ` <span class="undecided">(${escapeHtml(summary)})</span>`;
}

export function trajectoryCard(result: ReportResult, index: number, options: CardOptions): string {
  const { judgment, trajectory } = result;
  const { rules, names } = options;
  const fileVerdictNa = fileNaReason(judgment);
  const incomplete =
    trajectory !== undefined && !trajectory.complete
      ? ` <span class="tag incomplete" title="The session did not end normally">Incomplete</span>`
      : "";
  const description =
    trajectory !== undefined && trajectory.description !== "" ? `<p class="description">${escapeHtml(trajectory.description)}</p>` : "";
  const events = indexEvents(trajectory?.events ?? []);
  const metas = judgment.metaBehaviors
    .map((meta) => {
      const ruleIndex = names.indexOf(meta.name);
      return ruleSection(
        meta,
        rules.find((r) => r.name === meta.name),
        ruleIndex,
        ruleAnchor(index, ruleIndex),
        events,
        options.model,
        result.labels?.metaBehaviors.find((m) => m.name === meta.name),
      );
    })
    .join("\n");
  const undecided = undecidedNote(
    judgment.verdict,
    judgment.error,
    judgment.metaBehaviors.flatMap((m) => m.clauses),
  );
  const labels = result.labels;
  const disagrees = labels !== undefined && !labelsAgree(labels);
  const unknown =
    labels === undefined || labels.unknownLabels.length === 0
      ? ""
      : `<p class="label-check disagree unknown-labels">Labels naming no rule of this judge: ${labels.unknownLabels.map((n) => `<code>${escapeHtml(n)}</code>`).join(", ")}</p>\n`;
  return `<article class="card" id="trajectory-${index}" data-verdict="${escapeHtml(judgment.verdict)}"${errorAttribute(judgment)}${disagrees ? ` data-disagree="true"` : ""}>
<header class="card-head">${badge(judgment.verdict, fileVerdictNa, judgment.error)}${labelMark(labels?.verdict)}${undecided} <h2>${escapeHtml(judgment.trajectoryId)}</h2>${incomplete} <span class="file">${escapeHtml(result.file)}</span></header>
${description}${unknown}${metas === "" ? `<p class="empty">No rule was judged.</p>` : metas}${wholeTrajectory(judgment, events)}${relabelPanel(result, options)}
</article>`;
}

function ruleSection(
  meta: MetaBehaviorJudgment,
  rule: RuleInfo | undefined,
  ruleIndex: number,
  anchor: string,
  events: EventIndex,
  model: boolean,
  label?: LabelComparison["metaBehaviors"][number],
): string {
  const trigger =
    rule === undefined
      ? ""
      : `<p class="trigger"><span class="label">Applies when</span> ${escapeHtml(rule.trigger.description)} <span class="kind">${rule.trigger.kind === "semantic" ? "decided by the model" : "deterministic match"}</span></p>`;
  const notTriggered = meta.triggered ? "" : `<p class="not-triggered">${notTriggeredNote(meta)}</p>`;
  const clauses =
    meta.clauses.length === 0
      ? ""
      : `<ol class="clauses">\n${meta.clauses.map((c) => clauseItem(c, rule, events, model)).join("\n")}\n</ol>`;
  return `<section class="rule" id="${anchor}" data-rule="${ruleIndex}" data-verdict="${escapeHtml(meta.verdict)}"${errorAttribute(meta)}${disagreeAttribute(label)}>
<header class="rule-head">${badge(meta.verdict, meta.naReason, meta.error)}${labelMark(label)}${undecidedNote(meta.verdict, meta.error, meta.clauses)} <h3>${escapeHtml(meta.name)}</h3></header>
${trigger}${notTriggered}${clauses}
</section>`;
}

/**
 * Why no check ran. A rule that is not triggered lists a clause only when its
 * semantic trigger stopped it (docs/FORMATS.md §4), and that trigger may have been
 * undecided (no model, no valid answer) rather than false.
 */
function notTriggeredNote(meta: MetaBehaviorJudgment): string {
  if (meta.naReason === "not_applicable") return "The trigger did not fire, so no check ran.";
  if (meta.clauses.length > 0) return "Whether the rule applies could not be decided, so no check ran.";
  return "The trigger did not fire in the events recorded, which may not be the whole session, so no check ran.";
}

/** "Deterministic · ordering", "Semantic · question", …; falls back to the rule list when the clause lacks the `check` extension. */
function clauseKind(clause: Clause, rule: RuleInfo | undefined): string {
  const family = clause.kind === "semantic" ? "Semantic" : "Deterministic";
  const detail = clause.check ?? inferCheck(clause, rule);
  return detail === undefined ? family : `${family} · ${detail}`;
}

function inferCheck(clause: Clause, rule: RuleInfo | undefined): string | undefined {
  if (rule === undefined) return undefined;
  if (clause.kind === "predicate") return rule.checks.find((c) => c.quote === clause.quote)?.type;
  if (rule.semanticChecks.some((c) => c.quote === clause.quote)) return "question";
  return rule.trigger.kind === "semantic" ? "trigger" : undefined;
}

function clauseItem(clause: Clause, rule: RuleInfo | undefined, events: EventIndex, model: boolean): string {
  const parts = [
    `<li class="clause" data-verdict="${escapeHtml(clause.verdict)}">`,
    `<div class="clause-head">${badge(clause.verdict, clause.naReason, clause.error !== undefined ? true : undefined)} <span class="kind">${escapeHtml(clauseKind(clause, rule))}</span></div>`,
    `<blockquote class="quote">${escapeHtml(clause.quote)}</blockquote>`,
  ];
  if (clause.explanation !== undefined) {
    parts.push(`<p class="explanation"><span class="label">Expected</span> ${escapeHtml(clause.explanation)}</p>`);
  }
  if (clause.found !== undefined) {
    parts.push(`<p class="explanation found"><span class="label">Found</span> ${escapeHtml(clause.found)}</p>`);
  }
  if (clause.reasoning !== undefined && clause.reasoning !== "") {
    parts.push(`<p class="reasoning"><span class="label">Model reasoning</span> ${escapeHtml(clause.reasoning)}</p>`);
  }
  // Without a model nothing could have verified a failure: "Unverified" would only be noise.
  if (clause.verification !== undefined && (clause.verification !== "unverified" || model)) parts.push(verificationLine(clause));
  if (clause.error !== undefined && clause.error !== "") {
    parts.push(`<p class="clause-error"><span class="label">Model error</span> ${escapeHtml(clause.error)}</p>`);
  }
  parts.push(evidencePanel(clause, events), followedPanel(clause, rule, events), `</li>`);
  return parts.filter((p) => p !== "").join("\n");
}

function verificationLine(clause: Clause): string {
  const text =
    clause.verification === "confirmed"
      ? "Confirmed: the model agreed with the deterministic Fail."
      : clause.verification === "overturned"
        ? `Overturned: the deterministic check said ${clause.predicateVerdict === undefined ? "Fail" : verdictLabel(clause.predicateVerdict, null)}; the model disagreed.`
        : "Unverified: no model checked this Fail.";
  return `<p class="verification ${escapeHtml(clause.verification)}"><span class="label">Verification</span> ${escapeHtml(text)}</p>`;
}

/** The first CITATIONS_SHOWN cited events in trajectory order (without a trajectory, in the judgment's). */
function evidencePanel(clause: Clause, events: EventIndex): string {
  if (clause.citations.length === 0) return "";
  const positions = events.ordered.length === 0 ? undefined : events.position;
  const items = citationsInOrder(clause.citations, positions, CITATIONS_SHOWN)
    .map((citation) => {
      const event = events.byId.get(citation.eventId);
      const cite = citation.description === "" ? "" : `\n<p class="cite">${escapeHtml(citation.description)}</p>`;
      return `<li class="event">${event === undefined ? missingEvent(citation.eventId) : eventDetails(event)}${cite}\n</li>`;
    })
    .join("\n");
  const count = clause.citations.length;
  // Failures open their evidence: that is what a reader came for.
  return `<details class="evidence"${clause.verdict === "false" ? " open" : ""}>
<summary>Evidence: ${groupDigits(count)} cited ${plural(count, "event")}</summary>
<ul>
${items}${moreItem(count - CITATIONS_SHOWN)}
</ul>
</details>`;
}

/**
 * Events listed in a card's whole trajectory; the rest are counted. A report
 * of a million-event trace must still open.
 */
export const TRAJECTORY_SHOWN = 500;

/**
 * Every event of the case, in order, closed until asked for, each cited one
 * marked: what came between the cited events is often the explanation.
 */
function wholeTrajectory(judgment: TrajectoryJudgment, events: EventIndex): string {
  const total = events.ordered.length;
  if (total === 0) return "";
  const cited = new Set<string>();
  for (const meta of judgment.metaBehaviors) for (const clause of meta.clauses) for (const c of clause.citations) cited.add(c.eventId);
  const citedHere = events.ordered.reduce((n, e) => n + (cited.has(e.id) ? 1 : 0), 0);
  const items = events.ordered
    .slice(0, TRAJECTORY_SHOWN)
    .map((event) => {
      const mark = cited.has(event.id);
      const tag = mark ? ` <span class="cited-mark" title="cited by a clause above">cited</span>` : "";
      return `<li class="step${mark ? " cited" : ""}">${eventDetails(event, tag)}</li>`;
    })
    .join("\n");
  return `
<details class="trajectory">
<summary>Whole trajectory: ${groupDigits(total)} ${plural(total, "event")}, ${groupDigits(citedHere)} cited</summary>
<ol class="steps">
${items}${moreItem(total - TRAJECTORY_SHOWN)}
</ol>
</details>`;
}

/**
 * Events a card embeds, as JSON, to save the case as a labeled case from the
 * page; a larger trajectory is left to `behavior-judge label`, so the page of
 * a million-event trace stays small.
 */
export const RELABEL_EVENTS = 10_000;

const LABEL_OPTIONS: readonly [string, string][] = [
  ["", "No label"],
  ["true", "Pass"],
  ["false", "Fail"],
  ["na", "N/A"],
];

/**
 * JSON with every character outside ASCII written as a `\uXXXX` escape:
 * JSON.parse gives back the same text, and the page holds no bidi or
 * invisible character even where nobody sees it.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function labelSelect(attributes: string, proposed: Verdict | undefined): string {
  const options = LABEL_OPTIONS.map(
    ([value, text]) => `<option value="${value}"${value === (proposed ?? "") ? " selected" : ""}>${text}</option>`,
  ).join("");
  return `<select ${attributes} data-proposed="${proposed ?? ""}">${options}</select>`;
}

/**
 * "Verdict is wrong?": each rule's label and the trajectory verdict's,
 * starting from the verdicts (what the judge did not decide starts
 * unlabeled, as `label` writes it), and a button that saves the case as a
 * labeled case file `{trajectory, expected, proposedBy}` for calibrate, in
 * the page (report.js makes the file; nothing is sent). The trajectory is
 * embedded as JSON, escaped for the attribute but otherwise exact.
 */
function relabelPanel(result: ReportResult, options: CardOptions): string {
  const { judgment, trajectory } = result;
  if (trajectory === undefined) return "";
  if (trajectory.events.length > RELABEL_EVENTS)
    return `\n<p class="relabel-note">This trajectory is too long to save from the page: <code>behavior-judge label</code> writes its labeled case.</p>`;
  const proposal = proposeLabels(judgment);
  const rules = judgment.metaBehaviors.map((m) => m.name);
  const data = { rules, trajectory, proposedBy: options.proposedBy ?? { judge: judgment.behavior } };
  const rows = judgment.metaBehaviors
    .map(
      (meta, i) =>
        `<tr><th scope="row">${escapeHtml(meta.name)}</th><td>${labelSelect(`data-rule-index="${i}" aria-label="Label of ${escapeHtml(meta.name)}"`, proposal.expected.metaBehaviorVerdicts[meta.name])}</td></tr>`,
    )
    .join("\n");
  return `
<details class="relabel" data-case="${escapeMarkup(asciiJson(data))}" data-file="${escapeMarkup(`${safeStem(judgment.trajectoryId)}.json`)}">
<summary>Verdict is wrong? Correct the labels and save this case</summary>
<table class="relabel-rules">
<tr><th scope="row">Trajectory verdict</th><td>${labelSelect(`class="verdict-label" aria-label="Label of the trajectory verdict"`, proposal.expected.verdict)}</td></tr>
${rows}
</table>
<p><button type="button" class="save-label">Save labeled case</button> <span class="save-status" role="status"></span></p>
</details>`;
}

/** The list item standing for `hidden` events not shown, or nothing. */
function moreItem(hidden: number): string {
  return hidden > 0 ? `\n<li class="more">${escapeHtml(moreCitations(hidden))}</li>` : "";
}

/**
 * For a failed pairing: what did follow the first unanswered `each` event
 * (the events the check looked through for a `followedBy` match and did not
 * find one), or that nothing followed it. Later unanswered events are cited
 * too, and what followed them is a tail of this list.
 */
function followedPanel(clause: Clause, rule: RuleInfo | undefined, events: EventIndex): string {
  if (clause.verdict !== "false" || (clause.check ?? inferCheck(clause, rule)) !== "pairing") return "";
  const first = clause.citations[0];
  const at = first === undefined ? undefined : events.position.get(first.eventId);
  if (first === undefined || at === undefined) return "";
  const after = events.ordered.slice(at + 1, at + 1 + CITATIONS_SHOWN);
  const id = `<code class="event-id">${escapeHtml(first.eventId)}</code>`;
  if (after.length === 0)
    return `<p class="followed none"><span class="label">What followed</span> Nothing followed ${id}: it is the last event recorded.</p>`;
  const total = events.ordered.length - at - 1;
  const items = after.map((event) => `<li class="event">${eventDetails(event)}\n</li>`).join("\n");
  return `<details class="followed" open>
<summary>What followed ${id}: ${groupDigits(total)} ${plural(total, "event")}, none matching <code>followedBy</code></summary>
<ul>
${items}${moreItem(total - after.length)}
</ul>
</details>`;
}

function missingEvent(eventId: string): string {
  return `<div class="event-head"><code class="event-id">${escapeHtml(eventId)}</code> <span class="missing">not in the trajectory shown</span></div>`;
}

/** An event's id, origin, actor, action, content and metadata; `tag`: markup after the head's text (already escaped). */
function eventDetails(event: TrajectoryEvent, tag = ""): string {
  const origin = eventOrigin(event);
  // Where an imported event came from, beside its synthetic id: the native call, span or item id.
  const from = origin === undefined ? "" : ` <span class="origin">${escapeHtml(origin)}</span>`;
  const head = `<div class="event-head"><code class="event-id">${escapeHtml(event.id)}</code>${from} <span class="actor">${escapeHtml(event.actor)}</span> <span class="action">${escapeHtml(event.action)}</span>${tag}</div>`;
  // The newline after <pre> is eaten by the HTML parser, so content that starts with one keeps it.
  // An event with no content says so: an empty box read as a rendering fault.
  const content =
    (event.content ?? "") === "" ? `\n<p class="no-content">no content</p>` : `\n<pre class="content">\n${escapeHtml(event.content)}</pre>`;
  const entries = Object.entries(event.metadata ?? {});
  const metadata =
    entries.length === 0
      ? ""
      : `\n<dl class="metadata">${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
  return head + content + metadata;
}
