import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Generated judge.ts files import the runtime by this specifier; tests import them unbundled.
const runtimeEntry = fileURLToPath(new URL("./runtime/index.ts", import.meta.url));

export default defineConfig({
  resolve: { alias: { "behavior-judge/runtime": runtimeEntry } },
  test: {
    globalSetup: ["./test/support/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    // A hang guard, not a speed bound: tests that spawn the CLI (a type check per `generate` run)
    // took 30–74 s on a shared 2-core machine at load 15–20.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
