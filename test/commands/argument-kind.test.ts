/**
 * `build BEHAVIOR.md` and `generate judge.yaml` (issue 24): a file given to
 * the wrong command says in one line what it is and where it goes, instead
 * of a YAML or frontmatter parse error.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { fileKind } from "../../compiler/files/argument-kind.js";
import { ROOT, runCli } from "../support/cli.js";

const EXAMPLE = join(ROOT, "examples/refund-support");

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-args-"));
  copyFileSync(join(EXAMPLE, "BEHAVIOR.md"), join(dir, "BEHAVIOR.md"));
  copyFileSync(join(EXAMPLE, "judge.yaml"), join(dir, "judge.yaml"));
  copyFileSync(join(EXAMPLE, "judge.mjs"), join(dir, "judge.mjs"));
  copyFileSync(join(EXAMPLE, "traces/chat-log.json"), join(dir, "chat.json"));
  return dir;
}

/** The run's one stderr line; it failed with exit 1 and wrote nothing on stdout. */
function oneLine(dir: string, args: string[]): string {
  const run = runCli(args, { cwd: dir });
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(/invalid YAML|frontmatter|is required/);
  return lines[0]!;
}

describe("a file given to the wrong command", () => {
  test("build BEHAVIOR.md: a spec, drafted into a judge.yaml by generate", () => {
    const dir = project();
    expect(oneLine(dir, ["build", "BEHAVIOR.md"])).toBe(
      "behavior-judge: BEHAVIOR.md looks like a spec (BEHAVIOR.md): build compiles a judge.yaml; draft one from this spec with `behavior-judge generate BEHAVIOR.md`, then build that",
    );
    expect(existsSync(join(dir, "BEHAVIOR.mjs"))).toBe(false);
    // A spec by its content, whatever its name.
    copyFileSync(join(dir, "BEHAVIOR.md"), join(dir, "spec"));
    expect(oneLine(dir, ["build", "spec"])).toContain("spec looks like a spec (BEHAVIOR.md): build compiles a judge.yaml");
  });

  test("build judge.mjs or trajectories: what they are and where they go", () => {
    const dir = project();
    expect(oneLine(dir, ["build", "judge.mjs"])).toBe(
      "behavior-judge: judge.mjs looks like a built judge (JavaScript): build compiles a judge.yaml; this one is built already: pass it to judge, watch or calibrate",
    );
    expect(oneLine(dir, ["build", "chat.json"])).toBe(
      "behavior-judge: chat.json looks like trajectories (JSON): build compiles a judge.yaml; trajectories go to judge or calibrate, after the judge",
    );
  });

  test("generate judge.yaml: the spec goes first, and build compiles this judge", () => {
    const dir = project();
    expect(oneLine(dir, ["generate", "judge.yaml", "--offline"])).toBe(
      "behavior-judge: judge.yaml looks like a judge.yaml (the judge): generate drafts a judge.yaml from a spec, given first (generate BEHAVIOR.md [samples...]); to compile this judge, run `behavior-judge build judge.yaml`",
    );
    expect(oneLine(dir, ["generate", "chat.json", "--offline"])).toBe(
      "behavior-judge: chat.json looks like trajectories (JSON): generate drafts a judge.yaml from a spec, given first (generate BEHAVIOR.md [samples...]); trajectories go after the spec, as samples: generate BEHAVIOR.md chat.json",
    );
    expect(oneLine(dir, ["generate", "judge.mjs", "--offline"])).toContain("judge.mjs looks like a built judge (JavaScript)");
    // Nothing was written in place of a judge.yaml.
    expect(readFileSync(join(dir, "judge.yaml"), "utf8")).toBe(readFileSync(join(EXAMPLE, "judge.yaml"), "utf8"));
  });

  test("a judge written as JSON (JSON is YAML) still builds; the right files are not refused", async () => {
    const dir = project();
    writeFileSync(join(dir, "judge.json"), JSON.stringify(parseYaml(readFileSync(join(dir, "judge.yaml"), "utf8"))));
    expect(await fileKind(join(dir, "judge.json"))).toBe("judge.yaml");
    const built = runCli(["build", "judge.json", "-o", "from-json.mjs"], { cwd: dir });
    expect(built.stderr).toBe("");
    expect(built.status).toBe(0);
    expect(existsSync(join(dir, "from-json.mjs"))).toBe(true);
    expect(await fileKind(join(dir, "BEHAVIOR.md"))).toBe("spec");
    expect(await fileKind(join(dir, "judge.yaml"))).toBe("judge.yaml");
    // An extensionless judge.yaml is read by its keys; what cannot be told is left to the command.
    writeFileSync(join(dir, "rules"), stringify({ version: 1, behavior: "x", metaBehaviors: [] }));
    expect(await fileKind(join(dir, "rules"))).toBe("judge.yaml");
    writeFileSync(join(dir, "notes"), "hello\n");
    expect(await fileKind(join(dir, "notes"))).toBeUndefined();
    expect(await fileKind(dir)).toBeUndefined();
  });
});
