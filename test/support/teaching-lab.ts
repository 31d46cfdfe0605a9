/**
 * A school chemistry lab's sessions, shared by the drafter tests that read its rule "After a spill"
 * (test/generate/written-joins.test.ts, labels-rationale.test.ts): spills reported at a bench, acid
 * and solvents handed out at benches. Written here, not from any fixture.
 */
import type { Trajectory } from "../../runtime/types.js";

export type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];

/** A session opened by a user message, its events numbered e1, e2, … */
export const session = (id: string, ...steps: Step[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [["user", "message"] as Step, ...steps].map(([actor, action, metadata], i) => ({
    id: `e${i + 1}`,
    actor,
    action,
    ...(metadata ? { metadata } : {}),
  })),
});

export const spill = (bench: string): Step => ["tool", "report_spill", { bench }];
export const acid = (bench: string): Step => ["agent", "dispense_acid", { bench, chemical: "hydrochloric" }];
export const solvent = (bench: string, chemical: string): Step => ["agent", "dispense_solvent", { bench, chemical }];

/** Seven sessions: a quiet class, acid or solvent after a spill at that bench or another, a spill after the acid. */
export const labSessions: Trajectory[] = [
  session("quiet-class", acid("b1"), solvent("b2", "acetone"), solvent("b1", "ethanol")),
  session("acid-after-spill", spill("b1"), acid("b1")),
  session("solvent-after-spill", spill("b2"), solvent("b2", "ethanol"), acid("b3")),
  session("other-bench", spill("b3"), acid("b1"), solvent("b2", "acetone")),
  session("solvent-again", spill("b1"), solvent("b1", "acetone"), solvent("b1", "ethanol")),
  session("spill-then-nothing", acid("b2"), spill("b2")),
  session("kept-away", spill("b2"), solvent("b1", "ethanol"), acid("b3")),
];
