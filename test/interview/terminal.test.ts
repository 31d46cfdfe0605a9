import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InterviewCancelledError, runInterview } from "../../compiler/interview/index.js";
import { runTerminalInterview } from "../../compiler/interview/terminal.js";
import { serializeJudgeYaml } from "../../compiler/ir/index.js";
import { capture, draftIR, interviewInput, proportionSamples } from "./fixture.js";

/** An answer stream holding exactly these lines, then the end of input. */
function answers(...lines: string[]): PassThrough {
  const stream = new PassThrough();
  stream.end(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  return stream;
}

const editedOrdering = {
  type: "ordering",
  quote: "Before the agent issues a refund, it retrieves the order and the lookup finds it",
  first: { action: "get_order_result", metadata: { status: "found" } },
  before: [{ action: "issue_refund" }, { action: "issue_store_credit" }],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the terminal interview", () => {
  it("follows a scripted session: accept, a refused then a valid edit, semantic, drop, back, help, write", async () => {
    const out = capture();
    const result = await runInterview(interviewInput(), {
      web: false,
      input: answers(
        "", // lookup trigger: accept
        "e",
        "{type: ordering, quote: Look it up, firts: {action: get_order_result}, before: {action: issue_refund}}",
        "e",
        JSON.stringify(editedOrdering),
        "a", // confirm trigger
        "s",
        "Was the confirmation email sent after each approval?",
        "d", // the semantic check
        "b", // back from the escalation trigger to the semantic check …
        "y", // … and keep it after all
        "", // escalation trigger
        "d", // forbidden
        "zzz", // not an answer: help, then asked again
        "", // required
        "y", // write
      ),
      output: out.stream,
    });

    const [lookup, confirm, escalate] = result.ir.metaBehaviors;
    expect(lookup!.checks).toEqual([{ ...editedOrdering, first: [editedOrdering.first], before: editedOrdering.before }]);
    expect(confirm!.checks).toEqual([]);
    expect(confirm!.semanticChecks).toEqual([
      draftIR().metaBehaviors[1]!.semanticChecks[0],
      {
        quote: "Whenever the processor approves a refund, the agent afterwards sends the refund confirmation email",
        question: "Was the confirmation email sent after each approval?",
      },
    ]);
    expect(escalate!.checks.map((c) => c.type)).toEqual(["required"]);
    expect(result.questionsAsked).toBe(8);

    const text = out.text();
    expect(text).toContain("── Question 1 of 8 ── rule 1 of 3: Look up the order first");
    expect(text).toContain("[a]ccept / [e]dit / [s]emantic / [d]rop / [b]ack (default a): ");
    expect(text).toContain('  quote: "Before the agent issues a refund, it retrieves the order and the lookup finds it"');
    expect(text).toContain("! the edit is not a valid clause; nothing was changed");
    expect(text).toContain("!   line 1, col ");
    expect(text).toContain('unknown key "firts" (did you mean "first"?)');
    expect(text).toContain(`current: {"type":"ordering","quote":`);
    expect(text).toContain("    clean-refund:");
    expect(text).toContain("      [first] e3 tool get_order_result {order_id=A-1 status=found}");
    expect(text).toContain("    escalated (incomplete):");
    expect(text).toContain("  note: check the email template");
    expect(text).toContain("(your answer so far: dropped)");
    expect(text).toContain('unknown answer "zzz"');
    expect(text).toContain("── Review ── the judge.yaml to write:");
    expect(text).toContain(serializeJudgeYaml(result.ir).trimEnd());
    expect(text).toContain("write? [Y/n]");
  });

  it("keeps an earlier answer when the person goes back and presses Enter", async () => {
    const out = capture();
    const input = answers("", "e", JSON.stringify(editedOrdering), "b", "");
    const result = await runTerminalInterview(interviewInput(), { input, output: out.stream });
    expect(result.ir.metaBehaviors[0]!.checks[0]!).toMatchObject({ before: editedOrdering.before });
    expect(out.text()).toContain("[a]ccept the draft / [e]dit / [s]emantic / [d]rop / [b]ack (default: keep your answer): \n");
  });

  it("accepts everything when the input is empty (< /dev/null), showing every question", async () => {
    const out = capture();
    const result = await runTerminalInterview(interviewInput(), { input: answers(), output: out.stream });
    expect(result).toEqual({ ir: draftIR(), questionsAsked: 8 });
    expect(out.text().match(/\(end of input: accepted\)/g)).toHaveLength(8);
    expect(out.text()).toContain("── Review ──");
  });

  it("takes the defaults for what is left when the input ends mid-interview", async () => {
    const result = await runTerminalInterview(interviewInput(), { input: answers("", "d"), output: capture().stream });
    expect(result.questionsAsked).toBe(8);
    expect(result.ir.metaBehaviors.map((m) => m.name)).toEqual(["Confirm every approved refund", "Stop paying out once escalated"]);
  });

  it('accepts everything from `yes ""`, an input that never ends', async () => {
    const yes = spawn("yes", [""], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const result = await runTerminalInterview(interviewInput(), { input: yes.stdout, output: capture().stream });
      expect(result).toEqual({ ir: draftIR(), questionsAsked: 8 });
    } finally {
      yes.kill();
    }
  });

  it("writes nothing when the person says n at the review", async () => {
    const input = answers(...Array.from({ length: 8 }, () => ""), "n");
    await expect(runTerminalInterview(interviewInput(), { input, output: capture().stream })).rejects.toBeInstanceOf(
      InterviewCancelledError,
    );
  });

  it("goes back from the review, and will not write an empty judge.yaml", async () => {
    const out = capture();
    const input = answers("d", "d", "d", "", "b", "a", "", "", "y");
    const result = await runTerminalInterview(interviewInput(), { input, output: out.stream });
    expect(out.text()).toContain("! Every rule was dropped, so there is nothing to write.");
    expect(out.text()).toContain("nothing can be written; [b]ack or [n] to stop: ");
    expect(result.ir.metaBehaviors.map((m) => m.name)).toEqual(["Stop paying out once escalated"]);

    const ended = runTerminalInterview(interviewInput(), { input: answers("d", "d", "d"), output: capture().stream });
    await expect(ended).rejects.toThrow(/input ended, and Every rule was dropped/);
  });

  it("echoes piped answers, and never passes control characters from the draft or samples to the terminal", async () => {
    const out = capture();
    const input = interviewInput();
    input.draft.notes.push({ rule: 0, kind: "unknown-action", message: "clear\u001b[2Jscreen" });
    const sample = input.samples[0]!;
    input.samples = [
      {
        ...sample,
        events: [...sample.events, { id: "e7", actor: "agent", action: "issue_refund", metadata: { order_id: "\u001b]0;owned\u0007" } }],
      },
    ];
    await runTerminalInterview(input, { input: answers("a"), output: out.stream });
    expect(out.text()).toContain("(default a): a\n");
    expect(out.text()).toContain("clear\\u001b[2Jscreen");
    expect(out.text()).toContain("order_id=\\u001b]0;owned\\u0007");
    expect(out.text()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it("writes to stderr by default, keeping stdout clean", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await runInterview(interviewInput({ ask: [0] }), { web: false, input: answers() });
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr.mock.calls.map((c) => String(c[0])).join("")).toContain("── Review ──");
  });

  it("shows the verdict preview and its warnings, edits field by field through the parser, turns a semantic question into an event check, and widens a trigger", async () => {
    const out = capture();
    const keep5 = ["", "", "", "", ""];
    const result = await runTerminalInterview(interviewInput(), {
      input: answers(
        "", // lookup trigger
        "e", // the ordering, field by field:
        "", // type [ordering]
        "", // first[0].action [get_order_result]
        "robot", // first[0].actor: refused by the parser, asked again …
        "", // … and kept
        "", // first[0].contentIncludes
        "", // first[0].content
        "status: missing", // first[0].metadata
        ...keep5, // before[0]
        "", // on
        "", // fresh
        "e", // the preview warns: the fields again
        "",
        "",
        "",
        "",
        "",
        "status: found, order_id: A-1",
        ...keep5,
        "", // on
        "", // fresh
        "", // save
        "", // confirm trigger
        "", // pairing
        "e", // the semantic check becomes an event check
        "forbidden",
        "send_message", // match[0].action: no sample uses it
        "agent",
        "on its way",
        "",
        "",
        ...keep5, // after[0]: no window
        "", // on
        "y",
        "e", // the escalation trigger, narrowed to where its checks' events are not
        "",
        "get_order",
        "",
        "",
        "",
        "",
        "",
        "w", // at the forbidden check: widen the trigger, staying at the question
        "",
        "",
        "y",
      ),
      output: out.stream,
    });
    const text = out.text();
    // The preview at a question, as drafted.
    expect(text).toContain(
      [
        "  preview on 2 samples (as your answers leave the rule):",
        "    the trigger fires on 2 (clean-refund, escalated); not on 0",
        "    the rule:   pass 1 (clean-refund) · fail 1 (escalated) · n.a. 0",
        "    this clause: pass 1 (clean-refund) · fail 1 (escalated) · n.a. 0",
      ].join("\n"),
    );
    // Field by field, each checked by the parser as it is answered.
    expect(text).toContain('  quote (kept verbatim): "Before the agent issues a refund, it retrieves the order and the lookup finds it"');
    expect(text).toContain(
      "  first[0].actor (user, agent or tool) [tool]: robot\n!   first[0].actor: must be user, agent, or tool\n  first[0].actor (user, agent or tool) [tool]: \n",
    );
    // The edit's preview before it is saved, with warnings that cannot be missed.
    expect(text).toContain("  preview on 2 samples (with your edit):");
    expect(text).toContain("  !! WARNING: checks[0] fails every sample the rule applies to (clean-refund, escalated)");
    expect(text).toContain('  !! WARNING: checks[0]: no sample "get_order_result" event has metadata status: missing');
    expect(text).toContain('  !! WARNING: checks[1]: no sample has an event with action "send_message"');
    expect(text).toContain("save this edit? [Y/n] (e: the fields again): ");
    // A trigger that misses its checks' events: flagged, and widened with one answer.
    expect(text).toContain(
      "  !! WARNING: the trigger never fires on the samples where checks[0]'s events appear (escalated); the trigger gates every check of the rule, so checks[0] is never judged: widen the trigger",
    );
    expect(text).toContain(
      '  !! [w]iden at the question makes the trigger match: [{"action":"get_order"},{"action":"escalate_to_supervisor"}]',
    );
    expect(text).toContain("[a]ccept / [e]dit / [s]emantic / [d]rop / [w]iden the trigger / [b]ack (default a): w");
    // The review previews the whole judge.
    expect(text).toContain("Preview on the 2 samples:\n  Look up the order first: pass 1 (clean-refund) · fail 1 (escalated) · n.a. 0");

    const [lookup, confirm, escalate] = result.ir.metaBehaviors;
    expect(lookup!.checks).toEqual([
      {
        ...draftIR().metaBehaviors[0]!.checks[0],
        first: [{ actor: "tool", action: "get_order_result", metadata: { status: "found", order_id: "A-1" } }],
      },
    ]);
    expect(confirm!.semanticChecks).toEqual([]);
    expect(confirm!.checks[1]).toEqual({
      type: "forbidden",
      quote: "A chat message saying the money is on its way is not a substitute.",
      match: [{ action: "send_message", actor: "agent", contentIncludes: "on its way" }],
    });
    expect(escalate!.trigger).toEqual({
      description: "The agent escalates the case.",
      match: [{ action: "get_order" }, { action: "escalate_to_supervisor" }],
    });
    expect(escalate!.checks).toEqual(draftIR().metaBehaviors[2]!.checks);
  });

  it("gives a semantic trigger events to match again, field by field", async () => {
    const out = capture();
    const result = await runTerminalInterview(interviewInput({ ask: [1] }), {
      input: answers(
        "s", // the trigger: a model decides …
        "A refund is approved.",
        "b", // … then back to it
        "e",
        "", // description [A refund is approved.]
        "no", // semantic [yes]
        "issue_refund_result",
        "",
        "",
        "", // content
        "status: approved",
        "", // save
      ),
      output: out.stream,
    });
    expect(out.text()).toContain("the trigger is semantic: a model decides where the rule applies, so without one the rule is n.a.");
    expect(out.text()).toContain(
      "  !! WARNING: the rule is n.a. on every sample: its trigger is a question for a model, so the preview cannot show how the rule judges them; if an event marks the situation, make the trigger match it\n",
    );
    expect(out.text()).toContain(
      '  semantic (no: match events instead) [yes]: no\n  match[0].action (a name, or {in: [a, b]}, {matches: "^re"}, {not: a}) []: issue_refund_result\n',
    );
    expect(result.ir.metaBehaviors[1]!.trigger).toEqual({
      description: "A refund is approved.",
      match: [{ action: "issue_refund_result", metadata: { status: "approved" } }],
    });
  });

  it("shows in the review a check that fails most samples and a rule that fails none where the others fail some", async () => {
    const out = capture();
    await runTerminalInterview(interviewInput({ samples: proportionSamples, ask: [] }), { input: answers("y"), output: out.stream });
    const text = out.text();
    expect(text).toContain(
      "  !! WARNING: checks[0] fails 3 of the 4 samples it judges (quick-a, quick-b, escalated-refund): if most of these sessions went right, the check asks for more than the rule does\n",
    );
    expect(text).toContain(
      "  !! WARNING: the rule applies to 3 of the 5 samples and fails none, though 2 of the 2 other rules that judge them fail some: if one of these samples breaks this rule too, its checks are too lenient\n",
    );
  });

  it("takes a whole clause typed at the first field as an event check when it has a type, else as a question", async () => {
    const question = JSON.stringify({ quote: editedOrdering.quote, question: "Was the order found before the refund?" });
    const result = await runTerminalInterview(interviewInput({ ask: [0] }), {
      input: answers("", "e", question, "b", "e", JSON.stringify(editedOrdering)),
      output: capture().stream,
    });
    expect(result.ir.metaBehaviors[0]!.checks).toEqual([{ ...editedOrdering, first: [editedOrdering.first] }]);
    const asked = await runTerminalInterview(interviewInput({ ask: [0] }), { input: answers("", "e", question), output: capture().stream });
    expect(asked.ir.metaBehaviors[0]!.checks).toEqual([]);
    expect(asked.ir.metaBehaviors[0]!.semanticChecks).toEqual([JSON.parse(question)]);
  });
});
