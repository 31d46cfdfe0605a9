import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Generated judge.ts files import the runtime by this specifier; tests import them unbundled.
const runtimeEntry = fileURLToPath(new URL("./runtime/index.ts", import.meta.url));

export default defineConfig({
  resolve: { alias: { "behavior-judge/runtime": runtimeEntry } },
  test: {
    globalSetup: ["./test/support/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
