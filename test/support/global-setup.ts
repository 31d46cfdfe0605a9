import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * CLI tests spawn the real bin, which runs dist/: compile it from the current
 * sources first so a test never exercises a stale build.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
