/** The sample vocabulary: what a judge.yaml may name, in an order that never depends on the machine. */
import { describe, expect, it } from "vitest";
import { buildVocabulary, guessVocabulary, vocabularyNames } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";

function sample(id: string, events: [string, string, (string | undefined)?, Record<string, string>?][]): Trajectory {
  return validateTrajectory({
    id,
    complete: true,
    events: events.map(([actor, action, content, metadata], i) => ({
      id: `e${i}`,
      actor,
      action,
      ...(content !== undefined ? { content } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    })),
  });
}

const A = sample("a", [
  ["user", "message", "Refund order A-1 please"],
  ["agent", "get_order", "Look up A-1", { order_id: "A-1" }],
  ["tool", "get_order_result", "Found", { order_id: "A-1", status: "found" }],
  ["agent", "issue_refund", "", { order_id: "A-1" }],
  ["agent", "message", "Done"],
]);
const B = sample("b", [
  ["user", "message", "Refund order B-2"],
  ["agent", "get_order", "Look up B-2", { order_id: "B-2" }],
  ["tool", "get_order_result", "Not found", { order_id: "B-2", status: "not_found" }],
  ["tool", "get_order_result", "Not found again", { order_id: "B-2", status: "not_found" }],
  ["user", "message", "Refund order B-2"],
  ["user", "message", "Hello?"],
  ["user", "message", "Anyone?"],
]);

describe("buildVocabulary", () => {
  const vocabulary = buildVocabulary([A, B]);

  it("lists actions in code-point order with their actors (user, agent, tool) and counts", () => {
    expect(vocabulary.actions).toEqual([
      { action: "get_order", actors: ["agent"], count: 2 },
      { action: "get_order_result", actors: ["tool"], count: 3 },
      { action: "issue_refund", actors: ["agent"], count: 1 },
      { action: "message", actors: ["user", "agent"], count: 6 },
    ]);
  });

  it("lists metadata keys with their most frequent values first, at most five", () => {
    expect(vocabulary.metadataKeys).toEqual([
      { key: "order_id", values: ["A-1", "B-2"], count: 6 }, // a tie (3 each) goes to code-point order
      { key: "status", values: ["not_found", "found"], count: 3 },
    ]);
    const many = sample(
      "m",
      Array.from({ length: 7 }, (_, i): [string, string, (string | undefined)?, Record<string, string>?] => [
        "agent",
        "x",
        undefined,
        { k: `v${i}` },
      ]),
    );
    expect(buildVocabulary([many]).metadataKeys[0]!.values).toEqual(["v0", "v1", "v2", "v3", "v4"]);
  });

  it("keeps up to three distinct, non-empty content samples per action", () => {
    expect(vocabulary.contentSamples).toEqual([
      { action: "get_order", samples: ["Look up A-1", "Look up B-2"] },
      { action: "get_order_result", samples: ["Found", "Not found", "Not found again"] },
      { action: "message", samples: ["Refund order A-1 please", "Done", "Refund order B-2"] },
    ]);
  });

  it("says which action carries which metadata, with value counts", () => {
    expect(vocabulary.actionMetadata?.filter((m) => m.action === "get_order_result")).toEqual([
      {
        action: "get_order_result",
        key: "order_id",
        count: 3,
        distinct: 2,
        values: [
          { value: "B-2", count: 2 },
          { value: "A-1", count: 1 },
        ],
      },
      {
        action: "get_order_result",
        key: "status",
        count: 3,
        distinct: 2,
        values: [
          { value: "not_found", count: 2 },
          { value: "found", count: 1 },
        ],
      },
    ]);
  });

  it("gives the same names and metadata whatever the order of the samples", () => {
    const reversed = buildVocabulary([B, A]);
    expect(reversed.actions).toEqual(vocabulary.actions);
    expect(reversed.metadataKeys).toEqual(vocabulary.metadataKeys);
    expect(reversed.actionMetadata).toEqual(vocabulary.actionMetadata);
  });

  it("hands the IR checker plain name lists", () => {
    expect(vocabularyNames(vocabulary)).toEqual({
      actions: ["get_order", "get_order_result", "issue_refund", "message"],
      metadataKeys: ["order_id", "status"],
    });
  });

  it("is empty for trajectories without events", () => {
    expect(buildVocabulary([sample("e", [])])).toEqual({ actions: [], metadataKeys: [], contentSamples: [], actionMetadata: [] });
  });
});

describe("guessVocabulary", () => {
  it("takes action names and metadata values from the spec's code spans, and says it guessed", () => {
    const parsed = parseBehaviorMd(
      [
        "---",
        "name: s",
        "description: d",
        "---",
        "",
        "## One",
        "",
        "The agent calls `lookup_order` and reads `lookup_order_result` until `status: found`; `sendEmail` follows.",
        "A `plain` word or `two words` is not a name.",
        "",
      ].join("\n"),
      "BEHAVIOR.md",
    );
    if (!parsed.ok) throw new Error("the spec does not parse");
    expect(guessVocabulary(parsed.spec)).toEqual({
      actions: [
        { action: "lookup_order", actors: ["agent"], count: 0 },
        { action: "lookup_order_result", actors: ["tool"], count: 0 },
        { action: "sendEmail", actors: ["agent"], count: 0 },
      ],
      metadataKeys: [{ key: "status", values: ["found"], count: 0 }],
      contentSamples: [],
      actionMetadata: [],
      guessed: true,
    });
  });
});
