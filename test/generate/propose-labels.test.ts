/**
 * The model's draft checked against the labels (issue 25), through the real `openai` client
 * against a scripted chat-completions server on 127.0.0.1: a rule that judges a labeled sample
 * otherwise goes back once with the disagreeing samples; an agreeing re-draft is taken, a second
 * disagreement is kept and shown, never sent back again; the interview shows the agreement.
 */
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";
import { proposeDraft } from "../../compiler/generate/propose.js";
import { runTerminalInterview } from "../../compiler/interview/terminal.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";
import { emptyUsage } from "../../runtime/semantic.js";
import { inOrder, startChatServer, type ChatServer, type Script, scriptedAdapter } from "../support/chat-server.js";
import { doorsProject, labelsFor, RULE, samples, spec, truth, verdicts, vocabulary } from "./verdict-fixture.js";

const QUOTE = "Visitors are let in only after they have been checked";
/** The model's judge.yaml for the doors spec, with this check. */
function judge(check: Check): string {
  const ir: JudgeIR = {
    version: 1,
    behavior: "doors",
    metaBehaviors: [
      {
        name: RULE,
        trigger: { description: "A door is unlocked.", match: [{ action: "unlock_door" }] },
        checks: [check],
        semanticChecks: [],
      },
    ],
  };
  return serializeJudgeYaml(ir);
}
/** A misreading: some identity check anywhere in the session, before the door or after it. */
const anywhere = judge({ type: "required", quote: QUOTE, match: [{ action: "verify_identity" }] });
/** The rule as meant: the check comes first. */
const first = judge({ type: "ordering", quote: QUOTE, first: [{ action: "verify_identity" }], before: [{ action: "unlock_door" }] });
const ALL = Object.keys(truth);

const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function adapterFor(script: Script) {
  const server = await startChatServer(script);
  servers.push(server);
  const adapter = scriptedAdapter(server);
  return { server, adapter };
}

async function propose(script: Script) {
  const { server, adapter } = await adapterFor(script);
  const outcome = await proposeDraft({ spec, vocabulary, samples, adapter, usage: emptyUsage(), labels: labelsFor(ALL) });
  return { server, outcome };
}

const labelNotes = (notes: { kind: string; message: string }[]) => notes.filter((n) => n.kind === "labels").map((n) => n.message);

describe("the model's draft checked against the labels", () => {
  it("sends a rule that disagrees with a label back once, with the disagreeing samples, and takes the agreeing re-draft", async () => {
    const { server, outcome } = await propose(inOrder({ reply: anywhere }, { reply: first }));
    expect(server.requests).toHaveLength(2);
    expect(outcome.calls).toBe(2);
    const followUp = server.requests[1]!.lastUser;
    expect(followUp).toContain("A person labeled some samples with the verdict each rule should give");
    expect(followUp).toContain(
      "it disagrees with 1 of the 6 labels given for it: open-unverified is labeled broken but the rule judges it followed",
    );
    expect(followUp).toContain("- open-unverified (labeled broken; the rule says followed), events:");
    expect(followUp).toContain("  e2 agent unlock_door {door: front}");
    expect(followUp).not.toContain("- verified-then-open (labeled");
    expect(outcome.redrafted).toEqual([RULE]);
    expect(verdicts(outcome.draft.ir)).toEqual(truth);
    expect(labelNotes(outcome.draft.notes)).toEqual(["agrees with 6 of the 6 labels given for this rule"]);
    expect(outcome.draft.notes.find((n) => n.kind === "model-redraft")?.message).toMatch(
      /^re-drafted by the model: its first draft was sent back once because it disagrees with 1 of the 6 labels/,
    );
  });

  it("keeps a second disagreement and shows it, without asking again", async () => {
    const { server, outcome } = await propose(inOrder({ reply: anywhere }, { reply: anywhere }, { reply: first }));
    expect(server.requests).toHaveLength(2);
    expect(outcome.draft.ir.metaBehaviors[0]!.checks[0]!.type).toBe("required");
    expect(labelNotes(outcome.draft.notes)).toEqual([
      "agrees with 5 of the 6 labels given for this rule",
      "still disagrees with the labels after it went back to the model once: open-unverified is labeled broken but the rule judges it followed; check the rule or the labels",
    ]);
  });

  it("asks nothing more of a draft that agrees with its labels, and says so", async () => {
    const { server, outcome } = await propose(inOrder({ reply: first }));
    expect(server.requests).toHaveLength(1);
    expect(labelNotes(outcome.draft.notes)).toEqual(["agrees with 6 of the 6 labels given for this rule"]);
  });

  it("generate with labeled samples and a model: the interview shows the agreement", async () => {
    const project = doorsProject();
    const { server, adapter } = await adapterFor(inOrder({ reply: anywhere }, { reply: anywhere }));
    let transcript = "";
    const output = new Writable({
      write(chunk: Buffer, _e, done) {
        transcript += chunk.toString("utf8");
        done();
      },
    });
    const input = new PassThrough();
    input.end("");
    const result = await generateJudgeYaml({
      spec: project.spec,
      samples: project.files,
      out: join(project.dir, "judge.yaml"),
      adapter,
      interviewer: (i) => runTerminalInterview(i, { input, output }),
      compile: false,
    });
    expect(server.requests).toHaveLength(2);
    expect(result.drafter).toBe("model");
    // doorsProject labels two samples; the misreading disagrees with one of them.
    expect(transcript).toContain("note: agrees with 1 of the 2 labels given for this rule");
    expect(transcript).toContain("note: still disagrees with the labels after it went back to the model once: open-unverified");
    expect(result.warnings.flatMap((w) => w.messages)).toContain("agrees with 1 of the 2 labels given for this rule");
  });
});
