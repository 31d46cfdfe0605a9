/**
 * Trajectories that come through a pipe rather than a file (issue 20):
 * a FIFO or bash's `<(…)` as an argument (item 15), and stdin holding what
 * people really pipe in (item 20).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BIN, ROOT, runCli } from "../support/cli.js";

const REFUND = join(ROOT, "examples", "refund-support");
const JUDGE = join(REFUND, "judge.mjs");
const FAILING = join(REFUND, "trajectories", "credit-before-lookup.json");
const PASSING = join(REFUND, "trajectories", "clean-single-refund.json");

/** Runs a bash command line with $BJ as the CLI, so that `<(…)` and FIFOs are bash's own. */
function bash(script: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync("bash", ["-c", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, BJ: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const compact = (file: string) => JSON.stringify(JSON.parse(readFileSync(file, "utf8")));
const verdicts = (stdout: string) => (JSON.parse(stdout) as { trajectoryId: string; verdict: string }[]).map((j) => j.verdict);

describe("item 15: a pipe as a trajectory argument", () => {
  test("bash's <(cat file) is read as a stream, beside a regular file", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-procsub-"));
    writeFileSync(join(dir, "failing.txt"), `${compact(FAILING)}\n`);
    const run = bash(`eval "$BJ judge ${JUDGE} <(cat ${dir}/failing.txt) ${PASSING} --json --fail-on-false"`);
    expect(run.stderr).toBe("");
    expect(verdicts(run.stdout)).toEqual(["false", "true"]);
    expect(run.status).toBe(1);
  });

  test("a FIFO with no extension holding JSON Lines, and one holding a JSON array", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-fifo-"));
    const lines = join(dir, "live");
    const array = join(dir, "batch");
    writeFileSync(join(dir, "lines.txt"), `${compact(FAILING)}\n${compact(PASSING)}\n`);
    writeFileSync(join(dir, "array.txt"), `[${compact(PASSING)}]`);
    const run = bash(
      `mkfifo ${lines} ${array}; (cat ${dir}/lines.txt > ${lines} &); (cat ${dir}/array.txt > ${array} &); eval "$BJ judge ${JUDGE} ${lines} ${array} --json"`,
    );
    expect(run.stderr).toBe("");
    expect(verdicts(run.stdout)).toEqual(["false", "true", "true"]);
    expect(run.status).toBe(0);
  });
});

describe("item 20: what people pipe into stdin", () => {
  test("one pretty-printed JSON document is one error saying what to do, not one per line", () => {
    const pretty = readFileSync(FAILING, "utf8");
    expect(pretty.split("\n").length).toBeGreaterThan(40);
    const run = runCli(["judge", JUDGE, "-", "--json"], { input: pretty });
    expect(run.stderr).toBe("error: -: case 0: stdin holds one pretty-printed JSON document: compact it (jq -c) or wrap it in [ ]\n");
    expect(run.status).toBe(1);
    // Wrapped in [ ], as the message says, it is judged.
    const wrapped = runCli(["judge", JUDGE, "-", "--json"], { input: `[${pretty}]` });
    expect(wrapped.stderr).toBe("");
    expect(verdicts(wrapped.stdout)).toEqual(["false"]);
  });

  test("JSON Lines whose first line is an array (a chat log per line) are read as the .jsonl path reads them", () => {
    const conversations = [
      [
        { role: "user", content: "Refund order C-9 now." },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "issue_refund", arguments: '{"order_id":"C-9"}' } }],
        },
      ],
      [
        { role: "user", content: "Where is my order?" },
        { role: "assistant", content: "It ships tomorrow." },
      ],
    ];
    const text = conversations.map((c) => `${JSON.stringify(c)}\n`).join("");
    const file = join(mkdtempSync(join(tmpdir(), "bj-lines-")), "chats.jsonl");
    writeFileSync(file, text);
    const fromFile = runCli(["judge", JUDGE, file, "--json"]);
    const fromStdin = runCli(["judge", JUDGE, "-", "--json"], { input: text });
    expect(fromStdin.stderr).toBe("");
    // Traces without a native id are named after their file (issue 22, defect 7); stdin has no name.
    const ids = (stdout: string) => (JSON.parse(stdout) as { trajectoryId: string }[]).map((j) => j.trajectoryId);
    expect(ids(fromFile.stdout)).toEqual(["chats-1", "chats-2"]);
    expect(ids(fromStdin.stdout)).toEqual(["trace-1", "trace-2"]);
    const strip = (stdout: string) =>
      (JSON.parse(stdout) as { file: string; trajectoryId: string }[]).map(({ file: _file, trajectoryId: _id, ...rest }) => rest);
    expect(strip(fromStdin.stdout)).toEqual(strip(fromFile.stdout));
    expect(verdicts(fromStdin.stdout)).toEqual(["false", "na"]);
    // A one-line array with nothing after it is still one array of trajectories.
    const one = runCli(["judge", JUDGE, "-", "--json"], { input: `[${compact(PASSING)},${compact(FAILING)}]\n` });
    expect(verdicts(one.stdout)).toEqual(["true", "false"]);
  });
});
