/**
 * The answer cache: a re-run of the same judge on the same trajectories
 * makes no request (counted at the server) and gives the same bytes; the
 * cache never holds the key and survives concurrent writers.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostModel } from "../../compiler/model/index.js";
import { answerCacheKey, readCachedAnswer, withAnswerCache } from "../../compiler/model/answer-cache.js";
import { readCases } from "../../compiler/inputs/inputs.js";
import { loadJudge, type JudgeModule } from "../../compiler/run/load.js";
import { judgeCases } from "../../compiler/run/judge-cases.js";
import { askModel, callAdapter, type SemanticAdapter, type SemanticUsage } from "../../runtime/semantic.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { answer, startChatServer, type ChatServer } from "../support/chat-server.js";
import { readScriptedAnswers, scriptedAnswers } from "../support/scripted.js";

const KEY = "sk-cache-test-key-0123456789";
const example = join(import.meta.dirname, "..", "..", "examples", "tax-research");
const files = ["asks-year-then-grounds-answer", "assumes-current-year", "notice-missing"].map((n) =>
  join(example, "trajectories", `${n}.json`),
);

let judge: JudgeModule;
let server: ChatServer;
let dir: string;
beforeAll(async () => {
  judge = await loadJudge(join(example, "judge.yaml"));
  server = await startChatServer(scriptedAnswers(readScriptedAnswers(join(example, "scripted-answers.json"))));
  dir = await mkdtemp(join(tmpdir(), "bj-cache-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function hostAdapter(cache: boolean): Promise<SemanticAdapter> {
  const env = { OPENAI_API_KEY: KEY };
  const { adapter } = await createHostModel({ env, baseUrl: server.baseURL, cache, cacheDir: dir, model: "scripted", maxRetries: 0 });
  return adapter!;
}

/** The judgments as JSON, and what their calls cost (kept apart: it depends on the cache). */
async function judgeJson(adapter: SemanticAdapter): Promise<string> {
  return (await judgeWithUsage(adapter)).json;
}

async function judgeWithUsage(adapter: SemanticAdapter): Promise<{ json: string; usage: SemanticUsage[] }> {
  const out: unknown[] = [];
  const usage: SemanticUsage[] = [];
  for await (const r of judgeCases(judge, readCases(files), { complete: adapter, concurrency: 3 })) {
    out.push(r.kind === "judged" ? r.judgment : r.message);
    usage.push(r.usage!);
  }
  return { json: JSON.stringify(out, null, 2), usage };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("the answer cache", () => {
  it("serves a re-run completely: zero requests, identical bytes", async () => {
    const first = await judgeJson(await hostAdapter(true));
    const asked = server.requests.length;
    expect(asked).toBeGreaterThan(0);
    const { json: second, usage } = await judgeWithUsage(await hostAdapter(true));
    const third = await judgeJson(await hostAdapter(true));
    expect(server.requests.length).toBe(asked);
    expect(second).toBe(first);
    expect(third).toBe(first);
    // Only the cost differs from the first run (the same calls, now from the cache), and it is no part of the judgments.
    expect(usage.every((u) => u.calls === 0 && u.inputTokens === 0)).toBe(true);
    expect(usage.reduce((n, u) => n + u.cachedCalls, 0)).toBe(asked);
  });

  it("is bypassed with cache off: every question is asked again", async () => {
    const before = server.requests.length;
    await judgeJson(await hostAdapter(false));
    expect(server.requests.length - before).toBeGreaterThan(0);
  });

  it("never stores the key", async () => {
    for (const file of await listFiles(dir)) expect(await readFile(file, "utf8")).not.toContain(KEY);
  });

  it("keys on the model and the exact messages", () => {
    const messages = [{ role: "user" as const, content: "q" }];
    expect(answerCacheKey("m", messages)).toBe(answerCacheKey("m", [{ role: "user", content: "q" }]));
    expect(answerCacheKey("m2", messages)).not.toBe(answerCacheKey("m", messages));
    expect(answerCacheKey("m", [{ role: "user", content: "q " }])).not.toBe(answerCacheKey("m", messages));
    expect(answerCacheKey("m", messages, 0)).not.toBe(answerCacheKey("m", messages));
  });

  it("stores only answers that validated: a bad reply is asked again on the rerun, never replayed", async () => {
    const garbageDir = await mkdtemp(join(tmpdir(), "bj-cache-garbage-"));
    // Garbage for the question and for its retry, then a valid answer from then on.
    let served = 0;
    const flaky = await startChatServer(() => (served++ < 2 ? { reply: "GARBAGE, not JSON" } : { reply: answer("true", ["e1"]) }));
    try {
      const trajectory = validateTrajectory({
        id: "t",
        complete: true,
        events: [{ id: "e1", actor: "agent", action: "final_answer", content: "Done." }],
      });
      const question = { kind: "check" as const, rule: "R", quote: "q", question: "Is it done?" };
      const ask = async () => {
        const { adapter } = await createHostModel({
          env: {},
          baseUrl: flaky.baseURL,
          cacheDir: garbageDir,
          model: "scripted",
          maxRetries: 0,
        });
        return askModel(adapter, trajectory, question);
      };
      expect(await ask()).toMatchObject({ kind: "error", message: expect.stringContaining("invalid twice") });
      expect(flaky.requests).toHaveLength(2);
      for (const file of await listFiles(garbageDir)) expect(await readFile(file, "utf8")).not.toContain("GARBAGE");
      // The rerun asks the model again (the bad reply was not kept) and gets the valid answer.
      expect(await ask()).toMatchObject({ kind: "answer", verdict: "true" });
      expect(flaky.requests).toHaveLength(3);
      // That answer validated, so the next rerun is served from the cache.
      expect(await ask()).toMatchObject({ kind: "answer", verdict: "true" });
      expect(flaky.requests).toHaveLength(3);
    } finally {
      await flaky.close();
      await rm(garbageDir, { recursive: true, force: true });
    }
  });

  it("readCachedAnswer finds what the adapter stored under the same key, only once accepted, and writes nothing", async () => {
    const lookDir = await mkdtemp(join(tmpdir(), "bj-cache-read-"));
    try {
      const options = { dir: lookDir, model: "m", temperature: 0.5 };
      const question = [{ role: "user" as const, content: "a question" }];
      const reply = await callAdapter(
        withAnswerCache(async () => "the answer", options),
        question,
      );
      expect(await readCachedAnswer(options, question)).toBeUndefined();
      expect(await listFiles(lookDir)).toHaveLength(0);
      await reply.accept();
      expect(await readCachedAnswer(options, question)).toBe("the answer");
      expect(await readCachedAnswer(options, question, answerCacheKey("m", question, 0.5))).toBe("the answer");
      // Another model, temperature or question is another key: a miss.
      expect(await readCachedAnswer({ ...options, model: "n" }, question)).toBeUndefined();
      expect(await readCachedAnswer({ dir: lookDir, model: "m" }, question)).toBeUndefined();
      expect(await readCachedAnswer(options, [{ role: "user", content: "another question" }])).toBeUndefined();
      expect(await listFiles(lookDir)).toHaveLength(1);
    } finally {
      await rm(lookDir, { recursive: true, force: true });
    }
  });

  it("survives concurrent writers of the same entry: one whole entry, no temp files left", async () => {
    const concurrent = await mkdtemp(join(tmpdir(), "bj-cache-race-"));
    try {
      let calls = 0;
      const slow: SemanticAdapter = async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 5));
        return { text: `answer ${"x".repeat(50_000)}`, usage: { inputTokens: 1, outputTokens: 1 } };
      };
      // Separate wrappers stand in for separate processes sharing the folder.
      const wrappers = Array.from({ length: 12 }, () => withAnswerCache(slow, { dir: concurrent, model: "m" }));
      // Each caller accepts its reply, as the judge does once an answer validated.
      const replies = await Promise.all(wrappers.map((w) => callAdapter(w, [{ role: "user", content: "same question" }])));
      await Promise.all(replies.map((r) => r.accept()));
      expect(replies.every((r) => r.text.startsWith("answer "))).toBe(true);
      const stored = await listFiles(concurrent);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatch(/\.json$/);
      expect(JSON.parse(await readFile(stored[0]!, "utf8"))).toMatchObject({
        model: "m",
        validated: true,
        text: `answer ${"x".repeat(50_000)}`,
      });
      const hit = await withAnswerCache(slow, { dir: concurrent, model: "m" })([{ role: "user", content: "same question" }]);
      expect(hit).toMatchObject({ cached: true });
      expect(calls).toBe(12);
    } finally {
      await rm(concurrent, { recursive: true, force: true });
    }
  });
});
