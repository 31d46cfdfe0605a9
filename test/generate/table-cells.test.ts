/**
 * A spec written as a table (a "Do / Don't" list, a "Must / Must not" card): the readers read the
 * cells that are rules as written, and a "Don't" cell written as a bare act ("Mix theatre linen with
 * ward linen") is read as the ban its column makes it, not as an order to do it (issue 25).
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { paragraphs } from "../../compiler/generate/offline/sentences.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import type { Trajectory } from "../../runtime/types.js";
import { agentAction as event } from "../support/offline-drafts.js";

const samples: Trajectory[] = [
  {
    id: "s1",
    description: "",
    complete: true,
    events: [event("e1", "weigh_cage", { cage: "c1", kg: "30" }), event("e2", "dispatch_cage", { cage: "c1", kg: "30" })],
  },
  { id: "s2", description: "", complete: true, events: [event("e1", "dispatch_cage", { cage: "c2", kg: "45" })] },
] as Trajectory[];

function draftOf(body: string) {
  const parsed = parseBehaviorMd(
    `---\nname: wash\ndescription: Laundry.\n---\nThe assistant runs the wash floor.\n\n## Cages\n\n${body}\n`,
  );
  if (!parsed.ok) throw new Error("spec");
  return draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples });
}

const VOICES: [string, string, string][] = [
  ["Do", "Don't", "Don't dispatch a cage that weighs over 40 kg."],
  ["**Must**", "**Must not**", "A cage over 40 kg must not be dispatched."],
  ["Always", "Never", "Never dispatch a cage that weighs over 40 kg."],
];

describe("a spec written as a table", () => {
  for (const [yes, no, ban] of VOICES)
    it(`drafts from the cells of a "${yes} / ${no}" table as from sentences`, () => {
      const body = [
        `| ${yes} | ${no} |`,
        "|---|---|",
        `| Weigh every cage with \`weigh_cage\` before it is dispatched with \`dispatch_cage\`. | ${ban} |`,
      ].join("\n");
      const rule = draftOf(body).ir.metaBehaviors[0]!;
      expect(rule.checks.map((c) => c.type).sort()).toEqual(["forbidden", "ordering"]);
      const forbidden = rule.checks.find((c) => c.type === "forbidden")!;
      expect(JSON.stringify(forbidden)).toContain('"gt":40');
      expect(rule.checks.find((c) => c.type === "ordering")!.quote).toBe(
        "Weigh every cage with `weigh_cage` before it is dispatched with `dispatch_cage`",
      );
    });

  it('reads a bare act under a "Don\'t" column as a ban, not as an order, quoted as written (banned-acts.ts)', () => {
    const body = [
      "| Do | Don't |",
      "|---|---|",
      "| Weigh every cage with `weigh_cage`. | Dispatch a cage over 40 kg with `dispatch_cage`. |",
    ].join("\n");
    expect(paragraphs(body)).toEqual(["Weigh every cage with `weigh_cage`.", "Dispatch a cage over 40 kg with `dispatch_cage`."]);
    const draft = draftOf(body);
    const forbidden = draft.ir.metaBehaviors[0]!.checks.find((c) => c.type === "forbidden")!;
    expect(forbidden.quote).toBe("Dispatch a cage over 40 kg with `dispatch_cage`");
    expect(JSON.stringify(forbidden)).toContain('"gt":40');
    expect(draft.notes.filter((n) => n.kind === "uncovered-sentence")).toEqual([]);
  });

  it("reads no header row, no delimiter row, no other column and no fenced table; the text around a table stays its own paragraph", () => {
    const body = [
      "Before the table.",
      "| Step | Notes |",
      "|---|---|",
      "| Weigh | every cage must be weighed |",
      "After the table.",
      "",
      "```",
      "| Do |",
      "|---|",
      "| Sing while folding. |",
      "```",
    ].join("\n");
    expect(paragraphs(body)).toEqual(["Before the table.", "After the table."]);
  });
});
