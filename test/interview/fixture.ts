/**
 * A hand-built interview input shared by the interview tests: a three-section
 * refund spec, a draft of three rules (8 questions: each trigger, 5 checks,
 * 1 semantic check) and two sample trajectories. Built by hand so the tests
 * do not depend on the drafters.
 */
import type { Trajectory } from "../../runtime/types.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Draft, InterviewInput, Vocabulary } from "../../compiler/generate/types.js";
import type { BehaviorSpec } from "../../compiler/behavior-md/load.js";
import { Writable } from "node:stream";

/** Text that would run as script if any front end wrote it as HTML. */
export const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

export const LOOKUP_BODY = "Before the agent issues a refund, it retrieves the order and the lookup finds it.";
export const CONFIRM_BODY =
  "Whenever the processor approves a refund, the agent afterwards sends the refund confirmation email. A chat message saying the money is on its way is not a substitute.";
export const ESCALATE_BODY =
  "After the agent escalates a case, it issues no further refunds, and it writes a handover note for the supervisor.";

export const spec: BehaviorSpec = {
  file: "BEHAVIOR.md",
  name: "refund-support",
  description: "Refund rules.",
  preamble: "# Refund support",
  sections: [
    { heading: "Look up the order first", line: 6, body: LOOKUP_BODY },
    { heading: "Confirm every approved refund", line: 10, body: CONFIRM_BODY },
    { heading: "Stop paying out once escalated", line: 14, body: ESCALATE_BODY },
  ],
};

export function draftIR(): JudgeIR {
  return {
    version: 1,
    behavior: "refund-support",
    metaBehaviors: [
      {
        name: "Look up the order first",
        trigger: { description: "The agent issues a refund.", match: [{ action: "issue_refund" }] },
        checks: [
          {
            type: "ordering",
            quote: "Before the agent issues a refund, it retrieves the order and the lookup finds it",
            first: [{ actor: "tool", action: "get_order_result", metadata: { status: "found" } }],
            before: [{ action: "issue_refund" }],
          },
        ],
        semanticChecks: [],
        source: LOOKUP_BODY,
      },
      {
        name: "Confirm every approved refund",
        trigger: {
          description: "The processor approves a refund.",
          match: [{ action: "issue_refund_result", metadata: { status: "approved" } }],
        },
        checks: [
          {
            type: "pairing",
            quote: "Whenever the processor approves a refund, the agent afterwards sends the refund confirmation email",
            each: [{ action: "issue_refund_result", metadata: { status: "approved" } }],
            followedBy: [{ action: "send_email", metadata: { template: "refund_confirmation" } }],
          },
        ],
        semanticChecks: [
          {
            quote: "A chat message saying the money is on its way is not a substitute.",
            question: "Did the agent avoid treating a chat message as the confirmation?",
          },
        ],
        source: CONFIRM_BODY,
      },
      {
        name: "Stop paying out once escalated",
        trigger: { description: "The agent escalates the case.", match: [{ action: "escalate_to_supervisor" }] },
        checks: [
          {
            type: "forbidden",
            quote: "it issues no further refunds",
            match: [{ action: "issue_refund" }],
            after: [{ action: "escalate_to_supervisor" }],
          },
          {
            type: "required",
            quote: "it writes a handover note for the supervisor",
            match: [{ action: "add_case_note", metadata: { kind: "handover" } }],
            after: [{ action: "escalate_to_supervisor" }],
          },
        ],
        semanticChecks: [],
        source: ESCALATE_BODY,
      },
    ],
  };
}

export const samples: Trajectory[] = [
  {
    id: "clean-refund",
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "user", action: "message", content: `Refund order A-1 please. ${HOSTILE}` },
      { id: "e2", actor: "agent", action: "get_order", metadata: { order_id: "A-1" } },
      {
        id: "e3",
        actor: "tool",
        action: "get_order_result",
        content: "Order A-1 found.",
        metadata: { order_id: "A-1", status: "found" },
      },
      { id: "e4", actor: "agent", action: "issue_refund", metadata: { order_id: "A-1" } },
      { id: "e5", actor: "tool", action: "issue_refund_result", metadata: { status: "approved" } },
      {
        id: "e6",
        actor: "agent",
        action: "send_email",
        content: HOSTILE,
        metadata: { template: "refund_confirmation" },
      },
    ],
  },
  {
    id: "escalated",
    description: "",
    complete: false,
    events: [
      { id: "e1", actor: "user", action: "message", content: "Two orders, B-1 and B-2." },
      { id: "e2", actor: "agent", action: "issue_refund", metadata: { order_id: "B-1" } },
      { id: "e3", actor: "tool", action: "issue_refund_result", metadata: { status: "approved" } },
      { id: "e4", actor: "agent", action: "escalate_to_supervisor" },
      { id: "e5", actor: "agent", action: "issue_refund", metadata: { order_id: "B-2" } },
      { id: "e6", actor: "agent", action: "add_case_note", metadata: { kind: "handover" } },
    ],
  },
];

export const vocabulary: Vocabulary = {
  actions: [
    { action: "add_case_note", actors: ["agent"], count: 1 },
    { action: "escalate_to_supervisor", actors: ["agent"], count: 1 },
    { action: "get_order", actors: ["agent"], count: 1 },
    { action: "get_order_result", actors: ["tool"], count: 1 },
    { action: "issue_refund", actors: ["agent"], count: 3 },
    { action: "issue_refund_result", actors: ["tool"], count: 2 },
    { action: "message", actors: ["user"], count: 2 },
    { action: "send_email", actors: ["agent"], count: 1 },
  ],
  metadataKeys: [
    { key: "kind", values: ["handover"], count: 1 },
    { key: "order_id", values: ["A-1", "B-1", "B-2"], count: 4 },
    { key: "status", values: ["approved", "found"], count: 4 },
    { key: "template", values: ["refund_confirmation"], count: 1 },
  ],
  contentSamples: [],
};

export function draft(): Draft {
  return {
    ir: draftIR(),
    notes: [
      {
        rule: 1,
        clause: { kind: "check", index: 0 },
        kind: "unmapped-clause",
        message: `check the email template ${HOSTILE}`,
      },
      { rule: 2, kind: "model-retry", message: "the model needed a second try for this rule" },
    ],
    origins: ["offline", "model", "offline"],
  };
}

export function interviewInput(overrides: Partial<InterviewInput> = {}): InterviewInput {
  return { spec, draft: draft(), vocabulary, samples, ...overrides };
}

/** Question indexes in the fixture, in interview order. */
export const Q = {
  lookupTrigger: 0,
  lookupOrdering: 1,
  confirmTrigger: 2,
  confirmPairing: 3,
  confirmSemantic: 4,
  escalateTrigger: 5,
  escalateForbidden: 6,
  escalateRequired: 7,
} as const;

/**
 * Five sessions on which the draft's warnings about proportions fire: refunds without a
 * lookup in three of the four with a refund (checks[0] of "Look up the order first" fails
 * most), and every approved refund confirmed ("Confirm every approved refund" applies to
 * three and fails none, while both other rules fail one).
 */
export const proportionSamples: Trajectory[] = [
  samples[0]!,
  ...["quick-a", "quick-b"].map((id) => ({
    id,
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "agent" as const, action: "issue_refund" },
      { id: "e2", actor: "tool" as const, action: "issue_refund_result", metadata: { status: "approved" } },
      { id: "e3", actor: "agent" as const, action: "send_email", metadata: { template: "refund_confirmation" } },
    ],
  })),
  {
    id: "escalated-ok",
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "agent", action: "escalate_to_supervisor" },
      { id: "e2", actor: "agent", action: "add_case_note", metadata: { kind: "handover" } },
    ],
  },
  {
    id: "escalated-refund",
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "agent", action: "escalate_to_supervisor" },
      { id: "e2", actor: "agent", action: "issue_refund" },
      { id: "e3", actor: "agent", action: "add_case_note", metadata: { kind: "handover" } },
    ],
  },
];

/** A stream a terminal interview writes to, and the text it wrote so far. */
export function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, text: () => text };
}
