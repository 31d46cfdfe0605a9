/**
 * Importers everywhere a trajectory goes (IMPORTERS.md "Where importers are
 * used"), through the real CLI: `import`, `--from`, labeled cases wrapping a
 * trace, and located errors that never hide the other traces.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatNames } from "../../importers/index.js";
import { loadSamples } from "../../compiler/generate/samples.js";
import { ROOT, runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const JUDGE = join(IMPORTER_FIXTURES, "refund-rules.judge.yaml");
const CHAT = join(IMPORTER_FIXTURES, "openai-chat", "refund-parallel.json");

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-importers-"));
}

const goodLine = {
  messages: [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
  ],
};
const badLine = {
  messages: [
    { role: "user", content: "refund A-1" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { arguments: "{}" } }] },
  ],
};

describe("behavior-judge import", () => {
  test("writes one trajectory per line; a bad conversation is located by file, line and field, the others are still written; exit 1", () => {
    const dir = tempDir();
    const file = join(dir, "chats.jsonl");
    writeFileSync(file, [goodLine, badLine, goodLine].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const run = runCli(["import", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`error: ${file}:2: case 1: openai-chat: messages[1].tool_calls[0].function: missing name\n`);
    expect(
      run.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(["chats-1", "chats-3"]); // no native id: the file's name and the line's case number (issue 22, defect 7)
  });

  test("importing twice gives identical bytes; -o x.json writes one JSON document", () => {
    const dir = tempDir();
    const a = runCli(["import", CHAT]);
    const b = runCli(["import", CHAT]);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const out = join(dir, "one.json");
    expect(runCli(["import", CHAT, "-o", out]).status).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(JSON.parse(a.stdout));
  });

  test("--complete overrides what was detected; --reasoning keeps the model's thinking", () => {
    const forced = runCli(["import", join(IMPORTER_FIXTURES, "openai-chat", "photo-cut-off.json"), "--complete", "true"]);
    expect((JSON.parse(forced.stdout) as { complete: boolean }).complete).toBe(true);
    const thinking = runCli(["import", join(IMPORTER_FIXTURES, "anthropic", "refund-parallel-error.json"), "--reasoning"]);
    const events = (JSON.parse(thinking.stdout) as { events: { action: string; content: string }[] }).events;
    expect(events.find((e) => e.action === "reasoning")?.content).toBe("Two orders; I should look both up before refunding.");
  });

  test("an unknown shape names the --from values; --from with a value that is no format is a usage error", () => {
    const dir = tempDir();
    const file = join(dir, "odd.json");
    writeFileSync(file, JSON.stringify({ log: ["something"] }));
    const run = runCli(["import", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: ${file}: case 0: unknown trace format`);
    expect(run.stderr).toContain(`pass --from with one of: ${formatNames().join(", ")} (or trajectory)`);
    const usage = runCli(["import", file, "--from", "csv"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Allowed choices are auto, trajectory, openai-responses");
  });

  test("--from trajectory never imports: a chat log is one line naming the format it looks like (issue 24), not the validator's message per message", () => {
    const run = runCli(["import", CHAT, "--from", "trajectory"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("case 0: --from trajectory does not fit: the file looks like openai-chat");
    expect(run.stderr).not.toContain("id must be a non-empty string");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("judge, calibrate and generate read traces directly", () => {
  test("judge: a raw chat log with no conversion step", () => {
    const run = runCli(["judge", JUDGE, CHAT, "--no-verify", "--no-web"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("PASS  chatcmpl-rec0004");
    expect(run.stdout).toContain("1 trajectory judged: 1 true, 0 false, 0 na");
  });

  test("calibrate: a labeled case may wrap any supported format under trajectory", () => {
    const dir = tempDir();
    const chat = JSON.parse(readFileSync(join(IMPORTER_FIXTURES, "openai-chat", "legacy-functions.json"), "utf8")) as unknown;
    const anthropic = JSON.parse(readFileSync(join(IMPORTER_FIXTURES, "anthropic", "refund-parallel-error.json"), "utf8")) as unknown;
    const labels = (verdict: string, confirm: string) => ({
      verdict,
      metaBehaviorVerdicts: {
        "Look the order up before refunding": "true",
        "Confirm every approved refund by email": confirm,
        "Tell the customer when a refund fails": "na",
        "Write a handover note after escalating": "na",
      },
    });
    const file = join(dir, "labeled.json");
    writeFileSync(
      file,
      JSON.stringify([
        { trajectory: chat, expected: labels("false", "false") },
        {
          trajectory: anthropic,
          expected: {
            ...labels("true", "true"),
            metaBehaviorVerdicts: { ...labels("true", "true").metaBehaviorVerdicts, "Tell the customer when a refund fails": "true" },
          },
        },
      ]),
    );
    const run = runCli(["calibrate", JUDGE, file, "--no-verify"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("meta agreement 8/8, file agreement 2/2");
    expect(run.status).toBe(0);
  });

  test("a labeled case holding several traces is an error for that case only", () => {
    const dir = tempDir();
    const file = join(dir, "labeled.jsonl");
    const several = [goodLine, { messages: [{ role: "user", content: "another customer" }] }];
    const expected = { verdict: "na", metaBehaviorVerdicts: {} };
    writeFileSync(file, `${JSON.stringify({ trajectory: several, expected })}\n${JSON.stringify({ trajectory: goodLine, expected })}\n`);
    const run = runCli(["calibrate", JUDGE, file, "--no-verify"]);
    expect(run.stderr).toContain(`${file}:1: case 0: trajectory: a labeled case wraps one trace; this one holds 2`);
  });

  test("the README example: the refund-support judge on a recorded Chat Completions log, no conversion step", () => {
    const example = join(ROOT, "examples", "refund-support");
    const run = runCli(["judge", join(example, "judge.mjs"), join(example, "traces", "chat-log.json"), "--json", "--no-verify"]);
    expect(run.status).toBe(0);
    const [judgment] = JSON.parse(run.stdout) as {
      verdict: string;
      metaBehaviors: { name: string; verdict: string; clauses: { citations: { eventId: string }[] }[] }[];
    }[];
    expect(judgment!.verdict).toBe("false");
    expect(judgment!.metaBehaviors.map((m) => [m.name, m.verdict])).toEqual([
      ["Look up the order before paying anything out", "true"],
      ["Email a confirmation for every approved refund", "false"],
      ["Stop paying out once escalated", "na"],
      ["Refund at most three orders per session", "true"],
    ]);
    // The unconfirmed approval is the second refund's result (B-7), after the only email.
    expect(judgment!.metaBehaviors[1]!.clauses[0]!.citations.map((c) => c.eventId)).toEqual(["e11"]);
  });

  test("generate's samples (and lint's) are read the same way", async () => {
    const samples = await loadSamples([CHAT, join(IMPORTER_FIXTURES, "vercel-ai", "v7-several-conversations.jsonl")]);
    expect(samples.map((s) => s.id)).toEqual([
      "chatcmpl-rec0004",
      "v7-several-conversations-1",
      "v7-several-conversations-2",
      "v7-several-conversations-3",
    ]);
    expect(samples[0]!.events.some((e) => e.action === "get_order_result" && e.metadata?.status === "found")).toBe(true);
  });
});
