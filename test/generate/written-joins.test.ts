/**
 * Two actions the words join in backticks are both used (issue 25, "no silent swap"): a reading from
 * the words (synthesize-unlabeled.ts) that forbids one of "no `a` and no `b`" lets the other pass
 * without a word, so the reading tests both; and a rationale paragraph ("**Why:** …") gives the
 * words path no values. A teaching lab's sentence, not from any fixture.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { labSessions } from "../support/teaching-lab.js";

const SPEC = `---
name: teaching-lab
description: Rules for the lab assistant of a school chemistry class.
---
## After a spill

Once a bench has reported a spill, nothing more is handed out at that bench for the rest of the
class: no \`dispense_acid\` and no \`dispense_solvent\` with that \`bench\`, even if the spill is
later wiped up.

**Why:** last term the acetone bottle went back to bench 3 while glass was still on the floor.
`;
const parsed = parseBehaviorMd(SPEC);
if (!parsed.ok) throw new Error("spec");

const samples = labSessions;

describe("a prohibition of two actions the words join", () => {
  const drafted = draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples });
  const rule = drafted.ir.metaBehaviors[0]!;
  it("forbids both `dispense_acid` and `dispense_solvent` after the spill at that bench", () => {
    expect(rule.checks).toHaveLength(1);
    const check = rule.checks[0]!;
    expect(check.type).toBe("forbidden");
    if (check.type !== "forbidden") return;
    expect(check.match).toEqual([{ action: { in: ["dispense_acid", "dispense_solvent"] } }]);
    expect(check.after).toEqual([{ action: "report_spill" }]);
    expect(check.on).toBe("metadata.bench");
  });
});

describe("action names with regular-expression syntax", () => {
  it("are read as written, not as a pattern (an unbalanced `(` once threw)", () => {
    const named = (text: string) => text.replaceAll("dispense_acid", "dispense(acid").replaceAll("dispense_solvent", "dispense[solvent");
    const spec = parseBehaviorMd(named(SPEC));
    if (!spec.ok) throw new Error("spec");
    const renamed = samples.map((s) => ({ ...s, events: s.events.map((e) => ({ ...e, action: named(e.action) })) }));
    const drafted = draftOffline({ spec: spec.spec, vocabulary: buildVocabulary(renamed), samples: renamed });
    const check = drafted.ir.metaBehaviors[0]!.checks[0]!;
    expect(check.type).toBe("forbidden");
    if (check.type !== "forbidden") return;
    expect(check.match).toEqual([{ action: { in: ["dispense(acid", "dispense[solvent"] } }]);
  });
});
