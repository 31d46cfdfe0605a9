/**
 * Issue 25: rule sentences that combine forms (a threshold in prose with a unit, a value narrowing
 * a forbidden action, a list of values, `on` with `fresh` or `within`, a condition on the latest
 * lookup) become the check they state, without labels. Each case is one sentence and the clause it
 * gives, in a world of its own (a hospital pharmacy's stock desk), unlike the specs measured.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { agentNames, draftOffline } from "../../compiler/generate/offline/draft.js";
import { categorical } from "../../compiler/generate/offline/synthesize-keys.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { MetaBehavior } from "../../compiler/ir/types.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Trajectory } from "../../runtime/types.js";

type Step = [actor: "user" | "agent" | "tool", action: string, metadata?: Record<string, string>];

function session(id: string, steps: Step[]): Trajectory {
  return validateTrajectory({
    id,
    complete: true,
    events: steps.map(([actor, action, metadata], i) => ({
      id: `e${i + 1}`,
      actor,
      action,
      ...(action === "message" ? { content: "ok" } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    })),
  });
}

const world: Trajectory[] = [
  session("s1", [
    ["user", "message"],
    ["agent", "read_probe", { fridge_id: "F1" }],
    ["tool", "read_probe_result", { fridge_id: "F1", temp_c: "4.5" }],
    ["agent", "dispense_stock", { fridge_id: "F1", ward: "Oncology", batch_id: "B1" }],
    ["agent", "set_heater", { celsius: "21" }],
    ["agent", "check_recall", { batch_id: "B1" }],
    ["tool", "check_recall_result", { batch_id: "B1", status: "clear" }],
  ]),
  session("s2", [
    ["user", "message"],
    ["agent", "read_probe", { fridge_id: "F2" }],
    ["tool", "read_probe_result", { fridge_id: "F2", temp_c: "9.1" }],
    ["agent", "lock_fridge", { fridge_id: "F2" }],
    ["tool", "lock_fridge_result", { status: "locked" }],
    ["agent", "page_pharmacist", { fridge_id: "F2" }],
    ["agent", "set_heater", { celsius: "31" }],
    ["agent", "check_recall", { batch_id: "B2" }],
    ["tool", "check_recall_result", { batch_id: "B2", status: "recalled" }],
  ]),
  session("s3", [
    ["user", "message"],
    ["agent", "read_probe", { fridge_id: "F3" }],
    ["tool", "read_probe_result", { fridge_id: "F3", temp_c: "6.0" }],
    ["agent", "dispense_stock", { fridge_id: "F3", ward: "Cardiology", batch_id: "B3" }],
    ["agent", "dispense_stock", { fridge_id: "F3", ward: "Maternity", batch_id: "B4" }],
    ["agent", "write_off", { batch_id: "B3", days_expired: "12" }],
    ["agent", "check_recall", { batch_id: "B4" }],
    ["tool", "check_recall_result", { batch_id: "B4", status: "pending" }],
  ]),
  session("s4", [
    ["user", "message"],
    ["agent", "dispense_stock", { fridge_id: "F4", ward: "Surgery", batch_id: "B5" }],
    ["agent", "check_recall", { batch_id: "B5" }],
    ["tool", "check_recall_result", { batch_id: "B5", status: "recalled" }],
    ["agent", "page_pharmacist", { fridge_id: "F4" }],
  ]),
  session("s5", [
    ["user", "message"],
    ["agent", "check_recall", { batch_id: "B6" }],
    ["tool", "check_recall_result", { batch_id: "B6", status: "clear" }],
    ["agent", "dispense_stock", { fridge_id: "F5", ward: "Surgery", batch_id: "B6" }],
    ["agent", "lock_fridge", { fridge_id: "F5" }],
    ["tool", "lock_fridge_result", { status: "locked" }],
    ["agent", "page_pharmacist", { fridge_id: "F5" }],
  ]),
];
const vocabulary = buildVocabulary(world);

function ruleFor(sentence: string): MetaBehavior {
  const parsed = parseBehaviorMd(`---\nname: pharmacy\ndescription: Stock desk rules.\n---\n\n## Rule\n\n${sentence}\n`);
  if (!parsed.ok) throw new Error("bad test spec");
  return draftOffline({ spec: parsed.spec, vocabulary, samples: world }).ir.metaBehaviors[0]!;
}

const checksOf = (sentence: string) => ruleFor(sentence).checks.map(({ quote: _quote, ...rest }) => rest);

describe("issue 25: thresholds written with a unit", () => {
  it("'above 30 degrees' compares the action's temperature key, and the rule applies where the action occurs", () => {
    const rule = ruleFor("The agent never sets the heater above 30 degrees.");
    expect(rule.checks.map(({ quote: _q, ...rest }) => rest)).toEqual([
      { type: "forbidden", match: [{ action: "set_heater", metadata: { celsius: { gt: 30 } } }] },
    ]);
    expect(rule.trigger.match).toEqual([{ action: "set_heater" }]);
  });

  it("a reading 'above 8 °C' is the call's result, which carries the measurement", () => {
    expect(checksOf("After a probe reading above 8 °C, the agent must lock the fridge.")).toEqual([
      {
        type: "required",
        match: [{ action: "lock_fridge" }],
        after: [{ action: "read_probe_result", metadata: { temp_c: { gt: 8 } } }],
      },
    ]);
  });

  it("'more than 30 days' is a threshold on the key of days, not a count of 30", () => {
    expect(checksOf("The agent never writes off a batch expired more than 30 days.")).toEqual([
      { type: "forbidden", match: [{ action: "write_off", metadata: { days_expired: { gt: 30 } } }] },
    ]);
  });
});

describe("issue 25: clause boundaries", () => {
  it("a 'before' inside the purpose does not keep a sentence's two clauses together", () => {
    const rule = ruleFor(
      "The agent dispenses only from a fridge it has read, and every dispensing is followed by a recall check so that a pharmacist sees it before the ward does.",
    );
    expect(rule.checks.map((c) => c.type)).toContain("pairing");
  });
});

describe("issue 25: lists of values", () => {
  it("a list after a colon is one `in:` on the key whose value it names, every item kept in the key's style", () => {
    const rule = ruleFor("The agent never dispenses stock to the restricted wards: Oncology, Paediatrics and Maternity.");
    expect(rule.checks.map(({ quote: _q, ...rest }) => rest)).toEqual([
      { type: "forbidden", match: [{ action: "dispense_stock", metadata: { ward: { in: ["Oncology", "Paediatrics", "Maternity"] } } }] },
    ]);
    expect(rule.trigger.match).toEqual([{ action: "dispense_stock" }]);
  });

  it("'comes back recalled or pending' is the result with either value, not two alternatives", () => {
    expect(checksOf("After a recall check comes back recalled or pending, the agent must page the pharmacist.")).toEqual([
      {
        type: "required",
        match: [{ action: "page_pharmacist" }],
        after: [{ action: "check_recall_result", metadata: { status: { in: ["recalled", "pending"] } } }],
      },
    ]);
  });
});

describe("issue 25: the same thing across the window and the action", () => {
  it("'that batch' ties a forbidden to its window by the key both carry", () => {
    expect(checksOf("Once a batch is recalled or pending, the agent must not dispense that batch.")).toEqual([
      {
        type: "forbidden",
        match: [{ action: "dispense_stock" }],
        after: [{ action: "check_recall_result", metadata: { status: { in: ["recalled", "pending"] } } }],
        on: "metadata.batch_id",
      },
    ]);
  });

  it("a passive prohibition ('that fridge must not be used for dispensing afterwards') forbids the agent action, tied and windowed", () => {
    expect(checksOf("If a probe reading is above 8 °C, that fridge must not be used for dispensing afterwards.")).toEqual([
      {
        type: "forbidden",
        match: [{ action: "dispense_stock" }],
        after: [{ action: "read_probe_result", metadata: { temp_c: { gt: 8 } } }],
        on: "metadata.fridge_id",
      },
    ]);
  });

  it("a demonstrative whose noun no key on both sides names ties nothing", () => {
    expect(checksOf("Once a batch is recalled, the agent must not dispense stock to that ward.")[0]).not.toHaveProperty("on");
  });
});

describe("issue 25: combined forms", () => {
  it("'within the next two events' on a pairing tied by 'that same fridge'", () => {
    expect(
      checksOf("Every lock of a fridge is followed by a page to the pharmacist for that same fridge within the next two events."),
    ).toEqual([
      {
        type: "pairing",
        each: [{ action: "lock_fridge" }],
        followedBy: [{ action: "page_pharmacist" }],
        on: "metadata.fridge_id",
        within: 2,
      },
    ]);
  });

  it("a condition's required event 'within three events of' it is a pairing of the two with that window", () => {
    expect(checksOf("When a probe reading is above 8 °C, the pharmacist must be paged within three events of the reading.")).toEqual([
      {
        type: "pairing",
        each: [{ action: "read_probe_result", metadata: { temp_c: { gt: 8 } } }],
        followedBy: [{ action: "page_pharmacist" }],
        within: 3,
      },
    ]);
  });

  it("a clause asking for a fresh one makes the ordering before it fresh and tied, its quote over both", () => {
    const sentence =
      "Stock is dispensed from a fridge only after its probe has been read, and the reading has to be a fresh one: a reading taken before an earlier dispensing from that same fridge does not count";
    const rule = ruleFor(`${sentence}.`);
    expect(rule.checks).toEqual([
      {
        type: "ordering",
        quote: sentence,
        first: [{ action: "read_probe" }],
        before: [{ action: "dispense_stock" }],
        on: "metadata.fridge_id",
        fresh: true,
      },
    ]);
  });

  it("'is preceded by … of the same fridge' is an ordering, the 'by' side first", () => {
    expect(checksOf("Every dispensing is preceded by a probe reading of the same fridge.")).toEqual([
      { type: "ordering", first: [{ action: "read_probe" }], before: [{ action: "dispense_stock" }], on: "metadata.fridge_id" },
    ]);
  });

  it("'only if the latest … shows it as clear' is a condition on the latest earlier result, tied by the id both carry", () => {
    const rule = ruleFor("Stock may be dispensed only if the latest recall check for that batch shows it as clear.");
    expect(rule.checks.map(({ quote: _q, ...rest }) => rest)).toEqual([
      {
        type: "condition",
        each: [{ action: "dispense_stock" }],
        with: { r: { latest: [{ action: "check_recall_result" }], on: "metadata.batch_id" } },
        when: 'r.status == "clear"',
      },
    ]);
    expect(rule.trigger.match).toEqual([{ action: "dispense_stock" }]);
  });
});

describe("issue 25: prohibitions as policies write them", () => {
  it("'No session should include more than two …, whatever …' bounds a count", () => {
    expect(checksOf("No session should include more than two heater settings, whatever the probe says.")).toEqual([
      { type: "count", match: [{ action: "set_heater" }], max: 2 },
    ]);
  });

  it("'… and stops there: it must not …, no matter what …' is a required and a forbidden in the same window", () => {
    const window = [{ action: "check_recall_result", metadata: { status: "recalled" } }];
    expect(
      checksOf(
        "After a recall check comes back recalled, the agent pages the pharmacist and stops there: it must not dispense stock, no matter what the ward says.",
      ),
    ).toEqual([
      { type: "required", match: [{ action: "page_pharmacist" }], after: window },
      { type: "forbidden", match: [{ action: "dispense_stock" }], after: window },
    ]);
  });
});

describe("issue 25: a later clause with a condition of its own", () => {
  it("'…; and once X, Y is done with `action`' is read as its own sentence, quoted as written", () => {
    const rule = ruleFor("The desk keeps a paper log; and once stock is dispensed, the fridge is locked with `lock_fridge`.");
    expect(rule.checks).toEqual([
      {
        type: "required",
        quote: "once stock is dispensed, the fridge is locked with `lock_fridge`",
        match: [{ action: "lock_fridge" }],
        after: [{ action: "dispense_stock" }],
      },
    ]);
  });
});

describe("issue 25: the end of the session is no second event", () => {
  it("'…, and the fridge is locked again before the session ends' splits off and pairs with the condition's event", () => {
    const rule = ruleFor("Every time stock is dispensed, the desk is told, and the fridge is locked again before the session ends.");
    expect(rule.checks.map(({ quote: _q, ...rest }) => rest)).toEqual([
      { type: "pairing", each: [{ action: "dispense_stock" }], followedBy: [{ action: "lock_fridge" }] },
    ]);
  });
});

describe("issue 25: the search from labels reaches the combined forms", () => {
  it("labels that a second dispensing on one reading breaks the rule give a fresh ordering tied by the fridge", () => {
    const parsed = parseBehaviorMd(
      "---\nname: pharmacy\ndescription: Stock desk rules.\n---\n\n## Rule\n\nStock is dispensed from a fridge only after a probe reading of that same fridge.\n",
    );
    if (!parsed.ok) throw new Error("bad test spec");
    // Two sessions that dispense twice on one reading, both labeled broken: each predicts the
    // other (one such label alone does not move the draft, synthesize.ts heldOut).
    const s3 = world.find((s) => s.id === "s3")!;
    const again = validateTrajectory({
      ...s3,
      id: "s3b",
      events: s3.events.map((e) => (e.metadata?.fridge_id === "F3" ? { ...e, metadata: { ...e.metadata, fridge_id: "F6" } } : e)),
    });
    const samples = [...world, again];
    const labels = { s1: { Rule: "true" }, s3: { Rule: "false" }, s3b: { Rule: "false" }, s4: { Rule: "false" } } as const;
    const run = () => draftOffline({ spec: parsed.spec, vocabulary: buildVocabulary(samples), samples, labels });
    const rule = run().ir.metaBehaviors[0]!;
    const ordering = rule.checks.find((c) => c.type === "ordering");
    expect(ordering).toMatchObject({ fresh: true, on: "metadata.fridge_id" });
    expect(JSON.stringify(run())).toBe(JSON.stringify(run()));
  });
});

describe("issue 25: the agent's own name", () => {
  it("a proper name that opens the preamble and that the description names is the agent, without 'for'", () => {
    expect(
      agentNames({
        description: "What Juniper, the recruiting assistant, must and must not do.",
        preamble: "Juniper works for the recruiting team. It books interviews.",
      }),
    ).toEqual(["Juniper"]);
    expect(agentNames({ description: "What the assistant must do.", preamble: "The assistant works for the team." })).toEqual([]);
    expect(agentNames({ description: "Rules for the desk.", preamble: "Juniper works for the recruiting team." })).toEqual([]);
  });
});

describe("issue 25: the search from labels speaks of categories, not references", () => {
  it("does not match on ids, URLs, citations or free text, which a few samples also show with few values", () => {
    expect(categorical("url", ["https://www.irs.gov/pub/a.pdf", "https://www.irs.gov/pub/b.pdf"])).toBe(false);
    expect(categorical("citation", ["Rev. Proc. 2024-25", "Notice 2024-80"])).toBe(false);
    expect(categorical("batch_id", ["B1", "B2"])).toBe(false);
    expect(categorical("note", ["the customer asked twice for it", "ok"])).toBe(false);
    expect(categorical("status", ["clear", "recalled", "pending"])).toBe(true);
    expect(categorical("ward", ["Oncology", "Surgery"])).toBe(true);
  });
});
