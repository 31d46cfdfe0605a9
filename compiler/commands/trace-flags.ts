/**
 * `--from`: the trace format of the input files, shared by `import`, `judge`,
 * `calibrate` and `generate` (IMPORTERS.md). Declaring it loads only the
 * format names; the importers themselves load with the input reader.
 */
import { Option, type Command } from "commander";
import { formatNames } from "../../importers/detect.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";

export interface TraceCommandOptions {
  from?: string;
}

export function fromChoices(): string[] {
  return ["auto", "trajectory", ...formatNames()];
}

export function addFromOption(command: Command): Command {
  return command.addOption(
    new Option(
      "--from <format>",
      "trace format of the files: auto (a trajectory is read as is, anything else is detected), trajectory, or one format",
    )
      .choices(fromChoices())
      .default("auto"),
  );
}

/** Importer warnings go to stderr, located; they never fail a run. */
export function traceReadOptions(opts: TraceCommandOptions, extra: Omit<TraceReadOptions, "from" | "onWarning"> = {}): TraceReadOptions {
  return { from: opts.from ?? "auto", ...extra, onWarning: (message) => void process.stderr.write(`warning: ${message}\n`) };
}
