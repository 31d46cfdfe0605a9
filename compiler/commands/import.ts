/**
 * `import`: agent traces (chat logs, span exports, SDK steps) → trajectories
 * (IMPORTERS.md). Writes JSON Lines, one trajectory per line, to stdout or
 * `-o`; `-o x.json` writes one JSON document instead. Every trace that can be
 * imported is written; each one that cannot is a located error on stderr and
 * makes the exit code 1.
 */
import { writeFile } from "node:fs/promises";
import { validateTrajectory } from "../../runtime/trajectory.js";
import { readCases } from "../inputs/inputs.js";
import { failureMessage, locatedMessage } from "../run/judge-cases.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";
import { plural } from "../report/plural.js";

export interface ImportCommandOptions extends TraceCommandOptions {
  out?: string;
  /** "true" / "false": overrides the detected completeness. */
  complete?: string;
  reasoning?: boolean;
}

/** Returns the exit code. */
export async function runImportCommand(files: readonly string[], opts: ImportCommandOptions): Promise<number> {
  const read = traceReadOptions(opts, {
    complete: opts.complete === undefined ? undefined : opts.complete === "true",
    reasoning: opts.reasoning,
  });
  const written: unknown[] = [];
  let errors = 0;
  let events = 0;
  for await (const c of readCases(files, read)) {
    if (c.error !== undefined) {
      errors++;
      process.stderr.write(`error: ${locatedMessage(c, c.error)}\n`);
      continue;
    }
    try {
      const trajectory = validateTrajectory(c.trajectory);
      events += trajectory.events.length;
      // A labeled case keeps its label, so `import` can convert a calibration set too.
      written.push(c.expected !== undefined ? { trajectory, expected: c.expected } : trajectory);
    } catch (error) {
      errors++;
      // Worded (and escaped: it may quote an id) as judge words it.
      process.stderr.write(`error: ${locatedMessage(c, failureMessage(c, error))}\n`);
    }
  }
  const json = opts.out !== undefined && /\.json$/i.test(opts.out);
  const text = json
    ? `${JSON.stringify(written.length === 1 ? written[0] : written, null, 2)}\n`
    : written.map((t) => `${JSON.stringify(t)}\n`).join("");
  if (opts.out !== undefined) {
    await writeFile(opts.out, text);
    process.stderr.write(
      `wrote ${opts.out}: ${written.length} ${plural(written.length, "trajectory", "trajectories")}, ${events} events${errors > 0 ? `; ${errors} could not be imported` : ""}\n`,
    );
  } else {
    process.stdout.write(text);
  }
  return errors > 0 ? 1 : 0;
}
