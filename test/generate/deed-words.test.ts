/**
 * Issue 25, no labels, round 9: sentence forms the offline drafter misread on blind12 and the
 * development sets, each written here for a world of its own (a tyre-fitting garage's workshop
 * desk, worked by an assistant called Sprocket).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const DESCRIPTION = "Workshop rules for Sprocket, the booking assistant at a tyre-fitting garage that mounts tyres and releases cars.";
const PREAMBLE =
  "Sprocket runs the workshop desk. It can look a car up (`inspect_car`, by `job_id`), mount a tyre (`mount_tyre`, with " +
  "`job_id`, `swap_id` and the `fitter`), have the wheel nuts torqued (`torque_check`, with `job_id` and `checked_by`), " +
  "release the car (`release_car`, with `job_id` and `released_by`) and report a fault (`log_fault`, by `job_id`).";

const draft = (body: string, samples: Trajectory[], description = DESCRIPTION, preamble = PREAMBLE) =>
  draftOf(preamble, body, samples, "tyre-bay", description);
const checksOf = (body: string, samples: Trajectory[], description?: string, preamble?: string) =>
  draft(body, samples, description, preamble).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);

/** Two jobs: tyres mounted by Ana and Ben, torqued and released by the other of them, or by the same one. */
const samples = [
  session(
    ["agent", "inspect_car", { job_id: "J1" }],
    ["agent", "mount_tyre", { job_id: "J1", swap_id: "W1", fitter: "ana" }],
    ["agent", "torque_check", { job_id: "J1", checked_by: "ben" }],
    ["agent", "release_car", { job_id: "J1", released_by: "ben" }],
  ),
  session(
    ["agent", "inspect_car", { job_id: "J2" }],
    ["agent", "mount_tyre", { job_id: "J2", swap_id: "W2", fitter: "ben" }],
    ["agent", "torque_check", { job_id: "J2", checked_by: "ben" }],
    ["agent", "release_car", { job_id: "J2", released_by: "ana" }],
    ["agent", "log_fault", { job_id: "J2" }],
  ),
];

describe("someone other than the one who did an earlier act of the same thing", () => {
  it("'must be signed by a mechanic other than the fitter who mounted that job's tyres': the latest mount of that job, by someone else", () => {
    const body = "The torque check must be signed by a mechanic other than the fitter who mounted that job's tyres.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "torque_check" }],
        with: { r: { latest: [{ action: "mount_tyre" }], on: "metadata.job_id" } },
        when: "r.fitter != event.checked_by",
      },
    ]);
  });

  it("a deed named by what it makes: 'the fitter who did that car's most recent swap' is the act carrying `swap_id`", () => {
    const body = "A release has to be approved by someone other than the fitter who did that car's most recent swap.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "condition",
        each: [{ action: "release_car" }],
        with: { r: { latest: [{ action: "mount_tyre" }], on: "metadata.job_id" } },
        when: "r.fitter != event.released_by",
      },
    ]);
  });

  it("'…, and only by a mechanic other than the mechanic who mounted the tyres of that job': the act of the clause before", () => {
    const body =
      "A car is released only after a `torque_check` for that job, and only by a mechanic other than the mechanic who mounted the tyres of that job.";
    const checks = checksOf(body, samples);
    expect(checks).toHaveLength(2);
    expect(checks[1]).toEqual({
      type: "condition",
      each: [{ action: "release_car" }],
      with: { r: { latest: [{ action: "mount_tyre" }], on: "metadata.job_id" } },
      when: "r.fitter != event.released_by",
    });
  });
});

describe("the assistant's name and a contract's defined terms", () => {
  const contract =
    'Definitions. The "Fault Report" is the tool log_fault (by `job_id`). "Fitment" means the tool `mount_tyre`, called with ' +
    "`job_id`, `swap_id` and `fitter`. Sprocket may also look a car up (`inspect_car`), have the nuts torqued " +
    "(`torque_check`) and release it (`release_car`).";
  const binding = "Schedule 2 of the garage's service agreement, binding the garage's booking assistant Sprocket, which mounts tyres.";

  it("'Prior to each Fitment, …': a defined term stands for its tool", () => {
    const body = "Prior to each Fitment, the car must have been looked up with `inspect_car`.";
    expect(checksOf(body, samples, binding, contract)).toEqual([
      { type: "ordering", first: [{ action: "inspect_car" }], before: [{ action: "mount_tyre" }] },
    ]);
  });

  it("'Upon a Fault Report for a job, Sprocket must not release …': the assistant named in the description, after the defined report", () => {
    const body = "Upon a Fault Report for a job, Sprocket must not release the car.";
    expect(checksOf(body, samples, binding, contract)).toEqual([
      { type: "forbidden", match: [{ action: "release_car" }], after: [{ action: "log_fault" }] },
    ]);
  });
});

describe("totals per thing, the thing named as the spec's introduction names it", () => {
  const preamble =
    "Sprocket runs the tyre bay. It can look a van up (`inspect_car`, by `plate`) and mount tyres (`mount_tyre`, with `job_id`, " +
    '`plate`, `bay_id`, `tyres`, the number of tyres, and `rubber_kg`). A "Lift" means a fitting bay, identified by its `bay_id`.';
  const mounts = [
    session(
      ["agent", "inspect_car", { plate: "VAN1" }],
      ["agent", "mount_tyre", { job_id: "J1", plate: "VAN1", bay_id: "B1", tyres: "4", rubber_kg: "30" }],
      ["agent", "mount_tyre", { job_id: "J1", plate: "VAN1", bay_id: "B1", tyres: "2", rubber_kg: "15" }],
    ),
    session(
      ["agent", "inspect_car", { plate: "VAN2" }],
      ["agent", "mount_tyre", { job_id: "J2", plate: "VAN2", bay_id: "B2", tyres: "6", rubber_kg: "40" }],
      ["agent", "mount_tyre", { job_id: "J3", plate: "VAN3", bay_id: "B2", tyres: "4", rubber_kg: "20" }],
    ),
  ];
  const mount = [{ action: "mount_tyre" }];

  it("'No van takes more than 8 tyres in a shift': a subject of 'no' forbids what it takes, per the key the introduction calls a van", () => {
    expect(checksOf("No van takes more than 8 tyres in a shift.", mounts, DESCRIPTION, preamble)).toEqual([
      { type: "count", match: mount, sum: "metadata.tyres", max: 8, per: "metadata.plate" },
    ]);
  });

  it("'Keep each job to 40 kg of rubber at most: add up `rubber_kg` over every tyre mounted on that job': a sum per job", () => {
    const body = "Keep each job to 40 kg of rubber at most: add up `rubber_kg` over every tyre mounted on that job.";
    expect(checksOf(body, mounts, DESCRIPTION, preamble)).toEqual([
      { type: "count", match: mount, sum: "metadata.rubber_kg", max: 40, per: "metadata.job_id" },
    ]);
  });

  it("'The total number of tyres mounted for any one Lift … must not exceed twelve (12)': a total per the defined term's key", () => {
    const body = "The total number of tyres mounted for any one Lift, counting every job, must not exceed twelve (12).";
    expect(checksOf(body, mounts, DESCRIPTION, preamble)).toEqual([
      { type: "count", match: mount, sum: "metadata.tyres", max: 12, per: "metadata.bay_id" },
    ]);
  });
});
