/**
 * Counts and sums per thing, as policy English words them (issue 25): "… to one trainee come to
 * at most $N in a session" (a sum, per the trainee, not per session), "One shift lead is booked
 * for at most N hours in total" (a subject of one names the group), and "nobody is paid more
 * than twice" (a prohibition: at most two, never "at least three"). The sentences are written for
 * these tests (a training centre's desk), not taken from a fixture.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Rota runs the training centre's desk. It can pay a trainee's allowance (`pay_allowance`, with the " +
  "`trainee_id` and the `amount`), book a shift lead for a course (`book_lead`, with the `lead_id`, the " +
  "`course_id` and the `hours`) and post a notice (`post_notice`).";

const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "training-desk");

const pay = (trainee: string, amount: string) => ["agent", "pay_allowance", { trainee_id: trainee, amount }] as const;
const book = (lead: string, course: string, hours: string) => ["agent", "book_lead", { lead_id: lead, course_id: course, hours }] as const;

describe("sums per thing", () => {
  const samples = [
    session([...pay("T1", "120")], [...pay("T2", "150")], [...pay("T3", "90")]),
    session([...pay("T1", "120")], [...pay("T1", "100")], ["agent", "post_notice"]),
    session([...pay("T4", "150")], [...pay("T4", "160")]),
  ];

  it("reads 'X to one Y come to at most $N in a session' as a sum per Y, the session being no group", () => {
    const draft = draftOf("Allowances paid to one trainee come to at most $250 in a session.", samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "count",
        match: [{ action: "pay_allowance" }],
        sum: "metadata.amount",
        per: "metadata.trainee_id",
        max: 250,
      }),
    ]);
    // Three trainees paid $360 in all keep it; one trainee paid $310 does not.
    expect(previewJudge(draft.ir, samples).rules[0]!.rule.fail).toEqual([samples[2]!.id]);
  });

  it("reads 'One X Y is booked for at most N hours in total' as a sum per the Y's key", () => {
    const leads = [
      session([...book("L1", "C1", "6")], [...book("L2", "C2", "8")], [...book("L3", "C3", "8")]),
      session([...book("L1", "C1", "6")], [...book("L1", "C2", "8")]),
    ];
    const draft = draftOf("One shift lead is booked for at most 12 hours in total in a session, across all their courses.", leads);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "count", sum: "metadata.hours", per: "metadata.lead_id", max: 12 }),
    ]);
    expect(previewJudge(draft.ir, leads).rules[0]!.rule.fail).toEqual([leads[1]!.id]);
  });
});

describe("a count under 'nobody'", () => {
  it("reads 'nobody is paid more than twice' as at most two, never as a requirement of three", () => {
    const samples = [
      session([...pay("T1", "10")], [...pay("T1", "10")]),
      session([...pay("T1", "10")], [...pay("T1", "10")], [...pay("T1", "10")]),
      session([...pay("T2", "10")]),
    ];
    const draft = draftOf("Nobody is paid an allowance more than twice in one session.", samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "count", match: [{ action: "pay_allowance" }], max: 2 }),
    ]);
    expect(draft.ir.metaBehaviors[0]!.checks[0]).not.toHaveProperty("min");
  });
});
