/**
 * Numbers the words write, read the way they write them (issue 25, synthesize-numbers.ts): "no
 * more than 10" cuts above 10 (`> 10` or `<= 10`, never `< 10`), a forbidden check does not
 * forbid the side the words allow, and a `within` takes its count of steps from the words ("within
 * two steps"; "immediately" is one), not from the bare cue "within". Sentences of a volunteer
 * kitchen and a ferry desk, not from any fixture.
 */
import { describe, expect, it } from "vitest";
import { buildLexicon } from "../../compiler/generate/offline/lexicon.js";
import { candidateMatchers } from "../../compiler/generate/offline/synthesize-vocab.js";
import { cutFit, writtenCuts, writtenWithins } from "../../compiler/generate/offline/synthesize-numbers.js";
import { editDistance } from "../../compiler/generate/offline/synthesize-rank.js";
import { readFromWords } from "../../compiler/generate/offline/synthesize-unlabeled.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Check, MetaBehavior } from "../../compiler/ir/types.js";
import { valueTest } from "../../compiler/ir/values.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const session = (id: string, events: Omit<TrajectoryEvent, "id">[]): Trajectory => ({
  id,
  description: "",
  complete: true,
  events: [{ actor: "user" as const, action: "message" }, ...events].map((e, i) => ({ ...e, id: `e${i}` })),
});

describe("the side of a written number its words put it on", () => {
  it("reads 'more than', 'no more than', 'up to' as a cut above the number and 'at least', 'under', '4 or higher' below it", () => {
    const cuts = writtenCuts(
      "A crate of more than 40 kg goes by forklift. Volunteers lift no more than 20 kg, stack up to 6 crates, keep at least 2 people on a pallet, start under 18 only with a guardian, and call a lead for a spill of grade 3 or higher.",
    );
    expect(cuts).toEqual([
      { n: 40, cut: "above", allowed: false, op: "gt" },
      { n: 20, cut: "above", allowed: true, op: "lte" },
      { n: 6, cut: "above", allowed: true, op: "lte" },
      { n: 2, cut: "below", allowed: true, op: "gte" },
      { n: 18, cut: "below", allowed: false, op: "lt" },
      { n: 3, cut: "below", allowed: false, op: "gte" },
    ]);
  });

  it("fits a test on the side the words cut, either way round, and contradicts the other side of the same number", () => {
    const cuts = writtenCuts("no crate of more than 40 kg");
    expect(cutFit({ gt: 40 }, cuts)).toBe("fits");
    expect(cutFit({ lte: 40 }, cuts)).toBe("fits");
    expect(cutFit({ gte: 40 }, cuts)).toBe("contradicts");
    expect(cutFit({ lt: 40 }, cuts)).toBe("contradicts");
    expect(cutFit({ gt: 41 }, cuts)).toBe("silent");
    expect(cutFit({ gte: 10, lte: 40 }, cuts)).toBe("silent");
  });

  it("does not let a forbidden check forbid what 'at most' allows", () => {
    const cuts = writtenCuts("each volunteer lifts at most 20 kg");
    expect(cutFit({ lte: 20 }, cuts)).toBe("fits");
    expect(cutFit({ lte: 20 }, cuts, "forbidden")).toBe("contradicts");
    expect(cutFit({ gt: 20 }, cuts, "forbidden")).toBe("fits");
    // The allowed side names events too: "lifts of at most 20 kg need no second lifter".
    expect(cutFit({ lte: 20 }, cuts, "matcher")).toBe("fits");
    expect(cutFit({ gt: 20 }, cuts, "matcher")).toBe("fits");
  });

  it("names the events on the side 'above' speaks of: a trigger or an ordering's event never takes the other", () => {
    const cuts = writtenCuts("Work valued above $250,000 needs a second pair of eyes");
    expect(cutFit({ gt: 250000 }, cuts, "matcher")).toBe("fits");
    expect(cutFit({ lte: 250000 }, cuts, "matcher")).toBe("contradicts");
    // What a forbidden check matches, or a condition's test, may state the rest ("must be at most").
    expect(cutFit({ lte: 250000 }, cuts, "forbidden")).toBe("fits");
    expect(cutFit({ lte: 250000 }, cuts, "test")).toBe("fits");
    expect(cutFit({ gte: 250000 }, cuts, "matcher")).toBe("contradicts");
    // "$600 or more" names the events `>= 600`, not the rest.
    const more = writtenCuts("every payment of $600 or more is followed by a tax form");
    expect(cutFit({ gte: 600 }, more, "matcher")).toBe("fits");
    expect(cutFit({ lt: 600 }, more, "matcher")).toBe("contradicts");
    expect(cutFit({ lt: 600 }, more, "forbidden")).toBe("fits");
  });
});

describe("a rule read from its words keeps its number on the side the words put it", () => {
  // "Add up to no more than 10": no one shift is over 10 hours, so forbidding shifts over 10 fails
  // nothing; before, the reading counted only the shifts of `hours < 10`, the side the words allow cut off.
  const RULE = "Shift hours";
  const SECTION = "Hours booked with book_shift add up to no more than 10 per volunteer in one session.";
  const shift = (volunteer: string, hours: string) => ({
    actor: "agent" as const,
    action: "book_shift",
    metadata: { volunteer_id: volunteer, hours },
  });
  const samples = [
    session("two-short", [shift("V1", "4"), shift("V1", "3")]),
    session("two-long", [shift("V2", "6"), shift("V2", "6")]),
    session("one-long", [shift("V3", "8")]),
    session("three-short", [shift("V4", "5"), shift("V4", "5"), shift("V4", "4")]),
    session("two-people", [shift("V5", "6"), shift("V6", "7")]),
    session("one-short", [shift("V7", "2")]),
  ];
  const rule: MetaBehavior = {
    name: RULE,
    trigger: { description: "The situation arises.", semantic: true },
    checks: [],
    semanticChecks: [{ quote: SECTION.slice(0, -1), question: "Did the agent follow this?" }],
  };
  const lexicon = buildLexicon(buildVocabulary(samples), samples);

  it("never tests `hours < 10` or forbids `hours <= 10`", () => {
    const read = readFromWords(lexicon, rule, SECTION, SECTION.slice(0, -1), samples);
    const tests = (read?.checks ?? []).flatMap((c: Check) => (JSON.stringify(c).includes('"hours"') ? [JSON.stringify(c)] : []));
    expect(read).toBeDefined();
    expect(tests.join()).not.toMatch(/"hours":\{"lt":10\}/);
    for (const c of read!.checks) {
      if (c.type !== "forbidden") continue;
      for (const m of c.match) {
        const hours = m.metadata?.["hours"];
        if (hours === undefined) continue;
        const t = valueTest(hours);
        expect(t.op === "range" && (t.range.lte !== undefined || t.range.lt !== undefined)).toBe(false);
      }
    }
  });
});

describe("a `within` grounded on the count of steps the words write", () => {
  it("reads 'within two steps' as 2, 'immediately' and 'next' as 1, and 'within 30 minutes' as no count", () => {
    expect(writtenWithins("the crew is told within two steps of the clearance")).toEqual([2]);
    expect(writtenWithins("the ferry is held immediately")).toEqual([1]);
    expect(writtenWithins("the next message confirms it")).toEqual([1]);
    expect(writtenWithins("a refund within 30 minutes")).toEqual([]);
  });

  it("credits `within: 2` on 'within two steps', not `within: 1`", () => {
    const SECTION = "A boarding pass is sent within two steps of every `book_crossing`.";
    const samples = [
      session("sent", [
        { actor: "agent", action: "book_crossing", metadata: { booking_id: "B1" } },
        { actor: "agent", action: "send_pass", metadata: { booking_id: "B1" } },
      ]),
    ];
    const lexicon = buildLexicon(buildVocabulary(samples), samples);
    const rule: MetaBehavior = {
      name: "Passes",
      trigger: { description: "A crossing is booked.", match: [{ action: "book_crossing" }] },
      checks: [],
      semanticChecks: [],
    };
    const vocab = candidateMatchers(lexicon, rule, SECTION, samples, () => undefined);
    const paired: Check = { type: "pairing", quote: "q", each: [{ action: "book_crossing" }], followedBy: [{ action: "send_pass" }] };
    expect(editDistance(paired, { ...paired, within: 2 }, vocab)).toEqual({ fields: 1, grounded: 1 });
    expect(editDistance(paired, { ...paired, within: 1 }, vocab)).toEqual({ fields: 1, grounded: 0 });
  });
});

describe("a rule read from its words names the events on the side of its number, with the value it writes", () => {
  // A marina's boat lift: "over 20,000 kg needs a survey". Two heavy lifts, both surveyed; the
  // samples break the rule only where the surveyor is the yard hand who booked the lift, which no
  // single check states. Before, the reading took the light boats (`weight_kg <= 20000`, the side
  // the words do not speak of) because the heavy ones pass everywhere, and the written
  // `verdict: sound` was no candidate (the samples show no other verdict).
  const RULE = "Heavy lifts get a survey";
  const SECTION =
    "Boats weighing over 20,000 kg need a survey first. Before such a boat is lifted with lift_boat, a surveyor checks the same boat — the latest request_survey came back `verdict: sound` — and that surveyor is not the yard hand who booked the lift.";
  const look = (boat: string, kg: string) => [
    { actor: "agent" as const, action: "get_boat", metadata: { boat_id: boat } },
    { actor: "tool" as const, action: "get_boat_result", metadata: { boat_id: boat, weight_kg: kg, hand_id: "H-1" } },
  ];
  const survey = (boat: string, surveyor: string) => [
    { actor: "agent" as const, action: "request_survey", metadata: { boat_id: boat } },
    { actor: "tool" as const, action: "request_survey_result", metadata: { boat_id: boat, verdict: "sound", surveyor_id: surveyor } },
  ];
  const lift = (boat: string, kg: string) => ({ actor: "agent" as const, action: "lift_boat", metadata: { boat_id: boat, weight_kg: kg } });
  const samples = [
    session("dinghy", [...look("B1", "900"), lift("B1", "900")]),
    session("small-yacht", [...look("B2", "6500"), lift("B2", "6500")]),
    session("looked-only", [...look("B3", "12000")]),
    session("two-small", [...look("B4", "3000"), lift("B4", "3000"), ...look("B5", "4200"), lift("B5", "4200")]),
    session("heavy-surveyed", [...look("B6", "26000"), ...survey("B6", "S-4"), lift("B6", "26000")]),
    session("exactly-20000", [...look("B7", "20000"), lift("B7", "20000")]),
    session("heavy-surveyed-by-the-hand", [...look("B8", "31000"), ...survey("B8", "H-1"), lift("B8", "31000")]),
    session("mid-yacht", [...look("B9", "15000"), lift("B9", "15000")]),
  ];
  const rule: MetaBehavior = {
    name: RULE,
    trigger: { description: "The situation arises.", semantic: true },
    checks: [],
    semanticChecks: [{ quote: SECTION.split(".")[0]!, question: "Did the agent follow this?" }],
  };
  const lexicon = buildLexicon(buildVocabulary(samples), samples);

  it("reads the heavy lifts (`weight_kg > 20000`), never the light ones, and the survey by its written verdict", () => {
    const read = readFromWords(lexicon, rule, SECTION, SECTION.split(".")[0]!, samples);
    expect(read).toBeDefined();
    const text = JSON.stringify({ trigger: read!.trigger, checks: read!.checks });
    expect(text).toContain('"weight_kg":{"gt":20000}');
    expect(text).not.toMatch(/"weight_kg":\{"(?:lte|gte|lt)"/);
    expect(text).toContain('"action":"request_survey_result","metadata":{"verdict":"sound"}');
  });
});

describe("a comparison the words state on a key they name is the reading's test, whatever else they share", () => {
  // A rafting desk: "flow level 5 or higher" is `flow_level >= 5` on the gauge's result. Before, the
  // rationale's raft and river names filled the matchers the search tries, the gauge result was not
  // named by its own words ("a gauge reading" names `get_gauge`, not `get_gauge_result`), and a
  // count of five launches was taken for the number.
  const RULE = "When the river rises";
  const SECTION = [
    "Once a gauge reading has put a river at flow level 5 or higher, nothing goes out on that river for the rest of the session: no `launch_raft` and no `launch_kayak` with that `river`, even if a later reading brings the level back down.",
    "",
    "**Why:** last spring the Blue Heron raft went out on the Tamar after a falling reading, and the Tamar rose again within the hour.",
  ].join("\n");
  const gauge = (river: string, level: string) => [
    { actor: "agent" as const, action: "get_gauge", metadata: { river } },
    { actor: "tool" as const, action: "get_gauge_result", metadata: { river, flow_level: level } },
  ];
  const raft = (river: string, name: string) => ({ actor: "agent" as const, action: "launch_raft", metadata: { river, raft: name } });
  const kayak = (river: string) => ({ actor: "agent" as const, action: "launch_kayak", metadata: { river } });
  const samples = [
    session("calm-tamar", [...gauge("tamar", "2"), raft("tamar", "blue-heron")]),
    session("high-tamar-launched", [...gauge("tamar", "6"), raft("tamar", "blue-heron")]),
    session("high-then-falling", [...gauge("dart", "5"), ...gauge("dart", "3"), raft("dart", "osprey")]),
    session("high-elsewhere", [...gauge("exe", "7"), raft("dart", "osprey"), kayak("dart")]),
    session("calm-kayaks", [...gauge("exe", "1"), kayak("exe"), kayak("exe")]),
    session("high-nothing-out", [...gauge("tamar", "5")]),
    session("calm-two-rafts", [...gauge("dart", "3"), raft("dart", "blue-heron"), raft("dart", "osprey")]),
    session("high-kayak", [...gauge("exe", "6"), kayak("exe")]),
  ];
  const rule: MetaBehavior = {
    name: RULE,
    trigger: { description: "The situation arises.", semantic: true },
    checks: [],
    semanticChecks: [{ quote: SECTION.split(":")[0]!, question: "Did the agent follow this?" }],
  };
  const lexicon = buildLexicon(buildVocabulary(samples), samples);

  it("reads a prohibition after `get_gauge_result` with `flow_level >= 5`, not a count of launches", () => {
    const read = readFromWords(lexicon, rule, SECTION, SECTION.split(":")[0]!, samples);
    expect(read).toBeDefined();
    const text = JSON.stringify(read!.checks);
    expect(text).toContain('{"action":"get_gauge_result","metadata":{"flow_level":{"gte":5}}}');
    expect(read!.checks.every((c) => c.type !== "count")).toBe(true);
  });
});
