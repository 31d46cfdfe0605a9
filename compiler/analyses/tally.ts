/**
 * The running totals of a run, kept in one place: verdict counts, cases that
 * could not be judged, clauses without a valid model answer, what
 * verify-on-false did, what the model calls cost, and the counts per rule.
 * `judge`, `calibrate`, `calibrate --runs` and `baseline` add every result to
 * a Tally; the reports render from it.
 */
import { emptyUsage, type SemanticUsage } from "../../runtime/semantic.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { addUsage } from "../model/usage.js";
import type { CaseResult } from "../run/judge-cases.js";

/**
 * Whether a rule or trajectory verdict counts (and shows) as ERROR: it carries
 * the error marker and no clause failed (a failure stands even beside a
 * failed call; docs/FORMATS.md §4). Its verdict is then na, which must not read as
 * "no evidence" or "didn't apply": a model call failed.
 */
export function isModelError(judged: { verdict: Verdict; error?: true }): boolean {
  return judged.error === true && judged.verdict !== "false";
}

/** What verify-on-false did in one judgment or a whole run: failures the model confirmed, and failures it overturned. */
export interface VerifyCounts {
  confirmed: number;
  overturned: number;
}

export function emptyVerifyCounts(): VerifyCounts {
  return { confirmed: 0, overturned: 0 };
}

/** Adds a judgment's confirmed and overturned clauses to `into`. */
export function countVerifications(into: VerifyCounts, judgment: TrajectoryJudgment | undefined): VerifyCounts {
  for (const meta of judgment?.metaBehaviors ?? []) {
    for (const clause of meta.clauses) {
      if (clause.verification === "confirmed") into.confirmed++;
      else if (clause.verification === "overturned") into.overturned++;
    }
  }
  return into;
}

/** Trajectory verdicts over a run. */
export interface RunTotals {
  judged: number;
  true: number;
  false: number;
  na: number;
  /** Judged, but na because a model call failed (shown ERROR); not counted in `na`. */
  modelErrors: number;
  /** Cases that could not be judged. */
  errors: number;
}

export interface RuleSummaryRow {
  name: string;
  passed: number;
  failed: number;
  /** na with reason `not_applicable`: the rule's condition never arose. */
  notApplicable: number;
  /** na with reason `insufficient_evidence` (incomplete trace, or no model available). */
  noVerdict: number;
  /** na because a model call failed (the rule carries `error`). */
  modelErrors: number;
}

/**
 * Per rule, how many trajectories passed, failed, didn't apply or got no
 * verdict. Rows follow `ruleOrder` (so rules nobody triggered still show up),
 * then any other rule in order of first appearance.
 */
class RuleCounts {
  private readonly rows = new Map<string, RuleSummaryRow>();

  constructor(ruleOrder: readonly string[]) {
    for (const name of ruleOrder) this.rowFor(name);
  }

  private rowFor(name: string): RuleSummaryRow {
    let row = this.rows.get(name);
    if (row === undefined) {
      row = { name, passed: 0, failed: 0, notApplicable: 0, noVerdict: 0, modelErrors: 0 };
      this.rows.set(name, row);
      this.ordered.push(row);
    }
    return row;
  }

  /** Rows in the order they were made: a judgment's rule `at` is most often the row at `at` (a judge's rule order). */
  private readonly ordered: RuleSummaryRow[] = [];

  /** Counts `meta`, the judgment's rule number `at` (a hint: the row is found by name when it is not there). */
  add(meta: MetaBehaviorJudgment, at = -1): void {
    const guess = this.ordered[at];
    const row = guess !== undefined && guess.name === meta.name ? guess : this.rowFor(meta.name);
    if (isModelError(meta)) row.modelErrors++;
    else if (meta.verdict === "true") row.passed++;
    else if (meta.verdict === "false") row.failed++;
    else if (meta.naReason === "not_applicable") row.notApplicable++;
    else row.noVerdict++;
  }

  list(): RuleSummaryRow[] {
    return [...this.rows.values()];
  }

  /** Adds rows counted elsewhere (a worker thread's), by name; a rule not seen yet comes after the others. */
  merge(rows: readonly RuleSummaryRow[]): void {
    for (const other of rows) {
      const row = this.rowFor(other.name);
      row.passed += other.passed;
      row.failed += other.failed;
      row.notApplicable += other.notApplicable;
      row.noVerdict += other.noVerdict;
      row.modelErrors += other.modelErrors;
    }
  }
}

/**
 * A Tally's counts as plain data (structured-cloneable): what a worker
 * thread that judges a part of a file counted there (run/ranges.ts), for
 * the main thread's Tally to merge. Without usage: workers have no model.
 */
export interface TallyPart {
  totals: RunTotals;
  clauseErrors: number;
  verifications: VerifyCounts;
  rows: RuleSummaryRow[];
}

/** The per-rule rows over many judgments (see RuleCounts). */
export function summarizeByRule(judgments: readonly TrajectoryJudgment[], ruleOrder: readonly string[] = []): RuleSummaryRow[] {
  const counts = new RuleCounts(ruleOrder);
  for (const judgment of judgments) for (const meta of judgment.metaBehaviors) counts.add(meta);
  return counts.list();
}

export class Tally {
  readonly totals: RunTotals = { judged: 0, true: 0, false: 0, na: 0, modelErrors: 0, errors: 0 };
  /** Semantic clauses the model could not answer validly (or a verification that failed). */
  clauseErrors = 0;
  readonly verifications: VerifyCounts = emptyVerifyCounts();
  /** What the model calls of every case cost, failed cases included. */
  readonly usage: SemanticUsage = emptyUsage();
  private readonly rules: RuleCounts;

  /** `ruleOrder`: the judge's rules, so the per-rule rows list every rule, triggered or not. */
  constructor(ruleOrder: readonly string[] = []) {
    this.rules = new RuleCounts(ruleOrder);
  }

  add(result: CaseResult): void {
    addUsage(this.usage, result.usage);
    if (result.kind === "failed") {
      this.totals.errors++;
      return;
    }
    const { judgment } = result;
    this.totals.judged++;
    if (isModelError(judgment)) this.totals.modelErrors++;
    else this.totals[judgment.verdict]++;
    // One pass over the clauses: what countVerifications counts, and the clauses without a valid model answer.
    const metas = judgment.metaBehaviors;
    for (let i = 0; i < metas.length; i++) {
      const meta = metas[i]!;
      this.rules.add(meta, i);
      for (const clause of meta.clauses) {
        if (clause.error !== undefined) this.clauseErrors++;
        if (clause.verification === "confirmed") this.verifications.confirmed++;
        else if (clause.verification === "overturned") this.verifications.overturned++;
      }
    }
  }

  /**
   * An empty Tally with this one's rows, in their order: what one file counts
   * while its output is held (report/sink.ts runSinks), merged here once it
   * is written. Its rule rows merge by name, so rules first seen in the file
   * come after these, as they would counted here.
   */
  fresh(): Tally {
    return new Tally(this.rules.list().map((row) => row.name));
  }

  /** The counts so far as plain data, for another thread's Tally to merge. */
  part(): TallyPart {
    return {
      totals: { ...this.totals },
      clauseErrors: this.clauseErrors,
      verifications: { ...this.verifications },
      rows: this.rules.list().map((row) => ({ ...row })),
    };
  }

  /** Adds what another Tally counted (its `part()`): the sum is what one Tally given both runs' results counts. */
  merge(part: TallyPart): void {
    for (const key of Object.keys(this.totals) as (keyof RunTotals)[]) this.totals[key] += part.totals[key];
    this.clauseErrors += part.clauseErrors;
    this.verifications.confirmed += part.verifications.confirmed;
    this.verifications.overturned += part.verifications.overturned;
    this.rules.merge(part.rows);
  }

  /** Cases seen so far, judged or not. */
  get cases(): number {
    return this.totals.judged + this.totals.errors;
  }

  /** The per-rule rows so far. */
  ruleRows(): RuleSummaryRow[] {
    return this.rules.list();
  }
}

/** Said when a run that must judge something (`--fail-on-false`, calibrate) read no trajectory at all. */
export const NOTHING_JUDGED = "no trajectories were judged: the inputs hold none (an empty file, [] or empty stdin)";
