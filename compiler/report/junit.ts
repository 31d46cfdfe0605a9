/**
 * Judgments as JUnit XML for CI: one <testsuite> per trajectory file, one
 * <testcase> per (trajectory, rule). The shape follows the common JUnit
 * schema that Jenkins, GitLab and GitHub reporters read (testsuites >
 * testsuite > testcase > failure | error | skipped), with `time="0"` because
 * the output must not depend on the clock.
 */
import { eventPositions } from "../../runtime/citations.js";
import { citationLines, undecidedReason, undecidedSummary, type CitedEvent } from "../../runtime/format-judgment.js";
import type { Clause, MetaBehaviorJudgment, Trajectory, TrajectoryJudgment } from "../../runtime/types.js";
import type { CaseError } from "./html.js";
import { countVerifications, emptyVerifyCounts } from "../analyses/tally.js";
import { verdictLabel } from "./summary.js";
import { plural } from "./plural.js";
import { visibleFormatting } from "./printable.js";
import type { LabelComparison, VerdictComparison } from "../../testing/labels.js";

export interface JunitFile {
  readonly file: string;
  readonly judgments: readonly TrajectoryJudgment[];
  /**
   * The judged trajectories, `trajectories[i]` for `judgments[i]`: cited
   * events are then shown by action and clipped content, not by id alone.
   */
  readonly trajectories?: readonly (Trajectory | undefined)[];
  /**
   * `calibrate --junit`: `labels[i]` compares `judgments[i]` with its labels.
   * A labeled case's test cases pass when the verdict agrees with the label
   * and fail when it disagrees, whatever the verdict; its trajectory verdict
   * is a test case of its own.
   */
  readonly labels?: readonly (LabelComparison | undefined)[];
}

export interface JunitInput {
  readonly files: readonly JunitFile[];
  /** Inputs that could not be judged; each becomes an <error> test case in its file's suite. */
  readonly errors?: readonly CaseError[];
  /**
   * Whether a model was configured, so verify-on-false could have checked a
   * failure (default true): without one, failures do not say `unverified`.
   */
  readonly model?: boolean;
}

/** Renders the whole report; same input, same bytes. */
export function renderJunit(input: JunitInput): string {
  const model = input.model !== false;
  const suites = suitesFor(input).map((suite) => renderSuite(suite, model));
  const totals = sumCounts(suites.map((s) => s.counts));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    // junit-10.xsd (Jenkins' schema, the strictest common one) has no `skipped` on <testsuites>; the suites carry it.
    `<testsuites name="behavior-judge" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="0">`,
    ...suites.map((s) => s.xml),
    `</testsuites>`,
    "",
  ].join("\n");
}

/** A judgment with the events it may cite, by id, and where each sits (citations are listed in trajectory order). */
interface Judged {
  judgment: TrajectoryJudgment;
  labels?: LabelComparison | undefined;
  events: ReadonlyMap<string, CitedEvent>;
  positions: ReadonlyMap<string, number> | undefined;
}

interface Suite {
  file: string;
  judged: Judged[];
  errors: CaseError[];
}

const NO_EVENTS: ReadonlyMap<string, CitedEvent> = new Map();

/** Suites in input order; a file known only from its errors gets a suite after the others. */
function suitesFor(input: JunitInput): Suite[] {
  const suites: Suite[] = [];
  const byFile = new Map<string, Suite>();
  const suiteFor = (file: string): Suite => {
    let suite = byFile.get(file);
    if (suite === undefined) {
      suite = { file, judged: [], errors: [] };
      byFile.set(file, suite);
      suites.push(suite);
    }
    return suite;
  };
  for (const entry of input.files) {
    const suite = suiteFor(entry.file);
    entry.judgments.forEach((judgment, i) => {
      const events = entry.trajectories?.[i]?.events;
      suite.judged.push({
        judgment,
        labels: entry.labels?.[i],
        events: events === undefined ? NO_EVENTS : new Map(events.map((e) => [e.id, e] as const)),
        // Without the trajectory the judgment's order is all there is: citations keep it.
        positions: events === undefined ? undefined : eventPositions(events),
      });
    });
  }
  for (const error of input.errors ?? []) suiteFor(error.file).errors.push(error);
  return suites;
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

type Outcome = "passed" | "failure" | "error" | "skipped";

interface TestCase {
  xml: string;
  outcome: Outcome;
}

function renderSuite(suite: Suite, model: boolean): { xml: string; counts: Counts } {
  const overturned = suite.judged.reduce((n, j) => n + countVerifications(emptyVerifyCounts(), j.judgment).overturned, 0);
  const cases = [
    ...suite.judged.flatMap(({ judgment, labels, events, positions }) =>
      labels === undefined
        ? judgment.metaBehaviors.map((meta) => ruleCase(judgment, meta, { events, positions, model }))
        : labeledCases(judgment, labels, { events, positions, model }),
    ),
    ...suite.errors.map(caseErrorCase),
  ];
  const counts: Counts = {
    tests: cases.length,
    failures: cases.filter((c) => c.outcome === "failure").length,
    errors: cases.filter((c) => c.outcome === "error").length,
    skipped: cases.filter((c) => c.outcome === "skipped").length,
  };
  const xml = [
    `  <testsuite name="${escapeXmlAttribute(suite.file)}"${countAttributes(counts)} time="0">`,
    // A CI gate can read how many deterministic failures a model overturned here (verify-on-false).
    ...(overturned > 0
      ? [`    <properties>`, `      <property name="behavior-judge.overturned" value="${overturned}"/>`, `    </properties>`]
      : []),
    ...cases.map((c) => c.xml),
    `  </testsuite>`,
  ].join("\n");
  return { xml, counts };
}

/** How clauses are described: the events they may cite, and whether a model could have verified a failure. */
interface Describe {
  events: ReadonlyMap<string, CitedEvent>;
  positions: ReadonlyMap<string, number> | undefined;
  model: boolean;
}

/**
 * One test case per rule. Two things a plain pass would hide go into its
 * <system-out>: a failure a model overturned (the verdict rests on a model's
 * word against the deterministic check), and clauses no model decided
 * (`PASS (1 clause undecided: no model)`).
 */
function ruleCase(judgment: TrajectoryJudgment, meta: MetaBehaviorJudgment, how: Describe): TestCase {
  const open = `    <testcase name="${escapeXmlAttribute(`${judgment.trajectoryId} › ${meta.name}`)}" classname="${escapeXmlAttribute(judgment.behavior)}" time="0"`;
  const { outcome, element } = ruleResult(meta, how);
  const overturned = meta.clauses
    .filter((c) => c.verification === "overturned")
    .map((c) => `OVERTURNED by the model (the deterministic check said false)\n${describeClause(c, how)}`);
  const undecided = undecidedSummary(meta.clauses);
  const notes =
    outcome === "passed" && undecided !== undefined
      ? [
          `PASS (${undecided})\n${meta.clauses
            .filter((c) => undecidedReason(c) !== undefined)
            .map((c) => describeClause(c, how))
            .join("\n\n")}`,
          ...overturned,
        ]
      : overturned;
  // One <system-out> per test case: some readers keep only the first.
  const note = notes.length === 0 ? undefined : `<system-out>${escapeXmlText(notes.join("\n\n"))}</system-out>`;
  const children = [element, note].filter((c): c is string => c !== undefined);
  return {
    outcome,
    xml: children.length === 0 ? `${open}/>` : `${open}>\n${children.map((c) => `      ${c}`).join("\n")}\n    </testcase>`,
  };
}

const VERDICT_NAMES = { true: "Pass", false: "Fail", na: "N/A" } as const;

/**
 * `calibrate --junit`: one test case per rule and one for the trajectory
 * verdict, each passing when the verdict agrees with its label; a
 * disagreement is a <failure>, a verdict resting on a failed model call an
 * <error> (it never agrees), a verdict without a label <skipped>, and each
 * label naming no rule of the judge an <error>.
 */
function labeledCases(judgment: TrajectoryJudgment, labels: LabelComparison, how: Describe): TestCase[] {
  const open = (name: string) =>
    `    <testcase name="${escapeXmlAttribute(`${judgment.trajectoryId} › ${name}`)}" classname="${escapeXmlAttribute(judgment.behavior)}" time="0"`;
  const testCase = (name: string, result: { outcome: Outcome; element?: string }): TestCase => ({
    outcome: result.outcome,
    xml: result.element === undefined ? `${open(name)}/>` : `${open(name)}>\n      ${result.element}\n    </testcase>`,
  });
  const rules = judgment.metaBehaviors.map((meta) => {
    const label = labels.metaBehaviors.find((m) => m.name === meta.name);
    const body = meta.clauses.map((c) => describeClause(c, how)).join("\n\n");
    return testCase(meta.name, label === undefined ? { outcome: "passed" } : labelResult(label, body));
  });
  const verdict = testCase("trajectory verdict", labelResult(labels.verdict, ""));
  const unknown = labels.unknownLabels.map((name) =>
    testCase(`label ${JSON.stringify(name)}`, {
      outcome: "error",
      element: `<error message="${escapeXmlAttribute(`label ${JSON.stringify(name)} names no rule of this judge`)}" type="unknown-label"/>`,
    }),
  );
  return [...rules, verdict, ...unknown];
}

function labelResult(
  label: Pick<VerdictComparison, "expected" | "actual" | "agree" | "error" | "unlabeled">,
  body: string,
): { outcome: Outcome; element?: string } {
  const actual = VERDICT_NAMES[label.actual];
  if (label.unlabeled === true || label.expected === null)
    return { outcome: "skipped", element: `<skipped message="${escapeXmlAttribute(`no label (the judge said ${actual})`)}"/>` };
  const expected = VERDICT_NAMES[label.expected];
  if (label.error === true) {
    const message = `label says ${expected}; the judge's verdict rests on a failed model call`;
    return {
      outcome: "error",
      element: `<error message="${escapeXmlAttribute(message)}" type="model-error">${escapeXmlText(body)}</error>`,
    };
  }
  if (label.agree) return { outcome: "passed" };
  const message = `label says ${expected}, the judge said ${actual}`;
  return {
    outcome: "failure",
    element: `<failure message="${escapeXmlAttribute(message)}" type="label-disagreement">${escapeXmlText(body)}</failure>`,
  };
}

/** The rule's result element: <failure>, <error> (a failed model call), <skipped> (na), or none (a pass). */
function ruleResult(meta: MetaBehaviorJudgment, how: Describe): { outcome: Outcome; element?: string } {
  const modelErrors = meta.clauses.filter((c) => c.error !== undefined && c.error !== "");
  if (meta.verdict === "false") {
    const failing = meta.clauses.filter((c) => c.verdict === "false");
    const message = `${failing.length} of ${meta.clauses.length} ${plural(meta.clauses.length, "clause")} failed: ${failing.map((c) => c.quote).join(" | ")}`;
    const body = [...failing, ...modelErrors].map((c) => describeClause(c, how)).join("\n\n");
    return {
      outcome: "failure",
      element: `<failure message="${escapeXmlAttribute(message)}" type="rule-failed">${escapeXmlText(body)}</failure>`,
    };
  }
  // A model that could not answer is not a pass or a skip: CI should see it.
  if (modelErrors.length > 0) {
    const message = `model error: ${modelErrors.map((c) => c.error).join(" | ")}`;
    return {
      outcome: "error",
      element: `<error message="${escapeXmlAttribute(message)}" type="model-error">${escapeXmlText(modelErrors.map((c) => describeClause(c, how)).join("\n\n"))}</error>`,
    };
  }
  if (meta.verdict === "na")
    return { outcome: "skipped", element: `<skipped message="${escapeXmlAttribute(verdictLabel(meta.verdict, meta.naReason))}"/>` };
  return { outcome: "passed" };
}

/**
 * The failure body a person reads in CI: verdict, check type, the spec's own
 * words, and the cited events by id, actor/action and clipped content (the
 * first few; the rest counted), as the test helpers show them.
 */
function describeClause(clause: Clause, how: Describe): string {
  const cited = citationLines(clause, how.events, 80, how.positions);
  const lines = [
    `${verdictLabel(clause.verdict, clause.naReason)} [${clause.check ?? clause.kind}]`,
    `  quote: ${clause.quote}`,
    ...(clause.explanation === undefined ? [] : [`  expected: ${clause.explanation}`]),
    ...(clause.found === undefined ? [] : [`  found: ${clause.found}`]),
    ...(cited.length === 0 ? ["  cited events: (none)"] : ["  cited events:", ...cited.map((line) => `    ${line}`)]),
  ];
  if (clause.reasoning !== undefined && clause.reasoning !== "") lines.push(`  reasoning: ${clause.reasoning}`);
  // Without a model nothing could have verified a failure: `unverified` would only be noise.
  if (clause.verification !== undefined && (clause.verification !== "unverified" || how.model))
    lines.push(`  verification: ${clause.verification}`);
  if (clause.error !== undefined && clause.error !== "") lines.push(`  model error: ${clause.error}`);
  return lines.join("\n");
}

function caseErrorCase(error: CaseError): TestCase {
  const where = `${error.file}${error.line === undefined ? "" : `:${error.line}`}`;
  const name = `case ${error.caseIndex}${error.line === undefined ? "" : ` (line ${error.line})`}`;
  return {
    outcome: "error",
    xml: `    <testcase name="${escapeXmlAttribute(name)}" classname="input" time="0">\n      <error message="${escapeXmlAttribute(error.message)}" type="invalid-input">${escapeXmlText(`${where}: ${error.message}`)}</error>\n    </testcase>`,
  };
}

function countAttributes(c: Counts): string {
  return ` tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;
}

function sumCounts(all: readonly Counts[]): Counts {
  return all.reduce(
    (sum, c) => ({
      tests: sum.tests + c.tests,
      failures: sum.failures + c.failures,
      errors: sum.errors + c.errors,
      skipped: sum.skipped + c.skipped,
    }),
    { tests: 0, failures: 0, errors: 0, skipped: 0 },
  );
}

// Characters XML 1.0 forbids outright (most C0 controls, lone surrogates,
// U+FFFE/U+FFFF): no escape can carry them, so they become U+FFFD.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Also shows bidi and invisible characters as escapes (printable.ts): a CI page must not be reordered by trajectory text. */
function legalXmlChars(text: string): string {
  return visibleFormatting(String(text).replace(NOT_XML_CHAR, "\uFFFD"));
}

/** Escapes element text. `>` is escaped too, so `]]>` cannot appear; CR becomes a reference because parsers turn a literal one into LF. */
export function escapeXmlText(text: string): string {
  return legalXmlChars(text).replace(/[&<>\r]/g, (c) => XML_TEXT_ESCAPES[c]!);
}

const XML_TEXT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };

/** Escapes a double-quoted attribute value; tabs and line breaks become references so attribute normalization keeps them. */
export function escapeXmlAttribute(text: string): string {
  return legalXmlChars(text).replace(/[&<>"\t\n\r]/g, (c) => XML_ATTRIBUTE_ESCAPES[c]!);
}

const XML_ATTRIBUTE_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};
