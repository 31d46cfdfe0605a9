/**
 * The build cache of `judge judge.yaml`: a changed generator must never serve
 * an old build, and an entry that is not what was written is never run.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { generatorFingerprint, generatorInputs, importSpecifiers } from "../../compiler/build/cache.js";
import { ROOT, runCli } from "../support/cli.js";
import { SMALL_JUDGE } from "../support/judges.js";

const JUDGE = SMALL_JUDGE;

const trajectory = (id: string, actions: string[]) => ({
  id,
  complete: true,
  events: actions.map((action, i) => ({ id: `e${i + 1}`, actor: "agent", action })),
});

/** A project with a judge.yaml and one passing and one failing trajectory; the cache lives in it. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-build-cache-"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "judge.yaml"), JUDGE);
  writeFileSync(join(dir, "cases.json"), JSON.stringify([trajectory("good", ["run_tests", "deploy"]), trajectory("bad", ["deploy"])]));
  return dir;
}

const buildsDir = (dir: string) => join(dir, ".cache", "behavior-judge", "builds");
const entries = (dir: string) => readdirSync(buildsDir(dir)).filter((f) => f.endsWith(".mjs"));
const judgeArgs = (dir: string) => ["judge", join(dir, "judge.yaml"), join(dir, "cases.json"), "--json"];
const verdicts = (stdout: string) =>
  (JSON.parse(stdout) as { trajectoryId: string; verdict: string }[]).map((j) => `${j.trajectoryId}:${j.verdict}`);

describe("build cache entries are checked before they run", () => {
  test("a truncated entry is rebuilt: correct verdicts, no SyntaxError, and the entry is whole again", () => {
    const dir = project();
    const first = runCli(judgeArgs(dir), { cwd: dir });
    expect(first.status).toBe(0);
    expect(verdicts(first.stdout)).toEqual(["good:true", "bad:false"]);
    const [entry] = entries(dir);
    const path = join(buildsDir(dir), entry!);
    const whole = readFileSync(path, "utf8");
    writeFileSync(path, whole.slice(0, Math.floor(whole.length / 2)));

    const second = runCli(judgeArgs(dir), { cwd: dir });
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(path, "utf8")).toBe(whole);
  });

  test("a replaced entry is not run: the judge is rebuilt and the fake is overwritten", () => {
    const dir = project();
    const first = runCli(judgeArgs(dir), { cwd: dir });
    expect(first.status).toBe(0);
    const path = join(buildsDir(dir), entries(dir)[0]!);
    const whole = readFileSync(path, "utf8");
    // A module with the judge's exports that passes everything, with and without a copied header.
    const fake = `export const version = "0.1.0"; export const behavior = "small"; export const irSha256 = ""; export const rules = [];
export async function judgeTrajectory(t) { return { behavior: "small", trajectoryId: t.id, verdict: "true", metaBehaviors: [] }; }
`;
    for (const replacement of [fake, `${whole.slice(0, whole.indexOf("\n") + 1)}${fake}`]) {
      writeFileSync(path, replacement);
      const run = runCli(judgeArgs(dir), { cwd: dir });
      expect(run.status).toBe(0);
      expect(verdicts(run.stdout)).toEqual(["good:true", "bad:false"]);
      expect(run.stdout).toBe(first.stdout);
      expect(readFileSync(path, "utf8")).toBe(whole);
    }
  });
});

describe("generator fingerprint", () => {
  test("import specifiers: multi-line, re-exports, type-only, side-effect and dynamic imports", () => {
    const source = `import {\n  a,\n  b,\n} from "./a.js";\nimport type { T } from "../t.js";\nexport { c } from "./c.js";\nexport type * from "./d.js";\nimport "./side.js";\nconst m = await import("./lazy.js");\nimport * as z from "zod";\nimport { format } from "prettier/standalone";\n`;
    expect(importSpecifiers(source).sort()).toEqual(
      ["../t.js", "./a.js", "./c.js", "./d.js", "./lazy.js", "./side.js", "prettier/standalone", "zod"].sort(),
    );
  });

  test("is derived from the import closure of the build path and the packages it reaches", () => {
    const inputs = generatorInputs();
    const files = inputs.files.map((file) => relative(ROOT, file).replace(/\.js$/, ".ts"));
    for (const file of [
      "compiler/build/compile.ts",
      "compiler/build/judge-yaml.ts",
      "compiler/build/bundle.ts",
      "compiler/paths.ts",
      "compiler/version.ts",
      "compiler/ir/parse.ts",
      "compiler/ir/schema.ts",
      "compiler/ir/did-you-mean.ts",
      "compiler/codegen/emit.ts",
      "compiler/codegen/lower.ts",
      "compiler/codegen/match.ts",
      "compiler/codegen/code.ts",
      "compiler/codegen/format.ts",
      "compiler/codegen/typecheck.ts",
      "runtime/index.ts",
      "runtime/judge.ts",
      "runtime/checks.ts",
      "runtime/semantic.ts",
    ]) {
      expect(files).toContain(file);
    }
    // Derived, not everything: the reports and the CLI do not shape judge.mjs.
    expect(files).not.toContain("compiler/report/text.ts");
    expect(files).not.toContain("compiler/cli.ts");
    // The judge stage loads what build/ compiles; it does not shape judge.mjs.
    expect(files).not.toContain("compiler/run/load.ts");
    const names = inputs.packages.map((p) => p.slice(0, p.lastIndexOf("@")));
    for (const name of ["prettier", "esbuild", "ts-morph", "@ts-morph/common", "yaml", "zod"]) expect(names).toContain(name);
    expect(inputs.packages).toContain(
      `prettier@${JSON.parse(readFileSync(join(ROOT, "node_modules", "prettier", "package.json"), "utf8")).version}`,
    );
  });

  test("changes with a file in ir/ and with a package version, and only then", () => {
    // A copy of the sources with its own node_modules of stand-in package.json files.
    const root = mkdtempSync(join(tmpdir(), "bj-fingerprint-"));
    for (const folder of ["compiler", "runtime"]) cpSync(join(ROOT, folder), join(root, folder), { recursive: true });
    const names = generatorInputs().packages.map((p) => p.slice(0, p.lastIndexOf("@")));
    // Each stand-in keeps the real dependency list, so ts-morph still leads to @ts-morph/common (which carries TypeScript).
    const setVersion = (name: string, version: string) => {
      const real = join(ROOT, "node_modules", name, "package.json");
      const { dependencies } = existsSync(real) ? JSON.parse(readFileSync(real, "utf8")) : {}; // some are nested under their dependent
      mkdirSync(join(root, "node_modules", name), { recursive: true });
      writeFileSync(join(root, "node_modules", name, "package.json"), JSON.stringify({ name, version, dependencies }));
    };
    for (const name of names) setVersion(name, "1.0.0");
    const fingerprint = () =>
      generatorFingerprint(generatorInputs([join(root, "compiler", "build", "compile.ts"), join(root, "runtime", "index.ts")]), root);

    const before = fingerprint();
    expect(fingerprint()).toBe(before);
    appendFileSync(join(root, "compiler", "report", "text.ts"), "\n// outside the build path\n");
    expect(fingerprint()).toBe(before);

    const schema = join(root, "compiler", "ir", "schema.ts");
    const schemaText = readFileSync(schema, "utf8");
    appendFileSync(schema, "\n// changed\n");
    expect(fingerprint()).not.toBe(before);
    writeFileSync(schema, schemaText);
    expect(fingerprint()).toBe(before);

    for (const name of ["prettier", "esbuild", "@ts-morph/common"]) {
      setVersion(name, "1.0.1");
      expect(fingerprint(), name).not.toBe(before);
      setVersion(name, "1.0.0");
      expect(fingerprint()).toBe(before);
    }
  });
});
