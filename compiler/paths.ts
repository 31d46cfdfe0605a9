/** Locations inside the installed behavior-judge package (source or dist). */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "runtime", "index.ts"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("behavior-judge: cannot find its runtime/ folder");
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot();
export const RUNTIME_ENTRY = join(PACKAGE_ROOT, "runtime", "index.ts");
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");
