import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * CLI tests spawn the real bin, which runs dist/: compile it from the current
 * sources first so a test never exercises a stale build (and bundle the
 * importers' library entry, dist/importers.mjs).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  // The library entry behavior-judge/importers (package.json exports), as `npm run prepare` builds it.
  execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/bundle-importers.js", import.meta.url))], {
    cwd: root,
    stdio: "inherit",
  });
}
