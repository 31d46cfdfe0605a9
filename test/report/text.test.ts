/** The plain-text report prints untrusted trajectory text: it must not drive the terminal or forge report lines. */
import { describe, expect, test } from "vitest";
import { renderComparison } from "../../compiler/report/calibration.js";
import { renderTrajectoryText } from "../../compiler/report/text.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";

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
