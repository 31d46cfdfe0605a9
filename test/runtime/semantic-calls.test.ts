/**
 * What a judge asks, and how often: exact request counts at the scripted
 * server for each path, and the tax-research example calibrated against the
 * answers its labels call for.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibrate, calibrationPassed } from "../../compiler/analyses/calibrate.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import { loadJudge, type JudgeModule } from "../../compiler/run/load.js";
import { judgeCases } from "../../compiler/run/judge-cases.js";
import type { SemanticAdapter } from "../../runtime/semantic.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { answer, inOrder, startChatServer, type ChatServer, type Script, scriptedAdapter } from "../support/chat-server.js";
import { readScriptedAnswers, scriptedAnswers } from "../support/scripted.js";

const examples = join(import.meta.dirname, "..", "..", "examples");
const trajectoryFiles = (example: string) =>
  readdirSync(join(examples, example, "trajectories"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(examples, example, "trajectories", f));

let refund: JudgeModule;
let tax: JudgeModule;
beforeAll(async () => {
  [refund, tax] = await Promise.all([
    loadJudge(join(examples, "refund-support", "judge.yaml")),
    loadJudge(join(examples, "tax-research", "judge.yaml")),
  ]);
});

const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(script: Script): Promise<{ server: ChatServer; adapter: SemanticAdapter }> {
  const server = await startChatServer(script);
  servers.push(server);
  const adapter = scriptedAdapter(server);
  return { server, adapter };
}

async function judgeAll(judge: JudgeModule, files: string[], options: Parameters<typeof judgeCases>[2]): Promise<TrajectoryJudgment[]> {
  const out: TrajectoryJudgment[] = [];
  for await (const r of judgeCases(judge, readCases(files), options)) {
    expect(r.kind === "failed" ? r.message : undefined).toBeUndefined();
    if (r.kind === "judged") out.push(r.judgment);
  }
  return out;
}

const falsePredicates = (judgments: TrajectoryJudgment[]) =>
  judgments.flatMap((j) => j.metaBehaviors.flatMap((m) => m.clauses)).filter((c) => c.kind === "predicate" && c.verdict === "false").length;

/** Confirms every flagged failure, citing the first event of the trajectory. */
const confirmAll: Script = (request) => {
  const first = /^\{"id":("(?:[^"\\]|\\.)*")/m.exec(request.body.messages[1]!.content)![1]!;
  return { reply: answer("false", [JSON.parse(first) as string]) };
};

describe("calls per path", () => {
  it("a deterministic-only judge with verify off makes zero calls", async () => {
    const { server, adapter } = await serve(confirmAll);
    const judgments = await judgeAll(refund, trajectoryFiles("refund-support"), { complete: adapter, verify: false });
    expect(falsePredicates(judgments)).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(0);
    for await (const r of judgeCases(refund, readCases(trajectoryFiles("refund-support")), { complete: adapter, verify: false }))
      expect(r.usage).toMatchObject({ calls: 0, cachedCalls: 0 });
  });

  it("verify-on-false makes exactly one call per deterministic false", async () => {
    const files = trajectoryFiles("refund-support");
    const unverified = await judgeAll(refund, files, {});
    const { server, adapter } = await serve(confirmAll);
    const verified = await judgeAll(refund, files, { complete: adapter });
    expect(server.requests).toHaveLength(falsePredicates(unverified));
    expect(server.requests.every((r) => r.lastUser.includes("found this clause violated"))).toBe(true);
    // Confirmed failures keep their verdicts: the same file verdicts as without a model.
    expect(verified.map((j) => j.verdict)).toEqual(unverified.map((j) => j.verdict));
    const clauses = verified
      .flatMap((j) => j.metaBehaviors.flatMap((m) => m.clauses))
      .filter((c) => c.kind === "predicate" && c.verdict === "false");
    expect(clauses.every((c) => c.verification === "confirmed")).toBe(true);
  });

  it("a model that disagrees overturns the failure, keeping the predicate's verdict on record", async () => {
    const { adapter } = await serve(
      inOrder({ reply: answer("true", ["e1"], { reasoning: "The handover note was sent under another name." }) }),
    );
    const [judgment] = await judgeAll(refund, [join(examples, "refund-support", "trajectories", "credit-before-lookup.json")], {
      complete: adapter,
    });
    const overturned = judgment!.metaBehaviors.flatMap((m) => m.clauses).filter((c) => c.verification !== undefined);
    expect(overturned.length).toBeGreaterThan(0);
    for (const clause of overturned) {
      expect(clause).toMatchObject({
        verdict: "true",
        verification: "overturned",
        predicateVerdict: "false",
        reasoning: "The handover note was sent under another name.",
        citations: [{ eventId: "e1" }],
      });
    }
  });
});

describe("the tax-research example against its scripted answers", () => {
  const scripted = readScriptedAnswers(join(examples, "tax-research", "scripted-answers.json"));

  it("calibrates 100%, asking each scripted question exactly once", async () => {
    const unmatched: string[] = [];
    const { server, adapter } = await serve(scriptedAnswers(scripted, unmatched));
    const result = await calibrate(tax, readCases(trajectoryFiles("tax-research")), { complete: adapter });
    expect(unmatched).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(calibrationPassed(result)).toBe(true);
    expect(result.totals).toMatchObject({ metaAgree: result.totals.metaTotal, fileAgree: result.totals.fileTotal });
    expect(server.requests).toHaveLength(scripted.length);
  });

  it("without verify-on-false skips exactly the verify questions", async () => {
    const { server, adapter } = await serve(scriptedAnswers(scripted));
    await calibrate(tax, readCases(trajectoryFiles("tax-research")), { complete: adapter, verify: false });
    expect(server.requests).toHaveLength(scripted.filter((a) => a.kind !== "verify").length);
  });

  it("with the semantic check short-circuited, a deterministic false asks no semantic check", async () => {
    const { server, adapter } = await serve(scriptedAnswers(scripted));
    await judgeAll(tax, [join(examples, "tax-research", "trajectories", "figure-from-memory.json")], { complete: adapter });
    const asked = server.requests.map((r) => /^Rule: (.*)$/m.exec(r.lastUser)![1]);
    // trigger of rule 1, verify of rule 2's ordering failure; rule 2's semantic check is skipped.
    expect(asked).toEqual(["Ask which tax year when the answer depends on it", "Rest the answer on a provision the agent retrieved"]);
  });
});
