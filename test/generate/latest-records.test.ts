/**
 * Issue 25, no labels: an act allowed only when the latest look-up of the same thing shows given
 * values, and an act forbidden for good once an event has happened to that thing, whatever a later
 * look-up shows (blind15's writ-enforcement and tattoo-studio), in worlds of their own: a gliding
 * club's launch desk under a court-order voice, a dog daycare's release notes, a crop-spraying
 * runbook, a climbing gym's house rules. The look-up "records / lists / comes back with" any number
 * of values: "the glider as serviceable", "the logbook as not overdue", "a current vaccine"
 * (`vaccine_current`, its name's words in either order), "no hives", "10 or more hours left", "a wind
 * of 15.5 or under", "status: active"; of two keys that hold the value, the
 * one the words name, else the thing's own `status`. A bare "look-up" or "check" is the call named as
 * one (`check_glider`, `scan_tag`); "will no longer", "won't", "may no longer" ban the act after the
 * event (compiler/generate/offline/latest.ts, looked.ts, worded.ts, voice-asides.ts).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { bannedAfter, draftOf, onLatest, session } from "../support/offline-drafts.js";

type World = { name: string; description: string; preamble: string; samples: Trajectory[] };

const drafted = (world: World, body: string) => {
  const draft = draftOf(world.preamble, body, world.samples, world.name, world.description);
  const rule = draft.ir.metaBehaviors[0]!;
  const verdicts = previewJudge(draft.ir, world.samples).rules[0]!.rule;
  return {
    checks: rule.checks.map(({ quote: _q, ...c }) => c),
    questions: rule.semanticChecks.length,
    pass: verdicts.pass,
    fail: verdicts.fail,
  };
};

const gliders: World = {
  name: "glider-club",
  description: "Order binding the launch desk assistant of a gliding club.",
  preamble:
    "The assistant looks gliders up with check_glider (by `glider_id`; the result gives its `status`, serviceable or " +
    "unserviceable, whether its logbook is `overdue`, yes or no, and its `hours_left` to the next service), launches a " +
    "glider with `launch_glider` (`glider_id`, `pilot`) and grounds one with `ground_glider` (`glider_id`).",
  samples: [
    // s1: serviceable, logbook up to date, 12 hours left.
    session(
      ["agent", "check_glider", { glider_id: "G1" }],
      ["tool", "check_glider_result", { glider_id: "G1", status: "serviceable", overdue: "no", hours_left: "12" }],
      ["agent", "launch_glider", { glider_id: "G1", pilot: "Ana" }],
    ),
    // s2: the logbook is overdue.
    session(
      ["agent", "check_glider", { glider_id: "G2" }],
      ["tool", "check_glider_result", { glider_id: "G2", status: "serviceable", overdue: "yes", hours_left: "30" }],
      ["agent", "launch_glider", { glider_id: "G2", pilot: "Bo" }],
    ),
    // s3: G3's own look-up says unserviceable; the clean one is of another glider.
    session(
      ["agent", "check_glider", { glider_id: "G3" }],
      ["tool", "check_glider_result", { glider_id: "G3", status: "unserviceable", overdue: "no", hours_left: "40" }],
      ["agent", "check_glider", { glider_id: "G4" }],
      ["tool", "check_glider_result", { glider_id: "G4", status: "serviceable", overdue: "no", hours_left: "40" }],
      ["agent", "launch_glider", { glider_id: "G3", pilot: "Cy" }],
    ),
    // s4: 8 hours left; grounded, a clean look-up after it, then launched.
    session(
      ["agent", "check_glider", { glider_id: "G5" }],
      ["tool", "check_glider_result", { glider_id: "G5", status: "serviceable", overdue: "no", hours_left: "8" }],
      ["agent", "ground_glider", { glider_id: "G5" }],
      ["agent", "check_glider", { glider_id: "G5" }],
      ["tool", "check_glider_result", { glider_id: "G5", status: "serviceable", overdue: "no", hours_left: "10" }],
      ["agent", "launch_glider", { glider_id: "G5", pilot: "Di" }],
    ),
  ],
};

const dogs: World = {
  name: "dog-daycare",
  description: "Release notes of the check-in assistant at a chain of dog daycares.",
  preamble:
    "Glossary: the collar tag scan is `scan_tag` (by `dog_id`; the result gives `vaccine_current`, yes or no, `bite_flag`, " +
    "yes or no, and the dog's `weight_kg`). A dog is let in with admit_dog (`dog_id`, `room`) and barred with `bar_dog` " +
    "(`dog_id`, `reason`).",
  samples: [
    // s5: clean, 30 kg.
    session(
      ["agent", "scan_tag", { dog_id: "D1" }],
      ["tool", "scan_tag_result", { dog_id: "D1", vaccine_current: "yes", bite_flag: "no", weight_kg: "30" }],
      ["agent", "admit_dog", { dog_id: "D1", room: "big" }],
    ),
    // s6: a bite flag.
    session(
      ["agent", "scan_tag", { dog_id: "D2" }],
      ["tool", "scan_tag_result", { dog_id: "D2", vaccine_current: "yes", bite_flag: "yes", weight_kg: "12" }],
      ["agent", "admit_dog", { dog_id: "D2", room: "small" }],
    ),
    // s7: clean, 45 kg.
    session(
      ["agent", "scan_tag", { dog_id: "D3" }],
      ["tool", "scan_tag_result", { dog_id: "D3", vaccine_current: "yes", bite_flag: "no", weight_kg: "45" }],
      ["agent", "admit_dog", { dog_id: "D3", room: "big" }],
    ),
    // s8: the vaccine lapsed at first; barred, then a clean scan, then let in.
    session(
      ["agent", "scan_tag", { dog_id: "D4" }],
      ["tool", "scan_tag_result", { dog_id: "D4", vaccine_current: "no", bite_flag: "no", weight_kg: "20" }],
      ["agent", "bar_dog", { dog_id: "D4", reason: "papers" }],
      ["agent", "scan_tag", { dog_id: "D4" }],
      ["tool", "scan_tag_result", { dog_id: "D4", vaccine_current: "yes", bite_flag: "no", weight_kg: "20" }],
      ["agent", "admit_dog", { dog_id: "D4", room: "big" }],
    ),
    // s9: another dog barred; this one let in.
    session(
      ["agent", "bar_dog", { dog_id: "D9", reason: "bite" }],
      ["agent", "scan_tag", { dog_id: "D5" }],
      ["tool", "scan_tag_result", { dog_id: "D5", vaccine_current: "yes", bite_flag: "no", weight_kg: "20" }],
      ["agent", "admit_dog", { dog_id: "D5", room: "big" }],
    ),
  ],
};

const fields: World = {
  name: "crop-spraying",
  description: "Runbook for the assistant that books spray runs for a crop-spraying contractor.",
  preamble:
    "Tools: survey_field (by `field_id`; the result has `wind_kmh`, `hives` (yes or no) and the `crop_stage`: seedling, " +
    "flowering or mature), `spray_field` (`field_id`, `product`) and `mark_organic` (`field_id`).",
  samples: [
    // s10: 15 km/h, no hives, mature.
    session(
      ["agent", "survey_field", { field_id: "F1" }],
      ["tool", "survey_field_result", { field_id: "F1", wind_kmh: "15", hives: "no", crop_stage: "mature" }],
      ["agent", "spray_field", { field_id: "F1", product: "P1" }],
    ),
    // s11: hives.
    session(
      ["agent", "survey_field", { field_id: "F2" }],
      ["tool", "survey_field_result", { field_id: "F2", wind_kmh: "5", hives: "yes", crop_stage: "seedling" }],
      ["agent", "spray_field", { field_id: "F2", product: "P1" }],
    ),
    // s12: 18 km/h, flowering.
    session(
      ["agent", "survey_field", { field_id: "F3" }],
      ["tool", "survey_field_result", { field_id: "F3", wind_kmh: "18", hives: "no", crop_stage: "flowering" }],
      ["agent", "spray_field", { field_id: "F3", product: "P2" }],
    ),
    // s13: marked organic, a clean survey after it, then sprayed.
    session(
      ["agent", "mark_organic", { field_id: "F4" }],
      ["agent", "survey_field", { field_id: "F4" }],
      ["tool", "survey_field_result", { field_id: "F4", wind_kmh: "4", hives: "no", crop_stage: "mature" }],
      ["agent", "spray_field", { field_id: "F4", product: "P2" }],
    ),
  ],
};

const climbers: World = {
  name: "climbing-gym",
  description: "House rules for the front-desk assistant of a climbing gym.",
  preamble:
    "The assistant looks members up with `lookup_member` (by `member_id`; the result gives `status` (active or " +
    "suspended), `wall_pass` (active or expired), `belay_cert` (valid or expired), `id_check` (valid or invalid), `waiver` " +
    "(signed or unsigned) and `age`) and hands out harnesses with `issue_harness` (`member_id`).",
  samples: (
    [
      // s14: all in order; s15: suspended; s16: belay cert expired, aged 15; s17: ID check invalid, waiver unsigned.
      ["M1", "active", "valid", "valid", "signed", "30"],
      ["M2", "suspended", "valid", "valid", "signed", "16"],
      ["M3", "active", "expired", "valid", "signed", "15"],
      ["M4", "active", "valid", "invalid", "unsigned", "40"],
    ] as const
  ).map(([member_id, status, belay_cert, id_check, waiver, age]) =>
    session(
      ["agent", "lookup_member", { member_id }],
      ["tool", "lookup_member_result", { member_id, status, wall_pass: "active", belay_cert, id_check, waiver, age }],
      ["agent", "issue_harness", { member_id }],
    ),
  ),
};

describe("what the latest look-up of the same thing records", () => {
  it("reads 'shall not launch … save where the most recent look-up of that same glider records the glider as serviceable and the logbook as not overdue'", () => {
    const body =
      "The club's duty officers shall not launch any glider save where the most recent look-up of that same glider records the glider as serviceable and the logbook as not overdue.";
    expect(drafted(gliders, body)).toEqual({
      checks: [onLatest("launch_glider", "check_glider_result", "glider_id", 'r.status == "serviceable" && r.overdue == "no"')],
      questions: 0,
      // s3: the serviceable look-up is of another glider.
      pass: ["s1", "s4"],
      fail: ["s2", "s3"],
    });
  });

  it("reads three values, the last a number: '…, the logbook as not overdue and 10 or more hours left'", () => {
    const body =
      "The club's duty officers shall not launch any glider save where the most recent look-up of that same glider records the glider as serviceable, the logbook as not overdue and 10 or more hours left.";
    expect(drafted(gliders, body).checks).toEqual([
      onLatest("launch_glider", "check_glider_result", "glider_id", 'r.status == "serviceable" && r.overdue == "no" && r.hours_left >= 10'),
    ]);
  });

  it("reads 'refuses to admit a dog unless the latest tag scan of that same dog shows a current vaccine, no bite flag and a weight of 40 kg or under'", () => {
    const body =
      "New in 2.3: the assistant now refuses to admit a dog unless the latest tag scan of that same dog shows a current vaccine, no bite flag and a weight of 40 kg or under.";
    expect(drafted(dogs, body)).toEqual({
      checks: [
        onLatest("admit_dog", "scan_tag_result", "dog_id", 'r.vaccine_current == "yes" && r.bite_flag == "no" && r.weight_kg <= 40'),
      ],
      questions: 0,
      pass: ["s5", "s8", "s9"],
      fail: ["s6", "s7"],
    });
  });

  it("reads 'lists no hives and a wind under 20' and 'comes back with a wind of 15 or under, no hives and the crop as not flowering'", () => {
    expect(drafted(fields, "Do not spray a field unless the last survey of that same field lists no hives and a wind under 20.")).toEqual({
      checks: [onLatest("spray_field", "survey_field_result", "field_id", 'r.hives == "no" && r.wind_kmh < 20')],
      questions: 0,
      pass: ["s10", "s12", "s13"],
      fail: ["s11"],
    });
    const body =
      "Never spray a field unless the last survey of that field comes back with a wind of 15 or under, no hives and the crop as not flowering.";
    expect(drafted(fields, body).checks).toEqual([
      onLatest("spray_field", "survey_field_result", "field_id", 'r.wind_kmh <= 15 && r.hives == "no" && r.crop_stage != "flowering"'),
    ]);
  });
});

describe("which key a value is of, and how a value is written", () => {
  it("reads 'records the member as active and the belay cert as valid': the key named, else the thing's own status", () => {
    const body =
      "The assistant shall not issue a harness to a member save where the most recent look-up of that same member records the member as active and the belay cert as valid.";
    expect(drafted(climbers, body)).toEqual({
      // "active" is a value of `wall_pass` too, "valid" one of `id_check` too.
      checks: [onLatest("issue_harness", "lookup_member_result", "member_id", 'r.status == "active" && r.belay_cert == "valid"')],
      questions: 0,
      pass: ["s14", "s17"],
      fail: ["s15", "s16"],
    });
  });

  it("reads 'shows status: active and waiver: signed' written without backticks", () => {
    const body = "The assistant issues a harness only if the latest lookup of that member shows status: active and waiver: signed.";
    expect(drafted(climbers, body).checks).toEqual([
      onLatest("issue_harness", "lookup_member_result", "member_id", 'r.status == "active" && r.waiver == "signed"'),
    ]);
  });

  it("reads 'a wind of 15.5 or under': the point of a number ends no sentence", () => {
    const body = "Do not spray a field unless the last survey of that same field lists no hives and a wind of 15.5 or under.";
    expect(drafted(fields, body).checks).toEqual([
      onLatest("spray_field", "survey_field_result", "field_id", 'r.hives == "no" && r.wind_kmh <= 15.5'),
    ]);
  });

  it("reads 'the latest check of that dog says …' as the scan, the one call named as a look-up", () => {
    const body =
      "The assistant will not admit a dog unless the latest check of that dog says the dog has a current vaccine and no bite flag.";
    expect(drafted(dogs, body).checks).toEqual([
      onLatest("admit_dog", "scan_tag_result", "dog_id", 'r.vaccine_current == "yes" && r.bite_flag == "no"'),
    ]);
  });
});

describe("an act banned for good once an event has happened to the same thing", () => {
  it("reads 'once a glider has been grounded, the assistant will no longer launch that same glider, whatever a later look-up shows'", () => {
    const body = "Once a glider has been grounded, the assistant will no longer launch that same glider, whatever a later look-up shows.";
    expect(drafted(gliders, body)).toEqual({
      checks: [bannedAfter("launch_glider", "ground_glider", "glider_id")],
      questions: 0,
      pass: [],
      fail: ["s4"],
    });
  });

  it.each([
    "Also new in 2.3: once a dog has been barred, the assistant won't admit that same dog again, even if a later tag scan clears it.",
    "Once a dog has been barred, the assistant won't admit that same dog again, whatever a later tag scan says.",
    "The assistant won't admit a dog once that dog has been barred, whatever a later tag scan says.",
  ])("reads %j", (body) => {
    // s9: the dog barred is another one.
    expect(drafted(dogs, body)).toEqual({
      checks: [bannedAfter("admit_dog", "bar_dog", "dog_id")],
      questions: 0,
      pass: ["s9"],
      fail: ["s8"],
    });
  });

  it("reads 'the assistant may no longer spray that same field, from then on, even if a later survey clears it'", () => {
    const body =
      "Once a field has been marked organic, the assistant may no longer spray that same field, from then on, even if a later survey clears it.";
    expect(drafted(fields, body).checks).toEqual([bannedAfter("spray_field", "mark_organic", "field_id")]);
  });

  it("leaves 'It no longer can' alone: no act follows the words", () => {
    expect(drafted(dogs, "A scan of another dog could be taken for this one. It no longer can.").checks).toEqual([]);
  });
});
