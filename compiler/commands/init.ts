/**
 * `init [name]`: scaffolds a working behavior in the current repo: the spec
 * (.agents/behaviors/<name>/BEHAVIOR.md), its judge.yaml and built judge.mjs,
 * a passing sample trajectory, a test for the repo's test runner (vitest when
 * it is a dependency, node:test otherwise), a `test` script that runs it (set
 * when the repo has none, extended when it is init's `node --test` list of
 * files, left alone and said so when it is the user's own), a GitHub Actions workflow, and `.cache/` in .gitignore (appended
 * to the repo's, or a new one). An existing file is never replaced: it is
 * kept and reported, so `init` can be rerun safely. Everything that could
 * stop it half-way (a package.json that is no object, a folder that is a
 * file, a dangling symlink) is checked before the first write: one line
 * says what, and no file is touched.
 */
import { existsSync, lstatSync, readlinkSync, statSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
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

/** `null`, `an array`, `a string`…: what a JSON value is, for a message. */
function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields init reads or writes must be objects: `"scripts": "oops"` would be rewritten as `{"0":"o",…}`. */
const OBJECT_FIELDS: Record<string, string> = {
  scripts: "script names and commands",
  dependencies: "package names and versions",
  devDependencies: "package names and versions",
};

const BOM = "\ufeff";

interface FoundPackage {
  pkg: PackageJson;
  indent: string;
  /** A byte-order mark the file starts with: npm reads past it, and a rewrite keeps it. */
  bom: string;
}

async function readPackageJson(path: string): Promise<FoundPackage | undefined> {
  if (!existsSync(path)) return undefined;
  const raw = await readFile(path, "utf8");
  const bom = raw.startsWith(BOM) ? BOM : "";
  const text = raw.slice(bom.length);
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch (error) {
    throw new UserError(`init: ${path} is not valid JSON (${(error as Error).message}); fix it and rerun init`);
  }
  if (!isPlainObject(pkg)) throw new UserError(`init: package.json holds ${jsonKind(pkg)}, not an object; fix it and rerun init`);
  for (const [field, what] of Object.entries(OBJECT_FIELDS))
    if (pkg[field] !== undefined && !isPlainObject(pkg[field]))
      throw new UserError(
        `init: ${JSON.stringify(field)} in package.json is ${jsonKind(pkg[field])}, not an object of ${what}; fix it and rerun init`,
      );
  const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  return { pkg: pkg as PackageJson, indent, bom };
}

/** A symlink whose target is missing: `existsSync` says no, yet a write with `wx` fails with EEXIST. */
function danglingLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  try {
    statSync(path);
    return undefined;
  } catch {
    return readlinkSync(path);
  }
}

/**
 * Checks, before anything is written, that every file init may write can be
 * written or kept: each folder on its path is a folder (or missing), and
 * neither it nor the file is a dangling symlink. `rel` paths use the
 * platform's separator; messages show them with `/`.
 */
function checkWritable(cwd: string, rel: string, behaviorDir: string): void {
  const show = (p: string) => p.split(sep).join("/");
  const parts = rel.split(sep);
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join(sep);
    const path = join(cwd, sub);
    const target = danglingLink(path);
    if (target !== undefined)
      throw new UserError(`init: ${show(sub)} is a symlink to ${target}, which does not exist; fix or remove it and rerun init`);
    if (i === parts.length || !existsSync(path) || statSync(path).isDirectory()) continue;
    const inside = behaviorDir.startsWith(sub + sep) ? `${show(behaviorDir)}/` : show(rel);
    throw new UserError(`init: ${show(sub)} is a file, not a folder: init writes ${inside} inside it; move it and rerun init`);
  }
}

/** `node --test` followed by test files only (the script init writes, and extends): each argument a .js/.mjs/.cjs path. */
const NODE_TEST_FILES = /^node --test((?: +[^\s"'&|;<>()$`]+\.[cm]?js)*) *$/;
/** `vitest` or `vitest run` alone: every test file of the repo, init's included. */
const VITEST_ALL = /^(npx +)?vitest( +run)? *$/;

interface TestScriptPlan {
  /** The new `test` script, when package.json is to be written. */
  script?: string;
  /** The line that says what was done (`created`: package.json did not exist). */
  message: (created: boolean) => string;
}

/**
 * What becomes of package.json's `test` script so that `npm test` runs
 * init's test file: set when there is none (or npm's placeholder); kept
 * when it already runs the file (`vitest run`, or `node --test` naming it);
 * extended when it is a `node --test` list of files (a second behavior's
 * init adds its file: the script init wrote for the first); otherwise
 * (the user's own command) kept as it is, saying so, with what to add.
 */
export function planTestScript(current: unknown, runner: InitResult["runner"], ownTest: string): TestScriptPlan {
  if (typeof current !== "string" || current.trim() === "" || NPM_PLACEHOLDER_TEST.test(current.trim())) {
    const script = runner === "vitest" ? "vitest run" : `node --test ${ownTest}`;
    return {
      script,
      message: (created) => `${created ? "wrote package.json with" : "set"} "test": ${JSON.stringify(script)} in package.json`,
    };
  }
  const trimmed = current.trim();
  const kept = `kept the test script ${JSON.stringify(current)}`;
  if (VITEST_ALL.test(trimmed) && runner === "vitest") return { message: () => `${kept} (it runs ${ownTest})` };
  const files = NODE_TEST_FILES.exec(trimmed);
  if (files !== null) {
    const listed = files[1]!
      .trim()
      .split(/ +/)
      .filter((f) => f !== "");
    // `node --test` alone runs every test file it finds, init's included.
    if (listed.length === 0 || listed.includes(ownTest)) return { message: () => `${kept} (it runs ${ownTest})` };
    const script = `${trimmed} ${ownTest}`;
    return { script, message: () => `added ${ownTest} to the test script: "test": ${JSON.stringify(script)} in package.json` };
  }
  const add = runner === "node:test" ? `, e.g. add " && node --test ${ownTest}"` : "";
  return { message: () => `${kept} as it is (your own command): make sure it runs ${ownTest} too${add}` };
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

  const targets = {
    behavior: join(behaviorDir, "BEHAVIOR.md"),
    yaml: join(behaviorDir, "judge.yaml"),
    mjs: join(behaviorDir, "judge.mjs"),
    dts: declarationPath(join(behaviorDir, "judge.mjs")),
    sample: join(behaviorDir, "trajectories", "asks-before-deleting.json"),
    test: testFile,
    workflow: join(".github", "workflows", `behavior-${name}.yml`),
  };
  for (const rel of [...Object.values(targets), ".gitignore", "package.json"]) checkWritable(cwd, rel, behaviorDir);
  const ignorePath = join(cwd, ".gitignore");
  if (existsSync(ignorePath) && !statSync(ignorePath).isFile())
    throw new UserError("init: .gitignore is not a file; move it and rerun init");

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

  await write(targets.behavior, () => template("BEHAVIOR.md", values));
  await write(targets.yaml, () => template("judge.yaml", values));
  // Built from the judge.yaml on disk, so a kept (user-edited) judge.yaml gets its own judge.
  const yamlPath = join(cwd, targets.yaml);
  let compiled: Awaited<ReturnType<typeof compileJudgeYamlFile>>["compiled"] | undefined;
  const build = async () => (compiled ??= (await compileJudgeYamlFile(yamlPath)).compiled);
  await write(targets.mjs, async () => (await build()).judgeMjs);
  await write(targets.dts, async () => (await build()).judgeDts);
  await write(targets.sample, () => template("passing.json", values));
  await write(targets.test, () => template(runner === "vitest" ? "vitest.mjs" : "node-test.mjs", values));
  await write(targets.workflow, () => template("workflow.yml", values));

  result.gitignore = await ignoreCache(cwd);
  if (result.gitignore === "created") log(`wrote .gitignore with ${CACHE_IGNORE} (behavior-judge's caches)`);
  else if (result.gitignore === "added") log(`added ${CACHE_IGNORE} to .gitignore (behavior-judge's caches)`);
  else log(`kept .gitignore (it already ignores ${CACHE_IGNORE})`);

  const current = found?.pkg.scripts?.test;
  const ownTest = testFile.split("\\").join("/");
  const plan = planTestScript(current, runner, ownTest);
  if (plan.script !== undefined) {
    const pkg: PackageJson = found?.pkg ?? ({ name, private: true } as PackageJson);
    pkg.scripts = { ...pkg.scripts, test: plan.script };
    await writeFile(pkgPath, `${found?.bom ?? ""}${JSON.stringify(pkg, null, found?.indent ?? "  ")}\n`, "utf8");
    result.testScript = plan.script;
  }
  log(plan.message(found === undefined));
  log("");
  log(
    `next: npm test, then record your agent's sessions into ${join(behaviorDir, "trajectories")}/ and edit ${join(behaviorDir, "BEHAVIOR.md")}`,
  );
  return result;
}
