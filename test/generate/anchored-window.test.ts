/**
 * "… calls `send_notice` for that booking within two steps of cancel_booking" (issue 25): the
 * window counts from a named event, so each such event must be followed by the required one
 * within N events, not the required event anywhere in the session. The sentences are written for
 * these tests (a boat-hire desk), not taken from a fixture.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "Skiff runs the boat-hire desk. It can hire out a boat (`hire_boat`, with the `hire_id`), take a boat back " +
  "(`return_boat`, with the `hire_id`), log the fuel used (`log_fuel`) and write to the hirer (`message_hirer`, " +
  "with the `hire_id`).";

const draftOf = (body: string, samples: Trajectory[]): Draft => draftSpec(PREAMBLE, body, samples, "boat-hire");

describe("a window counted from a named event", () => {
  const samples = [
    session(["agent", "return_boat", { hire_id: "H1" }], ["agent", "message_hirer", { hire_id: "H1" }]),
    session(
      ["agent", "message_hirer", { hire_id: "H2" }],
      ["agent", "return_boat", { hire_id: "H2" }],
      ["agent", "log_fuel"],
      ["agent", "log_fuel"],
      ["agent", "log_fuel"],
      ["agent", "message_hirer", { hire_id: "H2" }],
    ),
    session(["agent", "hire_boat", { hire_id: "H3" }], ["agent", "message_hirer", { hire_id: "H3" }]),
  ];

  it("reads 'X calls `b` for that Y within N steps of a' as a pairing of a with b within N, tied by Y", () => {
    const draft = draftOf(
      "The hirer hears about every return: Skiff calls `message_hirer` for that hire within two steps of return_boat.",
      samples,
    );
    const rule = draft.ir.metaBehaviors[0]!;
    expect(rule.checks).toEqual([
      expect.objectContaining({
        type: "pairing",
        each: [{ action: "return_boat" }],
        followedBy: [{ action: "message_hirer" }],
        on: "metadata.hire_id",
        within: 2,
      }),
    ]);
    // A message anywhere in the session is not enough: the one after the return came four events late.
    const preview = previewJudge(draft.ir, samples);
    expect(preview.rules[0]!.rule.fail).toEqual([samples[1]!.id]);
    expect(preview.rules[0]!.rule.pass).toEqual([samples[0]!.id]);
  });
});
