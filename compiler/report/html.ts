/**
 * The judge report as one self-contained HTML page: rendered on the server
 * side with every piece of untrusted text HTML-escaped, styled and scripted
 * only by the inline templates/report.css and templates/report.js, and locked
 * down by a Content-Security-Policy that allows exactly those two inline
 * blocks (by hash), so even a missed escape could not run script.
 */
import type { TrajectoryJudgment } from "../../runtime/types.js";
import type { RuleInfo } from "../../runtime/judge.js";
import { CITATIONS_SHOWN, moreCitations } from "../../runtime/format-judgment.js";
import { fillSlots, pageContentSecurityPolicy, pageTemplates } from "../web/page.js";
import { countVerifications, emptyVerifyCounts, isModelError, summarizeByRule, type RuleSummaryRow } from "../analyses/tally.js";
import { escapeHtml, ruleAnchor, trajectoryCard, verdictClass, type CardOptions, type ReportResult } from "./html-card.js";
import { fileNaReason, summaryColumns } from "./summary.js";
import { plural } from "./plural.js";
import { labelsAgree } from "../../testing/labels.js";

export type { ReportResult };
export { TRAJECTORY_SHOWN } from "./html-card.js";

/** What the report knows about a rule: the compiled judge's `rules` export. */
export type { RuleInfo };

/** An input case that could not be judged (malformed trajectory, unreadable line). */
export interface CaseError {
  readonly file: string;
  readonly caseIndex: number;
  readonly line?: number;
  readonly message: string;
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
  /** The judge, as a case saved from the page names it (`proposedBy`: name, version, judge.yaml sha256). */
  readonly proposedBy?: Readonly<Record<string, string>>;
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
  const options: CardOptions = {
    rules: input.rules,
    names,
    model: input.model !== false,
    ...(input.proposedBy !== undefined ? { proposedBy: input.proposedBy } : {}),
  };
  return [
    `<header class="page-head">`,
    `<h1>${escapeHtml(behaviorName(input) || "behavior-judge report")}</h1>`,
    totalsLine(input.results, errors.length),
    calibrationLine(input.results),
    `</header>`,
    toolbar(
      names,
      input.results.length,
      input.results.some((r) => hasFailure(r.judgment) || (r.labels !== undefined && !labelsAgree(r.labels))),
      input.results.some((r) => r.labels !== undefined),
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

/**
 * `calibrate --html`: how the labels and the verdicts agree, counted as
 * calibrate counts them (labeled verdicts only); nothing without labels.
 */
function calibrationLine(results: readonly ReportResult[]): string {
  const labeled = results.filter((r) => r.labels !== undefined).map((r) => r.labels!);
  if (labeled.length === 0) return "";
  const metas = labeled.flatMap((l) => l.metaBehaviors.filter((m) => m.unlabeled !== true));
  const files = labeled.filter((l) => l.verdict.unlabeled !== true);
  const disagreeing = labeled.filter((l) => !labelsAgree(l)).length;
  const parts = [
    `rule labels agree ${metas.filter((m) => m.agree).length}/${metas.length}`,
    `trajectory labels agree ${files.filter((l) => l.verdict.agree).length}/${files.length}`,
  ];
  const cases = `${disagreeing} of ${labeled.length} labeled ${plural(labeled.length, "case")} ${disagreeing === 1 ? "disagrees" : "disagree"}`;
  return `<p class="totals calibration" id="calibration"><span class="${disagreeing > 0 ? "v-fail" : "v-pass"}">${escapeHtml(cases)}</span> · ${escapeHtml(parts.join(" · "))}</p>`;
}

/** Whether the "only failures and errors" filter would keep a rule of this trajectory. */
function hasFailure(judgment: TrajectoryJudgment): boolean {
  return judgment.metaBehaviors.some((m) => m.verdict === "false" || isModelError(m));
}

/** "Only failures" starts on when there is one: that is what a reader opens the report for. */
function toolbar(names: readonly string[], total: number, failures: boolean, labeled: boolean): string {
  const options = names.map((name, i) => `<option value="${i}">${escapeHtml(name)}</option>`).join("");
  return `<nav class="toolbar" aria-label="Filters">
<label><input type="checkbox" id="only-failures"${failures ? " checked" : ""}> ${labeled ? "Only failures, errors and disagreements" : "Only failures and errors"}</label>
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

/** The rule index of an anchor ruleAnchor made. */
function ruleOf(anchor: string): string {
  return anchor.slice(anchor.lastIndexOf("-") + 1);
}

/** The first CITATIONS_SHOWN failing trajectories as links to the rule in their cards, then how many more. */
function failingCell(links: readonly RuleLink[]): string {
  const shown = links
    .slice(0, CITATIONS_SHOWN)
    .map((l) => `<a href="#${l.anchor}">${escapeHtml(l.trajectoryId)}</a>`)
    .join(", ");
  // The rest are a link too: to the next failing card, and (report.js) to the view of every card where the rule failed.
  const next = links[CITATIONS_SHOWN];
  const more =
    next === undefined
      ? ""
      : `, <a class="more" href="#${next.anchor}" data-rule="${ruleOf(next.anchor)}">${escapeHtml(moreCitations(links.length - CITATIONS_SHOWN))}</a>`;
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
