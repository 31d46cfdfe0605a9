#!/usr/bin/env node
// `judge --dry-run` on a large corpus (issue 12). Not a test: machines here are
// shared and noisy, so read the times as orders of size and compare them within
// one run.
//
//   npm run build:cli && node bench/dry-run.js [--count 2000] [--rpm 600]
//
// 1. Writes --count trajectories of examples/tax-research (its seven labeled
//    trajectories, round robin, each with a unique id) as one JSONL file.
// 2. Starts a chat-completions server on 127.0.0.1 that answers every question
//    as examples/tax-research/scripted-answers.json says for the trajectory the
//    copy was made from, and counts the requests it gets.
// 3. Runs, through the built CLI (bin/behavior-judge.js, the real `openai`
//    client): a cold dry run with an empty cache (and one with --sample 0.1), the real run that fills the
//    cache, a warm dry run, and `judge --no-model` for scale. The real run's
//    requests must fall in the cold dry run's range, the warm run must count 0
//    and no dry run may send a request.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const count = arg("--count", 2000);
const rpm = arg("--rpm", 600);
const example = join(root, "examples", "tax-research");
const judge = join(example, "judge.mjs");
const bases = readdirSync(join(example, "trajectories"))
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(example, "trajectories", f), "utf8")).trajectory);
const scripted = JSON.parse(readFileSync(join(example, "scripted-answers.json"), "utf8"));

const work = mkdtempSync(join(tmpdir(), "bj-bench-dry-run-"));
const corpus = join(work, "corpus.jsonl");
const cache = join(work, "cache");
const lines = [];
for (let i = 0; i < count; i++) {
  const base = bases[i % bases.length];
  lines.push(JSON.stringify({ ...base, id: `${base.id}-${i}` }));
}
writeFileSync(corpus, `${lines.join("\n")}\n`);

/** Which question a prompt asks, and about which base trajectory (the copy's id without its `-i`). */
function scriptedReply(prompt) {
  const idMatch = /^\{"trajectory_id":("(?:[^"\\]|\\.)*")/m.exec(prompt);
  const id = idMatch === null ? "" : JSON.parse(idMatch[1]).replace(/-\d+$/, "");
  const kind = prompt.includes("The rule applies to a trajectory only when this situation occurs:")
    ? "trigger"
    : prompt.includes("found this clause violated")
      ? "verify"
      : "check";
  const found = scripted.find(
    (a) => a.trajectoryId === id && a.kind === kind && prompt.includes(`Rule: ${a.ruleName}\n`) && prompt.includes(JSON.stringify(a.quote)),
  );
  if (found === undefined) return { kind, text: "NO SCRIPTED ANSWER" };
  const { verdict, na_reason, reasoning, citations } = found;
  return { kind, text: JSON.stringify({ verdict, na_reason, reasoning, citations }) };
}

const served = { semantic: 0, verify: 0, unmatched: 0 };
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const reply = scriptedReply(body.messages[1]?.content ?? "");
    served[reply.kind === "verify" ? "verify" : "semantic"]++;
    if (reply.text === "NO SCRIPTED ANSWER") served.unmatched++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "bench",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null }, finish_reason: "stop", logprobs: null }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseURL = `http://127.0.0.1:${server.address().port}/v1`;

/** Runs the CLI without blocking the server; returns stdout (or nothing when `quiet`), the exit code and seconds. */
function cli(args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(root, "bin", "behavior-judge.js"), ...args], {
      env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "sk-bench" },
      stdio: ["ignore", quiet ? "ignore" : "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

const model = ["--base-url", baseURL, "--model", "scripted", "--cache", cache];
const total = () => served.semantic + served.verify;
const range = (r) => (r.atLeast === r.atMost ? `${r.atLeast}` : `${r.atLeast}–${r.atMost}`);

const deterministic = await cli(["judge", judge, corpus, "--no-model", "--json"], { quiet: true });
const cold = await cli(["judge", judge, corpus, ...model, "--dry-run", "--json", "--rpm", String(rpm)]);
const sampled = await cli(["judge", judge, corpus, ...model, "--dry-run", "--json", "--sample", "0.1"]);
const afterCold = total();
const real = await cli(["judge", judge, corpus, ...model, "--concurrency", "16", "--json"], { quiet: true });
const made = { semantic: served.semantic, verify: served.verify, total: total() };
const warm = await cli(["judge", judge, corpus, ...model, "--dry-run", "--json"]);
const afterWarm = total() - made.total;
await new Promise((resolve) => server.close(resolve));
rmSync(work, { recursive: true, force: true });

const c = JSON.parse(cold.stdout);
const w = JSON.parse(warm.stdout);
const within = (n, r) => n >= r.atLeast && n <= r.atMost;
console.log(`${count} trajectories of examples/tax-research (${bases.length} distinct, unique ids), one JSONL file`);
console.log(`judge --no-model:     ${deterministic.seconds.toFixed(1)} s (exit ${deterministic.code})`);
console.log(
  `cold --dry-run:       ${cold.seconds.toFixed(1)} s; semantic ${range(c.semanticCalls)}, verify ${range(c.verifyCalls)}, requests ${range(c.requests)}, cached ${range(c.cachedAnswers)}; requests sent ${afterCold}`,
);
console.log(`  at --rpm ${rpm}: the last request starts at least ${range(c.minimumSeconds)} s after the first`);
const sm = JSON.parse(sampled.stdout);
console.log(
  `cold --dry-run --sample 0.1: ${sampled.seconds.toFixed(1)} s; ${sm.withModel} trajectories get the model, requests ${range(sm.requests)}`,
);
console.log(
  `real run:             ${real.seconds.toFixed(1)} s (exit ${real.code}); requests ${made.total} (semantic ${made.semantic}, verify ${made.verify}, unanswerable ${served.unmatched}); within the range: ${within(made.total, c.requests) && within(made.semantic, c.semanticCalls) && within(made.verify, c.verifyCalls)}`,
);
console.log(
  `warm --dry-run:       ${warm.seconds.toFixed(1)} s; requests ${range(w.requests)}, cached ${range(w.cachedAnswers)}; requests sent ${afterWarm}`,
);
if (cold.code !== 0 || warm.code !== 0 || real.code !== 0 || afterCold !== 0 || afterWarm !== 0 || !within(made.total, c.requests)) {
  console.error("unexpected:", cold.stderr, real.stderr, warm.stderr);
  process.exitCode = 1;
}
