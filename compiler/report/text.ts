/** The plain-text report of `judge`: per trajectory, per rule, per clause, with cited event ids. */
import { citationsInOrder, eventOrigin, type LocatedEvent } from "../../runtime/citations.js";
import { CITATIONS_SHOWN, moreCitations, undecidedSummary } from "../../runtime/format-judgment.js";
import { isObject } from "../../runtime/is-object.js";
import type { Citation, Clause, MetaBehaviorJudgment, TrajectoryJudgment, Verdict } from "../../runtime/types.js";
import { printable } from "./printable.js";
import { isModelError, type RunTotals } from "../analyses/tally.js";
import { plural } from "./plural.js";
import { bytesAsText, type OutputSink, type Write, type WriteBytes } from "./sink.js";
import { renderRunSummary, renderSummaryTable, renderUsageLine } from "./summary.js";

const LABEL: Record<Verdict, string> = { true: "PASS", false: "FAIL", na: "N/A" };

/** PASS, FAIL, N/A, or ERROR when the verdict rests on a failed model call and nothing failed. */
function label(judged: { verdict: Verdict; error?: true }): string {
  return isModelError(judged) ? "ERROR" : LABEL[judged.verdict];
}

/** Whether some clause of `metas` may be undecided (a semantic na): only then is undecidedSummary asked. */
function mayBeUndecided(clauses: readonly Clause[]): boolean {
  for (const clause of clauses) if (clause.kind === "semantic" && clause.verdict === "na") return true;
  return false;
}

/**
 * PASS or FAIL with what no model decided: `PASS (1 clause undecided: no model)`.
 * An N/A says why in its own reason, and an ERROR is already flagged.
 * `clauses`: the clauses the verdict rests on, asked for only when it is PASS or FAIL.
 */
function labelWithUndecided(judged: { verdict: Verdict; error?: true }, clauses: () => readonly Clause[]): string {
  const shown = label(judged);
  if (shown !== "PASS" && shown !== "FAIL") return shown;
  const all = clauses();
  const undecided = all.length === 0 ? undefined : undecidedSummary(all);
  return undecided === undefined ? shown : `${shown} (${undecided})`;
}

/** What the text report needs to know about the run besides the judgment. */
export interface TextOptions {
  /**
   * Whether a model was configured, so verify-on-false could have checked a
   * failure: only then does an unchecked failure say `(unverified)`.
   */
  model: boolean;
  /**
   * The judged trajectory's events: citations are then listed in trajectory
   * order, an imported event with its native ids (`e4 (call call_9)`).
   * Without them (watch keeps no events) the judgment's order is kept, which
   * is the order its checks cited them in.
   */
  events?: readonly LocatedEvent[] | undefined;
  /** The raw trajectory, instead of `events`: its events are read only if a clause cites one. */
  trajectory?: unknown;
}

/**
 * The cited events of a trajectory: the position of each cited id (its last
 * event with that id) and the events to read them in. Positions count every
 * entry of the events' array, not only the objects with a string id
 * (eventPositions over those): the same order, which is all the report reads
 * of them besides the event at each.
 */
interface EventLookup {
  events: readonly unknown[];
  positions: ReadonlyMap<string, number>;
}

/**
 * The EventLookup of one trajectory, made once and only when a clause cites
 * something: one pass over the events that looks up each event's id among
 * the ids the judgment cites, rather than a map of every event (rendering a
 * 48-event trajectory's text took 0.92× the time; docs/SPEED.md "Sixth round").
 */
class Lookup {
  private lookup: EventLookup | undefined;
  private read = false;
  constructor(
    private readonly options: TextOptions,
    private readonly metas: readonly MetaBehaviorJudgment[],
  ) {}
  get(): EventLookup | undefined {
    if (!this.read) {
      this.read = true;
      const events = this.options.events ?? rawEvents(this.options.trajectory);
      if (events !== undefined) this.lookup = { events, positions: citedPositions(events, this.metas) };
    }
    return this.lookup;
  }
}

/** A raw trajectory's events, or undefined when it has none to read. */
function rawEvents(trajectory: unknown): readonly unknown[] | undefined {
  return isObject(trajectory) && Array.isArray(trajectory.events) ? trajectory.events : undefined;
}

/** The position of each id `metas` cite among `events` (the last event with that id that is an object); ids no event has are left out. */
function citedPositions(events: readonly unknown[], metas: readonly MetaBehaviorJudgment[]): Map<string, number> {
  const cited = new Map<string, number>();
  for (const meta of metas) for (const clause of meta.clauses) for (const citation of clause.citations) cited.set(citation.eventId, -1);
  let found = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (!isObject(event)) continue;
    const id = event.id;
    if (typeof id !== "string") continue;
    const at = cited.get(id);
    if (at === undefined) continue;
    if (at === -1) found++;
    cited.set(id, i);
  }
  // Every cited id an event's: nothing to leave out (the usual case, without a second pass).
  if (found < cited.size) for (const [id, at] of cited) if (at === -1) cited.delete(id);
  return cited;
}

/**
 * Each citation's position among the events (Infinity for an event the
 * trajectory lacks), one clause at a time: the array is reused, so a clause
 * costs one lookup per citation and no allocation.
 */
let ranks: number[] = [];

/** A cited event's id as shown, with an imported event's native ids: `e4 (call call_9)`. */
function citedText(citation: Citation, at: number, events: readonly unknown[]): string {
  const origin = at === Infinity ? undefined : eventOrigin(events[at] as LocatedEvent);
  return origin === undefined ? printable(citation.eventId) : `${printable(citation.eventId)} (${printable(origin)})`;
}

/**
 * The cited event ids in trajectory order, the first CITATIONS_SHOWN of them
 * and a count of the rest. Each citation's position is looked up once: when
 * they are in trajectory order already (a check cites as it steps, so nearly
 * always), the first ones are shown as they are; else citationsInOrder sorts
 * what is shown (docs/SPEED.md, eighth round).
 */
function citationList(clause: Clause, events: Lookup): string {
  const citations = clause.citations;
  const count = citations.length;
  if (count === 0) return "";
  const lookup = events.get();
  const shown = Math.min(count, CITATIONS_SHOWN);
  let text = " [";
  if (lookup === undefined) {
    // No events to read: the judgment's order, which is the order its checks cited them in.
    for (let i = 0; i < shown; i++) text += (i === 0 ? "" : ", ") + printable(citations[i]!.eventId);
  } else {
    const positions = lookup.positions;
    if (ranks.length < count) ranks = new Array<number>(count);
    let sorted = true;
    let previous = -1;
    for (let i = 0; i < count; i++) {
      const at = positions.get(citations[i]!.eventId) ?? Infinity;
      ranks[i] = at;
      if (at < previous) sorted = false;
      previous = at;
    }
    if (sorted) {
      for (let i = 0; i < shown; i++) text += (i === 0 ? "" : ", ") + citedText(citations[i]!, ranks[i]!, lookup.events);
    } else {
      const ordered = citationsInOrder(citations, positions, CITATIONS_SHOWN);
      for (let i = 0; i < ordered.length; i++)
        text += (i === 0 ? "" : ", ") + citedText(ordered[i]!, positions.get(ordered[i]!.eventId) ?? Infinity, lookup.events);
    }
  }
  return `${text}${count > CITATIONS_SHOWN ? `, ${moreCitations(count - CITATIONS_SHOWN)}` : ""}]`;
}

function naSuffix(reason: string | null): string {
  return reason === null ? "" : ` (${reason})`;
}

/**
 * Text that is the same in every judgment of a run (a rule's name, a
 * clause's quote), made printable once rather than per case (issue 26).
 * Bounded, so a run of many distinct texts (model answers) keeps no more.
 */
class Printed {
  private readonly made = new Map<string, string>();
  constructor(private readonly make: (text: string) => string) {}
  get(text: string): string {
    let shown = this.made.get(text);
    if (shown === undefined) {
      shown = this.make(text);
      if (this.made.size < 4096) this.made.set(text, shown);
    }
    return shown;
  }
}

const RULE_NAMES = new Printed(printable);
const QUOTES = new Printed((quote) => printable(JSON.stringify(quote)));

/** A clause line's start: six spaces and its verdict padded to five. */
function verdictColumn(verdict: string): string {
  switch (verdict) {
    case "true":
      return "      true  ";
    case "false":
      return "      false ";
    case "na":
      return "      na    ";
    default:
      return `      ${verdict.padEnd(5)} `;
  }
}

function clauseKind(clause: Clause): string {
  return clause.kind === "semantic" ? `semantic ${clause.check ?? ""}`.trimEnd() : (clause.check ?? "predicate");
}

function clauseLine(clause: Clause, options: TextOptions, events: Lookup): string {
  const verdict = verdictColumn(clause.verdict);
  const quote = typeof clause.quote === "string" ? QUOTES.get(clause.quote) : printable(JSON.stringify(clause.quote));
  const cites = citationList(clause, events);
  // Without a model nothing could have verified a failure: "(unverified)" would only be noise.
  const verification =
    clause.verification !== undefined && (clause.verification !== "unverified" || options.model) ? ` (${clause.verification})` : "";
  const error = clause.error !== undefined ? ` ERROR: ${printable(clause.error)}` : "";
  let text = `${verdict}${clauseKind(clause)}: ${quote}${naSuffix(clause.naReason)}${cites}${verification}${error}`;
  if (clause.explanation !== undefined) text += `\n            expected: ${printable(clause.explanation.replace(/\s+/g, " "))}`;
  if (clause.found !== undefined) text += `\n            found: ${printable(clause.found.replace(/\s+/g, " "))}`;
  if (clause.reasoning !== undefined && clause.error === undefined)
    text += `\n            ${printable(clause.reasoning.replace(/\s+/g, " "))}`;
  // An overturn rests on a model's word alone, and text in the trajectory may have asked for it: never only a parenthesis.
  if (clause.verification === "overturned") {
    text += `\n            OVERTURNED: the deterministic check found this clause violated; the model answered ${clause.verdict}`;
  }
  return text;
}

/** A rule's lines, each after a line break. */
function metaLines(meta: MetaBehaviorJudgment, options: TextOptions, events: Lookup): string {
  const trigger = meta.triggered ? "" : " — not triggered";
  // Also beside a FAIL (a failed verify call): a failed model call must catch the eye wherever it is.
  let errors = 0;
  for (const clause of meta.clauses) if (clause.error !== undefined) errors++;
  const flagged =
    errors > 0 ? ` — ${errors} ${plural(errors, "clause")} without a valid model answer${isModelError(meta) ? "" : " (ERROR)"}` : "";
  const shown = labelWithUndecided(meta, () => (mayBeUndecided(meta.clauses) ? meta.clauses : []));
  const name = typeof meta.name === "string" ? RULE_NAMES.get(meta.name) : printable(meta.name);
  let text = `\n  ${shown.padEnd(5)} ${name}${naSuffix(meta.naReason)}${trigger}${flagged}`;
  for (const clause of meta.clauses) text += `\n${clauseLine(clause, options, events)}`;
  return text;
}

/** One trajectory's block of the text report. */
export function renderTrajectoryText(judgment: TrajectoryJudgment, source: string, options: TextOptions = { model: true }): string {
  const metas = judgment.metaBehaviors;
  const headline = labelWithUndecided(judgment, () => {
    let some = false;
    for (const meta of metas) if (mayBeUndecided(meta.clauses)) some = true;
    return some ? metas.flatMap((m) => m.clauses) : [];
  });
  const events = new Lookup(options, metas);
  let text = `${headline}  ${printable(judgment.trajectoryId)}  (${printable(source)})`;
  for (const meta of metas) text += metaLines(meta, options, events);
  return `${text}\n`;
}

export function renderTotalsLine(totals: RunTotals): string {
  const errors = totals.errors > 0 ? `; ${totals.errors} could not be judged` : "";
  const modelErrors = totals.modelErrors > 0 ? `, ${totals.modelErrors} ERROR (no valid model answer)` : "";
  return `${totals.judged} ${plural(totals.judged, "trajectory", "trajectories")} judged: ${totals.true} true, ${totals.false} false, ${totals.na} na${modelErrors}${errors}`;
}

/**
 * The text report on stdout: each judged trajectory's block as it comes (with
 * what its calls cost, given a model), then the per-rule table, the totals
 * and the run's summary lines. A case that could not be judged is on stderr
 * (progressSink), not here. `usage`: a model was configured (so its calls
 * are counted, and an unchecked failure says `unverified`).
 */
export function textSink(write: Write, options: { usage: boolean; writeBytes?: WriteBytes }): OutputSink {
  const writeBytes = options.writeBytes ?? bytesAsText(write);
  const textOptions: TextOptions = { model: options.usage };
  return {
    add(result) {
      if (result.kind === "failed") return;
      const cost = result.usage;
      const rendered = result.rendered !== undefined && "text" in result.rendered ? result.rendered.text : undefined;
      write(
        (rendered ??
          renderTrajectoryText(result.judgment, result.input.file, { model: textOptions.model, trajectory: result.input.trajectory })) +
          (cost !== undefined ? `  ${renderUsageLine(cost)}\n` : "") +
          "\n",
      );
    },
    addRendered(run) {
      return writeBytes(run.bytes);
    },
    async finish(tally) {
      write(`${renderSummaryTable(tally.ruleRows())}\n${renderTotalsLine(tally.totals)}\n`);
      // Model failures are never a silent pass: counted in the summary (and the run fails).
      for (const line of renderRunSummary(tally, options)) write(`${line}\n`);
      return [];
    },
  };
}
