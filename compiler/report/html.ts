/**
 * The judge report as one self-contained HTML page: rendered on the server
 * side with every piece of untrusted text HTML-escaped, styled and scripted
 * only by the inline templates/report.css and templates/report.js, and locked
 * down by a Content-Security-Policy that allows exactly those two inline
 * blocks (by hash), so even a missed escape could not run script.
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
import { escapeHtml, fillSlots, pageContentSecurityPolicy, pageTemplates } from "../web/page.js";
import { countVerifications, emptyVerifyCounts, isModelError, summarizeByRule, type RuleSummaryRow } from "../judge/tally.js";
import { fileNaReason, summaryColumns, verdictLabel } from "./summary.js";
import { plural } from "./plural.js";

/** What the report knows about a rule: the compiled judge's `rules` export. */
export type { RuleInfo };

/** An input case that could not be judged (malformed trajectory, unreadable line). */
export interface CaseError {
  readonly file: string;
  readonly caseIndex: number;
  readonly line?: number;
  readonly message: string;
}

/** One judged trajectory, with the file it came from. */
export interface ReportResult {
  readonly file: string;
  readonly judgment: TrajectoryJudgment;
  /** The judged trajectory; without it the evidence panel can only list event ids. */
  readonly trajectory?: Trajectory;
}

export interface ReportInput {
  /** The behavior's name, for the title; defaults to the judgments' `behavior`. */
  readonly behavior?: string;
  readonly rules: readonly RuleInfo[];
  readonly results: readonly ReportResult[];
  readonly errors?: readonly CaseError[];
}

/** Which page to render: the full report, or the live-progress page served while judging. */
export type PageMode = "report" | "live";

/**
 * Renders the full report. Pure: the same input gives byte-identical HTML
 * (no timestamps, no random ids).
 */
export function renderHtmlReport(input: ReportInput): string {
  const name = behaviorName(input);
  const title = name === "" ? "behavior-judge report" : `${name}: behavior-judge report`;
  return renderPage("report", title, reportBody(input));
}

/** The page shown while trajectories are still being judged; report.js fills it from server-sent events. */
export function renderLivePage(behavior: string): string {
  const title = behavior === "" ? "behavior-judge: judging…" : `${behavior}: judging…`;
  const body = `<header class="page-head">
<h1>${escapeHtml(title)}</h1>
</header>
<main id="live">
<p id="live-status" class="live-status">Waiting for the first verdict…</p>
<progress id="live-progress" max="1" value="0"></progress>
<ol id="live-list" class="live-list"></ol>
</main>`;
  return renderPage("live", title, body);
}

/** The policy for a report page; only the live page talks back to its server (server-sent events). */
export function reportContentSecurityPolicy(mode: PageMode): string {
  return pageContentSecurityPolicy("report", { connect: mode === "live" });
}

// ---------------------------------------------------------------------------
// Page skeleton

function renderPage(mode: PageMode, title: string, body: string): string {
  const { html, css, js } = pageTemplates("report");
  return fillSlots(html, {
    csp: escapeHtml(reportContentSecurityPolicy(mode)),
    title: escapeHtml(title),
    mode,
    style: css,
    script: js,
    body,
  });
}

// ---------------------------------------------------------------------------
// Report body

function behaviorName(input: ReportInput): string {
  return input.behavior ?? input.results[0]?.judgment.behavior ?? "";
}

/** Rule names in spec order, then any judged rule the rule list lacks. */
function ruleNames(input: ReportInput): string[] {
  const names = input.rules.map((r) => r.name);
  for (const result of input.results) {
    for (const meta of result.judgment.metaBehaviors) {
      if (!names.includes(meta.name)) names.push(meta.name);
    }
  }
  return names;
}

function reportBody(input: ReportInput): string {
  const names = ruleNames(input);
  const rows = summarizeByRule(
    input.results.map((r) => r.judgment),
    names,
  );
  const errors = input.errors ?? [];
  return [
    `<header class="page-head">`,
    `<h1>${escapeHtml(behaviorName(input) || "behavior-judge report")}</h1>`,
    totalsLine(input.results, errors.length),
    `</header>`,
    toolbar(names, input.results.length),
    `<main>`,
    errorsPanel(errors),
    summaryTable(rows),
    input.results.map((result, index) => trajectoryCard(result, index, input.rules, names)).join("\n"),
    input.results.length === 0 ? `<p class="empty">No trajectory was judged.</p>` : "",
    `</main>`,
  ]
    .filter((part) => part !== "")
    .join("\n");
}

function totalsLine(results: readonly ReportResult[], errorCount: number): string {
  const count = (predicate: (j: TrajectoryJudgment) => boolean) => results.filter((r) => predicate(r.judgment)).length;
  const modelErrors = count(isModelError);
  const parts = [
    `${results.length} ${plural(results.length, "trajectory", "trajectories")}`,
    `<span class="v-pass">${count((j) => j.verdict === "true")} passed</span>`,
    `<span class="v-fail">${count((j) => j.verdict === "false")} failed</span>`,
    `<span class="v-na">${count((j) => j.verdict === "na" && !isModelError(j))} without a verdict</span>`,
  ];
  if (modelErrors > 0) parts.push(`<span class="v-error">${modelErrors} with a model error</span>`);
  const overturned = results.reduce((n, r) => n + countVerifications(emptyVerifyCounts(), r.judgment).overturned, 0);
  if (overturned > 0) parts.push(`<span class="v-error">${overturned} ${plural(overturned, "failure")} overturned by the model</span>`);
  if (errorCount > 0) parts.push(`<span class="v-error">${errorCount} could not be judged</span>`);
  return `<p class="totals" id="totals">${parts.join(" · ")}</p>`;
}

function toolbar(names: readonly string[], total: number): string {
  const options = names.map((name, i) => `<option value="${i}">${escapeHtml(name)}</option>`).join("");
  return `<nav class="toolbar" aria-label="Filters">
<label><input type="checkbox" id="only-failures"> Only failures and errors</label>
<label>Rule <select id="rule-filter"><option value="">All rules</option>${options}</select></label>
<span id="shown-count" class="shown-count">Showing ${total} of ${total}</span>
</nav>`;
}

function errorsPanel(errors: readonly CaseError[]): string {
  if (errors.length === 0) return "";
  const items = errors
    .map((e) => {
      const where = `${e.file}${e.line === undefined ? "" : `:${e.line}`} (case ${e.caseIndex})`;
      return `<li><code>${escapeHtml(where)}</code> ${escapeHtml(e.message)}</li>`;
    })
    .join("\n");
  return `<section class="errors" id="case-errors">
<h2>Could not be judged (${errors.length})</h2>
<ul>
${items}
</ul>
</section>`;
}

function summaryTable(rows: readonly RuleSummaryRow[]): string {
  if (rows.length === 0) return "";
  const columns = summaryColumns(rows);
  const cellClass: Record<string, string> = { Passed: ` class="v-pass"`, Failed: ` class="v-fail"`, "Model error": ` class="v-error"` };
  const body = rows
    .map(
      (r) =>
        `<tr><th scope="row">${escapeHtml(r.name)}</th>${columns.map((c) => `<td${cellClass[c.title] ?? ""}>${c.value(r)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<section class="summary">
<h2>By rule</h2>
<table>
<thead><tr><th scope="col">Rule</th>${columns.map((c) => `<th scope="col">${escapeHtml(c.title)}</th>`).join("")}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</section>`;
}

function verdictClass(verdict: Verdict, naReason: NaReason | null, error?: true): string {
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

function trajectoryCard(result: ReportResult, index: number, rules: readonly RuleInfo[], names: readonly string[]): string {
  const { judgment, trajectory } = result;
  const fileVerdictNa = fileNaReason(judgment);
  const incomplete =
    trajectory !== undefined && !trajectory.complete
      ? ` <span class="tag incomplete" title="The session did not end normally">Incomplete</span>`
      : "";
  const description =
    trajectory !== undefined && trajectory.description !== "" ? `<p class="description">${escapeHtml(trajectory.description)}</p>` : "";
  const events = new Map((trajectory?.events ?? []).map((e) => [e.id, e] as const));
  const metas = judgment.metaBehaviors
    .map((meta) =>
      ruleSection(
        meta,
        rules.find((r) => r.name === meta.name),
        names.indexOf(meta.name),
        events,
      ),
    )
    .join("\n");
  return `<article class="card" id="trajectory-${index}" data-verdict="${escapeHtml(judgment.verdict)}"${errorAttribute(judgment)}>
<header class="card-head">${badge(judgment.verdict, fileVerdictNa, judgment.error)} <h2>${escapeHtml(judgment.trajectoryId)}</h2>${incomplete} <span class="file">${escapeHtml(result.file)}</span></header>
${description}${metas === "" ? `<p class="empty">No rule was judged.</p>` : metas}
</article>`;
}

function ruleSection(
  meta: MetaBehaviorJudgment,
  rule: RuleInfo | undefined,
  ruleIndex: number,
  events: ReadonlyMap<string, TrajectoryEvent>,
): string {
  const trigger =
    rule === undefined
      ? ""
      : `<p class="trigger"><span class="label">Applies when</span> ${escapeHtml(rule.trigger.description)} <span class="kind">${rule.trigger.kind === "semantic" ? "decided by the model" : "deterministic match"}</span></p>`;
  const notTriggered = meta.triggered ? "" : `<p class="not-triggered">${notTriggeredNote(meta)}</p>`;
  const clauses =
    meta.clauses.length === 0 ? "" : `<ol class="clauses">\n${meta.clauses.map((c) => clauseItem(c, rule, events)).join("\n")}\n</ol>`;
  return `<section class="rule" data-rule="${ruleIndex}" data-verdict="${escapeHtml(meta.verdict)}"${errorAttribute(meta)}>
<header class="rule-head">${badge(meta.verdict, meta.naReason, meta.error)} <h3>${escapeHtml(meta.name)}</h3></header>
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

function clauseItem(clause: Clause, rule: RuleInfo | undefined, events: ReadonlyMap<string, TrajectoryEvent>): string {
  const parts = [
    `<li class="clause" data-verdict="${escapeHtml(clause.verdict)}">`,
    `<div class="clause-head">${badge(clause.verdict, clause.naReason, clause.error !== undefined ? true : undefined)} <span class="kind">${escapeHtml(clauseKind(clause, rule))}</span></div>`,
    `<blockquote class="quote">${escapeHtml(clause.quote)}</blockquote>`,
  ];
  if (clause.reasoning !== undefined && clause.reasoning !== "") {
    parts.push(`<p class="reasoning"><span class="label">Model reasoning</span> ${escapeHtml(clause.reasoning)}</p>`);
  }
  if (clause.verification !== undefined) parts.push(verificationLine(clause));
  if (clause.error !== undefined && clause.error !== "") {
    parts.push(`<p class="clause-error"><span class="label">Model error</span> ${escapeHtml(clause.error)}</p>`);
  }
  parts.push(evidencePanel(clause, events), `</li>`);
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

function evidencePanel(clause: Clause, events: ReadonlyMap<string, TrajectoryEvent>): string {
  if (clause.citations.length === 0) return "";
  const items = clause.citations
    .map((citation) => {
      const event = events.get(citation.eventId);
      const cite = citation.description === "" ? "" : `\n<p class="cite">${escapeHtml(citation.description)}</p>`;
      return `<li class="event">${event === undefined ? missingEvent(citation.eventId) : eventDetails(event)}${cite}\n</li>`;
    })
    .join("\n");
  const count = clause.citations.length;
  // Failures open their evidence: that is what a reader came for.
  return `<details class="evidence"${clause.verdict === "false" ? " open" : ""}>
<summary>Evidence: ${count} cited ${plural(count, "event")}</summary>
<ul>
${items}
</ul>
</details>`;
}

function missingEvent(eventId: string): string {
  return `<div class="event-head"><code class="event-id">${escapeHtml(eventId)}</code> <span class="missing">not in the trajectory shown</span></div>`;
}

function eventDetails(event: TrajectoryEvent): string {
  const head = `<div class="event-head"><code class="event-id">${escapeHtml(event.id)}</code> <span class="actor">${escapeHtml(event.actor)}</span> <span class="action">${escapeHtml(event.action)}</span></div>`;
  // The newline after <pre> is eaten by the HTML parser, so content that starts with one keeps it.
  const content = event.content === "" ? "" : `\n<pre class="content">\n${escapeHtml(event.content)}</pre>`;
  const entries = Object.entries(event.metadata ?? {});
  const metadata =
    entries.length === 0
      ? ""
      : `\n<dl class="metadata">${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
  return head + content + metadata;
}
