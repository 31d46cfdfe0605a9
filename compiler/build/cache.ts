/**
 * `judge` and `calibrate` given a judge.yaml compile it first (about a second).
 * The bundled judge is kept in `.cache/behavior-judge/builds`, keyed by the
 * exact judge.yaml text, its file name (it appears in comments), the generator
 * version, and a fingerprint of everything that turns judge.yaml into
 * judge.mjs, so a rerun imports it in milliseconds and any change to those
 * inputs is a miss (also in a checkout where the generator changes without a
 * version bump).
 *
 * The cache is a folder anyone can write to, so an entry is never trusted as
 * found: its first line holds the sha256 of the rest, checked before the
 * entry is imported. A truncated, edited or replaced entry is rebuilt.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../files/atomic-write.js";
import { projectRoot } from "../model/answer-cache.js";
import { PACKAGE_ROOT, RUNTIME_ENTRY } from "../paths.js";
import { VERSION } from "../version.js";

/** This module's folder: compiler/build/ in a checkout, dist/compiler/build/ when built. */
const COMPILER_DIR = dirname(fileURLToPath(import.meta.url));

/** The module at `name` relative to this folder: the .ts source in a checkout, the .js in dist/. */
function compilerModule(name: string): string {
  const source = join(COMPILER_DIR, `${name}.ts`);
  return existsSync(source) ? source : join(COMPILER_DIR, `${name}.js`);
}

/**
 * Where the judge.yaml → judge.mjs path starts: build/compile.ts (read, parse,
 * check, compile) and the runtime that esbuild inlines (reached through a path in
 * paths.ts, not an import, so it is named here).
 */
function generatorEntries(): string[] {
  return [compilerModule("compile"), RUNTIME_ENTRY];
}

/**
 * Every module specifier a source file names: static imports and re-exports
 * (type-only ones too: the type check of generated code reads them), bare
 * side-effect imports and dynamic `import("…")`. A regex rather than a parser
 * so that a cache hit never loads TypeScript; a match inside a comment only
 * adds a file or package to the fingerprint, which costs at most a rebuild.
 */
export function importSpecifiers(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\b(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** A relative specifier as a file: `./x.js` is `./x.ts` in the sources and `./x.js` in dist/. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = join(dirname(from), specifier);
  const candidates = /\.js$/.test(target) ? [target.replace(/\.js$/, ".ts"), target] : [target, `${target}.ts`, `${target}.js`];
  return candidates.find((file) => existsSync(file) && /\.(ts|js|mjs)$/.test(file));
}

/**
 * `prettier/plugins/x` → `prettier`; `@scope/pkg/x` → `@scope/pkg`. Node
 * builtins, and text that cannot be a package name (a match in prose), are
 * no package.
 */
function packageName(specifier: string): string | undefined {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  if (specifier.startsWith("node:") || builtinModules.includes(name)) return undefined;
  return /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/.test(name) ? name : undefined;
}

/** The package.json Node would find for `name` from `fromDir` (the nearest node_modules up the tree). */
function findPackageJson(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name, "package.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

export interface GeneratorInputs {
  /** Every source file reachable by imports from the entries, sorted. */
  files: string[];
  /** `name@version` of every package those files import, and of the packages those depend on (ts-morph carries its TypeScript in @ts-morph/common), sorted. */
  packages: string[];
}

/**
 * What a build depends on besides judge.yaml, derived rather than listed: the
 * import closure of the entries, and the installed versions of the packages
 * it reaches (prettier, esbuild, ts-morph, yaml, zod and their dependencies).
 * Node builtins are left out; a package that is not installed is recorded as
 * missing, which changes the fingerprint when it appears.
 */
export function generatorInputs(entries: readonly string[] = generatorEntries()): GeneratorInputs {
  const files = new Set<string>();
  const packages = new Set<string>();
  const seenPackageJsons = new Set<string>();
  const visitPackage = (name: string, fromDir: string, optional: boolean): void => {
    const path = findPackageJson(name, fromDir);
    if (path === undefined) {
      if (!optional) packages.add(`${name}@missing`);
      return;
    }
    if (seenPackageJsons.has(path)) return;
    seenPackageJsons.add(path);
    const manifest = JSON.parse(readFileSync(path, "utf8")) as {
      version?: string;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    packages.add(`${name}@${manifest.version ?? "unversioned"}`);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visitPackage(dep, dirname(path), false);
    // esbuild's platform binaries: only the one for this machine is installed.
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visitPackage(dep, dirname(path), true);
  };
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier);
        if (target !== undefined) pending.push(target);
        continue;
      }
      const name = packageName(specifier);
      if (name !== undefined) visitPackage(name, dirname(file), false);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** sha256 over the inputs: each file by its path under `root` and its bytes, then each package version. */
export function generatorFingerprint(inputs: GeneratorInputs = generatorInputs(), root = PACKAGE_ROOT): string {
  const hash = createHash("sha256");
  for (const file of inputs.files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  for (const pkg of inputs.packages) hash.update(pkg).update("\0");
  return hash.digest("hex");
}

let cachedFingerprint: string | undefined;

export function buildCachePath(yamlPath: string, yamlText: string, cwd = process.cwd()): string {
  cachedFingerprint ??= generatorFingerprint();
  const key = createHash("sha256")
    .update([VERSION, cachedFingerprint, basename(yamlPath), yamlText].join("\0"))
    .digest("hex");
  return join(projectRoot(cwd), ".cache", "behavior-judge", "builds", `${key}.mjs`);
}

/** The first line of every entry; the hash covers the bytes after it. */
const ENTRY_HEADER = /^\/\/ behavior-judge build sha256=([0-9a-f]{64})\n/;

function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The judge.mjs source stored at `path`, or undefined when there is none or it
 * fails its check (truncated, edited, replaced, or written by a version
 * without the header): the caller then rebuilds and stores it again.
 */
export async function readBuild(path: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  const header = ENTRY_HEADER.exec(bytes.subarray(0, 128).toString("latin1"));
  if (header === null) return undefined;
  const body = bytes.subarray(header[0].length);
  if (sha256Hex(body) !== header[1]) return undefined;
  return body.toString("utf8");
}

/**
 * Written to a temp file then renamed, so a concurrent run never sees half a
 * judge; the header and the judge are one file, so they can never disagree
 * through a race. A failed write only costs a future miss.
 */
export async function storeBuild(path: string, judgeMjs: string): Promise<void> {
  try {
    await writeFileAtomic(path, `// behavior-judge build sha256=${sha256Hex(Buffer.from(judgeMjs, "utf8"))}\n${judgeMjs}`);
  } catch {
    // Nothing to do: the next build misses the cache and stores again.
  }
}
