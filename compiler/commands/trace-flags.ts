/**
 * `--from`: the trace format of the input files, shared by `import`, `judge`,
 * `calibrate` and `generate` (IMPORTERS.md). Declaring it loads only the
 * format names; the importers themselves load with the input reader.
 */
import { Option, type Command } from "./commander.js";
import { formatNames } from "../../importers/formats.js";
import type { TraceReadOptions } from "../inputs/trace-inputs.js";

export interface TraceCommandOptions {
  from?: string;
  /** `--id`: the id of the imported trajectories (watch has its own). */
  id?: string;
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

/**
 * `--id`: the id imported traces get instead of their native id or their
 * file's name (`<id>-<n>` when one input holds several), as watch's `--id`
 * names its one trajectory. Trajectories read as they are keep their own.
 */
export function addIdOption(command: Command): Command {
  return command.option(
    "--id <id>",
    "the id of the imported trajectories (default: the trace's own id, else the file name; -<n> appended when an input holds several)",
  );
}

/** Importer warnings go to stderr, located; they never fail a run. */
export function traceReadOptions(
  opts: TraceCommandOptions,
  extra: Omit<TraceReadOptions, "from" | "onWarning" | "formatSetting"> = {},
): TraceReadOptions {
  const read: TraceReadOptions = {
    from: opts.from ?? "auto",
    ...extra,
    // Messages name the flag the user can pass; the library's readers name their `from` option.
    formatSetting: "--from",
    onWarning: (message) => void process.stderr.write(`warning: ${message}\n`),
  };
  if (opts.id !== undefined) read.id = opts.id;
  return read;
}
