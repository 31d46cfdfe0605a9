/**
 * The figures of repeated runs (`calibrate --runs N`, `baseline`) for a
 * person: one judge's block, or several judges side by side.
 */
import type { SemanticUsage } from "../../runtime/semantic.js";
import type { RunStatistics } from "../analyses/repeated-runs.js";
import type { VerifyCounts } from "../analyses/tally.js";
import { plural } from "./plural.js";
import { printable } from "./printable.js";
import { renderUsageLine, renderVerifyLine } from "./summary.js";

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The figures, one per line, for one judge over one suite. */
export function renderRunStatistics(title: string, stats: RunStatistics): string {
  const unlabeled = stats.slots - stats.labeledSlots;
  const note = unlabeled > 0 ? ` (${unlabeled} unlabeled, not counted)` : "";
  const lines = [`${printable(title)}: ${stats.runs} ${plural(stats.runs, "run")} over ${stats.slots} verdict slots${note}`];
  stats.perRun.forEach((r, i) => {
    const notes = [
      ...(r.errors > 0 ? [`${r.errors} cases not judged`] : []),
      ...(r.clauseErrors > 0
        ? [
            `${r.clauseErrors} ${plural(r.clauseErrors, "rule verdict")} ${plural(r.clauseErrors, "rests", "rest")} on a failed model answer`,
          ]
        : []),
    ];
    lines.push(`  run ${i + 1}: ${r.agree}/${r.total} rule verdicts agree${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`);
  });
  lines.push(...statisticLines(stats).map(([label, value]) => `  ${label}: ${value}`));
  return lines.join("\n");
}

function statisticLines(stats: RunStatistics): [string, string][] {
  const { agree, total, accuracy, low, high } = stats.pooled;
  return [
    ["pooled accuracy", `${agree}/${total} (${percent(accuracy)}; Wilson 95% ${percent(low)}–${percent(high)})`],
    ["perfect runs", `${stats.perfectRuns}/${stats.runs}`],
    ["unanimous verdicts", `${stats.unanimousSlots}/${stats.slots}`],
  ];
}

/** Two or more judges' figures over the same suite, in columns. */
export function renderSideBySide(columns: readonly { title: string; stats: RunStatistics }[]): string {
  const rows: string[][] = [["", ...columns.map((c) => c.title)]];
  const runs = Math.max(...columns.map((c) => c.stats.runs));
  for (let i = 0; i < runs; i++) {
    rows.push([
      `run ${i + 1}`,
      ...columns.map((c) => (c.stats.perRun[i] === undefined ? "" : `${c.stats.perRun[i]!.agree}/${c.stats.perRun[i]!.total}`)),
    ]);
  }
  const figures = columns.map((c) => statisticLines(c.stats));
  figures[0]?.forEach(([label], row) => rows.push([label, ...figures.map((f) => f[row]![1])]));
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, col) => cell.padEnd(widths[col]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `calibrate --runs N` for a person: the compiled judge's figures, then what verify-on-false did over all runs. */
export function renderCalibrateRuns(behavior: string, statistics: RunStatistics, verifications: VerifyCounts): string {
  const lines = [renderRunStatistics(`behavior-judge (${behavior})`, statistics)];
  const verifyLine = renderVerifyLine(verifications);
  if (verifyLine !== undefined) lines.push(`${verifyLine} over ${statistics.runs} ${plural(statistics.runs, "run")}`);
  return lines.join("\n");
}

/** One judge's runs over the suite, and what their model calls cost. */
export interface JudgedRuns {
  statistics: RunStatistics;
  usage: SemanticUsage;
}

/** `baseline` for a person: the baseline's figures; given the compiled judge's, those and both side by side; then what the calls cost. */
export function renderBaselineReport(suite: string, baseline: JudgedRuns, compiled: JudgedRuns | undefined): string {
  const out: string[] = [renderRunStatistics(`one-call baseline (${suite})`, baseline.statistics)];
  if (compiled !== undefined) {
    out.push(renderRunStatistics(`behavior-judge (${suite})`, compiled.statistics), "");
    out.push(
      renderSideBySide([
        { title: "behavior-judge", stats: compiled.statistics },
        { title: "one-call baseline", stats: baseline.statistics },
      ]),
    );
  }
  out.push("", `baseline ${renderUsageLine(baseline.usage)}`);
  if (compiled !== undefined) out.push(`behavior-judge ${renderUsageLine(compiled.usage)}`);
  return out.join("\n");
}
