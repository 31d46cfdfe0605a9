/**
 * Issue 21: "state per key stays bounded (a test with 1M events over 10 keys
 * uses flat memory)". A monitor of a judge using every keyed form is pushed
 * 1,000,000 events over 10 reservations (test/fixtures/bounded/push-many.mjs,
 * in a process of its own with --expose-gc). Between a fifth of the events
 * and the end, its heap may grow only as much as that of a judge whose rule
 * keeps nothing: the growth both share is the monitor's set of event ids
 * (a repeated id is an error) and the ids the judgment cites. A check that
 * kept something per event (a Map entry, even a number in a list) grows by
 * megabytes over the 800,000 events between the two readings.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { ROOT, runCli } from "../support/cli.js";

const FIXTURES = join(ROOT, "test", "fixtures", "bounded");
const dir = mkdtempSync(join(tmpdir(), "bj-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Reading {
  events: number;
  atFifth: number;
  atEnd: number;
  violations: number;
  verdicts: string[];
}

function pushMany(judgeYaml: string): Reading {
  const judge = join(dir, judgeYaml.replace(/\.yaml$/, ".mjs"));
  const built = runCli(["build", join(FIXTURES, judgeYaml), "-o", judge]);
  expect(built.status, built.stderr).toBe(0);
  const run = spawnSync(process.execPath, ["--expose-gc", join(FIXTURES, "push-many.mjs"), judge, "1000000", "10"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Reading;
}

test("1,000,000 events over 10 keys: the keyed forms' state stays flat (grows as a judge keeping nothing does)", () => {
  const keyed = pushMany("keyed.yaml");
  const baseline = pushMany("baseline.yaml");
  expect(keyed.events).toBe(1_000_000);
  // Every rule was triggered and held: the events were read, not skipped.
  expect(keyed.verdicts).toEqual(["true", "true"]);
  expect(keyed.violations).toBe(0);
  const growth = (r: Reading) => r.atEnd - r.atFifth;
  const extra = growth(keyed) - growth(baseline);
  // 2 MB over 800,000 events is under 3 bytes an event: less than one number per event in a list.
  expect(extra, `keyed grew ${growth(keyed)} bytes, the baseline ${growth(baseline)}`).toBeLessThan(2 << 20);
}, 240_000);
