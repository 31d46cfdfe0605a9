/**
 * The model flags shared by `judge`, `calibrate` and `baseline`. Kept apart
 * from the adapter code so that declaring the CLI loads nothing but commander.
 */
import { InvalidArgumentError, Option, type Command } from "./commander.js";

/** What commander hands the commands for the model flags. */
export interface ModelCommandOptions {
  /** `--no-model` (where offered) gives false: no model calls at all, whatever is configured. */
  model?: string | false;
  baseUrl?: string;
  /** `--cache <dir>` gives a folder, `--no-cache` false; unset means the default folder. */
  cache?: string | boolean;
  concurrency?: number;
  temperature?: number;
  /** Seconds per request. */
  timeout?: number;
  /** Requests started per minute, retries included. */
  rpm?: number;
  /** The fraction of trajectories that get model calls, picked by a hash of their id. */
  sample?: number;
}

/** `--dry-run` on `judge`, `calibrate` and `label`. */
export const DRY_RUN_HELP =
  "send no request and judge nothing: count the model calls this run would make (a range, since answers decide what is asked next) from the answer cache as it is now";

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

/**
 * `worker --max-deliveries`: at least 2. An entry's first delivery is with
 * its batch, and a worker that dies ends the batch for all of them: at 1,
 * the neighbours of an entry that kills its worker would never be judged.
 */
export function deliveryLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2)
    throw new InvalidArgumentError(
      "must be an integer of at least 2 (the first delivery is with the batch, which a dying worker ends for all)",
    );
  return n;
}

/** A timeout of 0 would abort every request at once (the client arms its timer with it), so it must be positive. */
function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a positive number");
  return n;
}

/** A fraction in (0, 1]. */
export function sampleRate(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1)
    throw new InvalidArgumentError("must be a number above 0 and at most 1");
  return n;
}

function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError("must be a non-negative number");
  return n;
}

/**
 * Adds --model, --base-url, --temperature, --timeout and --rpm; unless `cache`
 * is false (a command that never caches) --cache/--no-cache; and unless
 * `concurrency` is false (a command that asks one question at a time: watch
 * judges one trajectory, generate drafts one request after another)
 * --concurrency. A flag a command would ignore is not offered: commander
 * then refuses it as unknown, instead of listing it in --help for nothing.
 */
export function addModelOptions(
  command: Command,
  {
    cache = true,
    noModel = false,
    sample = false,
    concurrency = true,
  }: { cache?: boolean; noModel?: boolean; sample?: boolean; concurrency?: boolean } = {},
): Command {
  command.addOption(
    new Option("--model <name>", "model for semantic calls (default: BRAINTRUST_JUDGE_MODEL, BRAINTRUST_MODEL, gpt-5-mini)"),
  );
  // Commands that judge trajectories can run without the model, or with it for a sample only.
  if (noModel)
    command.addOption(new Option("--no-model", "make no model calls, even with a model configured: deterministic verdicts only"));
  if (sample) {
    command.addOption(
      new Option(
        "--sample <rate>",
        "give model calls to this fraction of trajectories (e.g. 0.1), picked by a hash of the trajectory id so reruns pick the same; the rest are judged deterministically",
      ).argParser(sampleRate),
    );
  }
  command.addOption(
    new Option("--base-url <url>", "OpenAI-compatible base URL (with OPENAI_API_KEY; e.g. a local vLLM, Ollama or llama.cpp server)"),
  );
  if (cache) {
    command
      .addOption(new Option("--cache <dir>", "answer cache folder (default: .cache/behavior-judge/answers in the project)"))
      .addOption(new Option("--no-cache", "neither read nor write the answer cache"));
  }
  if (concurrency) {
    command.addOption(
      new Option("--concurrency <n>", "trajectories (and model requests) in flight at once (default 4)").argParser(positiveInteger),
    );
  }
  return command
    .addOption(new Option("--temperature <t>", "sampling temperature; not sent unless given").argParser(nonNegativeNumber))
    .addOption(new Option("--timeout <seconds>", "per-request timeout, whole response included (default 120)").argParser(positiveNumber))
    .addOption(
      new Option("--rpm <n>", "at most this many model requests started per minute, retries included (default: no limit)").argParser(
        positiveNumber,
      ),
    );
}
