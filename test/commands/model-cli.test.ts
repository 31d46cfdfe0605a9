/**
 * The CLI with a model: `judge`, `calibrate --runs` and `baseline` against
 * the scripted server, as a user runs them (flags, environment, exit codes,
 * what lands on stdout and stderr).
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { inOrder, startChatServer, type ChatServer, type Script } from "../support/chat-server.js";
import { runInProcess } from "../support/in-process.js";
import { findScripted, readScriptedAnswers, scriptedAnswers, trajectoryIdOf } from "../support/scripted.js";

const KEY = "sk-cli-test-key-abcdef123456";
const example = join(import.meta.dirname, "..", "..", "examples", "tax-research");
const yaml = join(example, "judge.yaml");
const files = readdirSync(join(example, "trajectories"))
  .sort()
  .map((f) => join(example, "trajectories", f));
const scripted = readScriptedAnswers(join(example, "scripted-answers.json"));

let cacheDir: string;
let server: ChatServer | undefined;
beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "bj-cli-cache-"));
});
afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});
beforeEach(() => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", KEY);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function serve(script: Script): Promise<ChatServer> {
  server = await startChatServer(script);
  return server;
}

const run = runInProcess;

const modelFlags = (s: ChatServer) => ["--base-url", s.baseURL, "--model", "scripted", "--cache", cacheDir];

describe("judge with a model", () => {
  it("reports usage per trajectory and in total, then a cached re-run makes zero requests and prints the same bytes", async () => {
    const s = await serve(scriptedAnswers(scripted));
    const first = await run("judge", yaml, ...files, ...modelFlags(s));
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `model calls: ${scripted.length} answered, 0 from cache, 0 failed; requests sent: ${scripted.length} (0 failed); tokens: ${scripted.length * 100} in, ${scripted.length * 20} out`,
    );
    expect(first.stdout).toMatch(/PASS {2}asks-year-then-grounds-answer[\s\S]*?\n {2}model calls: 2 answered, 0 from cache/);
    const asked = s.requests.length;
    expect(asked).toBe(scripted.length);

    const json1 = await run("judge", yaml, ...files, ...modelFlags(s), "--json");
    const json2 = await run("judge", yaml, ...files, ...modelFlags(s), "--json");
    expect(s.requests.length).toBe(asked);
    expect(json1.code).toBe(0);
    expect(json2.stdout).toBe(json1.stdout);
    // The total goes to stderr so stdout stays one JSON document.
    expect(json1.stderr).toContain(
      `model calls: 0 answered, ${asked} from cache, 0 failed; requests sent: 0 (0 failed); tokens: 0 in, 0 out`,
    );
    for (const output of [first, json1]) expect(output.stdout + output.stderr).not.toContain(KEY);
  });

  it("--json is byte-identical between the run that asks the model and the rerun served from the cache", async () => {
    const s = await serve(scriptedAnswers(scripted));
    const fresh = await mkdtemp(join(tmpdir(), "bj-cli-json-"));
    try {
      const flags = ["--base-url", s.baseURL, "--model", "scripted", "--cache", fresh, "--json"];
      const first = await run("judge", yaml, ...files, ...flags);
      expect(s.requests).toHaveLength(scripted.length);
      const second = await run("judge", yaml, ...files, ...flags);
      expect(s.requests).toHaveLength(scripted.length);
      expect(second.stdout).toBe(first.stdout);
      // What the calls cost is reported beside the judgments, on stderr, never inside them.
      for (const j of JSON.parse(first.stdout) as Record<string, unknown>[])
        expect(Object.keys(j)).toEqual(["behavior", "trajectoryId", "verdict", "metaBehaviors", "file", "case"]);
      expect(first.stderr).toContain(`model calls: ${scripted.length} answered, 0 from cache`);
      expect(second.stderr).toContain(`model calls: 0 answered, ${scripted.length} from cache`);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it("a key the server echoes inside valid answers reaches no output and no cache entry", async () => {
    // The server copies the bearer token into the reasoning and into every citation's description.
    const answers = scriptedAnswers(scripted);
    const s = await serve((request, index) => {
      const step = answers(request, index);
      if (!("reply" in step)) return step;
      const key = request.authorization!.replace(/^Bearer /, "");
      const reply = JSON.parse(step.reply) as { reasoning: string; citations: { description: string }[] };
      reply.reasoning = `${reply.reasoning} (checked with ${key})`;
      for (const c of reply.citations) c.description = `${c.description}; key ${key}`;
      return { reply: JSON.stringify(reply) };
    });
    const out = await mkdtemp(join(tmpdir(), "bj-cli-echo-"));
    try {
      const cache = join(out, "cache");
      const [html, junit] = [join(out, "report.html"), join(out, "report.xml")];
      const flags = ["--base-url", s.baseURL, "--model", "scripted", "--cache", cache];
      const json = await run("judge", yaml, ...files, ...flags, "--json", "--html", html, "--junit", junit);
      expect(s.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
      expect(json.code).toBe(0);
      // The answers were used (valid, with the key replaced), not rejected.
      expect(json.stdout).toContain("[redacted]");
      const text = await run("judge", yaml, ...files, ...flags);
      expect(text.stdout).toContain("[redacted]");
      const cached = await readdir(cache, { recursive: true, withFileTypes: true });
      const written = [html, junit, ...cached.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))];
      expect(written.length).toBeGreaterThan(2);
      for (const output of [json.stdout, json.stderr, text.stdout, text.stderr]) expect(output).not.toContain(KEY);
      for (const file of written) expect(await readFile(file, "utf8"), file).not.toContain(KEY);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it("a clause the model fails twice is an error: visible in text and JSON, counted, exit 1", async () => {
    const s = await serve(inOrder({ reply: "I think the agent did fine." }));
    const file = join(example, "trajectories", "year-stated-upfront.json");
    const text = await run("judge", yaml, file, ...modelFlags(s), "--no-cache");
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("ERROR: the answer was invalid twice: it is not valid JSON");
    expect(text.stdout).toMatch(/\n2 clauses got no valid model answer \(marked ERROR\)\n/);
    // Rule 1's semantic trigger and rule 2's semantic check, each asked twice.
    expect(s.requests).toHaveLength(4);

    const json = await run("judge", yaml, file, ...modelFlags(s), "--no-cache", "--json");
    expect(json.code).toBe(1);
    const [judgment] = JSON.parse(json.stdout) as {
      metaBehaviors: { clauses: { error?: string; verdict: string; naReason: string }[] }[];
    }[];
    const errors = judgment!.metaBehaviors.flatMap((m) => m.clauses).filter((c) => c.error !== undefined);
    expect(errors.length).toBeGreaterThan(0);
    for (const clause of errors)
      expect(clause).toMatchObject({
        verdict: "na",
        naReason: "insufficient_evidence",
        error: "the answer was invalid twice: it is not valid JSON",
      });
  });

  it("after transport failures the usage line counts the failed calls and every HTTP request, retries included", async () => {
    // Every request fails with a 500 that asks for no wait, so the default retries (4) run at once.
    const s = await serve(inOrder({ status: 500, headers: { "retry-after-ms": "0" } }));
    const file = join(example, "trajectories", "year-stated-upfront.json");
    const result = await run("judge", yaml, file, ...modelFlags(s), "--no-cache");
    expect(result.code).toBe(1);
    const calls = s.requests.length / 5;
    expect(calls).toBe(2); // rule 1's semantic trigger and rule 2's semantic check, 5 attempts each
    expect(result.stdout).toMatch(
      /\n {2}model calls: 0 answered, 0 from cache, 2 failed; requests sent: 10 \(10 failed\); tokens: 0 in, 0 out\n/,
    );
    expect(result.stdout).toMatch(
      /\nmodel calls: 0 answered, 0 from cache, 2 failed; requests sent: 10 \(10 failed\); tokens: 0 in, 0 out\n/,
    );
  });

  it("without a key: deterministic parts run, semantic parts are na, and one notice goes to stderr", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const result = await run("judge", yaml, ...files, "--json", "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stderr.match(/no model configured/g)).toHaveLength(1);
    const judgments = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(judgments.every((j) => !("usage" in j))).toBe(true);
    const semantic = judgments
      .flatMap((j) =>
        (j.metaBehaviors as { clauses: { kind: string; verdict: string; naReason: string; reasoning: string }[] }[]).flatMap(
          (m) => m.clauses,
        ),
      )
      .filter((c) => c.kind === "semantic");
    expect(semantic.length).toBeGreaterThan(0);
    for (const c of semantic)
      expect(c).toMatchObject({
        verdict: "na",
        naReason: "insufficient_evidence",
        reasoning: expect.stringContaining("No model was available"),
      });
  });

  it("rejects a bad --concurrency as a usage error", async () => {
    const result = await run("judge", yaml, files[0]!, "--concurrency", "0");
    expect(result.code).toBe(2);
  });

  it("rejects --timeout 0 as a usage error: it would abort every request at once", async () => {
    const result = await run("judge", yaml, files[0]!, "--timeout", "0", "--base-url", "http://127.0.0.1:9/v1", "--no-cache");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--timeout");
  });
});

describe("calibrate", () => {
  it("with a model agrees 100% with the tax labels and reports usage", async () => {
    const s = await serve(scriptedAnswers(scripted));
    const result = await run("calibrate", yaml, ...files, ...modelFlags(s), "--no-cache");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("meta agreement 21/21, file agreement 7/7");
    expect(result.stdout).toContain(`model calls: ${scripted.length} answered`);
  });

  it("--json is byte-identical between the run that asks the model and the rerun from the cache; the usage line goes to stderr", async () => {
    const s = await serve(scriptedAnswers(scripted));
    const fresh = await mkdtemp(join(tmpdir(), "bj-cli-calibrate-json-"));
    try {
      const flags = ["--base-url", s.baseURL, "--model", "scripted", "--cache", fresh, "--json"];
      const first = await run("calibrate", yaml, ...files, ...flags);
      const second = await run("calibrate", yaml, ...files, ...flags);
      expect(s.requests).toHaveLength(scripted.length);
      expect(first.code).toBe(0);
      expect(second.stdout).toBe(first.stdout);
      expect(Object.keys(JSON.parse(first.stdout) as object)).toEqual(["comparisons", "judgments", "totals"]);
      expect(first.stderr).toContain(`model calls: ${scripted.length} answered, 0 from cache`);
      expect(second.stderr).toContain(`model calls: 0 answered, ${scripted.length} from cache`);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it("--runs N asks afresh every run and reports the run statistics", async () => {
    // The second time the trigger of assumes-current-year is asked, the model says it does not apply.
    let seen = 0;
    const answers = scriptedAnswers(scripted);
    const s = await serve((request, index) => {
      const found = findScripted(scripted, request);
      if (found?.trajectoryId === "assumes-current-year" && found.kind === "trigger" && ++seen === 2) {
        return { reply: JSON.stringify({ ...found, verdict: "false", trajectoryId: undefined }) };
      }
      return answers(request, index);
    });
    const unused = join(cacheDir, "not-for-runs");
    const result = await run("calibrate", yaml, ...files, "--runs", "3", "--base-url", s.baseURL, "--cache", unused);
    expect(s.requests.length).toBe(3 * scripted.length - 1); // run 2 skips that rule's verify call
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("run 1: 21/21 rule verdicts agree");
    expect(result.stdout).toContain("run 2: 20/21 rule verdicts agree");
    expect(result.stdout).toContain("run 3: 21/21 rule verdicts agree");
    expect(result.stdout).toContain("pooled accuracy: 62/63 (98.4%; Wilson 95% 91.5%–99.7%)");
    expect(result.stdout).toContain("perfect runs: 2/3");
    expect(result.stdout).toContain("unanimous verdicts: 20/21");
    // Repeated runs never use the cache: a cached answer would make every run the first.
    await expect(readdir(unused)).rejects.toThrow(/ENOENT/);
  });
  it("--runs N never counts a clause the model failed as agreement, even when the fold still matches the label", async () => {
    // Rule 2's semantic check fails twice for one case; its deterministic checks are true, so the rule folds to true, as labeled.
    const answers = scriptedAnswers(scripted);
    const s = await serve((request, index) => {
      const found = findScripted(scripted, request);
      if (found?.trajectoryId === "asks-year-then-grounds-answer" && found.kind === "check")
        return { reply: "The agent cites the statute." };
      return answers(request, index);
    });
    const plain = await run("calibrate", yaml, ...files, "--base-url", s.baseURL, "--no-cache");
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain("1 clause got no valid model answer (marked ERROR)");
    const result = await run("calibrate", yaml, ...files, "--runs", "2", "--base-url", s.baseURL);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("run 1: 20/21 rule verdicts agree (1 rule verdict rests on a failed model answer)");
    expect(result.stdout).toContain("perfect runs: 0/2");
    const json = await run("calibrate", yaml, ...files, "--runs", "1", "--base-url", s.baseURL, "--json");
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { statistics: { perRun: unknown[] } }).statistics.perRun[0]).toEqual({
      agree: 20,
      total: 21,
      errors: 0,
      clauseErrors: 1,
    });
  });
});

describe("baseline", () => {
  const labels = new Map(
    files.map((f) => {
      const c = JSON.parse(readFileSync(f, "utf8")) as {
        trajectory: { id: string };
        expected: { metaBehaviorVerdicts: Record<string, string> };
      };
      return [c.trajectory.id, c.expected.metaBehaviorVerdicts] as const;
    }),
  );

  /** A one-call judge that answers by the labels, except one rule it always gets wrong. */
  function baselineScript(wrongRule?: string): Script {
    const judgeAnswers = scriptedAnswers(scripted);
    return (request, index) => {
      if (!request.body.messages[0]!.content.includes("judge every rule")) return judgeAnswers(request, index);
      const id = trajectoryIdOf(request.body.messages[1]!.content)!;
      const metaBehaviors = Object.entries(labels.get(id)!).map(([name, verdict]) => {
        const v = name === wrongRule ? (verdict === "true" ? "false" : "true") : verdict;
        return {
          name,
          verdict: v,
          na_reason: v === "na" ? "not_applicable" : null,
          reasoning: "Scripted.",
          citations: [{ event_id: "e1", description: "the question" }],
        };
      });
      return { reply: JSON.stringify({ metaBehaviors }) };
    };
  }

  it("judges each trajectory with one call over the whole spec", async () => {
    const s = await serve(baselineScript());
    const result = await run("baseline", example, ...files, "--base-url", s.baseURL);
    expect(result.code).toBe(0);
    expect(s.requests).toHaveLength(files.length);
    const prompt = s.requests[0]!.body.messages[1]!.content;
    for (const heading of new Set(scripted.map((a) => a.ruleName))) expect(prompt).toContain(`## ${heading}\n`);
    expect(prompt).toContain("BEGIN UNTRUSTED TRAJECTORY");
    expect(result.stdout).toContain("one-call baseline (tax-research): 1 run over 21 verdict slots");
    expect(result.stdout).toContain("pooled accuracy: 21/21 (100.0%;");
  });

  it("--judge puts behavior-judge beside it with the same figures", async () => {
    const s = await serve(baselineScript("Label answers as general information"));
    const result = await run("baseline", join(example, "BEHAVIOR.md"), ...files, "--runs", "2", "--judge", yaml, "--base-url", s.baseURL);
    expect(result.code).toBe(0);
    expect(s.requests).toHaveLength(2 * files.length + 2 * scripted.length);
    expect(result.stdout).toMatch(/\n +behavior-judge +one-call baseline\n/);
    const table = result.stdout.slice(result.stdout.search(/\n +behavior-judge +one-call baseline\n/));
    expect(table).toMatch(/run 1 +21\/21 +14\/21/);
    expect(table).toMatch(/perfect runs +2\/2 +0\/2/);
    expect(table).toMatch(/unanimous verdicts +21\/21 +21\/21/);
  });

  it("reads a folder of labeled cases, and --from as judge does (issue 24)", async () => {
    const s = await serve(baselineScript());
    const folder = await run("baseline", example, join(example, "trajectories"), "--base-url", s.baseURL);
    expect(folder.code).toBe(0);
    expect(s.requests).toHaveLength(files.length);
    expect(folder.stdout).toContain("one-call baseline (tax-research): 1 run over 21 verdict slots");
  });

  it("--from: a recorded chat log is imported by default, and refused with --from trajectory", async () => {
    const chatLog = join(example, "..", "refund-support", "traces", "chat-log.json");
    const s = await serve(inOrder({ reply: "{}" }, { reply: "{}" }));
    const strict = await run("baseline", example, chatLog, "--from", "trajectory", "--base-url", s.baseURL);
    expect(s.requests).toHaveLength(0);
    expect(strict.stderr).toMatch(/^baseline run 1: error: .*chat-log\.json/m);
    await run("baseline", example, chatLog, "--base-url", s.baseURL);
    expect(s.requests.length).toBeGreaterThan(0);
    expect(s.requests[0]!.body.messages[1]!.content).toContain("issue_refund");
  });

  it("books the calls of a case that got no valid answer", async () => {
    const s = await serve(inOrder({ reply: "{}", usage: { prompt_tokens: 10, completion_tokens: 1 } }));
    const result = await run("baseline", example, files[0]!, "--base-url", s.baseURL);
    expect(s.requests).toHaveLength(2);
    expect(result.stderr).toContain("the answer was invalid twice");
    expect(result.stdout).toContain(
      "baseline model calls: 2 answered, 0 from cache, 0 failed; requests sent: 2 (0 failed); tokens: 20 in, 2 out",
    );
  });

  it("an invalid spec fails with located diagnostics", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bj-spec-"));
    try {
      const spec = join(dir, "BEHAVIOR.md");
      await import("node:fs/promises").then((fs) => fs.writeFile(spec, "---\nname: x\ndescription: d\n---\n## A\n\n## A\n"));
      const result = await run("baseline", spec, ...files, "--base-url", "http://127.0.0.1:9/v1");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${spec}:7:1 error: duplicate-heading: the heading "A" already appears on line 5`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("label with a model (issue 24)", () => {
  it("labels what the model decided, leaves a rule it never validly answered unlabeled and named, exits 1; --dry-run writes nothing", async () => {
    // Every question about one trajectory gets prose: invalid twice, so its clause errors; the rest are answered as scripted.
    const broken = "assumes-current-year";
    const answers = scriptedAnswers(scripted);
    const s = await serve((request, index) =>
      trajectoryIdOf(request.body.messages[1]?.content ?? "") === broken ? { reply: "I think it is fine." } : answers(request, index),
    );
    const out = await mkdtemp(join(tmpdir(), "bj-label-model-"));
    try {
      const dry = await run(
        "label",
        yaml,
        ...files,
        "-o",
        join(out, "dry"),
        "--base-url",
        s.baseURL,
        "--model",
        "scripted",
        "--no-cache",
        "--dry-run",
      );
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain("requests");
      expect(s.requests).toHaveLength(0);
      expect(readdirSync(out)).toEqual([]);

      const labeled = join(out, "labeled");
      const result = await run("label", yaml, ...files, "-o", labeled, "--base-url", s.baseURL, "--model", "scripted", "--no-cache");
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toContain(`${files.length} labeled cases written to`);
      expect(result.stdout).toContain("1 case with a clause no model answered (left unlabeled)");
      expect(result.stdout).toMatch(new RegExp(`wrote .*${broken}\\.json .* left unlabeled: .*no valid model answer`));
      const read = (id: string) =>
        JSON.parse(readFileSync(join(labeled, `${id}.json`), "utf8")) as {
          expected: { verdict?: string; metaBehaviorVerdicts: Record<string, string> };
        };
      // The broken case: the rule the model never answered and the verdict resting on it are not labeled, the others are.
      const brokenCase = read(broken);
      expect(brokenCase.expected.verdict).toBeUndefined();
      expect(Object.keys(brokenCase.expected.metaBehaviorVerdicts)).not.toContain("Ask which tax year when the answer depends on it");
      expect(Object.keys(brokenCase.expected.metaBehaviorVerdicts).length).toBeGreaterThan(0);
      // A case the model answered is labeled in full, with the model-decided rules' verdicts.
      const answered = read("asks-year-then-grounds-answer");
      expect(answered.expected.verdict).toBeDefined();
      expect(answered.expected.metaBehaviorVerdicts["Ask which tax year when the answer depends on it"]).toBeDefined();
      // calibrate over what label wrote agrees with the same judge and the same answers, case for case.
      const check = await run("calibrate", yaml, labeled, "--base-url", s.baseURL, "--model", "scripted", "--no-cache");
      expect(check.stdout).toMatch(/^meta agreement (\d+)\/\1, file agreement (\d+)\/\2$/m);
      expect(check.stdout).toContain(
        `${broken} (${join(labeled, `${broken}.json`)}: case 0) — 2 of 3 rules unlabeled, file verdict unlabeled, not counted`,
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe("the cache folder", () => {
  it("holds answers but never the key", async () => {
    const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true });
    const stored = entries.filter((e) => e.isFile());
    expect(stored.length).toBeGreaterThan(0);
    for (const e of stored) expect(await readFile(join(e.parentPath, e.name), "utf8")).not.toContain(KEY);
  });
});
