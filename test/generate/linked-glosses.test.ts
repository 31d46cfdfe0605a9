/**
 * Issue 25, no labels (nolabel2): a spec's introduction names what its rules call an action by
 * linking the words to the name ("A lane is roped off with `close_lane`", "Roping off a lane is
 * close_lane", "if one has to be roped off, that's `close_lane`"), not only by "(`close_lane`)", an
 * arrow or a quoted defined term (glosses.ts). Those words are the action's gloss now
 * (linked-glosses.ts), so a rule that says "the lane is roped off" finds `close_lane`; and "at the very
 * next step" is a window of one step, as "as the very next step" was. A swimming
 * pool's desk, which no fixture uses, in the voices an introduction links words to a name in.
 */
import { describe, expect, it } from "vitest";
import { specGlosses } from "../../compiler/generate/offline/glosses.js";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { stemSet } from "../../compiler/generate/offline/words.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import { drafter, sessions, type Step } from "./voice-fixture.js";

const session = sessions("p");
const admit = (lane: string): Step => ["agent", "admit_swimmer", { lane }];
const injury = (lane: string, kind: string): Step => ["agent", "log_injury", { lane, kind }];
const rope = (lane: string): Step => ["agent", "close_lane", { lane }];
const medic = (): Step => ["agent", "call_medic"];
const samples = [
  session(admit("1"), injury("1", "head"), rope("1"), medic()),
  session(admit("2"), injury("2", "head"), medic(), rope("2")),
  session(admit("3"), injury("3", "cut"), medic()),
  session(admit("1"), injury("1", "head"), rope("1"), admit("2")),
  session(admit("4"), injury("4", "head"), admit("2"), rope("4")),
  session(admit("2"), injury("2", "cramp"), admit("3")),
  session(admit("1"), admit("2")),
  session(admit("3"), injury("3", "head"), rope("3")),
];
const roped = [...stemSet("roped")];

describe("words an introduction links to an action's name are the action's gloss", () => {
  const lexicon = buildLexicon(buildVocabulary(samples), samples);
  it.each([
    "A lane is roped off with `close_lane`.",
    "Roping off a lane is close_lane.",
    "If a lane has to be roped off, that's `close_lane`; the medic is called with call_medic.",
    "- Lanes get roped off with close_lane, which records the `lane`",
  ])("%j: `close_lane` is called by roping, and by no light verb or particle", (preamble) => {
    const gloss = specGlosses({ description: "", preamble }, lexicon).get("close_lane") ?? [];
    expect(gloss).toEqual(expect.arrayContaining(roped));
    for (const light of ["get", "off"]) expect(gloss).not.toContain(light);
  });

  it("a key the link names (`lane`) is no action, and a clause naming another action first glosses none", () => {
    const glosses = specGlosses(
      { description: "", preamble: "Each injury is filed with `lane`, then log_injury with close_lane." },
      lexicon,
    );
    expect(glosses.get("close_lane")).toBeUndefined();
  });
});

describe("a rule that says the lane is roped off at the very next step reads `close_lane` within one step", () => {
  const spec = (body: string) =>
    "---\nname: pool\ndescription: Rules for the pool assistant.\n---\n" +
    "The pool desk assistant keeps the log. A swimmer is let into a lane with admit_swimmer (`lane`). An injury goes in " +
    "with `log_injury` (`lane`, and `kind`: head, cut or cramp). A lane is roped off with `close_lane`. The lifeguard " +
    "medic is called with call_medic.\n\n" +
    `## The rule\n\n${body}\n`;
  const { reading } = drafter(spec, samples);
  // The window: "at", "on", "by" the (very) next step or line, as "as the very next step" was (combined.ts).
  it.each([
    "WHERE A HEAD INJURY IS LOGGED, THE LANE IT HAPPENED IN IS ROPED OFF AT THE VERY NEXT STEP.",
    "Where a head injury is logged, the lane it happened in is roped off at the very next step.",
    "Whenever a head injury is logged, `close_lane` follows on the next step.",
    "Whenever a head injury is logged, `close_lane` follows at the next line.",
  ])("%j: each head injury is followed by the roping at the next step; the two roped later fail", (body) => {
    const found = reading(body);
    expect(found.checks).toEqual([
      { type: "pairing", each: [{ action: "log_injury", metadata: { kind: "head" } }], followedBy: [{ action: "close_lane" }], within: 1 },
    ]);
    expect(found.questions).toBe(0);
    expect(found.fail).toEqual(["p2", "p5"]);
  });
});
