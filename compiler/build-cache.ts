/**
 * `judge` and `calibrate` given a judge.yaml compile it first (about a second).
 * The bundled judge is kept in `.cache/behavior-judge/builds`, keyed by the
 * exact judge.yaml text, its file name (it appears in comments), the generator
 * version and the runtime sources, so a rerun imports it in milliseconds and
 * any change to those inputs is a miss.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { projectRoot } from "./cache.js";
import { PACKAGE_ROOT } from "./paths.js";
import { VERSION } from "./version.js";

let runtimeHash: string | undefined;

/** The runtime is inlined into every judge: a changed runtime is a different build. */
function runtimeFingerprint(): string {
  if (runtimeHash === undefined) {
    const dir = join(PACKAGE_ROOT, "runtime");
    const hash = createHash("sha256");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
      hash.update(file).update("\0").update(readFileSync(join(dir, file))).update("\0");
    }
    runtimeHash = hash.digest("hex");
  }
  return runtimeHash;
}

export function buildCachePath(yamlPath: string, yamlText: string, cwd = process.cwd()): string {
  const key = createHash("sha256")
    .update([VERSION, runtimeFingerprint(), basename(yamlPath), yamlText].join("\0"))
    .digest("hex");
  return join(projectRoot(cwd), ".cache", "behavior-judge", "builds", `${key}.mjs`);
}

export function cachedBuild(path: string): string | undefined {
  return existsSync(path) ? path : undefined;
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
