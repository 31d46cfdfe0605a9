/**
 * A bare act a spec bans by where it writes it (issue 25): a "Don't" column's cell, an item of a list under a
 * "Never:" lead-in or a "Don'ts" heading. Read alone it orders the act; read in its place it is a ban, quoted as
 * written, and covered (no "not covered" notice). A ferry's loading desk, in several voices of table and list.
 */
import { describe, expect, it } from "vitest";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { paragraphs, sectionSentences } from "../../compiler/generate/offline/sentences.js";
import { ruleQuotes, uncoveredObligations } from "../../compiler/generate/coverage.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import type { Trajectory } from "../../runtime/types.js";
import { agentAction as event } from "../support/offline-drafts.js";

const samples: Trajectory[] = [
  {
    id: "s1",
    description: "",
    complete: true,
    events: [
      event("e1", "weigh_vehicle", { plate: "AB1", kg: "2900" }),
      event("e2", "load_vehicle", { plate: "AB1", kg: "2900", deck: "upper" }),
    ],
  },
  { id: "s2", description: "", complete: true, events: [event("e1", "load_vehicle", { plate: "CD2", kg: "4100", deck: "lower" })] },
] as Trajectory[];

function draftOf(body: string) {
  const parsed = parseBehaviorMd(
    `---\nname: ferry\ndescription: Car deck.\n---\nThe assistant runs the car deck of a ferry.\n\n## Loading\n\n${body}\n`,
  );
  if (!parsed.ok) throw new Error("spec");
  const draft = draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples });
  const rule = draft.ir.metaBehaviors[0]!;
  return { draft, rule, uncovered: uncoveredObligations(parsed.spec.sections[0]!.body, ruleQuotes(rule)) };
}

const BAN = "Load a vehicle over 3500 kg with `load_vehicle`.";
const QUOTE = "Load a vehicle over 3500 kg with `load_vehicle`";

function expectBanned(body: string) {
  const { draft, rule, uncovered } = draftOf(body);
  const forbidden = rule.checks.filter((c) => c.type === "forbidden");
  expect(forbidden.map((c) => c.quote)).toEqual([QUOTE]);
  expect(JSON.stringify(forbidden[0]!.match)).toContain('"gt":3500');
  // Nothing drafted from the ban's own label, and the cell or item is covered.
  expect(JSON.stringify(rule)).not.toMatch(/"quote":"(?:Never|Prohibited|The deckhand must not|Don'ts?):?"/);
  expect(uncovered.map((o) => o.text)).toEqual([]);
  expect(draft.notes.filter((n) => n.kind === "uncovered-sentence")).toEqual([]);
}

describe("a bare act under a ban", () => {
  for (const [yes, no] of [
    ["Do", "Don't"],
    ["**Must**", "**Must not**"],
    ["Always", "Never"],
    ["Required", "Prohibited"],
  ])
    it(`reads a "${no}" cell written as a bare act as a ban, quoted as written`, () => {
      expectBanned([`| ${yes} | ${no} |`, "|---|---|", `| Weigh every vehicle with \`weigh_vehicle\`. | ${BAN} |`].join("\n"));
    });

  for (const lead of ["Never:", "**Prohibited:**", "The deckhand must not:", "Under no circumstances should the assistant:"])
    it(`reads the items of a list after "${lead}" as bans, and not the lead-in`, () => {
      expectBanned([lead, "", `- ${BAN}`].join("\n"));
    });

  it('reads the items of a list under a "Don\'ts" heading as bans', () => {
    expectBanned(["### Don'ts", "", `- ${BAN}`].join("\n"));
  });

  it("reads an item that forbids in its own words as written, an item's reason as written, and a list after the lead-in's list as orders", () => {
    const body = [
      "Never:",
      "",
      `- ${BAN} The ramp is rated for less.`,
      "- Do not load a vehicle without `weigh_vehicle` first.",
      "",
      "Weigh every vehicle.",
      "",
      "- Load each vehicle.",
    ].join("\n");
    const banned = sectionSentences(body).filter((s) => s.banned === true);
    expect(banned.map((s) => s.text)).toEqual([QUOTE]);
    expect(paragraphs(body)).not.toContain("Never:");
  });

  it("leaves a list with no ban before it as written", () => {
    const body = ["Checks:", "", `- ${BAN}`].join("\n");
    expect(sectionSentences(body).some((s) => s.banned === true)).toBe(false);
  });
});
