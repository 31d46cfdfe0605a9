/**
 * The `--workers` flag of `judge`, `calibrate` and `label`, declared apart
 * from workers.ts so that declaring it (cli.ts, at every start) loads no
 * input reader (issue 26).
 */
import { Option, type Command } from "./commander.js";
import { positiveInteger } from "./model-flags.js";

export interface WorkersFlags {
  workers?: number;
}

export function addWorkersOption(command: Command): Command {
  return command.addOption(
    new Option(
      "--workers <n>",
      "judge on N threads (default for judge without a report: one per core free of other work, when at least three are free and the input is one JSONL file of 32 MB or more, each thread reading its own part; else one); with a model, judging stays on one thread, where --concurrency overlaps the calls",
    ).argParser(positiveInteger),
  );
}
