/**
 * A prohibition never becomes a requirement (issue 25): a forbidden check that fails every sample
 * goes back to being a question (draft.ts plausible), and the rule is then read from its words
 * over the samples (synthesize-unlabeled.ts readFromWords); that reading keeps the sentence's
 * polarity: for "never", no `required`, `pairing` or minimum count.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Trajectory } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: records
description: Rules for the records desk.
---
The desk deletes records (\`delete_record\`), each answered by a \`delete_record_result\`, and archives them (\`archive_record\`).

## No deletions

The agent never calls \`delete_record\`.
`);
if (!parsed.ok) throw new Error("spec");

type Step = [Trajectory["events"][number]["actor"], string, Record<string, string>?];
const session = (id: string, ...steps: Step[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: steps.map(([actor, action, metadata], i) => ({ id: `e${i + 1}`, actor, action, ...(metadata ? { metadata } : {}) })),
});
const del: Step = ["agent", "delete_record", { record_id: "R1" }];
const result = (status: string): Step => ["tool", "delete_record_result", { record_id: "R1", status }];
// Every sample deletes: read as `forbidden: delete_record`, the rule fails them all.
const archive: Step = ["agent", "archive_record", { record_id: "R1" }];
const samples = [
  session("deleted-ok", ["user", "message"], del, result("ok"), archive),
  session("deleted-denied", ["user", "message"], del, result("denied")),
  session("archived-deleted", ["user", "message"], archive, del),
  session("deleted-ok-2", ["user", "message"], del, result("ok"), archive),
];

describe("a prohibition re-read from its words", () => {
  it("'never' is read as no required check, pairing or minimum count, whatever fits the samples", () => {
    const drafted = draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples });
    const rule = drafted.ir.metaBehaviors[0]!;
    // Read as "each `delete_record` is followed by its result" before: a requirement.
    for (const check of rule.checks) {
      expect(check.type).not.toBe("required");
      expect(check.type).not.toBe("pairing");
      if (check.type === "count") expect(check.min).toBeUndefined();
    }
  });
});
