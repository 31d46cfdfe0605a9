/**
 * `--help` says what each command does with its flags (issue 24, "Messages
 * and help"): a flag the command would ignore is not offered, a required one
 * is shown as required, folders are named where a folder is read, `baseline`
 * reads `--from`, and `init` is listed as a scaffold of one's own behavior.
 */
import { describe, expect, it } from "vitest";
import { runInProcess } from "../support/in-process.js";

/** The help text with its line wrapping undone, so a reworded line break fails nothing. */
async function help(...command: string[]): Promise<string> {
  const result = await runInProcess(...command, "--help");
  expect(result.code).toBe(0);
  return result.stdout.replace(/\s+/g, " ");
}

/** The flags a command's --help lists, e.g. ["--json", "--model", …]. */
async function flags(command: string): Promise<string[]> {
  return [...(await help(command)).matchAll(/ (--[a-z-]+)/g)].map((m) => m[1]!);
}

describe("flags a command ignores are not listed", () => {
  it("--concurrency is offered where cases or calls overlap, and not by watch or generate", async () => {
    for (const command of ["judge", "calibrate", "baseline", "worker"]) expect(await flags(command)).toContain("--concurrency");
    // watch judges one trajectory and generate drafts one request at a time: nothing would run concurrently.
    for (const command of ["watch", "generate"]) {
      const listed = await flags(command);
      expect(listed).toContain("--model");
      expect(listed).not.toContain("--concurrency");
    }
  });

  it("watch and generate refuse --concurrency as unknown instead of ignoring it", async () => {
    const watch = await runInProcess("watch", "examples/refund-support/judge.mjs", "-", "--concurrency", "2");
    expect(watch.code).toBe(2);
    expect(watch.stderr).toContain("unknown option '--concurrency'");
    const generate = await runInProcess("generate", "examples/refund-support", "--concurrency", "2");
    expect(generate.code).toBe(2);
    expect(generate.stderr).toContain("unknown option '--concurrency'");
  });
});

describe("--redis is shown as required", () => {
  it("in each queue command's usage line, its option text and the command list", async () => {
    const top = await help();
    for (const [command, args] of [
      ["enqueue", " <trajectories...>"],
      ["worker", " <judge>"],
      ["collect", ""],
    ] as const) {
      const text = await help(command);
      expect(text).toContain(`Usage: behavior-judge ${command} --redis <url> [options]${args}`);
      expect(text).toMatch(/--redis <url> required: the Redis server/);
      expect(top).toContain(` ${command} --redis <url> [options]${args} `);
    }
  });

  it("and a queue command without it is a usage error naming it", async () => {
    const result = await runInProcess("collect");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("required option '--redis <url>' not specified");
  });
});

describe("folders are named where they are read", () => {
  it("every argument and flag that takes trajectory files says folders are read too", async () => {
    for (const command of ["judge", "calibrate", "baseline", "import", "enqueue", "generate"])
      expect(await help(command), command).toMatch(/, or folders of them/);
    for (const command of ["build", "lint"])
      expect(await help(command), command).toContain("--samples <files...> sample trajectory files or folders");
  });
});

describe("baseline reads trace formats", () => {
  it("lists --from with the same formats as judge", async () => {
    const fromOf = (text: string) => /--from <format> .*?default: "auto"\)/.exec(text)?.[0];
    expect(fromOf(await help("baseline"))).toContain('"openai-chat"');
    expect(fromOf(await help("baseline"))).toBe(fromOf(await help("judge")));
  });
});

describe("init", () => {
  it("is in the command list as a scaffold of a new behavior, not of an example", async () => {
    const top = await help();
    expect(top).toContain(" init [name] scaffold a new behavior of your own in this repo");
    const text = await help("init");
    expect(text).toContain("the name of the new behavior, e.g. checkout-agent");
    expect(text).toContain("every name starts from the same one-rule template");
    expect(text).not.toMatch(/refund|example/i);
  });
});
