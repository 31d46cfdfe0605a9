/** Runs the CLI in-process (no child process, so a test can point it at a scripted server) and captures what it prints. */
import { vi } from "vitest";
import { main } from "../../compiler/cli.js";

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(...argv: string[]): Promise<InProcessRun> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = 0;
  try {
    await main(argv);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}
