/**
 * What `--dry-run` prints: the calls a run would make, as a few lines of
 * text or one JSON object. No judgment is shown: the answers it used are
 * supposed, not the model's.
 */
import type { DryRunCounts, Range } from "../analyses/dry-run.js";
import { plural } from "./plural.js";
import { printable } from "./printable.js";

/** What the counts were made under. */
export interface DryRunContext {
  /** The judge's `behavior`. */
  behavior: string;
  /** Set when no model would be asked at all: why (`--no-model`, none configured). */
  noModel?: string;
  /** The model's name and where it is reached; absent without a model. */
  model?: { name: string; description: string };
  /** The answer cache read; undefined with `--no-cache`. */
  cacheDir?: string;
  sample?: number;
  verify: boolean;
  rpm?: number;
  /** `calibrate --runs N`: the counts are for all N runs. */
  runs?: number;
}

export interface DryRunReport {
  dryRun: true;
  behavior: string;
  /** Whether any trajectory gets the model; when not, `reason` says why. */
  modelCalls: boolean;
  reason: string | null;
  model: string | null;
  endpoint: string | null;
  cache: string | null;
  sample: number | null;
  verify: boolean;
  runs: number;
  cases: number;
  failed: number;
  trajectories: number;
  withModel: number;
  semanticCalls: Range;
  verifyCalls: Range;
  /** Every call is one request unless its answer fails validation or the transport retries. */
  requests: Range;
  cachedAnswers: Range;
  rpm: number | null;
  /** At `rpm`, the last request starts this many seconds after the first, at the least; null without `rpm`. */
  minimumSeconds: Range | null;
  failures: string[];
}

function add(a: Range, b: Range): Range {
  return { atLeast: a.atLeast + b.atLeast, atMost: a.atMost + b.atMost };
}

/** Starts are spaced 60000/rpm ms apart (compiler/model/openai.ts), so n requests span (n - 1) spacings. */
export function pacedSeconds(requests: number, rpm: number): number {
  return Math.ceil((Math.max(0, requests - 1) * 60) / rpm);
}

export function dryRunReport(counts: DryRunCounts, context: DryRunContext): DryRunReport {
  const requests = add(counts.semantic, counts.verify);
  return {
    dryRun: true,
    behavior: context.behavior,
    modelCalls: context.noModel === undefined,
    reason: context.noModel ?? null,
    model: context.model?.name ?? null,
    endpoint: context.model?.description ?? null,
    cache: context.model !== undefined ? (context.cacheDir ?? null) : null,
    sample: context.sample ?? null,
    verify: context.verify,
    runs: context.runs ?? 1,
    cases: counts.cases,
    failed: counts.failures.length,
    trajectories: counts.trajectories,
    withModel: counts.withModel,
    semanticCalls: counts.semantic,
    verifyCalls: counts.verify,
    requests,
    cachedAnswers: counts.cached,
    rpm: context.rpm ?? null,
    minimumSeconds:
      context.rpm === undefined
        ? null
        : { atLeast: pacedSeconds(requests.atLeast, context.rpm), atMost: pacedSeconds(requests.atMost, context.rpm) },
    failures: counts.failures,
  };
}

/** `3–7`, or `5` when both ends agree. */
export function renderRange(range: Range, format: (n: number) => string = String): string {
  return range.atLeast === range.atMost ? format(range.atLeast) : `${format(range.atLeast)}–${format(range.atMost)}`;
}

/** `1h 02m 03s`, `4m 05s`, `6s`. */
export function renderDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

function casesLine(report: DryRunReport): string {
  const failed = report.failed > 0 ? `, ${report.failed} cannot be judged (listed on stderr)` : "";
  return `cases: ${report.cases} read, ${report.trajectories} ${plural(report.trajectories, "trajectory", "trajectories")} judged${failed}`;
}

function modelLines(report: DryRunReport): string[] {
  const sampled = report.sample !== null ? ` (--sample ${report.sample})` : "";
  const runs = report.runs > 1 ? ` over ${report.runs} runs` : "";
  return [
    `model: ${printable(report.endpoint ?? "")}`,
    report.cache === null ? "cache: off: every question is a request" : `cache: ${printable(report.cache)}`,
    `trajectories that get the model: ${report.withModel}${sampled}`,
    `semantic calls (triggers, semantic checks): ${renderRange(report.semanticCalls)}${runs}`,
    `verify calls (verify-on-false): ${report.verify ? renderRange(report.verifyCalls) : "0 (--no-verify)"}${runs}`,
    `cached answers used: ${renderRange(report.cachedAnswers)}`,
    `requests: ${renderRange(report.requests)} (one per call; answers that fail validation and transport retries add more)`,
    pacingLine(report),
  ];
}

/** How long `--rpm` makes the requests take at the least: their starts are spaced out, whatever the concurrency. */
function pacingLine(report: DryRunReport): string {
  if (report.minimumSeconds === null) return "no --rpm: requests are not paced";
  if (report.requests.atMost === 0) return `at --rpm ${report.rpm}: no request to pace`;
  return `at --rpm ${report.rpm}: the last request starts ${renderRange(report.minimumSeconds, renderDuration)} after the first, at the least`;
}

/**
 * The text report: what was counted, then the calls as ranges (what a judge
 * asks next depends on answers it cannot know until it asks).
 */
export function renderDryRun(report: DryRunReport): string[] {
  const name = `dry run of ${printable(report.behavior)}`;
  if (!report.modelCalls) return [`${name}: no model calls would be made: ${report.reason}`, casesLine(report)];
  const source = report.cache === null ? "" : "; figures from the answer cache as it is now";
  return [`${name}: no request was sent${source}`, casesLine(report), ...modelLines(report)];
}
