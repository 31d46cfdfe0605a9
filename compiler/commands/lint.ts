/** `lint`: spec diagnostics, and how a judge.yaml lines up with the spec and the samples. */
import { lintSpec } from "../behavior-md/lint.js";
import { formatDiagnostic } from "../diagnostics.js";
import { plural } from "../report/plural.js";

export interface LintCommandOptions {
  samples?: string[];
}

/** Prints every finding and a tally; returns the exit code (1 when there is an error). */
export async function runLintCommand(specPath: string, judgePath: string | undefined, opts: LintCommandOptions): Promise<number> {
  // Bad samples are a SamplesError: the CLI prints it and exits 1.
  // The trajectory readers load only with samples to read.
  const samples =
    opts.samples === undefined || opts.samples.length === 0
      ? undefined
      : await (await import("../generate/samples.js")).loadSamples(opts.samples);
  const result = await lintSpec(specPath, {
    ...(judgePath !== undefined ? { judge: judgePath } : {}),
    ...(samples !== undefined ? { samples } : {}),
  });
  for (const finding of result.findings) process.stdout.write(`${formatDiagnostic(finding)}\n`);
  const checked = [
    result.spec,
    ...(result.judge !== undefined ? [result.judge] : []),
    ...(samples !== undefined ? [`${samples.length} sample ${plural(samples.length, "trajectory", "trajectories")}`] : []),
  ];
  const tally = `${result.errors} ${plural(result.errors, "error")}, ${result.warnings} ${plural(result.warnings, "warning")}`;
  process.stdout.write(`${result.errors === 0 && result.warnings === 0 ? "ok" : tally}: checked ${checked.join(", ")}\n`);
  return result.errors > 0 ? 1 : 0;
}
