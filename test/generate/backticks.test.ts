/**
 * No silent swap (issue 25): what the spec writes in backticks is used as written by the
 * offline drafter: an action name, in the samples or not (then with a `not-in-samples` note),
 * and a `key: value` as a metadata matcher on the event the sentence is about (the `_result`
 * event for an outcome).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const refunds = [
  session(
    ["user", "message"],
    ["agent", "lookup_customer"],
    ["tool", "lookup_customer_result", { status: "found" }],
    ["agent", "verify_identity"],
    ["tool", "verify_identity_result", { status: "verified" }],
    ["agent", "issue_refund", { order: "A" }],
  ),
  session(
    ["user", "message"],
    ["agent", "verify_identity"],
    ["tool", "verify_identity_result", { status: "failed" }],
    ["agent", "issue_refund", { order: "B" }],
    ["agent", "lookup_customer"],
  ),
];

describe("backticked names and values, used as written", () => {
  it("keeps '…and the verification comes back `status: verified`' as the result event with that value", () => {
    const draft = draftOf(
      "The agent handles refunds.",
      "The agent issues a refund only after it has checked the identity with `verify_identity` and the verification comes back `status: verified`.",
      refunds,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "ordering",
        first: [{ action: "verify_identity_result", metadata: { status: "verified" } }],
        before: [{ action: "issue_refund" }],
      }),
    ]);
    expect(draft.notes.filter((note) => note.kind === "uncovered-sentence")).toEqual([]);
  });

  it("joins an outcome sub-clause to the check before it: 'X before Y, and the run has to come back `status: passed`'", () => {
    const samples = [
      session(["agent", "run_tests"], ["tool", "run_tests_result", { status: "passed" }], ["agent", "git_commit"]),
      session(["agent", "run_tests"], ["tool", "run_tests_result", { status: "failed" }], ["agent", "git_commit"]),
    ];
    const draft = draftOf(
      "The agent commits code.",
      "The agent runs the tests before it commits, and the run has to come back `status: passed`.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.semanticChecks).toEqual([]);
    expect(rule.checks).toEqual([
      {
        type: "ordering",
        quote: "The agent runs the tests before it commits, and the run has to come back `status: passed`",
        first: [{ action: "run_tests_result", metadata: { status: "passed" } }],
        before: [{ action: "git_commit" }],
      },
    ]);
  });

  it("keeps `send_email`, absent from the samples, instead of swapping in a sample action, and says so", () => {
    const draft = draftOf(
      "The agent handles refunds.",
      "Whenever the agent issues a refund, it afterwards sends a note with `send_email`.",
      refunds,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([expect.objectContaining({ type: "pairing", followedBy: [{ action: "send_email" }] })]);
    expect(JSON.stringify(rule)).not.toContain("lookup_customer");
    expect(draft.notes).toContainEqual(
      expect.objectContaining({ kind: "not-in-samples", message: "`send_email` is used as the spec writes it, though no sample shows it" }),
    );
  });

  it("uses the tool names the preamble lists, though the section names them in prose", () => {
    const draft = draftOf(
      "The agent can look up customers (`lookup_customer`), refund (`issue_refund`) and close accounts (`close_account`).",
      "The agent never closes an account.",
      refunds,
    );
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "close_account" }] }),
    ]);
    expect(draft.notes.map((note) => note.kind)).toContain("not-in-samples");
  });

  it("puts a backticked `key: value` on the event it is about: the call that carries the key", () => {
    const samples = [
      session(["agent", "git_push", { branch: "feature" }], ["tool", "git_push_result", { status: "ok" }]),
      session(["agent", "git_push", { branch: "main" }], ["tool", "git_push_result", { status: "ok" }]),
    ];
    const draft = draftOf("The agent commits code.", "The agent never pushes to `branch: main`.", samples);
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ type: "forbidden", match: [{ action: "git_push", metadata: { branch: "main" } }] }),
    ]);
  });
});
