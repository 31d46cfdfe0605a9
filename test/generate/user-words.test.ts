/**
 * A person's own words before an act (issue 25, compiler/generate/offline/consent.ts): "before
 * every `charge_deposit` the customer answers "agreed"", "Crate opens a unit only when the tenant
 * has just said "open it"", "a "go" from the foreman is needed before each `book_move`" are an
 * ordering of a user turn saying those words (any case, whole words) before the act, fresh when
 * the words say one answer counts for one act only. Words the agent says, or that no user says in
 * the samples, are not read so. The sentences are about a self-storage desk, a domain none of the
 * fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec } from "../support/offline-drafts.js";

const PREAMBLE =
  "Crate runs a self-storage desk. It can look up a tenant (`get_tenant`), charge a deposit (`charge_deposit`), " +
  "open a storage unit (`open_unit`) and book a move (`book_move`).";
const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "storage");

type Step = [Trajectory["events"][number]["actor"], string, (Record<string, string> | undefined)?, string?];
let n = 0;
function session(...steps: Step[]): Trajectory {
  return {
    id: `t${++n}`,
    description: "",
    complete: true,
    events: steps.map(([actor, action, metadata, content], i) => ({
      id: `e${i + 1}`,
      actor,
      action,
      ...(metadata ? { metadata } : {}),
      ...(content !== undefined ? { content } : {}),
    })),
  };
}

const samples = [
  // t1: one "Agreed." before each of two charges: kept.
  session(
    ["user", "message", undefined, "Tenant T-1 here, I want unit 14."],
    ["agent", "get_tenant", { tenant_id: "T-1" }],
    ["user", "message", undefined, "Agreed."],
    ["agent", "charge_deposit", { tenant_id: "T-1", amount: "50" }],
    ["user", "message", undefined, "agreed, go on"],
    ["agent", "charge_deposit", { tenant_id: "T-1", amount: "20" }],
    ["user", "message", undefined, "Please open it now"],
    ["agent", "open_unit", { tenant_id: "T-1", unit: "14" }],
  ),
  // t2: one agreement for two charges, and a unit opened twice on one "open it".
  session(
    ["user", "message", undefined, "T-2, deposit please. Agreed."],
    ["agent", "charge_deposit", { tenant_id: "T-2", amount: "50" }],
    ["agent", "charge_deposit", { tenant_id: "T-2", amount: "50" }],
    ["user", "message", undefined, "open it"],
    ["agent", "open_unit", { tenant_id: "T-2", unit: "3" }],
    ["agent", "open_unit", { tenant_id: "T-2", unit: "4" }],
    ["agent", "book_move", { tenant_id: "T-2" }],
  ),
  // t3: a charge with no agreement at all; the foreman says "go" before the move.
  session(
    ["agent", "charge_deposit", { tenant_id: "T-3", amount: "50" }],
    ["user", "message", undefined, "Foreman: go"],
    ["agent", "book_move", { tenant_id: "T-3" }],
  ),
];

const checksOf = (draft: Draft) => draft.ir.metaBehaviors[0]!.checks;
const verdicts = (draft: Draft) => {
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: rule.pass, fail: rule.fail };
};

describe("a person's quoted words before an act", () => {
  it("reads 'before every X the customer answers \"…\"' as a fresh ordering of a user turn with the words", () => {
    const draft = draftOf(
      'Before every `charge_deposit` the customer answers "agreed" in the chat, and an agreement given for one charge does not carry over to the next.',
      samples,
    );
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bagreed\\b", flags: "i" } }],
        before: [{ action: "charge_deposit" }],
        fresh: true,
      }),
    ]);
    expect(draft.ir.metaBehaviors[0]!.trigger.match).toEqual([{ action: "charge_deposit" }]);
    expect(verdicts(draft)).toEqual({ pass: ["t1"], fail: ["t2", "t3"] });
  });

  it("takes the act before 'only when' and reads 'good for one unit' as fresh", () => {
    const draft = draftOf('Crate opens a unit only when the tenant has just said "open it"; an "open it" is good for one unit.', samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bopen\\s+it\\b", flags: "i" } }],
        before: [{ action: "open_unit" }],
        fresh: true,
      }),
    ]);
    expect(verdicts(draft)).toEqual({ pass: ["t1"], fail: ["t2"] });
  });

  it("reads words with no speaker, and keeps the ordering plain when nothing says one answer covers one act", () => {
    const draft = draftOf('A "go" from the foreman is needed before any `book_move`.', samples);
    expect(checksOf(draft)).toEqual([
      expect.objectContaining({ type: "ordering", first: [{ actor: "user", content: { matches: "\\bgo\\b", flags: "i" } }] }),
    ]);
    expect(checksOf(draft)[0]).not.toHaveProperty("fresh");
    // "before each `book_move`" asks the words again for each move (round 11: every hand judge of such words is fresh).
    expect(checksOf(draftOf('A "go" from the foreman is needed before each `book_move`.', samples))[0]).toHaveProperty("fresh", true);
  });

  it("does not read words the agent says, or words no user says in the samples, as a user's", () => {
    const agent = draftOf('Before every `charge_deposit` the agent tells the customer "agreed" is binding.', samples);
    expect(checksOf(agent)).not.toContainEqual(expect.objectContaining({ first: [expect.objectContaining({ actor: "user" })] }));
    const unsaid = draftOf('Before every `charge_deposit` the customer answers "I consent" in the chat.', samples);
    expect(JSON.stringify(unsaid.ir)).not.toContain("consent\\\\b");
  });
});
