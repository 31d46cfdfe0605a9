/**
 * A clause whose model call failed has no verdict (docs/FORMATS.md §4): the fold
 * makes its rule na `insufficient_evidence` marked `error: true` unless
 * another clause is false, the trajectory carries the marker too, and every
 * output shows ERROR, never a pass. The model here fails every call.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readCases } from "../../compiler/inputs/inputs.js";
import { loadJudge, type JudgeModule } from "../../compiler/run/load.js";
import { judgeCases } from "../../compiler/run/judge-cases.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { startChatServer, type ChatServer } from "../support/chat-server.js";
import { runInProcess as run } from "../support/in-process.js";

const example = join(import.meta.dirname, "..", "..", "examples", "tax-research");
const yaml = join(example, "judge.yaml");
const files = readdirSync(join(example, "trajectories"))
  .sort()
  .map((f) => join(example, "trajectories", f));
const trajectory = (name: string) => join(example, "trajectories", `${name}.json`);

/** Its deterministic checks all pass; rule 1's semantic trigger and rule 2's semantic check need the model. */
const UPFRONT = "year-stated-upfront";
const RULE_1 = "Ask which tax year when the answer depends on it";
const RULE_2 = "Rest the answer on a provision the agent retrieved";
const RULE_3 = "Label answers as general information";

let server: ChatServer;
let dir: string;
beforeAll(async () => {
  // 400 is not retried by the host: one request per question, each a failed call.
  server = await startChatServer(() => ({ status: 400, body: { error: { message: "model unavailable" } } }));
  dir = await mkdtemp(join(tmpdir(), "bj-model-errors-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", "sk-test");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const modelFlags = () => ["--base-url", server.baseURL, "--model", "scripted", "--no-cache"];

describe("the fold with failed model calls", () => {
  let tax: JudgeModule;
  beforeAll(async () => {
    tax = await loadJudge(yaml);
  });

  async function judgeAll(options: Parameters<typeof judgeCases>[2]): Promise<TrajectoryJudgment[]> {
    const out: TrajectoryJudgment[] = [];
    for await (const r of judgeCases(tax, readCases(files), options)) {
      expect(r.kind === "failed" ? r.message : undefined).toBeUndefined();
      if (r.kind === "judged") out.push(r.judgment);
    }
    return out;
  }

  it("never passes a rule or a trajectory that rests on a failed call", async () => {
    const judgments = await judgeAll({ complete: async () => Promise.reject(new Error("offline")) });
    for (const j of judgments) {
      for (const meta of j.metaBehaviors) {
        const errored = meta.clauses.some((c) => c.error !== undefined);
        if (!errored) {
          expect(meta).not.toHaveProperty("error");
          continue;
        }
        // A false clause still decides the rule; otherwise the rule has no verdict.
        if (meta.clauses.some((c) => c.verdict === "false")) expect(meta.verdict).toBe("false");
        else expect(meta).toMatchObject({ verdict: "na", naReason: "insufficient_evidence" });
        expect(meta.error).toBe(true);
      }
      expect(j.error).toBe(j.metaBehaviors.some((m) => m.error === true) ? true : undefined);
      if (j.error === true) expect(j.verdict).not.toBe("true");
    }
    const upfront = judgments.find((j) => j.trajectoryId === UPFRONT)!;
    expect(upfront).toMatchObject({ verdict: "na", error: true });
    expect(upfront.metaBehaviors.map((m) => [m.name, m.verdict, m.naReason, m.error])).toEqual([
      [RULE_1, "na", "insufficient_evidence", true],
      [RULE_2, "na", "insufficient_evidence", true],
      [RULE_3, "true", null, undefined],
    ]);
  });

  it("adds no field when no call failed: the reference's shape, byte for byte", async () => {
    const offline = await judgeAll({});
    for (const j of offline) {
      expect(Object.keys(j)).toEqual(["behavior", "trajectoryId", "verdict", "metaBehaviors"]);
      for (const meta of j.metaBehaviors) expect(Object.keys(meta)).toEqual(["name", "verdict", "naReason", "triggered", "clauses"]);
    }
  });
});

describe("every output shows ERROR", () => {
  it("text: at file and rule level, a table column, exit 1", async () => {
    const result = await run("judge", yaml, trajectory(UPFRONT), ...modelFlags());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^ERROR {2}${UPFRONT} `, "m"));
    expect(result.stdout).toContain(
      `\n  ERROR ${RULE_1} (insufficient_evidence) — not triggered — 1 clause without a valid model answer\n`,
    );
    expect(result.stdout).toContain(`\n  ERROR ${RULE_2} (insufficient_evidence) — 1 clause without a valid model answer\n`);
    expect(result.stdout).toContain(`\n  PASS  ${RULE_3}\n`);
    expect(result.stdout).toMatch(/Rule +Passed +Failed +Didn't apply +No verdict +Model error\n/);
    expect(result.stdout).toMatch(new RegExp(`${RULE_2} +0 +0 +0 +0 +1\\n`));
    expect(result.stdout).toContain("\n1 trajectory judged: 0 true, 0 false, 0 na, 1 ERROR (no valid model answer)\n");
    expect(result.stdout).not.toMatch(/^PASS/m);
  });

  it("JSON: the markers, and no true verdict", async () => {
    const result = await run("judge", yaml, ...files, ...modelFlags(), "--json");
    expect(result.code).toBe(1);
    const judgments = JSON.parse(result.stdout) as TrajectoryJudgment[];
    const upfront = judgments.find((j) => j.trajectoryId === UPFRONT)!;
    expect(upfront).toMatchObject({ verdict: "na", error: true });
    // Every file verdict: no trajectory passes when every call fails (each has a semantic trigger).
    expect(judgments.map((j) => j.verdict)).not.toContain("true");
    expect(judgments.every((j) => j.error === true)).toBe(true);
  });

  it("HTML: an error badge on the trajectory and the rule", async () => {
    const html = join(dir, "report.html");
    const result = await run("judge", yaml, trajectory(UPFRONT), ...modelFlags(), "--html", html);
    expect(result.code).toBe(1);
    const page = await readFile(html, "utf8");
    expect(page).toMatch(
      /<header class="card-head"><span class="badge error">Error — no valid model answer<\/span> <h2>year-stated-upfront<\/h2>/,
    );
    expect(page).toContain(
      `<header class="rule-head"><span class="badge error">Error — no valid model answer</span> <h3>${RULE_2}</h3></header>`,
    );
    expect(page).toContain(`<span class="v-error">1 model error</span>`);
  });

  it("JUnit: an <error> per rule that rests on a failed call", async () => {
    const junit = join(dir, "report.xml");
    const result = await run("judge", yaml, trajectory(UPFRONT), ...modelFlags(), "--junit", junit);
    expect(result.code).toBe(1);
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain(`errors="2"`);
    expect(xml.match(/<error message="model error: the model call failed: [^"]*" type="model-error">/g)).toHaveLength(2);
    expect(xml).toContain(`<testcase name="${UPFRONT} › ${RULE_3}" classname="tax-research" time="0"/>`);
  });
});

describe("calibrate counts a failed call as a disagreement", () => {
  it("even where the verdict would match the label", async () => {
    const result = await run("calibrate", yaml, trajectory(UPFRONT), ...modelFlags());
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/^ok /m);
    expect(result.stdout).toContain(`DIFF ${UPFRONT}`);
    expect(result.stdout).toContain(`     ${RULE_1}: expected na, got na (ERROR: no valid model answer)`);
    expect(result.stdout).toContain(`     ${RULE_2}: expected true, got na (ERROR: no valid model answer)`);
    expect(result.stdout).toContain("meta agreement 1/3, file agreement 0/1");

    const json = await run("calibrate", yaml, trajectory(UPFRONT), ...modelFlags(), "--json");
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as { comparisons: { verdict: object; metaBehaviors: object[] }[]; totals: object };
    expect(parsed.comparisons[0]!.verdict).toEqual({ expected: "true", actual: "na", agree: false, error: true });
    expect(parsed.comparisons[0]!.metaBehaviors[0]).toEqual({ name: RULE_1, expected: "na", actual: "na", agree: false, error: true });
    expect(parsed.totals).toMatchObject({ metaAgree: 1, metaTotal: 3, fileAgree: 0, fileTotal: 1 });
  });

  it("--runs: every rule resting on a failed call is an error slot", async () => {
    const result = await run("calibrate", yaml, trajectory(UPFRONT), "--runs", "2", "--base-url", server.baseURL);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("run 1: 1/3 rule verdicts agree (2 rule verdicts rest on a failed model answer)");
    expect(result.stdout).toContain("perfect runs: 0/2");
  });
});
