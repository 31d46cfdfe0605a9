/**
 * The search from labels at a bike-share repair depot (issue 25): values that name one person or
 * one thing are no categories a rule speaks of (synthesize-keys.ts categorical), and a window the
 * words write as an ordinal ("no later than the second event following the repair") is a `within`
 * the search tries (synthesize-numbers.ts writtenWithins).
 *
 * A mechanic's name ("A. Berg") or a bike's code ("B-101") takes a few values over a dozen samples,
 * as a category does, and one of them fits six labels by chance: on a towing desk's police notice,
 * `dispatch_tow_result` with one plate's value fitted every label given and judged every other
 * dispatch followed.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateVerdicts, type RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { categorical } from "../../compiler/generate/offline/synthesize-keys.js";
import { writtenWithins } from "../../compiler/generate/offline/synthesize-numbers.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check, JudgeIR, Matcher } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: bike-depot
description: Rules for Spoke, the assistant that runs a bike-share repair depot.
---
Spoke repairs a bike (\`repair_bike\`, with \`bike\` and the \`mechanic\` who did the work), tells its owner (\`notify_owner\`, with \`bike\`) and puts it back in the rack (\`release_bike\`, with \`bike\`). Every call gets a \`_result\` back.

## Owner told

Each repair shall be reported to the owner through \`notify_owner\`, for the same bike, no later than the second event following the repair.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const RULE = "Owner told";

/** A step: a chat line, or one of Spoke's calls on a bike (with its result); a repair names its mechanic. */
type Step = ["say", string] | ["repair_bike", string, string] | ["notify_owner" | "release_bike", string];
function session(id: string, ...steps: Step[]): Trajectory {
  const events: TrajectoryEvent[] = [{ id: "e0", actor: "user", action: "message", content: "Depot opening" }];
  const next = () => `e${events.length}`;
  for (const step of steps) {
    if (step[0] === "say") {
      events.push({ id: next(), actor: "user", action: "message", content: step[1] });
      continue;
    }
    const metadata = step[0] === "repair_bike" ? { bike: step[1], mechanic: step[2] } : { bike: step[1] };
    events.push({ id: next(), actor: "agent", action: step[0], metadata });
    events.push({ id: next(), actor: "tool", action: `${step[0]}_result`, metadata });
  }
  return { id, description: "", complete: true, events };
}

type Verdict = "true" | "false" | "na";
const cases: [Trajectory, Verdict][] = [
  [session("told-at-once", ["repair_bike", "B-101", "A. Berg"], ["notify_owner", "B-101"]), "true"],
  [session("only-released", ["release_bike", "B-102"]), "na"],
  [session("told-a-step-late", ["repair_bike", "B-103", "K. Osei"], ["say", "done?"], ["notify_owner", "B-103"]), "false"],
  [session("told-of-another-bike", ["repair_bike", "B-101", "K. Osei"], ["notify_owner", "B-102"]), "false"],
  [session("told-two-steps-late", ["repair_bike", "B-101", "L. Sato"], ["say", "ok"], ["say", "and?"], ["notify_owner", "B-101"]), "false"],
  [session("never-told", ["repair_bike", "B-104", "L. Sato"], ["release_bike", "B-104"]), "false"],
  // Never given as labels.
  [
    session(
      "two-repairs-both-told",
      ["repair_bike", "B-102", "A. Berg"],
      ["notify_owner", "B-102"],
      ["repair_bike", "B-103", "K. Osei"],
      ["notify_owner", "B-103"],
    ),
    "true",
  ],
  [session("released-then-told", ["repair_bike", "B-103", "L. Sato"], ["release_bike", "B-103"], ["notify_owner", "B-103"]), "false"],
  [session("told-then-released", ["repair_bike", "B-104", "K. Osei"], ["notify_owner", "B-104"], ["release_bike", "B-104"]), "true"],
  [session("chat-only", ["say", "Is my bike ready?"]), "na"],
  [session("released-untold", ["repair_bike", "B-102", "A. Berg"], ["release_bike", "B-102"]), "false"],
];
const samples = cases.map(([t]) => t);
const vocabulary = buildVocabulary(samples);
const labels: RuleLabels = Object.fromEntries(cases.slice(0, 6).map(([t, v]) => [t.id, { [RULE]: v }]));
const ruleOf = (ir: JudgeIR) => ir.metaBehaviors.find((r) => r.name === RULE)!;
const verdictOn = (ir: JudgeIR, id: string): Verdict => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === RULE)!.rule;
  return rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na";
};
const bare = ({ quote: _, ...c }: Check) => c;

describe("values that name one person or one thing", () => {
  it("are no categories: a roster's names, plates and codes", () => {
    expect(categorical("mechanic", ["A. Berg", "K. Osei", "L. Sato"])).toBe(false);
    expect(categorical("pilot", ["M. Kaur", "J. P. Amara"])).toBe(false);
    expect(categorical("plate", ["5HRA776", "7KDR221"])).toBe(false);
    expect(categorical("bike", ["B-101", "B-102", "B-103"])).toBe(false);
  });

  it("while kinds stay categories, a single letter or a word", () => {
    expect(categorical("zone", ["A", "B", "C"])).toBe(true);
    expect(categorical("result", ["pass", "fail"])).toBe(true);
    // One value of the kind a person's name takes does not make the key a roster.
    expect(categorical("grade", ["A. Berg", "premium"])).toBe(true);
  });

  it("so no candidate the search tries tests a mechanic or a bike by value", () => {
    const rule = draftOffline({ spec, vocabulary, samples }).ir.metaBehaviors[0]!;
    const lexicon = buildLexicon(vocabulary, samples);
    const tested = (m: Matcher) => Object.keys(m.metadata ?? {});
    const matchersOf = (c: Check): Matcher[] =>
      c.type === "ordering"
        ? [...c.first, ...c.before]
        : c.type === "pairing"
          ? [...c.each, ...c.followedBy]
          : c.type === "condition"
            ? c.each
            : [...c.match, ...(c.after ?? [])];
    const keys = new Set(
      candidateVerdicts(lexicon, rule, spec.sections[0]!.body, samples).flatMap(({ check }) => matchersOf(check).flatMap(tested)),
    );
    expect(keys.has("mechanic")).toBe(false);
    expect(keys.has("bike")).toBe(false);
  });
});

describe("a window written as an ordinal", () => {
  it("is the count of steps the words give", () => {
    expect(writtenWithins("no later than the third event following the dispatch")).toEqual([3]);
    expect(writtenWithins("no later than the second step after the launch")).toEqual([2]);
    expect(writtenWithins("no later than 4 events after it")).toEqual([4]);
    expect(writtenWithins("no later than the end of the day")).toEqual([]);
  });

  it("is searched: the owner told of that bike within two steps of each repair", () => {
    const found = draftOffline({ spec, vocabulary, samples, labels });
    const rule = ruleOf(found.ir);
    expect(rule.checks.map(bare)).toEqual([
      { type: "pairing", each: [{ action: "repair_bike" }], followedBy: [{ action: "notify_owner" }], on: "metadata.bike", within: 2 },
    ]);
    for (const [t, v] of cases) expect(verdictOn(found.ir, t.id), t.id).toBe(v);
  });
});
