/**
 * What ties an act to its latest look-up (issue 25, compiler/generate/offline/looked.ts): the key
 * the look-up's own words name as the thing it is of ("the latest hook inspection for that hook":
 * `hook`, an id or not) before the only id both carry (`crane_id`), which would read the latest
 * inspection of any hook of the crane. A bare "the" ("of the hook named in the hire") points at
 * nothing said before and leaves the shared id. The sentences are about a crane hire yard, a
 * domain none of the fixtures uses.
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import type { Draft } from "../../compiler/generate/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { draftOf as draftSpec, session } from "../support/offline-drafts.js";

const PREAMBLE =
  "The agent runs a crane hire yard. It can inspect a crane's hook (`check_hook`, with the `crane_id` and the `hook`; " +
  "the result gives its `state`) and hire a crane out with one of its hooks (`hire_crane`, with the `crane_id` and the `hook`).";
const draftOf = (body: string): Draft => draftSpec(PREAMBLE, body, samples, "cranes");

const samples: Trajectory[] = [
  // s1: the hook inspected sound, then hired.
  session(
    ["agent", "check_hook", { crane_id: "C1", hook: "H1" }],
    ["tool", "check_hook_result", { crane_id: "C1", hook: "H1", state: "sound" }],
    ["agent", "hire_crane", { crane_id: "C1", hook: "H1" }],
  ),
  // s2: hook H1 sound, then the crane's other hook H2 worn; hired with H1.
  session(
    ["agent", "check_hook", { crane_id: "C2", hook: "H1" }],
    ["tool", "check_hook_result", { crane_id: "C2", hook: "H1", state: "sound" }],
    ["agent", "check_hook", { crane_id: "C2", hook: "H2" }],
    ["tool", "check_hook_result", { crane_id: "C2", hook: "H2", state: "worn" }],
    ["agent", "hire_crane", { crane_id: "C2", hook: "H1" }],
  ),
  // s3: hired with a hook whose latest inspection found it worn.
  session(
    ["agent", "check_hook", { crane_id: "C3", hook: "H5" }],
    ["tool", "check_hook_result", { crane_id: "C3", hook: "H5", state: "worn" }],
    ["agent", "hire_crane", { crane_id: "C3", hook: "H5" }],
  ),
];

const verdicts = (draft: Draft) => {
  const rule = previewJudge(draft.ir, samples).rules[0]!.rule;
  return { pass: rule.pass, fail: rule.fail };
};

describe("the key a latest look-up is tied by", () => {
  it("ties 'the latest hook inspection for that hook' by `hook`, not the crane's id", () => {
    const draft = draftOf("For every `hire_crane`, the latest hook inspection for that hook must show `state: sound`.");
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({
        type: "condition",
        each: [{ action: "hire_crane" }],
        with: { r: { latest: [{ action: "check_hook_result" }], on: "metadata.hook" } },
        when: 'r.state == "sound"',
      }),
    ]);
    // s2's worn hook is another one than the one hired.
    expect(verdicts(draft)).toEqual({ pass: ["s1", "s2"], fail: ["s3"] });
  });

  it("leaves a bare 'the' to the shared id", () => {
    const draft = draftOf("For every `hire_crane`, the latest inspection of the hook named in the hire must show `state: sound`.");
    expect(draft.ir.metaBehaviors[0]!.checks).toEqual([
      expect.objectContaining({ with: { r: { latest: [{ action: "check_hook_result" }], on: "metadata.crane_id" } } }),
    ]);
  });
});
