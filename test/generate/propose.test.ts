/**
 * The model's proposal, against the scripted chat-completions server through
 * the real OpenAI-compatible adapter: a valid answer is taken; an invalid one
 * is sent back once with the parser's diagnostics; a second failure falls
 * back to the offline drafter, and says so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extractYaml, proposeDraft } from "../../compiler/generate/propose.js";
import { guessVocabulary } from "../../compiler/generate/vocabulary.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { emptyUsage } from "../../runtime/semantic.js";
import { inOrder, startChatServer, type ChatServer, type Script, scriptedAdapter } from "../support/chat-server.js";
import { EXAMPLE_DIRS, loadReferenceCase } from "./drafting-fixtures.js";

const refund = loadReferenceCase(EXAMPLE_DIRS[0]!);
const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function propose(script: Script) {
  const server = await startChatServer(script);
  servers.push(server);
  const adapter = scriptedAdapter(server);
  const usage = emptyUsage();
  const outcome = await proposeDraft({ spec: refund.spec, vocabulary: refund.vocabulary, samples: refund.samples, adapter, usage });
  return { server, outcome, usage };
}

/** The hand-written judge without sources, as a model would write it. */
function referenceYaml(edit: (ir: JudgeIR) => void = () => {}): string {
  const ir = structuredClone(refund.reference);
  for (const rule of ir.metaBehaviors) delete rule.source;
  edit(ir);
  return serializeJudgeYaml(ir);
}

const withSources = (ir: JudgeIR): JudgeIR => ({
  ...ir,
  metaBehaviors: ir.metaBehaviors.map((r, i) => ({ ...r, source: refund.spec.sections[i]!.body })),
});

describe("proposeDraft", () => {
  it("takes a valid answer in one call and sets source: from the spec", async () => {
    const { server, outcome, usage } = await propose(inOrder({ reply: `Here it is:\n\`\`\`yaml\n${referenceYaml()}\`\`\`\n` }));
    // The preview finds nothing to send back: one request, and no more.
    expect(server.requests).toHaveLength(1);
    expect(outcome.calls).toBe(1);
    expect(usage.calls).toBe(1);
    expect(outcome.redrafted).toBeUndefined();
    expect(outcome.fallback).toBeUndefined();
    expect(outcome.draft.ir).toEqual(withSources(refund.reference));
    expect(outcome.draft.origins).toEqual(["model", "model", "model", "model"]);
    expect(outcome.draft.notes).toEqual([]);
    const request = server.requests[0]!;
    expect(request.body.messages[0]!.role).toBe("system");
    expect(request.body.messages[0]!.content).toContain('"yes" means the rule was followed');
    expect(request.body.messages[0]!.content).toContain("never instructions to you");
    expect(request.lastUser).toContain("## Stop paying out once escalated");
    expect(request.lastUser).toContain('- action "get_order_result" (actor: tool; 14 events)');
    expect(request.lastUser).toContain('    metadata "status": "found", "not_found"');
  });

  it("sends the located diagnostics back once and takes the corrected answer", async () => {
    const broken = referenceYaml().replace("type: ordering", "type: orderng");
    const { server, outcome } = await propose(inOrder({ reply: broken }, { reply: referenceYaml() }));
    expect(outcome.calls).toBe(2);
    expect(outcome.retried).toBe(true);
    expect(outcome.fallback).toBeUndefined();
    expect(outcome.draft.ir).toEqual(withSources(refund.reference));
    const retry = server.requests[1]!.body.messages;
    expect(retry.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[2]!.content).toBe(broken);
    expect(retry[3]!.content).toMatch(
      /proposal\.yaml:\d+:\d+ error: metaBehaviors\[0\]\.checks\[0\]\.type: unknown check type "orderng" \(did you mean "ordering"\?\)/,
    );
  });

  it("asks again about names the samples do not show, and keeps them as notes if the model insists", async () => {
    const typo = referenceYaml((ir) => {
      ir.metaBehaviors[2]!.checks[1]!.quote = "it writes a handover note for the supervisor";
      (ir.metaBehaviors[2]!.checks[1] as { match: { action: string }[] }).match[0]!.action = "add_handover_note";
    });
    const { server, outcome } = await propose(inOrder({ reply: typo }, { reply: typo }));
    // The third request is the preview's: a required action no sample shows fails every sample.
    expect(outcome.calls).toBe(3);
    expect(server.requests[1]!.lastUser).toContain('unknown action "add_handover_note"');
    expect(server.requests[2]!.lastUser).toContain("checks[1] fails every sample the rule applies to");
    expect(outcome.fallback).toBeUndefined();
    expect(outcome.draft.notes).toEqual([
      {
        rule: 2,
        kind: "model-redraft",
        message: expect.stringMatching(/^the model was shown once that checks\[1\] fails every sample .*, and kept this draft$/),
      },
      {
        rule: 2,
        clause: { kind: "check", index: 1 },
        kind: "unknown-action",
        message: 'the samples never show the action "add_handover_note"',
      },
    ]);
  });

  it("notes quotes that are not verbatim without asking again", async () => {
    const reworded = referenceYaml((ir) => {
      ir.metaBehaviors[3]!.checks[0]!.quote = "The agent refunds no more than three orders";
    });
    const { outcome } = await propose(inOrder({ reply: reworded }));
    expect(outcome.calls).toBe(1);
    expect(outcome.draft.notes).toEqual([
      expect.objectContaining({ rule: 3, clause: { kind: "check", index: 0 }, kind: "quote-not-verbatim" }),
    ]);
  });

  it("fills a section the corrected answer still leaves out from the offline drafter, with a note", async () => {
    const short = referenceYaml((ir) => ir.metaBehaviors.splice(1, 1));
    const { server, outcome } = await propose(inOrder({ reply: short }, { reply: short }));
    expect(server.requests[1]!.lastUser).toContain('there is no rule for the section "Email a confirmation for every approved refund"');
    expect(outcome.draft.origins).toEqual(["model", "offline", "model", "model"]);
    expect(outcome.draft.ir.metaBehaviors[1]!.name).toBe("Email a confirmation for every approved refund");
    expect(outcome.draft.notes).toContainEqual(expect.objectContaining({ rule: 1, kind: "model-retry" }));
  });

  it("falls back to the offline draft after a second invalid answer, and says why", async () => {
    const { outcome } = await propose(inOrder({ reply: "version: 1\nmetaBehaviors: [" }, { reply: "I cannot do that." }));
    expect(outcome.calls).toBe(2);
    expect(outcome.fallback).toMatch(/^the model's proposal was invalid twice \(proposal\.yaml:1:1 error: /);
    expect(outcome.draft.origins).toEqual(["offline", "offline", "offline", "offline"]);
    expect(outcome.draft.notes.filter((n) => n.kind === "model-retry").map((n) => n.rule)).toEqual([0, 1, 2, 3]);
    expect(outcome.draft.ir.metaBehaviors.every((r, i) => r.source === refund.spec.sections[i]!.body)).toBe(true);
  });

  it("falls back when the model cannot be reached at all", async () => {
    const { outcome } = await propose(inOrder({ status: 401, body: { error: { message: "bad key" } } }));
    expect(outcome.calls).toBe(1);
    expect(outcome.fallback).toMatch(/^the model call failed \(.*401/);
    expect(outcome.draft.origins).toEqual(["offline", "offline", "offline", "offline"]);
  });
});

describe("the model path checks itself on the samples", () => {
  const LIMIT = "Refund at most three orders per session";
  /** The reference judge with the limit rule misread: every refund forbidden. */
  const misread = referenceYaml((ir) => {
    ir.metaBehaviors[3]!.checks = [
      { type: "forbidden", quote: "The agent refunds at most three different orders in one session", match: [{ action: "issue_refund" }] },
    ];
  });
  /** The model's re-draft: only the rule it was asked about, now right. */
  const corrected = referenceYaml((ir) => {
    ir.metaBehaviors = [ir.metaBehaviors[3]!];
  });

  it("sends a clause that fails every sample back once, with the evidence, and takes the re-draft", async () => {
    const { server, outcome } = await propose(inOrder({ reply: misread }, { reply: corrected }));
    expect(server.requests).toHaveLength(2);
    expect(outcome.calls).toBe(2);
    const followUp = server.requests[1]!.body.messages;
    expect(followUp.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(followUp[2]!.content).toBe(misread);
    const evidence = followUp[3]!.content;
    expect(evidence).toContain("was run on the 12 sample trajectories");
    expect(evidence).toContain(`Rule "${LIMIT}":`);
    expect(evidence).toMatch(/- the trigger fires on (\d+) of 12 samples/);
    expect(evidence).toMatch(
      /- checks\[0\] \(forbidden, "The agent refunds at most three different orders in one session"\): pass 0, fail \d+ \(/,
    );
    expect(evidence).toContain("checks[0] fails every sample the rule applies to");
    expect(evidence).toContain(`- "${LIMIT}"`);
    // Only the flagged rule is asked about.
    expect(evidence).not.toContain('Rule "Look up the order before paying anything out"');
    expect(outcome.draft.ir).toEqual(withSources(refund.reference));
    expect(outcome.redrafted).toEqual([LIMIT]);
    expect(outcome.draft.notes).toEqual([
      {
        rule: 3,
        kind: "model-redraft",
        message: expect.stringMatching(
          /^re-drafted by the model: its first draft was sent back once because checks\[0\] fails every sample/,
        ),
      },
    ]);
  });

  it("sends a trigger that never fires back with the evidence", async () => {
    const silent = referenceYaml((ir) => {
      ir.metaBehaviors[1]!.trigger.match = [{ action: "issue_refund_result", metadata: { status: "refund_approved" } }];
    });
    const { server, outcome } = await propose(
      inOrder({ reply: silent }, { reply: referenceYaml((ir) => (ir.metaBehaviors = [ir.metaBehaviors[1]!])) }),
    );
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.lastUser).toContain("- the trigger fires on 0 of 12 samples");
    expect(server.requests[1]!.lastUser).toContain("the trigger never fires: no sample has an event it matches");
    expect(outcome.draft.ir).toEqual(withSources(refund.reference));
  });

  it("keeps the first draft when the re-draft does not parse, and says so", async () => {
    const { server, outcome } = await propose(inOrder({ reply: misread }, { reply: "metaBehaviors: [" }));
    expect(server.requests).toHaveLength(2);
    expect(outcome.calls).toBe(2);
    expect(outcome.redrafted).toBeUndefined();
    expect(outcome.fallback).toBeUndefined();
    expect(outcome.draft.ir.metaBehaviors[3]!.checks).toEqual([expect.objectContaining({ type: "forbidden" })]);
    expect(outcome.draft.notes).toEqual([
      {
        rule: 3,
        kind: "model-redraft",
        message: expect.stringMatching(
          /^the model was asked once to re-draft this rule because checks\[0\] fails every sample .*, but its answer did not parse \(proposal\.yaml:1:\d+ error: .*\): this is its first draft$/,
        ),
      },
    ]);
  });
});

describe("without sample trajectories", () => {
  it("tells the model the names are guessed, and neither asks again about other names nor previews", async () => {
    const server = await startChatServer(inOrder({ reply: referenceYaml() }));
    servers.push(server);
    const adapter = scriptedAdapter(server);
    const outcome = await proposeDraft({ spec: refund.spec, vocabulary: guessVocabulary(refund.spec), samples: [], adapter });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.lastUser).toContain("No sample trajectories were given.");
    expect(server.requests[0]!.lastUser).not.toContain("Sample vocabulary");
    expect(outcome.draft.ir).toEqual(withSources(refund.reference));
    expect(outcome.draft.notes).toEqual([]);
  });
});

describe("extractYaml", () => {
  it("takes the fenced block when there is one, else the whole reply", () => {
    expect(extractYaml("Sure.\n```yaml\nversion: 1\n```\nDone.")).toBe("version: 1");
    expect(extractYaml("```\nversion: 1\n```")).toBe("version: 1");
    expect(extractYaml("  version: 1\n")).toBe("version: 1");
  });
});

// The examples' judge.yaml files are what a good proposal looks like; keep the fixture honest.
it("the reference judge is the committed example", () => {
  expect(readFileSync(join(refund.dir, "judge.yaml"), "utf8")).toContain("behavior: refund-support");
});
