/**
 * `init [name]`: scaffolds a working behavior in the current repo: the spec
 * (.agents/behaviors/<name>/BEHAVIOR.md), its judge.yaml and built judge.mjs,
 * a passing sample trajectory, a test for the repo's test runner (vitest when
 * it is a dependency, node:test otherwise), a `test` script when the repo has
 * none, a GitHub Actions workflow, and `.cache/` in .gitignore (appended
 * to the repo's, or a new one). An existing file is never replaced: it is
 * kept and reported, so `init` can be rerun safely.
 */
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import { UserError } from "../errors.js";
import { TEMPLATES_DIR } from "../paths.js";
import { compileJudgeYamlFile } from "../build/compile.js";
import { declarationPath } from "./build.js";

/** What npm init writes when there are no tests: a test script that only fails. */
const NPM_PLACEHOLDER_TEST = /^echo "Error: no test specified" && exit 1$/;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface InitOptions {
  /** The repo root (default: the current directory). */
  cwd?: string;
  /** Ask for the name on a terminal (default: when stdin is a TTY and no name was given). */
  interactive?: boolean;
  /** Where progress lines go (default: stdout). */
  log?: (line: string) => void;
}

export interface InitResult {
  name: string;
  runner: "vitest" | "node:test";
  written: string[];
  kept: string[];
  testScript?: string;
  /** What init did to .gitignore for `.cache/`: created the file, added the line, or found it there. */
  gitignore: "created" | "added" | "kept";
}

/** The build and model-answer caches (`.cache/behavior-judge/`): local files, never committed. */
const CACHE_IGNORE = ".cache/";

/** Whether a .gitignore line already ignores the whole `.cache/` folder at the repo root or anywhere. */
function ignoresCache(line: string): boolean {
  return /^\/?\.cache(\/(\*\*?)?)?$/.test(line.trim());
}

/**
 * `.cache/` in the repo's .gitignore: appended as a line of its own (the
 * other lines stay as they are, byte for byte), or a new .gitignore holding
 * just that line.
 */
async function ignoreCache(cwd: string): Promise<InitResult["gitignore"]> {
  const path = join(cwd, ".gitignore");
  if (!existsSync(path)) {
    await writeFile(path, `${CACHE_IGNORE}\n`, { encoding: "utf8", flag: "wx" });
    return "created";
  }
  const text = await readFile(path, "utf8");
  if (text.split(/\r?\n/).some(ignoresCache)) return "kept";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  await appendFile(path, `${text === "" || text.endsWith("\n") ? "" : eol}${CACHE_IGNORE}${eol}`, "utf8");
  return "added";
}

interface PackageJson {
  name?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
}

/** A behavior name from a package or folder name: lowercase words joined by dashes. */
export function defaultBehaviorName(pkgName: unknown, dir: string): string {
  const raw = typeof pkgName === "string" && pkgName !== "" ? pkgName.replace(/^@[^/]*\//, "") : basename(dir);
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return NAME.test(name) ? name : "agent";
}

function checkName(name: string): string {
  if (!NAME.test(name))
    throw new UserError(
      `init: behavior name ${JSON.stringify(name)} must be lowercase letters, digits and dashes (like refund-support), at most 64 characters`,
    );
  return name;
}

async function askName(suggested: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`Behavior name (${suggested}): `)).trim();
    return answer === "" ? suggested : answer;
  } finally {
    rl.close();
  }
}

async function readPackageJson(path: string): Promise<{ pkg: PackageJson; indent: string } | undefined> {
  if (!existsSync(path)) return undefined;
  const text = await readFile(path, "utf8");
  try {
    const pkg = JSON.parse(text) as PackageJson;
    const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
    return { pkg, indent };
  } catch (error) {
    throw new UserError(`init: ${path} is not valid JSON (${(error as Error).message}); fix it and rerun init`);
  }
}

async function template(file: string, values: Record<string, string>): Promise<string> {
  const text = await readFile(join(TEMPLATES_DIR, "init", file), "utf8");
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");
}

export async function runInit(nameArg: string | undefined, options: InitOptions = {}): Promise<InitResult> {
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const pkgPath = join(cwd, "package.json");
  const found = await readPackageJson(pkgPath);
  const suggested = defaultBehaviorName(found?.pkg.name, cwd);
  const interactive = options.interactive ?? (nameArg === undefined && process.stdin.isTTY === true);
  const name = checkName(nameArg ?? (interactive ? await askName(suggested) : suggested));
  const deps = { ...found?.pkg.dependencies, ...found?.pkg.devDependencies };
  const runner = Object.hasOwn(deps, "vitest") ? "vitest" : "node:test";
  const testFile = join("test", `behavior-${name}.test.mjs`);
  const behaviorDir = join(".agents", "behaviors", name);
  const install = existsSync(join(cwd, "package-lock.json")) ? "npm ci" : "npm install";
  const values = { name, install };

  const result: InitResult = { name, runner, written: [], kept: [], gitignore: "kept" };
  const write = async (rel: string, text: () => Promise<string>) => {
    const path = join(cwd, rel);
    if (existsSync(path)) {
      result.kept.push(rel);
      log(`kept ${rel} (exists)`);
      return;
    }
    const content = await text();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, { encoding: "utf8", flag: "wx" });
    result.written.push(rel);
    log(`wrote ${rel}`);
  };

  await write(join(behaviorDir, "BEHAVIOR.md"), () => template("BEHAVIOR.md", values));
  await write(join(behaviorDir, "judge.yaml"), () => template("judge.yaml", values));
  // Built from the judge.yaml on disk, so a kept (user-edited) judge.yaml gets its own judge.
  const yamlPath = join(cwd, behaviorDir, "judge.yaml");
  let compiled: Awaited<ReturnType<typeof compileJudgeYamlFile>>["compiled"] | undefined;
  const build = async () => (compiled ??= (await compileJudgeYamlFile(yamlPath)).compiled);
  await write(join(behaviorDir, "judge.mjs"), async () => (await build()).judgeMjs);
  await write(declarationPath(join(behaviorDir, "judge.mjs")), async () => (await build()).judgeDts);
  await write(join(behaviorDir, "trajectories", "asks-before-deleting.json"), () => template("passing.json", values));
  await write(testFile, () => template(runner === "vitest" ? "vitest.mjs" : "node-test.mjs", values));
  await write(join(".github", "workflows", `behavior-${name}.yml`), () => template("workflow.yml", values));

  result.gitignore = await ignoreCache(cwd);
  if (result.gitignore === "created") log(`wrote .gitignore with ${CACHE_IGNORE} (behavior-judge's caches)`);
  else if (result.gitignore === "added") log(`added ${CACHE_IGNORE} to .gitignore (behavior-judge's caches)`);
  else log(`kept .gitignore (it already ignores ${CACHE_IGNORE})`);

  const current = found?.pkg.scripts?.test;
  if (typeof current !== "string" || current.trim() === "" || NPM_PLACEHOLDER_TEST.test(current.trim())) {
    const script = runner === "vitest" ? "vitest run" : `node --test ${testFile.split("\\").join("/")}`;
    const pkg: PackageJson = found?.pkg ?? ({ name, private: true } as PackageJson);
    pkg.scripts = { ...pkg.scripts, test: script };
    await writeFile(pkgPath, `${JSON.stringify(pkg, null, found?.indent ?? "  ")}\n`, "utf8");
    result.testScript = script;
    log(`${found === undefined ? "wrote package.json with" : "set"} "test": ${JSON.stringify(script)} in package.json`);
  } else {
    log(`kept the test script ${JSON.stringify(current)}: make sure it runs ${testFile.split("\\").join("/")}`);
  }
  log("");
  log(
    `next: npm test, then record your agent's sessions into ${join(behaviorDir, "trajectories")}/ and edit ${join(behaviorDir, "BEHAVIOR.md")}`,
  );
  return result;
}
