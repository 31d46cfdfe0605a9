/**
 * behavior-judge/files (issue 24): the test suite reads trajectory files
 * exactly as `judge` does (folders, arrays of cases, JSONL, traces of any
 * format), and a misused library names its own `from` option, never the
 * CLI's --from flag.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { readCaseFiles, type FileCase } from "../../testing/files.js";
import { assertBehavior } from "../../testing/index.js";
import { formatNames, importTrace } from "../../importers/index.js";
import * as refund from "../../examples/refund-support/judge.mjs";
import { ROOT, runCli } from "../support/cli.js";

// @ts-expect-error a plain JS build script, without types
const { bundleLibrary, LIBRARIES } = (await import("../../scripts/bundle-importers.js")) as {
  bundleLibrary(l: unknown): Promise<string>;
  LIBRARIES: { source: string; out: string; external: string[] }[];
};

const EXAMPLE = join(ROOT, "examples/refund-support");
const trajectory = (id: string) => ({
  id,
  complete: true,
  events: [{ id: "e1", actor: "user", action: "message", content: `hi from ${id}` }],
});
const OPTION_HINT = `set the from option to one of: ${formatNames().join(", ")} (or trajectory)`;
const FLAG_HINT = `pass --from with one of: ${formatNames().join(", ")} (or trajectory)`;

/** A folder of every kind of input judge reads: an array file, JSONL, a labeled case, a chat log, a broken file, a subfolder. */
function mixedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-files-"));
  const folder = join(dir, "trajectories");
  mkdirSync(join(folder, "nested"), { recursive: true });
  writeFileSync(join(folder, "a-array.json"), JSON.stringify([trajectory("arr-1"), trajectory("arr-2"), trajectory("arr-3")], null, 2));
  writeFileSync(join(folder, "b-lines.jsonl"), `${JSON.stringify(trajectory("line-1"))}\n\n${JSON.stringify(trajectory("line-2"))}\n`);
  copyFileSync(join(EXAMPLE, "trajectories/credit-before-lookup.json"), join(folder, "c-labeled.json"));
  copyFileSync(join(EXAMPLE, "traces/chat-log.json"), join(folder, "d-chat-log.json"));
  writeFileSync(join(folder, "e-broken.json"), "{ not json");
  writeFileSync(join(folder, "f-unknown.json"), JSON.stringify({ rows: [1, 2, 3] }));
  writeFileSync(join(folder, "notes.txt"), "not read");
  writeFileSync(join(folder, "nested/ignored.json"), JSON.stringify(trajectory("nested")));
  return dir;
}

const ids = (cases: readonly FileCase[]) => cases.map((c) => c.error ?? (c.trajectory as { id: string }).id);

describe("readCaseFiles", () => {
  test("a folder is read as judge reads it: an array file is several cases, JSONL lines, a labeled case, an imported chat log, located errors", async () => {
    const dir = mixedFolder();
    const warnings: string[] = [];
    const cases = await readCaseFiles("trajectories", { cwd: dir, onWarning: (m) => warnings.push(m) });
    expect(cases.map((c) => c.where)).toEqual([
      "trajectories/a-array.json:2: case 0",
      "trajectories/a-array.json:14: case 1",
      "trajectories/a-array.json:26: case 2",
      "trajectories/b-lines.jsonl:1: case 0",
      "trajectories/b-lines.jsonl:3: case 1",
      "trajectories/c-labeled.json: case 0",
      "trajectories/d-chat-log.json: case 0",
      "trajectories/e-broken.json:1:3: case 0",
      "trajectories/f-unknown.json: case 0",
    ]);
    const chatId = importTrace(JSON.parse(readFileSync(join(EXAMPLE, "traces/chat-log.json"), "utf8")), { defaultId: "d-chat-log" })
      .trajectories[0]!.id;
    expect(ids(cases).slice(0, 7)).toEqual(["arr-1", "arr-2", "arr-3", "line-1", "line-2", "credit-before-lookup", chatId]);
    expect(cases[5]!.expected?.verdict).toBe("false");
    expect(cases[7]!.error).toMatch(/JSON/);
    // The library's message names its option, not the CLI's flag.
    expect(cases[8]!.error).toMatch(/^unknown trace format: /);
    expect(cases[8]!.error!.endsWith(OPTION_HINT)).toBe(true);
    expect(warnings).toEqual([`trajectories: not read: subfolder nested (pass a subfolder as an argument to read it)`]);

    // The CLI reads the same cases, in the same order, and names its flag.
    const run = runCli(["judge", join(EXAMPLE, "judge.mjs"), "trajectories", "--jsonl", "--no-web"], { cwd: dir });
    const judged = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { trajectoryId?: string });
    expect(judged.flatMap((j) => (j.trajectoryId === undefined ? [] : [j.trajectoryId]))).toEqual(ids(cases).slice(0, 7));
    expect(run.stderr).toContain(`trajectories/f-unknown.json: case 0: unknown trace format`);
    expect(run.stderr).toContain(FLAG_HINT);
    expect(run.stderr).not.toContain("set the from option");
  });

  test("each case goes straight to assertBehavior: labels are compared, a trace is judged as imported", async () => {
    const dir = mixedFolder();
    const cases = await readCaseFiles(pathToFileURL(join(dir, "trajectories/")), {});
    // Absolute paths stay absolute.
    expect(cases[5]!.where).toBe(`${join(dir, "trajectories/c-labeled.json")}: case 0`);
    // The labeled case is false and labeled false: it agrees with its labels.
    await assertBehavior(refund, cases[5]);
    const { expected: _labels, ...unlabeled } = cases[5]!;
    void _labels;
    await expect(assertBehavior(refund, unlabeled)).rejects.toThrow("Look up the order before paying anything out");
    await assertBehavior(refund, cases[0]);
  });

  test("one file, --from as the from option, and misuse named by the option", async () => {
    const dir = mixedFolder();
    const chat = await readCaseFiles(join(dir, "trajectories/d-chat-log.json"), { from: "openai-chat", id: "ticket" });
    expect(ids(chat)).toEqual(["ticket"]);
    await expect(readCaseFiles("trajectories", { cwd: dir, from: "csv" })).rejects.toThrow(
      'readCaseFiles: from "csv" names no format: use auto, trajectory, or one of',
    );
    await expect(readCaseFiles([], {})).rejects.toThrow("readCaseFiles: paths must be");
    await expect(readCaseFiles("missing", { cwd: dir })).rejects.toThrow("cannot read missing: no such file or directory");
    // A misplaced file says what it is, without the CLI's argument advice.
    writeFileSync(join(dir, "judge.yaml"), "version: 1\n");
    const misplaced = await readCaseFiles("judge.yaml", { cwd: dir }).catch((e: Error) => e.message);
    expect(misplaced).toBe("judge.yaml looks like a judge.yaml (the judge); trajectories are .json or .jsonl files (or agent traces)");
    // assertBehavior and importTrace name the option too.
    await expect(assertBehavior(refund, { rows: [1] })).rejects.toThrow(OPTION_HINT);
    expect(importTrace({ rows: [1] }).errors[0]!.message.endsWith(OPTION_HINT)).toBe(true);
    expect(importTrace({ rows: [1] }, { formatSetting: "--from" }).errors[0]!.message.endsWith(FLAG_HINT)).toBe(true);
  });

  test("the bundle imports only node: builtins, loads no compiler, and runs alone in a folder", async () => {
    const library = LIBRARIES.find((l) => l.out === "files.mjs")!;
    const bundle = await bundleLibrary(library);
    // A dynamic import of a named module counts as that module (node:fs/promises is loaded when a
    // file is first read); any other import( or require( is flagged as itself.
    const imports = [
      ...bundle.matchAll(/^\s*import\s[^;]*?from\s*"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)|\bimport\s*\(|\brequire\s*\(/gm),
    ].map((m) => m[1] ?? m[2] ?? m[0]);
    expect(new Set(imports)).toEqual(new Set(library.external));
    expect(bundle).not.toMatch(/ts-morph|prettier|esbuild|commander|from "yaml"|zod/);
    const dir = mixedFolder();
    writeFileSync(join(dir, "files.mjs"), bundle);
    const files = (await import(pathToFileURL(join(dir, "files.mjs")).href)) as typeof import("../../testing/files.js");
    expect(ids(await files.readCaseFiles("trajectories", { cwd: dir })).slice(0, 3)).toEqual(["arr-1", "arr-2", "arr-3"]);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    expect(pkg.exports["./files"]).toEqual({ types: "./dist/testing/files.d.ts", default: "./dist/files.mjs" });
  });
});
