/**
 * Reports stay readable on huge traces (issue 12): a passing pairing clause
 * cites every event, so over 100,000 events the text line and the HTML
 * report show the first few citations and count the rest, while `--json`
 * keeps them all. Run through the real command on a generated trajectory.
 */
import { TRAJECTORY_SHOWN } from "../../compiler/report/html.js";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CITATIONS_SHOWN } from "../../runtime/format-judgment.js";
import { BIN, ROOT, runCli } from "../support/cli.js";
import { compileYaml } from "../support/judges.js";

const PAIRING_JUDGE = `version: 1
behavior: many-events
metaBehaviors:
  - name: Every approval is confirmed
    trigger:
      description: A refund is approved.
      match:
        action: approve
    checks:
      - type: pairing
        quote: every approval is followed by a confirmation
        each:
          action: approve
        followedBy:
          action: confirm
`;

const EVENTS = 100_000;

describe(`a passing pairing clause over ${EVENTS.toLocaleString("en-US")} events`, () => {
  let dir: string;
  let judge: string;
  let trajectory: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bj-many-"));
    judge = join(dir, "judge.mjs");
    writeFileSync(judge, (await compileYaml(PAIRING_JUDGE)).compiled.judgeMjs);
    trajectory = join(dir, "long.json");
    // approve, confirm, approve, confirm, …: every event is cited.
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      id: `e${i}`,
      actor: "agent",
      action: i % 2 === 0 ? "approve" : "confirm",
      content: `event ${i}`,
    }));
    writeFileSync(trajectory, JSON.stringify({ id: "long", complete: true, events }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the text line shows the first ten ids and '… and 99,990 more'", () => {
    const run = runCli(["judge", judge, trajectory, "--no-web"]);
    expect(run.status).toBe(0);
    const line = run.stdout.split("\n").find((l) => l.includes("pairing:"))!;
    const shown = Array.from({ length: CITATIONS_SHOWN }, (_, i) => `e${i}`).join(", ");
    expect(line).toContain(`[${shown}, … and 99,990 more]`);
    expect(line.length).toBeLessThan(300);
    expect(run.stdout.length).toBeLessThan(2000);
  });

  test("the HTML and JUnit reports stay small; --json keeps every citation", () => {
    const html = join(dir, "report.html");
    const junit = join(dir, "junit.xml");
    const run = runCli(["judge", judge, trajectory, "--no-web", "--html", html, "--junit", junit]);
    expect(run.status).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("<summary>Evidence: 100,000 cited events</summary>");
    expect(page).toContain(`<li class="more">… and 99,990 more</li>`);
    expect(page.match(/<li class="event">/g)).toHaveLength(CITATIONS_SHOWN);
    // The whole trajectory: its first TRAJECTORY_SHOWN events, the rest counted.
    expect(page.match(/<li class="step/g)).toHaveLength(TRAJECTORY_SHOWN);
    expect(page).toContain(`<li class="more">… and 99,500 more</li>`);
    // The page is its template (style and script, ~15 KB), ten cited events and 500 of the trajectory, not 100,000.
    expect(statSync(html).size).toBeLessThan(40_000 + TRAJECTORY_SHOWN * 300);
    expect(statSync(junit).size).toBeLessThan(2_000);

    // Megabytes of JSON: more than runCli's pipe buffer holds.
    const json = spawnSync(process.execPath, [BIN, "judge", judge, trajectory, "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "" },
    });
    expect(json.status).toBe(0);
    const [element] = JSON.parse(json.stdout) as { metaBehaviors: { clauses: { citations: unknown[] }[] }[] }[];
    expect(element!.metaBehaviors[0]!.clauses[0]!.citations).toHaveLength(EVENTS);
  });
});
