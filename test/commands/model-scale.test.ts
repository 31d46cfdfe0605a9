/**
 * Model calls at scale: `--no-model`, `--sample` and `--rpm`, against the
 * scripted chat server (the real `openai` client over 127.0.0.1).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { inSample } from "../../compiler/run/sample.js";
import { createPacer } from "../../compiler/model/openai.js";
import { startChatServer, type ChatServer } from "../support/chat-server.js";
import { runInProcess as run } from "../support/in-process.js";
import { scriptedAnswers, taxResearchExample, trajectoryIdOf } from "../support/scripted.js";

const KEY = "sk-scale-test-key-abcdef123456";
const { judgeMjs: judge, files, ids, scripted } = taxResearchExample();

let server: ChatServer | undefined;
let cacheDir: string;
beforeEach(async () => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", KEY);
  cacheDir = await mkdtemp(join(tmpdir(), "bj-scale-cache-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
  await rm(cacheDir, { recursive: true, force: true });
});

async function serve(): Promise<ChatServer> {
  server = await startChatServer(scriptedAnswers(scripted));
  return server;
}

describe("--no-model", () => {
  it("makes no request even with a model configured, and judges as a run without a model does", async () => {
    const s = await serve();
    const flags = ["--base-url", s.baseURL, "--model", "scripted", "--cache", cacheDir];
    const without = await run("judge", judge, ...files, ...flags, "--no-model", "--json");
    const calibrated = await run("calibrate", judge, ...files, ...flags, "--no-model");
    expect(s.requests).toHaveLength(0);
    expect(without.stderr).toContain("behavior-judge: --no-model: no model calls;");
    expect(calibrated.stderr).toContain("behavior-judge: --no-model: no model calls;");
    vi.stubEnv("OPENAI_API_KEY", "");
    const unconfigured = await run("judge", judge, ...files, "--json");
    expect(without.stdout).toBe(unconfigured.stdout);
    // And the model does change the judgments when it is asked, so the comparison could fail.
    vi.stubEnv("OPENAI_API_KEY", KEY);
    const withModel = await run("judge", judge, ...files, ...flags, "--json");
    expect(s.requests.length).toBeGreaterThan(0);
    expect(withModel.stdout).not.toBe(without.stdout);
  });
});

describe("--sample", () => {
  it("gives model calls to the trajectories whose id hashes into the sample, the same ones on every run", async () => {
    const rate = 0.5;
    const picked = ids.filter((id) => inSample({ id }, rate));
    // A proper subset, so the test can tell sampling from all-or-nothing.
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.length).toBeLessThan(ids.length);
    const s = await serve();
    const flags = ["--base-url", s.baseURL, "--model", "scripted", "--no-cache", "--sample", String(rate), "--json"];
    const first = await run("judge", judge, ...files, ...flags);
    const asked = [...new Set(s.requests.map((r) => trajectoryIdOf(r.prompt)))].sort();
    const firstCount = s.requests.length;
    const second = await run("judge", judge, ...files, ...flags);
    expect(second.stdout).toBe(first.stdout);
    expect([...new Set(s.requests.slice(firstCount).map((r) => trajectoryIdOf(r.prompt)))].sort()).toEqual(asked);
    // Every picked trajectory that asks the model without sampling asks it with; none other does.
    const full = await run("judge", judge, ...files, "--base-url", s.baseURL, "--model", "scripted", "--no-cache", "--json");
    expect(full.code).toBe(0);
    const askedWithoutSampling = new Set(s.requests.slice(2 * firstCount).map((r) => trajectoryIdOf(r.prompt)));
    expect(asked).toEqual(picked.filter((id) => askedWithoutSampling.has(id)).sort());
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThan(askedWithoutSampling.size);
  });

  it("rejects a rate outside (0, 1]", async () => {
    for (const rate of ["0", "1.5", "x"]) {
      const r = await run("judge", judge, ...files, "--sample", rate);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("must be a number above 0 and at most 1");
    }
  });
});

describe("--rpm", () => {
  it("spaces request starts 60000/rpm ms apart, in arrival order, without bursting after a quiet spell", async () => {
    let now = 0;
    const starts: number[] = [];
    const pace = createPacer(600, { now: () => now, sleep: async (ms) => void (now += ms) });
    for (let i = 0; i < 3; i++) {
      await pace();
      starts.push(now);
    }
    now += 10_000; // quiet
    await pace();
    starts.push(now);
    await pace();
    starts.push(now);
    expect(starts).toEqual([0, 100, 200, 10_200, 10_300]);
  });

  it("paces the real client's requests across trajectories", async () => {
    const s = await serve();
    const startedAt: number[] = [];
    const started = Date.now();
    const r = await run(
      "judge",
      judge,
      ...files,
      "--base-url",
      s.baseURL,
      "--model",
      "scripted",
      "--no-cache",
      "--rpm",
      "1200",
      "--concurrency",
      "4",
      "--json",
    );
    const elapsed = Date.now() - started;
    expect(r.code).toBe(0);
    startedAt.push(elapsed);
    // 1200 per minute is one every 50 ms: n requests take at least (n - 1) × 50 ms.
    expect(s.requests.length).toBeGreaterThan(4);
    expect(elapsed).toBeGreaterThanOrEqual((s.requests.length - 1) * 50 - 5);
  });
});
