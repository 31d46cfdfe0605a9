/**
 * Packages only some commands need (the model client, the Redis client) are
 * optional peer dependencies: `npm i behavior-judge` leaves them out, so
 * judging and building pull no weight for them. A command that needs one
 * checks it is there before it starts, and says what to install.
 */
import { createRequire } from "node:module";
import { UsageError } from "./errors.js";

/** The optional packages, and what needs each. */
export const OPTIONAL_PACKAGES = {
  openai: "a model (--model, BEHAVIOR_JUDGE_MODEL)",
  ioredis: "the Redis queue (--redis)",
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

const require = createRequire(import.meta.url);

/** Whether `name` can be loaded from here (resolved, not loaded). */
function resolvable(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a UsageError (exit 2) saying what to install when `name` is
 * not installed; `installed` stands in for the lookup in tests.
 */
export function requireInstalled(name: OptionalPackage, installed: (name: string) => boolean = resolvable): void {
  if (installed(name)) return;
  throw new UsageError(
    `${OPTIONAL_PACKAGES[name]} needs the ${name} package, which a plain install of behavior-judge leaves out: run \`npm i ${name}\` in this project`,
  );
}
