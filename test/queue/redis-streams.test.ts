/**
 * The Redis Streams path (`enqueue`, `worker`, `collect`) against a real
 * redis-server on 127.0.0.1: workers killed mid-run, a Redis that goes away,
 * and that nothing but the queue commands ever loads the Redis client.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BIN, ROOT, runCli } from "../support/cli.js";
import { generatedTrajectory, REFUND, refundTrajectories, writeGeneratedCorpus } from "../support/generated-corpus.js";
import { describeWithRedis, startRedis, type RedisServer } from "../support/redis.js";

const JUDGE = join(REFUND, "judge.mjs");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
/** Loaded with --require into a child: prints its peak RSS to stderr as it exits. */
const MAX_RSS = join(ROOT, "test", "support", "max-rss.cjs");

interface Spawned {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnCli(args: string[]): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
  });
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  child.stdout!.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => err, exit };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** runCli with room for megabytes of output. */
function runLarge(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    timeout: 60_000,
    env: { ...process.env, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `judge --json`'s judgments, by trajectory id. */
function judgeJson(files: string[]): Map<string, unknown> {
  const run = runLarge(["judge", JUDGE, ...files, "--json"]);
  expect(run.status).toBe(0);
  return new Map((JSON.parse(run.stdout) as { trajectoryId: string }[]).map((j) => [j.trajectoryId, j]));
}

function byId(jsonl: string): Map<string, unknown> {
  const lines = jsonl.split("\n").filter((l) => l !== "");
  return new Map(lines.map((l) => [(JSON.parse(l) as { trajectoryId: string }).trajectoryId, JSON.parse(l)]));
}

/** Compares stream ids ("ms-seq"). */
function idLessOrEqual(a: string, b: string): boolean {
  const [am, as] = a.split("-").map(BigInt);
  const [bm, bs] = b.split("-").map(BigInt);
  return am! < bm! || (am === bm && as! <= bs!);
}

describeWithRedis("Redis Streams: enqueue, worker, collect", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "bj-redis-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("two workers, one SIGKILLed mid-run, a third claims its entries: collect yields exactly N judgments equal to judge --json's", async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    const workers: Spawned[] = [];
    try {
      const N = 1000;
      const corpus = writeGeneratedCorpus(join(dir, "kill.jsonl"), N, 30);
      const started = Date.now();
      const enqueued = runCli(["enqueue", corpus, "--redis", redis.url]);
      expect(enqueued.stderr).toBe(`enqueued ${N} trajectories to trajectories at ${redis.url}\n`);
      expect(enqueued.status).toBe(0);

      // Neither claims the other's entries: only the third worker does.
      const common = ["--redis", redis.url, "--batch", "4", "--claim-after", "600000"];
      const a = spawnCli(["worker", JUDGE, ...common, "--consumer", "a"]);
      const b = spawnCli(["worker", JUDGE, ...common, "--consumer", "b", "--until-empty"]);
      workers.push(a, b);
      const pendingOf = async (consumer: string) => {
        const consumers = (await client.xinfo("CONSUMERS", "trajectories", "judges").catch(() => [])) as unknown[][];
        for (const c of consumers) if (c[1] === consumer) return Number(c[3]);
        return 0;
      };
      // Mid-run: results are flowing and worker a holds entries it has not acknowledged.
      // Frozen first (SIGSTOP), so it cannot acknowledge between the look at its pending entries and the kill.
      await until(async () => {
        if ((await client.xlen("verdicts")) < N / 10) return false;
        a.child.kill("SIGSTOP");
        if ((await pendingOf("a")) > 0) return true;
        a.child.kill("SIGCONT");
        return false;
      }, "worker a to hold pending entries");
      a.child.kill("SIGKILL");
      expect((await a.exit).signal).toBe("SIGKILL");
      const heldByDeadWorker = await pendingOf("a");
      expect(heldByDeadWorker).toBeGreaterThan(0);
      expect(await client.xlen("verdicts")).toBeLessThan(N);

      const c = spawnCli([
        "worker",
        JUDGE,
        "--redis",
        redis.url,
        "--batch",
        "4",
        "--claim-after",
        "200",
        "--consumer",
        "c",
        "--until-empty",
      ]);
      workers.push(c);
      expect(await b.exit).toEqual({ code: 0, signal: null });
      expect(await c.exit).toEqual({ code: 0, signal: null });
      const claimed = Number(/\((\d+) claimed from other workers\)/.exec(c.stderr())?.[1]);
      expect(claimed).toBeGreaterThanOrEqual(heldByDeadWorker);
      expect(await pendingOf("a")).toBe(0);
      expect(((await client.xpending("trajectories", "judges")) as unknown[])[0]).toBe(0);

      const out = join(dir, "collected.jsonl");
      const collected = runCli(["collect", "--redis", redis.url, "-o", out]);
      const elapsedMs = Date.now() - started;
      expect(collected.status).toBe(0);
      const dropped = Number(/\((\d+) duplicates? dropped\)/.exec(collected.stderr)?.[1]);
      expect(collected.stderr).toBe(`collected ${N} judgments from verdicts (${dropped} duplicate${dropped === 1 ? "" : "s"} dropped)\n`);
      expect(await client.xlen("verdicts")).toBe(N + dropped);
      const text = readFileSync(out, "utf8");
      expect(text.split("\n").filter((l) => l !== "")).toHaveLength(N);
      const fromQueue = byId(text);
      const direct = judgeJson([corpus]);
      expect(fromQueue.size).toBe(N);
      expect(direct.size).toBe(N);
      for (const [id, judgment] of direct) expect(fromQueue.get(id), id).toEqual(judgment);
      // The figures docs/SCALE.md quotes.
      console.log(
        `[redis kill test] ${N} trajectories, workers a+b (a SIGKILLed holding ${heldByDeadWorker} entries) + c (claimed ${claimed}); enqueue→collect ${elapsedMs} ms; ${dropped} duplicates dropped`,
      );
    } finally {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      client.disconnect();
      await redis.stop();
    }
  }, 120_000);

  test("a Redis that goes away mid-run: the worker stops with a clear error, and every acknowledged entry has its result", async () => {
    const persistDir = join(dir, "aof");
    rmSync(persistDir, { recursive: true, force: true });
    mkdirSync(persistDir);
    let redis: RedisServer = await startRedis({ persistDir });
    const N = 600;
    const corpus = writeGeneratedCorpus(join(dir, "away.jsonl"), N, 30);
    expect(runCli(["enqueue", corpus, "--redis", redis.url]).status).toBe(0);
    const probe = new Redis(redis.url);
    const worker = spawnCli(["worker", JUDGE, "--redis", redis.url, "--batch", "4"]);
    try {
      await until(async () => (await probe.xlen("verdicts")) >= N / 5, "results to flow");
      probe.disconnect();
      await redis.stop("SIGKILL");
      const exit = await worker.exit;
      expect(exit.code).toBe(1);
      expect(worker.stderr()).toMatch(
        new RegExp(`^behavior-judge: Redis at ${redis.url.replace(/[.]/g, "\\.")} failed during X[A-Z]+ \\S+( \\S+)?: .+\\n$`),
      );
      expect(worker.stderr()).not.toMatch(/\n\s+at /);

      redis = await startRedis({ port: redis.port, persistDir });
      const client = new Redis(redis.url);
      try {
        const groups = (await client.xinfo("GROUPS", "trajectories")) as unknown[][];
        const group = groups[0]!;
        const lastDelivered = String(group[group.indexOf("last-delivered-id") + 1]);
        const pending = new Set(
          ((await client.xpending("trajectories", "judges", "-", "+", N)) as [string, ...unknown[]][]).map(([id]) => id),
        );
        const sources = new Set(
          ((await client.xrange("verdicts", "-", "+")) as [string, string[]][]).map(([, f]) => f[f.indexOf("source") + 1]),
        );
        const entries = (await client.xrange("trajectories", "-", "+")) as [string, string[]][];
        expect(entries).toHaveLength(N);
        const acknowledged = entries.filter(([id]) => idLessOrEqual(id, lastDelivered) && !pending.has(id)).map(([id]) => id);
        // Results were flowing when Redis died: at most one batch (4) written but not yet acknowledged.
        expect(acknowledged.length).toBeGreaterThanOrEqual(N / 5 - 4);
        expect(acknowledged.filter((id) => !sources.has(id))).toEqual([]);
      } finally {
        client.disconnect();
      }
      // Nothing is lost either: a worker that claims what the dead one held finishes the stream.
      const rescue = runCli(["worker", JUDGE, "--redis", redis.url, "--claim-after", "1", "--until-empty"]);
      expect(rescue.status).toBe(0);
      const collected = runLarge(["collect", "--redis", redis.url]);
      expect(collected.status).toBe(0);
      expect(byId(collected.stdout).size).toBe(N);
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
      probe.disconnect();
      await redis.stop();
    }
  }, 120_000);

  test("the same trajectories enqueued twice: collect keeps one judgment per key; bad cases are located at enqueue and at the worker", async () => {
    const redis = await startRedis();
    try {
      const files = ["clean-escalation.json", "credit-before-lookup.json"].map((f) => join(REFUND, "trajectories", f));
      const bad = join(dir, "bad.jsonl");
      const good = JSON.parse(readFileSync(files[0]!, "utf8")).trajectory;
      // Line 1 is not JSON (enqueue refuses it), line 2 has an event without an id (the worker's judge refuses it).
      writeFileSync(bad, `{"id": \n${JSON.stringify({ ...good, id: "no-event-id", events: [{ actor: "user", action: "message" }] })}\n`);
      const first = runCli(["enqueue", ...files, bad, "--redis", redis.url]);
      expect(first.status).toBe(1);
      expect(first.stderr).toMatch(new RegExp(`^error: ${bad.replace(/[.]/g, "\\.")}:1:\\d+: case 0: invalid JSON`));
      expect(first.stderr).toContain("enqueued 3 trajectories to trajectories");
      expect(runCli(["enqueue", ...files, "--redis", redis.url]).status).toBe(0);
      const worker = runCli(["worker", JUDGE, "--redis", redis.url, "--until-empty"]);
      expect(worker.status).toBe(1);
      const direct = runCli(["judge", JUDGE, ...files, bad, "--json"]);
      const directElements = JSON.parse(direct.stdout) as { caseError?: string }[];
      const caseError = directElements.find((e) => e.caseError !== undefined && !e.caseError.startsWith("invalid JSON"))!;
      expect(worker.stderr).toContain(`error: ${bad}:2: case 1: ${caseError.caseError}\n`);
      const collected = runCli(["collect", "--redis", redis.url]);
      expect(collected.status).toBe(1);
      expect(collected.stderr).toBe("collected 3 judgments from verdicts (2 duplicates dropped)\n");
      const lines = collected.stdout
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as unknown);
      const expected = directElements.filter((e) => e.caseError === undefined || e === caseError);
      expect(lines).toEqual(expected);
    } finally {
      await redis.stop();
    }
  });

  test.each([
    { flag: [], limit: 3, exits: [7, 7, 7, 1] },
    { flag: ["--max-deliveries", "2"], limit: 2, exits: [7, 7, 1] },
  ])(
    "item 7: an entry that kills every worker holding it is a case error past --max-deliveries ($limit); the entries of its batch are judged",
    async ({ flag, limit, exits: expectedExits }) => {
      const redis = await startRedis();
      try {
        // The refund judge, but a trajectory whose id says so ends the worker's process, as an out-of-memory death would.
        const crashing = join(dir, "crashing-judge.mjs");
        writeFileSync(
          crashing,
          `import * as real from ${JSON.stringify(pathToFileURL(JUDGE).href)};
export const version = real.version, behavior = real.behavior, irSha256 = real.irSha256, rules = real.rules;
export function judgeTrajectory(trajectory, options) {
  if (String(trajectory.id).includes("exit-here")) process.exit(7);
  return real.judgeTrajectory(trajectory, options);
}
`,
        );
        const N = 8;
        const trajectories = Array.from({ length: N }, (_, i) => generatedTrajectory(i, 1) as { id: string });
        const poison = 3;
        trajectories[poison]!.id = "exit-here";
        const corpus = join(dir, "poison.jsonl");
        writeFileSync(corpus, trajectories.map((t) => JSON.stringify(t)).join("\n") + "\n");
        expect(runCli(["enqueue", corpus, "--redis", redis.url]).status).toBe(0);

        // Workers restarted as a supervisor would, each claiming what the dead ones held: with the default limit, a few runs end it.
        const exits: (number | null)[] = [];
        const worker = ["worker", crashing, "--redis", redis.url, "--batch", "4", "--claim-after", "1", "--until-empty", ...flag];
        let last = runCli(worker);
        exits.push(last.status);
        while (last.status === 7 && exits.length < 8) {
          last = runCli(worker);
          exits.push(last.status);
        }
        // Judged with its batch, then alone until the limit (3 by default), then written as a case error.
        expect(exits).toEqual(expectedExits);
        const id = last.stderr.match(/stream entry (\S+) was delivered/)?.[1];
        expect(last.stderr).toContain(
          `error: ${corpus}:${poison + 1}: case ${poison}: stream entry ${id} was delivered ${limit + 1} times and no worker acknowledged it (each died or was stopped while judging it); over --max-deliveries ${limit}, it is not judged again\n`,
        );
        const client = new Redis(redis.url);
        expect(((await client.xpending("trajectories", "judges")) as unknown[])[0]).toBe(0);
        client.disconnect();

        const collected = runCli(["collect", "--redis", redis.url]);
        expect(collected.status).toBe(1);
        const lines = collected.stdout
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as { trajectoryId?: string; case: number; caseError?: string });
        expect(lines).toHaveLength(N);
        expect(lines.filter((l) => l.caseError !== undefined).map((l) => l.case)).toEqual([poison]);
        // Every other entry, the three read in the poisoned batch included, is judged as judge --json judges it.
        const direct = judgeJson([corpus]);
        const judged = lines.filter((l) => l.caseError === undefined);
        expect(judged.map((l) => l.trajectoryId).sort()).toEqual(
          trajectories
            .filter((_, i) => i !== poison)
            .map((t) => t.id)
            .sort(),
        );
        for (const line of judged) expect(line).toEqual(direct.get(line.trajectoryId!));
      } finally {
        await redis.stop();
      }
    },
    120_000,
  );

  test("worker --max-deliveries 1 is refused: the neighbours of an entry that kills its worker would never be judged", () => {
    const run = runCli(["worker", JUDGE, "--redis", "redis://127.0.0.1:1", "--max-deliveries", "1"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--max-deliveries <n>' argument '1' is invalid. must be an integer of at least 2");
  });

  test("item 9: enqueue's memory is bounded by bytes: 100 MB of ~1 MB trajectories peaks as the first 16 MB do", async () => {
    const redis = await startRedis();
    try {
      // ~1 MB trajectories (the refund example's events repeated): a batch of 500 of them would be gigabytes once parsed.
      const bases = refundTrajectories();
      const write = (path: string, bytes: number) => {
        const fd = openSync(path, "w");
        let written = 0;
        let count = 0;
        for (; written < bytes; count++) {
          const text = `${JSON.stringify(generatedTrajectory(count, 1000, bases))}\n`;
          writeSync(fd, text);
          written += text.length;
        }
        closeSync(fd);
        return { written, count };
      };
      const head = join(dir, "head.jsonl");
      const corpus = join(dir, "large.jsonl");
      write(head, 16 << 20);
      const { written: size, count } = write(corpus, 100 << 20);
      const peak = (file: string, stream: string) => {
        const run = runCli(["enqueue", file, "--redis", redis.url, "--stream", stream], { nodeArgs: ["--require", MAX_RSS] });
        expect(run.status, run.stderr).toBe(0);
        const rss = Number(/max-rss-kib: (\d+)/.exec(run.stderr)?.[1]) * 1024;
        process.stderr.write(`[enqueue memory] ${file}: peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB\n`);
        return rss;
      };
      const baseline = peak(head, "head");
      const large = peak(corpus, "large");
      // Holding the corpus's text alone would cost its size, parsed several times that; what is in flight, a batch
      // and a trajectory or two, costs what it costs on the head, give or take when the collector runs (16 MB: 121 MiB,
      // 100 MB: 148-165 MiB here, against 183 and 646 MiB with batches of 500 cases). The bound is the claim itself,
      // less than the head's peak plus the corpus's text: half the text (the bound until stop 30) left 50 MiB for
      // the collector's timing, and a CI run used 52.
      expect(large).toBeLessThan(baseline + size);
      const client = new Redis(redis.url);
      expect(await client.xlen("large")).toBe(count);
      client.disconnect();
    } finally {
      await redis.stop();
    }
  }, 120_000);

  test("item 13: collect refuses results of two judges of one behavior, and --judge collects one of them", async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    try {
      // Judge B: the refund judge.yaml with one more comment line: the same behavior, another build.
      const yamlB = join(dir, "judge-b.yaml");
      writeFileSync(yamlB, `# rebuilt\n${readFileSync(join(REFUND, "judge.yaml"), "utf8")}`);
      const shaOf = (path: string) => createHash("sha256").update(readFileSync(path, "utf8")).digest("hex");
      const shaA = shaOf(join(REFUND, "judge.yaml"));
      const shaB = shaOf(yamlB);
      const corpus = writeGeneratedCorpus(join(dir, "two-judges.jsonl"), 20);
      expect(runCli(["enqueue", corpus, "--redis", redis.url]).status).toBe(0);
      // Two consumer groups read the same stream, one per judge, and write to the same results stream.
      expect(runCli(["worker", JUDGE, "--redis", redis.url, "--group", "a", "--until-empty"]).status).toBe(0);
      expect(runCli(["worker", yamlB, "--redis", redis.url, "--group", "b", "--until-empty"]).status).toBe(0);

      // Every result names the judge.yaml its judge was built from.
      const entries = (await client.xrange("verdicts", "-", "+")) as [string, string[]][];
      expect(entries).toHaveLength(40);
      const shas = entries.map(([, f]) => f[f.indexOf("judgeYamlSha256") + 1]);
      expect(new Set(shas)).toEqual(new Set([shaA, shaB]));

      const mixed = runCli(["collect", "--redis", redis.url]);
      expect(mixed.status).toBe(1);
      expect(mixed.stdout).toBe("");
      expect(mixed.stderr).toContain("verdicts holds the results of 2 judges");
      expect(mixed.stderr).toContain(`refund-support, judge.yaml sha256 ${shaA}`);
      expect(mixed.stderr).toContain(`refund-support, judge.yaml sha256 ${shaB}`);
      expect(mixed.stderr).toContain("--judge");

      const onlyA = runCli(["collect", "--redis", redis.url, "--judge", shaA.slice(0, 12)]);
      expect(onlyA.status, onlyA.stderr).toBe(0);
      expect(onlyA.stderr).toBe(
        `collected 20 judgments from verdicts (0 duplicates dropped; 20 results of another judge left out: refund-support, judge.yaml sha256 ${shaB} (behavior-judge ${VERSION}))\n`,
      );
      const direct = judgeJson([corpus]);
      const lines = onlyA.stdout.split("\n").filter((l) => l !== "");
      expect(lines).toHaveLength(20);
      for (const line of lines) {
        const judgment = JSON.parse(line) as { trajectoryId: string };
        expect(judgment).toEqual(direct.get(judgment.trajectoryId));
      }
      const unknown = runCli(["collect", "--redis", redis.url, "--judge", "0000"]);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain("--judge 0000 matches no judge of verdicts");
      // Without the registry (a stream written by workers that did not register), the mix is still found, as it is met.
      await client.del("verdicts:judges");
      const late = runCli(["collect", "--redis", redis.url]);
      expect(late.status).toBe(1);
      expect(late.stderr).toMatch(
        /^behavior-judge: verdicts holds results of another judge than its first \(entry \S+: refund-support, judge\.yaml sha256 [0-9a-f]{64}\); 20 lines of the first were written before it: collect again with --judge SHA\n$/,
      );
    } finally {
      client.disconnect();
      await redis.stop();
    }
  }, 120_000);

  test("an unreachable Redis is a one-line error naming the server, password hidden", async () => {
    const redis = await startRedis();
    await redis.stop();
    const run = runCli(["collect", "--redis", `redis://:s3cret@127.0.0.1:${redis.port}`]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `behavior-judge: cannot connect to Redis at redis://:***@127.0.0.1:${redis.port}: connect ECONNREFUSED 127.0.0.1:${redis.port}\n`,
    );
  });
});

test("only the queue commands load the Redis client: not judge, not the importers entry", () => {
  const dir = mkdtempSync(join(tmpdir(), "bj-lazy-"));
  try {
    const trace = join(dir, "trace.txt");
    const traced = (args: string[]) =>
      runCli(args, {
        nodeArgs: ["--import", pathToFileURL(join(ROOT, "test", "support", "trace-imports.mjs")).href],
        env: { BJ_TRACE_FILE: trace },
      });
    expect(traced(["judge", JUDGE, join(REFUND, "trajectories", "clean-escalation.json"), "--json"]).status).toBe(0);
    expect(readFileSync(trace, "utf8")).not.toMatch(/^ioredis$/m);
    // The tracer does see the client when a queue command runs (here against a closed port).
    traced(["collect", "--redis", "redis://127.0.0.1:1"]);
    expect(readFileSync(trace, "utf8")).toMatch(/^ioredis$/m);
    // The library bundles (built by the suite's setup) never carry it.
    for (const bundle of ["importers.mjs", "testing.mjs", "vitest.mjs", "braintrust.mjs"])
      expect(readFileSync(join(ROOT, "dist", bundle), "utf8"), bundle).not.toContain("ioredis");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
