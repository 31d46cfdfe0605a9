/**
 * `judge` and `calibrate` given a judge.yaml compile it first (about a second).
 * The bundled judge is kept in `.cache/behavior-judge/builds`, keyed by the
 * exact judge.yaml text, its file name (it appears in comments), the generator
 * version, and the sources of the runtime and of the code generator, so a
 * rerun imports it in milliseconds and any change to those inputs is a miss
 * (also in a checkout where the generator changes without a version bump).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot } from "./cache.js";
import { PACKAGE_ROOT } from "./paths.js";
import { VERSION } from "./version.js";

let generatorHash: string | undefined;

/** This module's folder: compiler/ in a checkout, dist/compiler/ when built. */
const COMPILER_DIR = dirname(fileURLToPath(import.meta.url));

function codeFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".d.ts"))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * What a build depends on besides judge.yaml: the runtime inlined into every
 * judge, the code generator and the bundler step, and the judge.d.ts template.
 */
export function generatorSources(): string[] {
  const compilerModule = (name: string) => join(COMPILER_DIR, existsSync(join(COMPILER_DIR, `${name}.ts`)) ? `${name}.ts` : `${name}.js`);
  return [
    ...codeFilesIn(join(PACKAGE_ROOT, "runtime")),
    ...codeFilesIn(join(COMPILER_DIR, "codegen")),
    compilerModule("build"),
    compilerModule("bundle"),
    join(PACKAGE_ROOT, "templates", "judge.d.ts"),
  ];
}

function generatorFingerprint(): string {
  if (generatorHash === undefined) {
    const hash = createHash("sha256");
    for (const file of generatorSources()) {
      hash.update(relative(PACKAGE_ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
    }
    generatorHash = hash.digest("hex");
  }
  return generatorHash;
}

export function buildCachePath(yamlPath: string, yamlText: string, cwd = process.cwd()): string {
  const key = createHash("sha256")
    .update([VERSION, generatorFingerprint(), basename(yamlPath), yamlText].join("\0"))
    .digest("hex");
  return join(projectRoot(cwd), ".cache", "behavior-judge", "builds", `${key}.mjs`);
}


/** Written to a temp file then renamed, so a concurrent run never imports half a judge. A failed write only costs a future miss. */
export async function storeBuild(path: string, judgeMjs: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temp, judgeMjs, "utf8");
    await rename(temp, path);
  } catch {
    await rm(temp, { force: true }).catch(() => {});
  }
}
