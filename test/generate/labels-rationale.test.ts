/**
 * The search from labels reads the rule's own paragraphs, as the reading from words does (issue 25,
 * compiler/generate/offline/draft.ts withLabels): a "**Why:**" paragraph tells a story, and a value
 * it writes in backticks (the bottle of last term's incident) is no matcher the rule states, so it
 * grounds no reading the labels leave open. A school lab's rule, not from any fixture.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { labSessions, session, solvent, spill } from "../support/teaching-lab.js";

const RULE = "Nothing is handed out at a bench once it has reported a spill.";
const WHY = "**Why:** last term a bottle (`chemical: acetone`) went back to bench 3 while glass was still on the floor.";
const specOf = (body: string) => {
  const parsed = parseBehaviorMd(
    `---\nname: teaching-lab\ndescription: Rules for the lab assistant of a school chemistry class.\n---\n## After a spill\n\n${body}\n`,
  );
  if (!parsed.ok) throw new Error("spec");
  return parsed.spec;
};

const samples = [
  ...labSessions,
  session("acetone-after-spill", spill("b3"), solvent("b3", "acetone")),
  session("ethanol-after-spill", spill("b4"), solvent("b4", "ethanol")),
];
// Labels the words' reading misses twice (ethanol after a spill judged fine), so the search re-reads the rule.
const verdicts: Record<string, "true" | "false"> = {
  "solvent-after-spill": "true",
  "acetone-after-spill": "false",
  "solvent-again": "false",
  "kept-away": "true",
  "ethanol-after-spill": "true",
};
const labels = Object.fromEntries(Object.entries(verdicts).map(([id, v]) => [id, { "After a spill": v }]));

describe("the search from labels and a rationale paragraph", () => {
  const drafted = (body: string) => {
    const draft = draftOffline({ spec: specOf(body), vocabulary: buildVocabulary(samples), samples, labels });
    const { trigger, checks } = draft.ir.metaBehaviors[0]!;
    return { trigger: trigger.match, checks: checks.map(({ quote: _quote, ...rest }) => rest) };
  };

  // Read with the rationale, the search took `chemical: acetone` from it (the labels happen to fit it). Without, the
  // pick is the labels' alone (today a chance fit, a ban on `report_spill` at some benches: the ranking's to improve,
  // not the rationale's to settle), and it is the same draft as for the rule written without the paragraph.
  it("takes no value from the rationale: the draft is the one without it", () => {
    const withWhy = drafted(`${RULE}\n\n${WHY}`);
    expect(JSON.stringify(withWhy)).not.toContain("acetone");
    expect(withWhy).toEqual(drafted(RULE));
  });
});
