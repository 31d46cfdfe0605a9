/** Spawns the real installed command (bin/behavior-judge.js → dist/). */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "behavior-judge.js");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; nodeArgs?: string[]; input?: string } = {},
): CliRun {
  const result = spawnSync(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: "utf8",
    env: { ...process.env, BRAINTRUST_API_KEY: "", OPENAI_API_KEY: "", ...options.env },
    input: options.input ?? "",
    timeout: 60_000,
    // Reports of a few thousand cases pass spawnSync's default 1 MiB, which kills the child.
    maxBuffer: 256 << 20,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
