/** The plain-text report prints untrusted trajectory text: it must not drive the terminal or forge report lines. */
import { describe, expect, test } from "vitest";
import { renderComparison } from "../../compiler/report/calibration.js";
import { renderTrajectoryText } from "../../compiler/report/text.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment } from "../../runtime/types.js";

const hostileId = "t1\x1b[2J\nPASS  forged line\u202e";

const judgment: TrajectoryJudgment = {
  behavior: "b",
  trajectoryId: hostileId,
  verdict: "false",
  metaBehaviors: [
    {
      name: "Rule",
      verdict: "false",
      naReason: null,
      triggered: true,
      clauses: [
        {
          kind: "predicate",
          quote: "q",
          verdict: "false",
          naReason: null,
          citations: [{ eventId: "e1\r\x07", description: "d" }],
          reasoning: "because \x1b]0;title\x07 said so",
          verification: "overturned",
        },
      ],
    },
  ],
};

/** Every control, line-separator and bidi-override character a terminal or log viewer would act on. */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("text report", () => {
  test("ids and model reasoning are shown with control characters escaped", () => {
    const text = renderTrajectoryText(judgment, "trips.json");
    expect(text).not.toMatch(ACTIVE);
    // Trajectory, rule, clause, reasoning, the OVERTURNED line, and the blank line that ends the block.
    expect(text.split("\n")).toHaveLength(5 + 1);
    expect(text).toContain("t1\\u001b[2J\\nPASS  forged line\\u202e");
    expect(text).toContain("[e1\\r\\u0007]");
  });

  test("calibrate's per-case lines escape the trajectory id too", () => {
    const line = renderComparison({
      file: "cases.json",
      caseIndex: 0,
      trajectoryId: hostileId,
      verdict: { expected: "true", actual: "true", agree: true },
      metaBehaviors: [],
      unknownLabels: [],
      unlabeled: [],
    });
    expect(line).not.toMatch(ACTIVE);
    expect(line.split("\n")).toHaveLength(1);
  });
});

describe("a failed model answer", () => {
  test("beside a failure (a verify call that failed) is flagged ERROR on the rule's own line, not only on the clause", () => {
    const failing: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "false",
      error: true,
      metaBehaviors: [
        {
          name: "Look up first",
          verdict: "false",
          naReason: null,
          error: true,
          triggered: true,
          clauses: [
            {
              kind: "predicate",
              quote: "looks up the order",
              verdict: "false",
              naReason: null,
              citations: [{ eventId: "e1", description: "d" }],
              verification: "unverified",
              error: "HTTP 500",
            },
          ],
        },
      ],
    };
    const text = renderTrajectoryText(failing, "f.json");
    expect(text).toMatch(/^FAIL {2}t {2}\(f\.json\)\n/);
    expect(text).toMatch(/\n {2}FAIL {2}Look up first — 1 clause without a valid model answer \(ERROR\)\n/);
  });

  test("that leaves a rule without a verdict shows ERROR in place of N/A", () => {
    const errored: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "na",
      error: true,
      metaBehaviors: [
        {
          name: "Grounded answer",
          verdict: "na",
          naReason: "insufficient_evidence",
          error: true,
          triggered: true,
          clauses: [
            {
              kind: "predicate",
              quote: "reads a source",
              verdict: "true",
              naReason: null,
              citations: [{ eventId: "e1", description: "d" }],
            },
            {
              kind: "semantic",
              quote: "bases its answer on it",
              verdict: "na",
              naReason: "insufficient_evidence",
              citations: [],
              error: "invalid JSON twice",
            },
          ],
        },
      ],
    };
    const text = renderTrajectoryText(errored, "f.json");
    expect(text).toMatch(/^ERROR {2}t {2}\(f\.json\)\n/);
    expect(text).toMatch(/\n {2}ERROR Grounded answer \(insufficient_evidence\) — 1 clause without a valid model answer\n/);
  });
});

describe("what no model decided or verified", () => {
  const NO_MODEL = "No model was available to decide this clause, so it has no verdict.";
  const undecided = (quote: string): TrajectoryJudgment["metaBehaviors"][number]["clauses"][number] => ({
    kind: "semantic",
    check: "question",
    quote,
    verdict: "na",
    naReason: "insufficient_evidence",
    citations: [],
    reasoning: NO_MODEL,
  });
  const passing: TrajectoryJudgment = {
    behavior: "b",
    trajectoryId: "t",
    verdict: "true",
    metaBehaviors: [
      {
        name: "One question",
        verdict: "true",
        naReason: null,
        triggered: true,
        clauses: [
          { kind: "predicate", check: "required", quote: "answers", verdict: "true", naReason: null, citations: [] },
          undecided("is polite"),
        ],
      },
      {
        name: "Two questions",
        verdict: "true",
        naReason: null,
        triggered: true,
        clauses: [
          { kind: "predicate", check: "required", quote: "answers", verdict: "true", naReason: null, citations: [] },
          undecided("is brief"),
          undecided("is kind"),
        ],
      },
    ],
  };
  const failing: TrajectoryJudgment = {
    behavior: "b",
    trajectoryId: "f",
    verdict: "false",
    metaBehaviors: [
      {
        name: "Look up first",
        verdict: "false",
        naReason: null,
        triggered: true,
        clauses: [
          {
            kind: "predicate",
            check: "ordering",
            quote: "looks up first",
            verdict: "false",
            naReason: null,
            citations: [{ eventId: "e2", description: "d" }],
            verification: "unverified",
          },
        ],
      },
    ],
  };

  test("a PASS says how many clauses no model decided, plural right, on the trajectory and on each rule", () => {
    const lines = renderTrajectoryText(passing, "f.json", { model: false }).split("\n");
    expect(lines[0]).toBe("PASS (3 clauses undecided: no model)  t  (f.json)");
    expect(lines).toContain("  PASS (1 clause undecided: no model) One question");
    expect(lines).toContain("  PASS (2 clauses undecided: no model) Two questions");
  });

  test("a failure says (unverified) only when a model could have verified it", () => {
    expect(renderTrajectoryText(failing, "f.json", { model: false })).not.toContain("unverified");
    expect(renderTrajectoryText(failing, "f.json", { model: true })).toContain(' "looks up first" [e2] (unverified)\n');
  });

  test("a long citation list shows the first ten ids and counts the rest", () => {
    const many: TrajectoryJudgment = {
      ...failing,
      metaBehaviors: [
        {
          ...failing.metaBehaviors[0]!,
          clauses: [
            {
              ...failing.metaBehaviors[0]!.clauses[0]!,
              citations: Array.from({ length: 1_000_000 }, (_, i) => ({ eventId: `e${i}`, description: "" })),
            },
          ],
        },
      ],
    };
    const text = renderTrajectoryText(many, "f.json", { model: false });
    expect(text).toContain(` [e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, … and 999,990 more]\n`);
    expect(text.length).toBeLessThan(500);
  });

  test("rule names and quotes made printable once per run: each block shows its own, escaped", () => {
    // A rule name and a quote seen before (kept, issue 26) and new ones, with and without characters to escape.
    const rule = (name: string, quote: string): MetaBehaviorJudgment => ({
      name,
      verdict: "false",
      naReason: null,
      triggered: true,
      clauses: [{ kind: "predicate", quote, verdict: "false", naReason: null, citations: [] }],
    });
    const render = (name: string, quote: string) =>
      renderTrajectoryText({ ...judgment, trajectoryId: "t", metaBehaviors: [rule(name, quote)] }, "f.json")
        .split("\n")
        .slice(1, 3);
    expect(render("Rule A", "q1")).toEqual(["  FAIL  Rule A", '      false predicate: "q1"']);
    expect(render("Rule\x1bB", 'q"2\u202e')).toEqual(["  FAIL  Rule\\u001bB", '      false predicate: "q\\"2\\u202e"']);
    expect(render("Rule A", "q1")).toEqual(["  FAIL  Rule A", '      false predicate: "q1"']);
    expect(render("Rule\x1bB", "q3")).toEqual(["  FAIL  Rule\\u001bB", '      false predicate: "q3"']);
  });
});
