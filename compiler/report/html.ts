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
import { citationsInOrder, eventOrigin } from "../../runtime/citations.js";
import { CITATIONS_SHOWN, groupDigits, moreCitations, undecidedSummary } from "../../runtime/format-judgment.js";
import { escapeHtml as escapeMarkup, fillSlots, pageContentSecurityPolicy, pageTemplates } from "../web/page.js";
import { visibleFormatting } from "./printable.js";
import { countVerifications, emptyVerifyCounts, isModelError, summarizeByRule, type RuleSummaryRow } from "../analyses/tally.js";
import { fileNaReason, summaryColumns, verdictLabel } from "./summary.js";
import { plural } from "./plural.js";

/**
 * Every text of the report is HTML-escaped, and its bidi and invisible
 * characters shown as escapes (as the text report shows them): an override
 * in a trajectory id made a failing card read "Fail order-17 PASS".
 */
function escapeHtml(value: unknown): string {
  return escapeMarkup(visibleFormatting(String(value ?? "")));
}

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
  /**
   * Whether a model was configured, so verify-on-false could have checked a
   * failure (default true): without one, failures do not say "Unverified".
   */
  readonly model?: boolean;
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
  const options: CardOptions = { rules: input.rules, names, model: input.model !== false };
  return [
    `<header class="page-head">`,
    `<h1>${escapeHtml(behaviorName(input) || "behavior-judge report")}</h1>`,
    totalsLine(input.results, errors.length),
    `</header>`,
    toolbar(
      names,
      input.results.length,
      input.results.some((r) => hasFailure(r.judgment)),
    ),
    `<main>`,
    errorsPanel(errors),
    summaryTable(rows, failingLinks(input.results, names)),
    input.results.map((result, index) => trajectoryCard(result, index, options)).join("\n"),
    input.results.length === 0 ? `<p class="empty">No trajectory was judged.</p>` : "",
    `</main>`,
  ]
    .filter((part) => part !== "")
    .join("\n");
}

/**
 * The header counts trajectories, in the words of the per-rule table's
 * columns (which count trajectories per rule), so the two read in one unit.
 */
function totalsLine(results: readonly ReportResult[], errorCount: number): string {
  const byClass = new Map<string, number>();
  for (const { judgment } of results) {
    const shown = verdictClass(judgment.verdict, fileNaReason(judgment), judgment.error);
    byClass.set(shown, (byClass.get(shown) ?? 0) + 1);
  }
  const count = (shown: string) => byClass.get(shown) ?? 0;
  const modelErrors = count("error");
  const parts = [
    `<span class="v-pass">${count("pass")} passed</span>`,
    `<span class="v-fail">${count("fail")} failed</span>`,
    `<span class="v-na">${count("na")} didn't apply</span>`,
    `<span class="v-na">${count("noverdict")} no verdict</span>`,
  ];
  if (modelErrors > 0) parts.push(`<span class="v-error">${modelErrors} model error</span>`);
  const overturned = results.reduce((n, r) => n + countVerifications(emptyVerifyCounts(), r.judgment).overturned, 0);
  if (overturned > 0) parts.push(`<span class="v-error">${overturned} ${plural(overturned, "failure")} overturned by the model</span>`);
  if (errorCount > 0) parts.push(`<span class="v-error">${errorCount} could not be judged</span>`);
  const unit = `${results.length} ${plural(results.length, "trajectory", "trajectories")}`;
  return `<p class="totals" id="totals">${unit}: ${parts.join(" · ")}</p>`;
}

/** Whether the "only failures and errors" filter would keep a rule of this trajectory. */
function hasFailure(judgment: TrajectoryJudgment): boolean {
  return judgment.metaBehaviors.some((m) => m.verdict === "false" || isModelError(m));
}

/** "Only failures" starts on when there is one: that is what a reader opens the report for. */
function toolbar(names: readonly string[], total: number, failures: boolean): string {
  const options = names.map((name, i) => `<option value="${i}">${escapeHtml(name)}</option>`).join("");
  return `<nav class="toolbar" aria-label="Filters">
<label><input type="checkbox" id="only-failures"${failures ? " checked" : ""}> Only failures and errors</label>
<label>Rule <select id="rule-filter"><option value="">All rules</option>${options}</select></label>
<span id="shown-count" class="shown-count">Showing ${total} of ${total} ${plural(total, "trajectory", "trajectories")}</span>
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

/** A link to a rule's section in a trajectory's card. */
interface RuleLink {
  readonly anchor: string;
  readonly trajectoryId: string;
}

function ruleAnchor(trajectoryIndex: number, ruleIndex: number): string {
  return `trajectory-${trajectoryIndex}-rule-${ruleIndex}`;
}

/** For each rule (by index in `names`), the trajectories where it failed, in report order. */
function failingLinks(results: readonly ReportResult[], names: readonly string[]): RuleLink[][] {
  const links: RuleLink[][] = names.map(() => []);
  results.forEach(({ judgment }, index) => {
    for (const meta of judgment.metaBehaviors) {
      const ruleIndex = names.indexOf(meta.name);
      if (meta.verdict === "false") links[ruleIndex]!.push({ anchor: ruleAnchor(index, ruleIndex), trajectoryId: judgment.trajectoryId });
    }
  });
  return links;
}

/** The first CITATIONS_SHOWN failing trajectories as links to the rule in their cards, then how many more. */
function failingCell(links: readonly RuleLink[]): string {
  const shown = links
    .slice(0, CITATIONS_SHOWN)
    .map((l) => `<a href="#${l.anchor}">${escapeHtml(l.trajectoryId)}</a>`)
    .join(", ");
  const more = links.length > CITATIONS_SHOWN ? `, ${escapeHtml(moreCitations(links.length - CITATIONS_SHOWN))}` : "";
  return `<td class="failing-in">${shown}${more}</td>`;
}

/**
 * Each count is of trajectories, as in the header; a rule that failed links
 * to the cards where it did (a column shown only when something failed).
 */
function summaryTable(rows: readonly RuleSummaryRow[], failing: readonly RuleLink[][]): string {
  if (rows.length === 0) return "";
  const columns = summaryColumns(rows);
  const anyFailed = failing.some((links) => links.length > 0);
  const cellClass: Record<string, string> = { Passed: ` class="v-pass"`, Failed: ` class="v-fail"`, "Model error": ` class="v-error"` };
  const body = rows
    .map(
      (r, i) =>
        `<tr><th scope="row">${escapeHtml(r.name)}</th>${columns.map((c) => `<td${cellClass[c.title] ?? ""}>${c.value(r)}</td>`).join("")}${anyFailed ? failingCell(failing[i] ?? []) : ""}</tr>`,
    )
    .join("\n");
  return `<section class="summary">
<h2>Trajectories by rule</h2>
<table>
<thead><tr><th scope="col">Rule</th>${columns.map((c) => `<th scope="col">${escapeHtml(c.title)}</th>`).join("")}${anyFailed ? `<th scope="col" class="failing-in">Failed in</th>` : ""}</tr></thead>
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

/** What every card is rendered with. */
interface CardOptions {
  readonly rules: readonly RuleInfo[];
  readonly names: readonly string[];
  /** A model was configured (see ReportInput.model). */
  readonly model: boolean;
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

function trajectoryCard(result: ReportResult, index: number, options: CardOptions): string {
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
      );
    })
    .join("\n");
  const undecided = undecidedNote(
    judgment.verdict,
    judgment.error,
    judgment.metaBehaviors.flatMap((m) => m.clauses),
  );
  return `<article class="card" id="trajectory-${index}" data-verdict="${escapeHtml(judgment.verdict)}"${errorAttribute(judgment)}>
<header class="card-head">${badge(judgment.verdict, fileVerdictNa, judgment.error)}${undecided} <h2>${escapeHtml(judgment.trajectoryId)}</h2>${incomplete} <span class="file">${escapeHtml(result.file)}</span></header>
${description}${metas === "" ? `<p class="empty">No rule was judged.</p>` : metas}
</article>`;
}

function ruleSection(
  meta: MetaBehaviorJudgment,
  rule: RuleInfo | undefined,
  ruleIndex: number,
  anchor: string,
  events: EventIndex,
  model: boolean,
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
  return `<section class="rule" id="${anchor}" data-rule="${ruleIndex}" data-verdict="${escapeHtml(meta.verdict)}"${errorAttribute(meta)}>
<header class="rule-head">${badge(meta.verdict, meta.naReason, meta.error)}${undecidedNote(meta.verdict, meta.error, meta.clauses)} <h3>${escapeHtml(meta.name)}</h3></header>
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

function eventDetails(event: TrajectoryEvent): string {
  const origin = eventOrigin(event);
  // Where an imported event came from, beside its synthetic id: the native call, span or item id.
  const from = origin === undefined ? "" : ` <span class="origin">${escapeHtml(origin)}</span>`;
  const head = `<div class="event-head"><code class="event-id">${escapeHtml(event.id)}</code>${from} <span class="actor">${escapeHtml(event.actor)}</span> <span class="action">${escapeHtml(event.action)}</span></div>`;
  // The newline after <pre> is eaten by the HTML parser, so content that starts with one keeps it.
  const content = event.content === "" ? "" : `\n<pre class="content">\n${escapeHtml(event.content)}</pre>`;
  const entries = Object.entries(event.metadata ?? {});
  const metadata =
    entries.length === 0
      ? ""
      : `\n<dl class="metadata">${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
  return head + content + metadata;
}
