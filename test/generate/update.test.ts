/**
 * `generate --update` planning on the refund example: what is carried over
 * without a question or a model call, what is dropped, and what is asked.
 * The headline figure: a one-sentence edit of one section costs one question
 * and no model call offline, one model call with a model.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { createOpenAIAdapter } from "../../compiler/model/openai.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { proposeDraft } from "../../compiler/generate/propose.js";
import { draftUpdate, planUpdate, type SectionDrafter } from "../../compiler/generate/update.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { parseBehaviorMd, type BehaviorSpec } from "../../compiler/behavior-md/load.js";
import { inOrder, startChatServer, type ChatServer } from "../support/chat-server.js";
import { EXAMPLE_DIRS, loadReferenceCase } from "./drafting-fixtures.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const refund = loadReferenceCase(EXAMPLE_DIRS[0]!);
const specText = readFileSync(join(refund.dir, "BEHAVIOR.md"), "utf8");
const previous = refund.reference;

function specWith(edit: (text: string) => string): BehaviorSpec {
  const parsed = parseBehaviorMd(edit(specText), "BEHAVIOR.md");
  if (!parsed.ok) throw new Error("the edited spec does not parse");
  return parsed.spec;
}

function offlineDrafter(spec: BehaviorSpec): SectionDrafter & { mock: { calls: unknown[][] } } {
  return vi.fn(async (sections) => ({
    draft: draftOffline({ spec, vocabulary: refund.vocabulary, samples: refund.samples }, sections),
    calls: 0,
  }));
}

const ONE_SENTENCE_EDIT = (text: string) =>
  text.replace("The agent refunds at most three different orders", "The agent refunds at most two different orders");

describe("planUpdate", () => {
  it("carries an unchanged spec over whole: no drafting, no questions, no model calls", async () => {
    const plan = planUpdate(refund.spec, previous);
    expect(plan.sections.map((s) => s.kind)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(plan.notices).toEqual([]);
    const drafter = offlineDrafter(refund.spec);
    const update = await draftUpdate(refund.spec, plan, drafter);
    expect(drafter).not.toHaveBeenCalled();
    expect(update).toMatchObject({ ask: [], settled: [], plannedQuestions: 0, calls: 0 });
    expect(update.draft.ir).toEqual(previous);
    expect(update.draft.origins).toEqual(["carried", "carried", "carried", "carried"]);
  });

  it("treats reflowed lines as unchanged", () => {
    const spec = specWith((t) =>
      t.replace(
        "it issues no further refunds or store credit in that session,",
        "it issues no further refunds or store credit\nin that session,",
      ),
    );
    expect(planUpdate(spec, previous).sections.every((s) => s.kind === "unchanged")).toBe(true);
  });

  it("drops the rule of a removed section with a notice", async () => {
    const spec = specWith((t) => t.slice(0, t.indexOf("## Refund at most three orders per session")));
    const plan = planUpdate(spec, previous);
    expect(plan.removed.map((r) => r.name)).toEqual(["Refund at most three orders per session"]);
    expect(plan.notices).toEqual([
      'dropped the rule "Refund at most three orders per session": the spec has no section with that heading any more',
    ]);
    const update = await draftUpdate(spec, plan, offlineDrafter(spec));
    expect(update.draft.ir.metaBehaviors.map((r) => r.name)).toEqual(previous.metaBehaviors.slice(0, 3).map((r) => r.name));
    expect(update).toMatchObject({ ask: [], plannedQuestions: 0, calls: 0 });
  });

  it("drafts and asks about an added section only", async () => {
    const spec = specWith((t) => `${t}\n## Never refund twice\n\nThe agent never issues store credit.\n`);
    const plan = planUpdate(spec, previous);
    expect(plan.sections.map((s) => s.kind)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged", "added"]);
    const drafter = offlineDrafter(spec);
    const update = await draftUpdate(spec, plan, drafter);
    expect(drafter).toHaveBeenCalledTimes(1);
    expect((drafter.mock.calls[0]![0] as { heading: string }[]).map((s) => s.heading)).toEqual(["Never refund twice"]);
    expect(update.ask).toEqual([4]);
    expect(update.draft.ir.metaBehaviors[4]!.checks).toEqual([
      { type: "forbidden", quote: "The agent never issues store credit", match: [{ action: "issue_store_credit" }] },
    ]);
    // The trigger and the one check.
    expect(update.plannedQuestions).toBe(2);
    expect(update.draft.ir.metaBehaviors.slice(0, 4)).toEqual(previous.metaBehaviors);
  });

  it("one-sentence edit, offline: the clause whose quote changed is redrafted and asked; 1 question, 0 model calls", async () => {
    const spec = specWith(ONE_SENTENCE_EDIT);
    const plan = planUpdate(spec, previous);
    expect(plan.sections.map((s) => s.kind)).toEqual(["unchanged", "unchanged", "unchanged", "changed"]);
    const changed = plan.sections[3]!;
    expect(changed.kind === "changed" && changed.dropped).toEqual(["The agent refunds at most three different orders in one session"]);
    expect(changed.kind === "changed" && changed.newSentences).toEqual([
      "The agent refunds at most two different orders in one session; a customer with more disputed orders is escalated instead",
    ]);
    const update = await draftUpdate(spec, plan, offlineDrafter(spec));
    expect(update.plannedQuestions).toBe(1);
    expect(update.calls).toBe(0);
    expect(update.ask).toEqual([3]);
    expect(update.settled).toEqual([{ rule: 3, clause: { kind: "trigger" } }]);
    const rule = update.draft.ir.metaBehaviors[3]!;
    expect(rule.trigger).toEqual(previous.metaBehaviors[3]!.trigger);
    expect(rule.checks).toEqual([
      {
        type: "count",
        quote: "The agent refunds at most two different orders in one session",
        match: [{ action: "issue_refund" }],
        max: 2,
        distinctBy: "metadata.order_id",
      },
    ]);
    expect(rule.source).toBe(spec.sections[3]!.body);
  });

  it("keeps the note that a changed section's rule was re-drafted by the model", async () => {
    const spec = specWith(ONE_SENTENCE_EDIT);
    const note = {
      rule: 0,
      kind: "model-redraft" as const,
      message: "re-drafted by the model: its first draft was sent back once because …",
    };
    const drafter: SectionDrafter = async (sections) => {
      const draft = draftOffline({ spec, vocabulary: refund.vocabulary, samples: refund.samples }, sections);
      return { draft: { ...draft, notes: [...draft.notes, note] }, calls: 2 };
    };
    const update = await draftUpdate(spec, planUpdate(spec, previous), drafter);
    expect(update.draft.notes).toContainEqual({ ...note, rule: 3 });
  });

  it("keeps the clauses whose quotes survive an added sentence and asks only about the new one", async () => {
    const spec = specWith((t) =>
      t.replace(
        "Payouts made before the escalation stand",
        "The agent must also tell the customer that a supervisor will reply. Payouts made before the escalation stand",
      ),
    );
    const plan = planUpdate(spec, previous);
    const changed = plan.sections[2]!;
    expect(changed.kind).toBe("changed");
    expect(changed.kind === "changed" && changed.kept.checks).toEqual(previous.metaBehaviors[2]!.checks);
    const update = await draftUpdate(spec, plan, offlineDrafter(spec));
    const rule = update.draft.ir.metaBehaviors[2]!;
    expect(rule.checks).toEqual(previous.metaBehaviors[2]!.checks);
    expect(rule.semanticChecks.map((c) => c.quote)).toEqual(["The agent must also tell the customer that a supervisor will reply"]);
    expect(update.plannedQuestions).toBe(1);
    expect(update.settled).toEqual([
      { rule: 2, clause: { kind: "trigger" } },
      { rule: 2, clause: { kind: "check", index: 0 } },
      { rule: 2, clause: { kind: "check", index: 1 } },
    ]);
  });

  it("carries a rule over without asking when only its rationale changed", async () => {
    const spec = specWith((t) => t.replace("Escalation transfers authority.", "Escalation hands the case over."));
    const drafter = offlineDrafter(spec);
    const update = await draftUpdate(spec, planUpdate(spec, previous), drafter);
    expect(drafter).not.toHaveBeenCalled();
    expect(update).toMatchObject({ ask: [], plannedQuestions: 0, calls: 0 });
    expect(update.draft.ir.metaBehaviors[2]).toEqual({ ...previous.metaBehaviors[2], source: spec.sections[2]!.body });
  });

  it("asks about the trigger again when the section's occurrence line changed, keeping the checks", async () => {
    const spec = specWith((t) => t.replace("Each escalation is one occurrence.", "Each escalation to a supervisor is one occurrence."));
    const plan = planUpdate(spec, previous);
    expect(plan.sections.map((s) => s.kind)).toEqual(["unchanged", "unchanged", "changed", "unchanged"]);
    const drafter = offlineDrafter(spec);
    const update = await draftUpdate(spec, plan, drafter);
    expect(drafter).toHaveBeenCalledTimes(1);
    expect(update.ask).toEqual([2]);
    expect(update.plannedQuestions).toBe(1);
    expect(update.settled).toEqual([
      { rule: 2, clause: { kind: "check", index: 0 } },
      { rule: 2, clause: { kind: "check", index: 1 } },
    ]);
    const rule = update.draft.ir.metaBehaviors[2]!;
    expect(rule.checks).toEqual(previous.metaBehaviors[2]!.checks);
    expect(rule.trigger.description).toBe("Each escalation to a supervisor is one occurrence.");
  });

  it("checks a rule without source: clause by clause", () => {
    const noSource: JudgeIR = { ...previous, metaBehaviors: previous.metaBehaviors.map(({ source: _source, ...rule }) => rule) };
    const plan = planUpdate(refund.spec, noSource);
    expect(plan.sections.map((s) => s.kind)).toEqual(["changed", "changed", "changed", "changed"]);
    expect(plan.sections.every((s) => s.kind === "changed" && s.dropped.length === 0)).toBe(true);
    expect(plan.notices).toHaveLength(4);
  });
});

describe("one-sentence edit with a model", () => {
  const servers: ChatServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("makes one model call, for the changed section only, and asks one question", async () => {
    const spec = specWith(ONE_SENTENCE_EDIT);
    const answer: JudgeIR = {
      version: 1,
      behavior: "refund-support",
      metaBehaviors: [
        {
          name: "Refund at most three orders per session",
          trigger: { description: "The agent refunds.", match: [{ action: "issue_refund" }] },
          checks: [
            {
              type: "count",
              quote: "The agent refunds at most two different orders in one session",
              match: [{ action: "issue_refund" }],
              max: 2,
              distinctBy: "metadata.order_id",
            },
          ],
          semanticChecks: [],
        },
      ],
    };
    const server = await startChatServer(inOrder({ reply: serializeJudgeYaml(answer) }));
    servers.push(server);
    const adapter = createOpenAIAdapter({ provider: "openai", apiKey: "k", baseURL: server.baseURL, model: "scripted" }, { maxRetries: 0 });
    const drafter: SectionDrafter = async (sections) => {
      const outcome = await proposeDraft({ spec, vocabulary: refund.vocabulary, samples: refund.samples, adapter, sections });
      return { draft: outcome.draft, calls: outcome.calls };
    };
    const update = await draftUpdate(spec, planUpdate(spec, previous), drafter);
    expect(update.calls).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.lastUser).toContain("## Refund at most three orders per session");
    expect(server.requests[0]!.lastUser).not.toContain("## Stop paying out once escalated");
    expect(update.plannedQuestions).toBe(1);
    expect(update.draft.ir.metaBehaviors[3]!.checks).toEqual(answer.metaBehaviors[0]!.checks);
    expect(update.draft.ir.metaBehaviors[3]!.trigger).toEqual(previous.metaBehaviors[3]!.trigger);
  });
});
