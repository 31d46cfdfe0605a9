/**
 * `--dry-run`: the model calls a run would make, counted from the answer
 * cache, with no request sent. The real runs it is checked against go through
 * the real `openai` client to the scripted server on 127.0.0.1: answering
 * every question "true" must make exactly the upper count, "false" exactly
 * the lower, and the intended answers something in between.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildMessages, type SemanticQuestion } from "../../runtime/semantic.js";
import { isVerifyQuestion } from "../../compiler/analyses/dry-run.js";
import { inSample } from "../../compiler/run/sample.js";
import type { DryRunReport } from "../../compiler/report/dry-run.js";
import { answer, startChatServer, type ChatServer, type RecordedRequest, type Script } from "../support/chat-server.js";
import { runInProcess as run } from "../support/in-process.js";
import { scriptedAnswers, taxResearchExample, trajectoryIdOf } from "../support/scripted.js";

const KEY = "sk-dry-run-test-key-abcdef123456";
const { judgeMjs: judge, files, ids, scripted } = taxResearchExample();

let server: ChatServer | undefined;
let dir: string;
let cacheDir: string;
beforeEach(async () => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", KEY);
  dir = await mkdtemp(join(tmpdir(), "bj-dry-run-"));
  cacheDir = join(dir, "cache");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(script: Script): Promise<ChatServer> {
  server = await startChatServer(script);
  return server;
}

/** A server any request to which is a failure of the test: it is answered 500 and recorded for the assertion. */
const refuseAll: Script = () => ({ status: 500, body: { error: { message: "a dry run sent a request" } } });

/** The same verdict to every question, citing the trajectory's first event (found in the prompt) so the answer validates. */
function always(verdict: "true" | "false"): Script {
  return (request) => {
    const line = request.prompt.split("\n").find((l) => l.startsWith('{"id":'));
    const id = line === undefined ? "none" : (JSON.parse(line) as { id: string }).id;
    return { reply: answer(verdict, [id]) };
  };
}

const flags = (s: ChatServer, ...more: string[]) => ["--base-url", s.baseURL, "--model", "scripted", "--cache", cacheDir, ...more];

async function dryRun(command: "judge" | "calibrate", s: ChatServer, ...more: string[]): Promise<DryRunReport> {
  const r = await run(command, judge, ...files, ...flags(s, "--dry-run", "--json", ...more));
  // Not empty in general: Node's own warnings about the earlier runs' sockets land there too.
  expect(r.stderr).not.toMatch(/^(error|behavior-judge):/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as DryRunReport;
}

const isVerify = (r: RecordedRequest) => isVerifyQuestion(r.body.messages);

/** What a real run asked, split as the dry run splits it. */
function asked(requests: readonly RecordedRequest[]) {
  const verify = requests.filter(isVerify).length;
  return { semantic: requests.length - verify, verify, total: requests.length };
}

describe("isVerifyQuestion", () => {
  it("tells a verify-on-false question from a trigger and a semantic check, as the runtime words them", () => {
    const trajectory = { id: "t", description: "d", complete: true, events: [{ id: "e1", actor: "agent" as const, action: "x" }] };
    const question = (kind: SemanticQuestion["kind"]): SemanticQuestion => ({ kind, rule: "R", quote: "q", question: "Q?" });
    expect(isVerifyQuestion(buildMessages(trajectory, question("verify")))).toBe(true);
    expect(isVerifyQuestion(buildMessages(trajectory, question("trigger")))).toBe(false);
    expect(isVerifyQuestion(buildMessages(trajectory, question("check")))).toBe(false);
  });
});

describe("judge --dry-run", () => {
  it("sends nothing, and its range is exactly what all-true and all-false answers ask", async () => {
    const refusing = await serve(refuseAll);
    const cold = await dryRun("judge", refusing);
    const calibrateCold = await dryRun("calibrate", refusing);
    const text = await run("judge", judge, ...files, ...flags(refusing, "--dry-run"));
    expect(refusing.requests).toHaveLength(0);
    // Nothing was stored either.
    expect(existsSync(cacheDir)).toBe(false);
    expect(calibrateCold).toEqual(cold);
    expect(cold).toMatchObject({ cases: files.length, trajectories: files.length, withModel: files.length, failed: 0, model: "scripted" });
    expect(cold.cachedAnswers).toEqual({ atLeast: 0, atMost: 0 });
    // Answers decide what is asked next here, so the range is a real one.
    expect(cold.requests.atLeast).toBeLessThan(cold.requests.atMost);
    expect(text.stdout).toContain(
      `semantic calls (triggers, semantic checks): ${cold.semanticCalls.atLeast}–${cold.semanticCalls.atMost}\n`,
    );
    expect(text.stdout).not.toContain("PASS");
    await refusing.close();

    for (const [verdict, bound] of [
      ["true", "atMost"],
      ["false", "atLeast"],
    ] as const) {
      const s = await serve(always(verdict));
      await run("judge", judge, ...files, "--base-url", s.baseURL, "--model", "scripted", "--no-cache", "--json");
      const real = asked(s.requests);
      expect({ verdict, ...real }).toEqual({
        verdict,
        semantic: cold.semanticCalls[bound],
        verify: cold.verifyCalls[bound],
        total: cold.requests[bound],
      });
      await s.close();
    }
  });

  it("brackets a run with the intended answers, and after it counts every answer as cached and no call", async () => {
    const s = await serve(scriptedAnswers(scripted));
    const cold = await dryRun("judge", s);
    expect(s.requests).toHaveLength(0);
    const real = await run("judge", judge, ...files, ...flags(s, "--json"));
    expect(real.code).toBe(0);
    const made = asked(s.requests);
    expect(made.total).toBeGreaterThanOrEqual(cold.requests.atLeast);
    expect(made.total).toBeLessThanOrEqual(cold.requests.atMost);
    expect(made.verify).toBeGreaterThanOrEqual(cold.verifyCalls.atLeast);
    expect(made.verify).toBeLessThanOrEqual(cold.verifyCalls.atMost);

    const warm = await dryRun("judge", s);
    expect(s.requests).toHaveLength(made.total);
    expect(warm.requests).toEqual({ atLeast: 0, atMost: 0 });
    expect(warm.cachedAnswers).toEqual({ atLeast: made.total, atMost: made.total });
    const text = await run("judge", judge, ...files, ...flags(s, "--dry-run", "--rpm", "60"));
    expect(text.stdout).toContain("requests: 0 (");
    expect(text.stdout).toContain(`cached answers used: ${made.total}\n`);
    expect(text.stdout).toContain("at --rpm 60: no request to pace");
  });

  it("counts calls for the sampled trajectories only, as the real run makes them", async () => {
    const rate = 0.5;
    const picked = ids.filter((id) => inSample({ id }, rate));
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.length).toBeLessThan(ids.length);
    const s = await serve(always("true"));
    const sampled = await dryRun("judge", s, "--sample", String(rate));
    const all = await dryRun("judge", s);
    expect(s.requests).toHaveLength(0);
    expect(sampled.withModel).toBe(picked.length);
    expect(sampled.sample).toBe(rate);
    expect(sampled.requests.atMost).toBeLessThan(all.requests.atMost);
    await run("judge", judge, ...files, "--base-url", s.baseURL, "--model", "scripted", "--no-cache", "--sample", String(rate), "--json");
    expect(s.requests.length).toBe(sampled.requests.atMost);
    expect(new Set(s.requests.map((r) => trajectoryIdOf(r.prompt))).size).toBeLessThanOrEqual(picked.length);
  });

  it("--no-verify counts no verify call; --no-model and no configured model none at all, and say why", async () => {
    const s = await serve(refuseAll);
    const noVerify = await dryRun("judge", s, "--no-verify");
    expect(noVerify.verifyCalls).toEqual({ atLeast: 0, atMost: 0 });
    expect(noVerify.semanticCalls.atMost).toBeGreaterThan(0);
    const noModel = await run("judge", judge, ...files, ...flags(s, "--dry-run", "--no-model"));
    expect(noModel.code).toBe(0);
    expect(noModel.stdout).toBe(
      `dry run of tax-research: no model calls would be made: --no-model\ncases: 7 read, 7 trajectories judged\n`,
    );
    vi.stubEnv("OPENAI_API_KEY", "");
    const unconfigured = await run("calibrate", judge, ...files, "--dry-run", "--json");
    expect(JSON.parse(unconfigured.stdout)).toMatchObject({
      modelCalls: false,
      reason: expect.stringContaining("no model configured"),
      requests: { atLeast: 0, atMost: 0 },
      trajectories: 7,
    });
    expect(s.requests).toHaveLength(0);
  });

  it("reports a case it cannot judge with its place and exits 1, still counting the others", async () => {
    const s = await serve(refuseAll);
    const bad = join(dir, "bad.jsonl");
    const good = JSON.parse(readFileSync(files[0]!, "utf8")) as { trajectory: unknown };
    await writeFile(bad, `${JSON.stringify(good.trajectory)}\n{"id": "x", "events": "none"}\n`);
    const r = await run("judge", judge, bad, ...flags(s, "--dry-run", "--json"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*bad\.jsonl:2: case 1: /m);
    const report = JSON.parse(r.stdout) as DryRunReport;
    expect(report).toMatchObject({ cases: 2, trajectories: 1, failed: 1 });
    expect(report.requests.atMost).toBeGreaterThan(0);
    // calibrate needs labels: an unlabeled trajectory is a case it cannot compare.
    const c = await run("calibrate", judge, bad, ...flags(s, "--dry-run"));
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/bad\.jsonl:1: case 0: has no "expected" labels/);
    expect(c.stdout).toContain("cases: 2 read, 1 trajectory judged, 2 cannot be judged (listed on stderr)");
    expect(s.requests).toHaveLength(0);
  });

  it("counts a question asked twice once at the least, since the first answer is cached by then", async () => {
    const twice = join(dir, "twice.json");
    const one = JSON.parse(readFileSync(files[0]!, "utf8")) as { trajectory: unknown };
    await writeFile(twice, JSON.stringify([one.trajectory, one.trajectory]));
    const s = await serve(always("false"));
    const single = await run("judge", judge, files[0]!, ...flags(s, "--dry-run", "--json"));
    const r = await run("judge", judge, twice, ...flags(s, "--dry-run", "--json"));
    const once = JSON.parse(single.stdout) as DryRunReport;
    const report = JSON.parse(r.stdout) as DryRunReport;
    expect(once.requests.atLeast).toBeGreaterThan(0);
    // Both copies may be in flight at once and miss together: the upper count has both.
    expect(report.requests).toEqual({ atLeast: once.requests.atLeast, atMost: 2 * once.requests.atMost });
    await run("judge", judge, twice, ...flags(s, "--concurrency", "1", "--json"));
    expect(s.requests).toHaveLength(report.requests.atLeast);
    expect(await readdir(cacheDir)).not.toHaveLength(0);
  });

  it("prints what docs/SCALE.md shows (but for the model and cache lines, which name this machine's)", async () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "SCALE.md"), "utf8");
    const shown = /```\n\$ behavior-judge judge judge\.mjs traces\/ --dry-run --sample 0\.5 --rpm 60\n([\s\S]*?)```/.exec(doc);
    expect(shown).not.toBeNull();
    const s = await serve(refuseAll);
    const r = await run("judge", judge, ...files, ...flags(s, "--dry-run", "--sample", "0.5", "--rpm", "60"));
    const local = (text: string) => text.split("\n").filter((line) => !/^(model|cache): /.test(line));
    expect(local(r.stdout)).toEqual(local(shown![1]!));
    expect(s.requests).toHaveLength(0);
  });

  it("calibrate --runs counts every run without the cache", async () => {
    const s = await serve(refuseAll);
    const once = await dryRun("calibrate", s, "--no-cache");
    const thrice = await dryRun("calibrate", s, "--runs", "3");
    expect(thrice.cache).toBeNull();
    expect(thrice.runs).toBe(3);
    expect(thrice.requests).toEqual({ atLeast: 3 * once.requests.atLeast, atMost: 3 * once.requests.atMost });
    expect(s.requests).toHaveLength(0);
  });
});
