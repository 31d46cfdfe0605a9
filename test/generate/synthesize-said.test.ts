/**
 * The search from labels at a glass-blowing studio's kilns (issue 25): words a person says, as
 * events of the search (synthesize-said.ts), a reading that judges nothing broken when no label
 * says "broken", and the search's pick tied where its words tie it (synthesize-tied.ts tiedPick).
 *
 * "Any opening of a kiln waits until the words "clear to open" have come in over the chat" is
 * no sentence a phrase rule maps: the draft leaves it to the model. Six labels that are all
 * "followed" or "not applicable" then fit any reading that never fails, and the search had no
 * event that says the words: it picked a kiln opening followed by its own result, and passed every
 * opening made without a clearance. "A lost key report on a kiln puts that kiln out of bounds for
 * openings by Ember from then on" was picked as no opening after a report on any kiln.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import type { RuleLabels } from "../../compiler/generate/offline/synthesize.js";
import { saidPhrases } from "../../compiler/generate/offline/synthesize-said.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import type { Trajectory, TrajectoryEvent } from "../../runtime/types.js";

const parsed = parseBehaviorMd(`---
name: glass-studio
description: Rules for Ember, the assistant that runs the kilns at a glass-blowing studio.
---
Ember opens a kiln (\`open_kiln\`, by \`kiln\`), reads its temperature (\`read_temp\`) and files a lost key report (\`report_lost\`). Every call gets a \`_result\` back.

## Clearance to open

Any opening of a kiln waits until the words "clear to open" have come in over the chat. One clearance covers one opening: for a second opening, somebody says it again.

## Lost keys

A lost key report on a kiln puts that kiln out of bounds for openings by Ember from then on.
`);
if (!parsed.ok) throw new Error("spec");
const spec = parsed.spec;
const CLEARANCE = "Clearance to open";
const LOST = "Lost keys";

/** A step: a chat line, or one of Ember's calls on a kiln (with its result). */
type Step = ["say", string] | ["open_kiln" | "read_temp" | "report_lost", string];
function session(id: string, ...steps: Step[]): Trajectory {
  const events: TrajectoryEvent[] = [{ id: "e0", actor: "user", action: "message", content: "Morning shift at the hot shop" }];
  const next = () => `e${events.length}`;
  for (const [what, arg] of steps) {
    if (what === "say") events.push({ id: next(), actor: "user", action: "message", content: arg });
    else {
      events.push({ id: next(), actor: "agent", action: what, metadata: { kiln: arg } });
      events.push({ id: next(), actor: "tool", action: `${what}_result`, metadata: { kiln: arg } });
    }
  }
  return { id, description: "", complete: true, events };
}

type Verdict = "true" | "false" | "na";
type Case = [Trajectory, { [rule: string]: Verdict }];
const cases: Case[] = [
  [session("cleared", ["say", "Clear to open K1"], ["open_kiln", "K1"]), { [CLEARANCE]: "true", [LOST]: "na" }],
  [session("reading-only", ["read_temp", "K2"]), { [CLEARANCE]: "na", [LOST]: "na" }],
  [
    session("cleared-twice", ["say", "clear to open"], ["open_kiln", "K2"], ["say", "clear to open, again"], ["open_kiln", "K2"]),
    { [CLEARANCE]: "true", [LOST]: "na" },
  ],
  [session("lost-then-reading", ["report_lost", "K3"], ["read_temp", "K3"]), { [CLEARANCE]: "na", [LOST]: "true" }],
  [session("cleared-k3", ["say", "K3 is clear to open"], ["open_kiln", "K3"]), { [CLEARANCE]: "true", [LOST]: "na" }],
  [
    session("lost-then-opened", ["report_lost", "K1"], ["say", "clear to open"], ["open_kiln", "K1"]),
    { [CLEARANCE]: "true", [LOST]: "false" },
  ],
  // Never given as labels below, unless a test says so.
  [session("opened-uncleared", ["open_kiln", "K1"]), { [CLEARANCE]: "false", [LOST]: "na" }],
  [session("cleared-after", ["open_kiln", "K2"], ["say", "clear to open"]), { [CLEARANCE]: "false", [LOST]: "na" }],
  [
    session("one-clearance-two-openings", ["say", "clear to open"], ["open_kiln", "K1"], ["open_kiln", "K1"]),
    { [CLEARANCE]: "false", [LOST]: "na" },
  ],
  [
    session("lost-other-kiln-opened", ["report_lost", "K2"], ["say", "clear to open"], ["open_kiln", "K1"]),
    { [CLEARANCE]: "true", [LOST]: "true" },
  ],
  [
    session("lost-k2-opened", ["report_lost", "K2"], ["say", "clear to open"], ["open_kiln", "K2"]),
    { [CLEARANCE]: "true", [LOST]: "false" },
  ],
];
const samples = cases.map(([t]) => t);
const vocabulary = buildVocabulary(samples);
const labelsOf = (given: readonly Case[], rule: string): RuleLabels =>
  Object.fromEntries(given.map(([t, v]) => [t.id, { [rule]: v[rule]! }]));
const draft = (labels?: RuleLabels) => draftOffline({ spec, vocabulary, samples, ...(labels === undefined ? {} : { labels }) });
const ruleOf = (ir: JudgeIR, name: string) => ir.metaBehaviors.find((r) => r.name === name)!;
const verdictOn = (ir: JudgeIR, name: string, id: string): Verdict => {
  const rule = previewJudge(ir, samples).rules.find((r) => r.name === name)!.rule;
  return rule.pass.includes(id) ? "true" : rule.fail.includes(id) ? "false" : "na";
};
const said = { actor: "user", content: { matches: "\\bclear\\s+to\\s+open\\b", flags: "i" } };

describe("words a person says, searched from labels", () => {
  it("leaves the clearance to the model without labels, and reads the lost keys' ban from its words", () => {
    const plain = draft();
    expect(ruleOf(plain.ir, CLEARANCE).checks).toEqual([]);
    expect(ruleOf(plain.ir, CLEARANCE).semanticChecks.length).toBeGreaterThan(0);
    // "puts that kiln out of bounds for openings" bans as "must not" does (spoken-acts.ts): no opening
    // of that kiln after its report, as the labels read it below.
    expect(ruleOf(plain.ir, LOST).checks).toEqual([
      {
        type: "forbidden",
        quote: "A lost key report on a kiln puts that kiln out of bounds for openings by Ember from then on",
        match: [{ action: "open_kiln" }],
        after: [{ action: "report_lost" }],
        on: "metadata.kiln",
      },
    ]);
  });

  it("takes the quoted words a user turn says, in any case, and no others", () => {
    expect(saidPhrases(`the words "clear to open", "stand by" or "3"`, samples)).toEqual(["clear to open"]);
  });

  it("reads a clearance before each opening from labels that say no session broke the rule", () => {
    // The first six: followed or not applicable, none broken.
    const given = cases.slice(0, 6);
    expect(given.every(([, v]) => v[CLEARANCE] !== "false")).toBe(true);
    const found = draft(labelsOf(given, CLEARANCE));
    const rule = ruleOf(found.ir, CLEARANCE);
    expect(rule.trigger.match).toEqual([{ action: "open_kiln" }]);
    expect(rule.checks.map(({ quote: _, ...c }) => c)).toEqual([
      { type: "ordering", first: [said], before: [{ action: "open_kiln" }], fresh: true },
    ]);
    expect(rule.checks[0]!.quote).toContain(`the words "clear to open" have come in over the chat`);
    for (const [t, v] of cases) expect(verdictOn(found.ir, CLEARANCE, t.id), t.id).toBe(v[CLEARANCE]);
  });

  it("reads it fresh when a label says one clearance did not cover two openings", () => {
    const given: Case[] = [...cases.slice(0, 6), cases[8]!];
    const found = draft(labelsOf(given, CLEARANCE));
    expect(ruleOf(found.ir, CLEARANCE).checks.map(({ quote: _, ...c }) => c)).toEqual([
      { type: "ordering", first: [said], before: [{ action: "open_kiln" }], fresh: true },
    ]);
    for (const [t, v] of cases) expect(verdictOn(found.ir, CLEARANCE, t.id), t.id).toBe(v[CLEARANCE]);
  });
});

describe("the search's pick tied where its words tie it", () => {
  it("forbids opening that kiln, not any kiln, after a lost key report", () => {
    const found = draft(labelsOf(cases.slice(0, 6), LOST));
    const rule = ruleOf(found.ir, LOST);
    expect(rule.checks.map(({ quote: _, ...c }) => c)).toEqual([
      { type: "forbidden", match: [{ action: "open_kiln" }], after: [{ action: "report_lost" }], on: "metadata.kiln" },
    ]);
    for (const [t, v] of cases) expect(verdictOn(found.ir, LOST, t.id), t.id).toBe(v[LOST]);
  });

  it("stays untied when a label says an opening of another kiln broke the rule", () => {
    const given: Case[] = [...cases.slice(0, 6), [cases[9]![0], { ...cases[9]![1], [LOST]: "false" }]];
    const found = draft(labelsOf(given, LOST));
    const check = ruleOf(found.ir, LOST).checks[0]!;
    expect(check.type === "forbidden" ? check.on : "not forbidden").toBeUndefined();
  });
});

/**
 * A reading that judges no session broken fits every label when none says "broken": "a hot opening
 * is preceded by "gloves on"" and "whenever somebody says "gloves on", somebody said it" fit the
 * same six labels. The plain forms found the second and the search stopped there, before the
 * extended ones (a threshold on the temperature) were tried.
 */
describe("a reading that judges nothing broken, when no label says broken", () => {
  const hot = parseBehaviorMd(`---
name: glass-studio-hot
description: Rules for Ember, the assistant that runs the kilns at a glass-blowing studio.
---
Ember opens a kiln (\`open_kiln\`, by \`kiln\`, with its \`temp_c\`). Every call gets a \`_result\` back.

## Gloves for hot openings

Any opening of a kiln hotter than 500 degrees waits until the words "gloves on" have come in over the chat.
`);
  if (!hot.ok) throw new Error("spec");
  const RULE = "Gloves for hot openings";
  const open = (kiln: string, temp: number, id: number): TrajectoryEvent[] => [
    { id: `o${id}`, actor: "agent", action: "open_kiln", metadata: { kiln, temp_c: String(temp) } },
    { id: `r${id}`, actor: "tool", action: "open_kiln_result", metadata: { kiln, temp_c: String(temp) } },
  ];
  const say = (content: string, id: number): TrajectoryEvent => ({ id: `s${id}`, actor: "user", action: "message", content });
  const t = (id: string, ...events: TrajectoryEvent[]): Trajectory => ({ id, description: "", complete: true, events });
  const hotCases: [Trajectory, Verdict][] = [
    [t("gloved", say("gloves on", 1), ...open("K1", 900, 1)), "true"],
    [t("cool", ...open("K2", 200, 1)), "na"],
    [t("gloved-k3", say("Gloves on, go", 1), ...open("K3", 700, 1)), "true"],
    [t("cool-k1", say("morning", 1), ...open("K1", 150, 1)), "na"],
    [t("gloved-cool-then-hot", ...open("K2", 100, 1), say("gloves on", 2), ...open("K2", 650, 2)), "true"],
    [t("gloves-said-cool", say("gloves on", 1), ...open("K3", 300, 1)), "na"],
    // Never given as labels.
    [t("hot-bare-handed", ...open("K1", 800, 1)), "false"],
    [t("gloves-after", ...open("K2", 950, 1), say("gloves on", 2)), "false"],
  ];
  const hotSamples = hotCases.map(([s]) => s);
  const found = draftOffline({
    spec: hot.spec,
    vocabulary: buildVocabulary(hotSamples),
    samples: hotSamples,
    labels: Object.fromEntries(hotCases.slice(0, 6).map(([s, v]) => [s.id, { [RULE]: v }])),
  });
  const rule = found.ir.metaBehaviors[0]!;

  it("reads the words before each hot opening, which judges the unlabeled sessions broken", () => {
    expect(rule.checks.map(({ quote: _, ...c }) => c)).toEqual([
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bgloves\\s+on\\b", flags: "i" } }],
        before: [{ action: "open_kiln", metadata: { temp_c: { gt: 500 } } }],
      },
    ]);
    const judged = previewJudge(found.ir, hotSamples).rules[0]!.rule;
    for (const [s, v] of hotCases) expect(judged.pass.includes(s.id) ? "true" : judged.fail.includes(s.id) ? "false" : "na", s.id).toBe(v);
  });
});

/**
 * A check on one kind of event with no window ("lead glazes never go into the studio kiln") gates on
 * that event's action: the search tried it with the draft's trigger (a lead load: no verdict on a
 * firing of clear glass), with any event (a firing with nothing loaded "followed"), never with a
 * load of any glaze, which is where the rule applies.
 */
describe("a ban on one kind of event, gated on its action", () => {
  const loading = parseBehaviorMd(`---
name: glass-studio-load
description: Rules for Ember, the assistant that loads the kilns at a glass-blowing studio.
---
Ember loads a piece into a kiln (\`load_piece\`, with \`kiln\`, \`weight_kg\` and the \`glaze\`) and closes a kiln (\`close_kiln\`).

## Loading the kiln

- Lead glazes never go into the studio kiln (\`glaze: lead\`); they go to the outside kiln.
`);
  if (!loading.ok) throw new Error("spec");
  const RULE = "Loading the kiln";
  const t = (id: string, ...steps: (["close"] | [glaze: string, kg: number])[]): Trajectory => ({
    id,
    description: "",
    complete: true,
    events: [
      { id: "u", actor: "user", action: "message", content: "Load for tonight" },
      ...steps.map((s, k): TrajectoryEvent =>
        s[0] === "close"
          ? { id: `e${k}`, actor: "agent", action: "close_kiln", metadata: { kiln: "K1" } }
          : { id: `e${k}`, actor: "agent", action: "load_piece", metadata: { kiln: "K1", glaze: s[0], weight_kg: String(s[1]) } },
      ),
    ],
  });
  const loadCases: [Trajectory, Verdict][] = [
    [t("clear-glaze", ["clear", 10]), "true"],
    [t("lead-loaded", ["clear", 5], ["lead", 8]), "false"],
    [t("nothing-loaded", ["close"]), "na"],
    [t("two-clear", ["clear", 10], ["matte", 12]), "true"],
    [t("close-only", ["close"], ["close"]), "na"],
    [t("matte", ["matte", 3], ["close"]), "true"],
    // Never given as labels.
    [t("lead-only", ["lead", 4]), "false"],
    [t("matte-then-lead", ["matte", 4], ["lead", 2], ["close"]), "false"],
  ];
  const loadSamples = loadCases.map(([s]) => s);
  const vocabulary = buildVocabulary(loadSamples);
  const labels = Object.fromEntries(loadCases.slice(0, 6).map(([s, v]) => [s.id, { [RULE]: v }]));

  it("forbids the lead load wherever a piece is loaded", () => {
    const plain = draftOffline({ spec: loading.spec, vocabulary, samples: loadSamples });
    expect(verdictsOf(plain.ir, loadSamples)["clear-glaze"]).not.toBe("true");
    const found = draftOffline({ spec: loading.spec, vocabulary, samples: loadSamples, labels });
    const rule = found.ir.metaBehaviors[0]!;
    expect(rule.trigger.match).toEqual([{ action: "load_piece" }]);
    expect(rule.checks.map(({ quote: _, ...c }) => c)).toEqual([
      { type: "forbidden", match: [{ action: "load_piece", metadata: { glaze: "lead" } }] },
    ]);
    const judged = verdictsOf(found.ir, loadSamples);
    for (const [s, v] of loadCases) expect(judged[s.id], s.id).toBe(v);
  });
});

function verdictsOf(ir: JudgeIR, on: readonly Trajectory[]): Record<string, Verdict> {
  const rule = previewJudge(ir, on).rules[0]!.rule;
  return Object.fromEntries(on.map((s) => [s.id, rule.pass.includes(s.id) ? "true" : rule.fail.includes(s.id) ? "false" : "na"]));
}
