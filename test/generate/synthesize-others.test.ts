/**
 * "Someone other than the one who …" searched with labels (issue 25): the comparison of two people
 * where the words name neither person's key, the latest event of the kind the words name, and a
 * window counted in entries or lines. A boarding kennel hands a dog back only through someone other
 * than whoever took it in (keys `intake_by` and `handed_back_by`: the words say "took in" and "goes
 * home"); a rowing club launches a boat only on the sign-off of a member other than the member most
 * recently seated as its cox (the latest `seat_crew` with `seat: cox`, not the latest seating).
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { writtenWithins } from "../../compiler/generate/offline/synthesize-numbers.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

type Verdict = "true" | "false" | "na";
type Event = Omit<TrajectoryEvent, "id">;
const agent = (action: string, metadata: Record<string, string>): Event => ({ actor: "agent", action, metadata });
function session(id: string, ...events: Event[]): Trajectory {
  const all = [{ actor: "user", action: "message", content: "Hello" } as Event, ...events];
  return { id, description: "", complete: true, events: all.map((e, i) => ({ ...e, id: `e${i}` })) as TrajectoryEvent[] };
}
/** Drafts with the first six cases' labels; the verdicts on the others. */
function heldOut(markdown: string, rule: string, cases: [Trajectory, Verdict][]) {
  const parsed = parseBehaviorMd(markdown);
  if (!parsed.ok) throw new Error("spec");
  const samples = cases.map(([t]) => t);
  const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([t, v]) => [t.id, { [rule]: v }]));
  const found = draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples, labels });
  const verdictOn = (ir: JudgeIR, id: string): Verdict => {
    const r = previewJudge(ir, samples).rules.find((x) => x.name === rule)!.rule;
    return r.pass.includes(id) ? "true" : r.fail.includes(id) ? "false" : "na";
  };
  return {
    rule: found.ir.metaBehaviors.find((r) => r.name === rule)!,
    got: cases.slice(6).map(([t]) => [t.id, verdictOn(found.ir, t.id)]),
    want: cases.slice(6).map(([t, v]) => [t.id, v]),
  };
}

describe("two people the words compare without naming their keys", () => {
  const intake = (dog: string, by: string) => agent("take_in_dog", { dog_id: dog, intake_by: by });
  const back = (dog: string, by: string) => agent("hand_back_dog", { dog_id: dog, handed_back_by: by });
  const walk = (dog: string) => agent("log_walk", { dog_id: dog });
  const cases: [Trajectory, Verdict][] = [
    [session("checked-out-by-another", intake("D-1", "Priya"), walk("D-1"), back("D-1", "Sven")), "true"],
    // The one broken session hands the dog back twice: "at most one hand-back" fits every label.
    [session("own-intake-handed-back", intake("D-2", "Sven"), back("D-2", "Sven"), back("D-2", "Sven")), "false"],
    [session("walks-only", walk("D-3")), "na"],
    [session("two-dogs-crossed", intake("D-4", "Priya"), intake("D-5", "Sven"), back("D-4", "Sven")), "true"],
    [session("still-boarding", intake("D-6", "Priya"), walk("D-6")), "na"],
    [session("priya-hands-back-svens", intake("D-7", "Sven"), back("D-7", "Priya")), "true"],
    // Held out.
    [session("priya-hands-back-her-own", intake("D-8", "Priya"), back("D-8", "Priya")), "false"],
    [
      session("two-hand-backs-each-checked", intake("D-9", "Priya"), back("D-9", "Sven"), intake("D-10", "Sven"), back("D-10", "Priya")),
      "true",
    ],
    [
      session("second-dog-own-hand-back", intake("D-11", "Sven"), back("D-11", "Priya"), intake("D-12", "Priya"), back("D-12", "Priya")),
      "false",
    ],
  ];
  it("are compared where some session shows them alike, and the comparison is found from six labels", () => {
    const { rule, got, want } = heldOut(
      `---
name: kennel
description: Rules for Biscuit, the assistant at a boarding kennel's desk.
---
Biscuit records each dog taken in (\`take_in_dog\`, with \`dog_id\` and \`intake_by\`), each walk (\`log_walk\`) and each dog handed back to its family (\`hand_back_dog\`, with \`dog_id\` and \`handed_back_by\`).

## Fresh eyes at pick-up

A dog goes home only with a member of staff other than whoever took that dog in.
`,
      "Fresh eyes at pick-up",
      cases,
    );
    expect(rule.checks.map((c) => (c.type === "condition" ? c.when : c.type))).toEqual(["r.intake_by != event.handed_back_by"]);
    expect(got).toEqual(want);
  });
});

describe("the latest event of the kind the words name", () => {
  const seat = (boat: string, member: string, where: string) => agent("seat_crew", { boat_id: boat, member, seat: where });
  const launch = (boat: string, by: string) => agent("launch_boat", { boat_id: boat, signed_off_by: by });
  const cases: [Trajectory, Verdict][] = [
    [session("cox-then-bow-signed-by-stroke", seat("B-1", "Ada", "cox"), seat("B-1", "Ben", "bow"), launch("B-1", "Cy")), "true"],
    [session("cox-signs-own-boat", seat("B-2", "Ada", "cox"), seat("B-2", "Cy", "stroke"), launch("B-2", "Ada")), "false"],
    [session("seating-only", seat("B-3", "Ben", "bow")), "na"],
    [session("bow-signs-after-being-seated", seat("B-4", "Cy", "cox"), seat("B-4", "Ben", "bow"), launch("B-4", "Ben")), "true"],
    [session("new-cox-old-cox-signs", seat("B-5", "Ben", "cox"), seat("B-5", "Ada", "cox"), launch("B-5", "Ben")), "true"],
    [session("other-boats-cox-signs", seat("B-6", "Cy", "cox"), seat("B-7", "Ada", "cox"), launch("B-6", "Ada")), "true"],
    // Held out.
    [session("cox-signs-after-a-bow-is-seated", seat("B-8", "Cy", "cox"), seat("B-8", "Ada", "bow"), launch("B-8", "Cy")), "false"],
    [session("stroke-signs", seat("B-9", "Ben", "cox"), seat("B-9", "Cy", "stroke"), launch("B-9", "Cy")), "true"],
    [session("replaced-cox-signs-for-the-new-one", seat("B-10", "Cy", "cox"), seat("B-10", "Ben", "cox"), launch("B-10", "Ben")), "false"],
  ];
  it("is bound by the condition that compares its person with the judged event's", () => {
    const { rule, got, want } = heldOut(
      `---
name: rowing-club
description: Rules for Stroke, the assistant at a rowing club's boathouse.
---
Stroke seats members in boats (\`seat_crew\`, with \`boat_id\`, \`member\` and \`seat\`: cox, stroke or bow) and launches boats (\`launch_boat\`, with \`boat_id\` and \`signed_off_by\`).

## Launch sign-off

A boat is launched only when signed off by a member other than the member most recently seated as cox of that boat.
`,
      "Launch sign-off",
      cases,
    );
    const check = rule.checks[0]!;
    expect(rule.checks).toHaveLength(1);
    expect(check.type === "condition" && [check.with!.r!.latest, check.when]).toEqual([
      [{ action: "seat_crew", metadata: { seat: "cox" } }],
      "r.member != event.signed_off_by",
    ]);
    expect(got).toEqual(want);
  });
});

describe("a window written in entries or lines", () => {
  it("is a count of steps", () => {
    expect(writtenWithins("a meal break is entered no later than the second entry following that assignment")).toEqual([2]);
    expect(writtenWithins("the receipt is printed within three lines of the sale")).toEqual([3]);
  });
});
