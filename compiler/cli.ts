/**
 * The command line: argv → library call → print → exit code. No logic here
 * that the library lacks. Exit codes: 0 done, 1 invalid input / failed
 * cases / disagreement, 2 usage errors.
 */
import { Command, CommanderError, Option } from "./commands/commander.js";
import { addModelOptions, deliveryLimit, DRY_RUN_HELP, positiveInteger, type ModelCommandOptions } from "./commands/model-flags.js";
import { printableLines } from "./report/printable.js";
import type { GenerateCommandOptions } from "./commands/generate.js";
import { EXIT_INVALID, EXIT_USAGE, UserError } from "./errors.js";
import { addFromOption, addIdOption, type TraceCommandOptions } from "./commands/trace-flags.js";
import { addWorkersOption, type WorkersFlags } from "./commands/workers-flag.js";
import { VERSION } from "./version.js";

/** Prints an error for the person at the terminal and sets the exit code. Messages quote input: escaped. */
function fail(message: string, code = EXIT_INVALID): void {
  process.stderr.write(`behavior-judge: ${printableLines(message)}\n`);
  process.exitCode = code;
}

/**
 * A user error prints its message alone (located diagnostics as they are:
 * each line starts with its file) and its exit code; anything else is a bug
 * and keeps its stack.
 */
function reportError(error: unknown): void {
  if (error instanceof UserError) {
    if (error.diagnostics.length > 0) {
      process.stderr.write(`${printableLines(error.message)}\n`);
      process.exitCode = error.exitCode;
    } else {
      fail(error.message, error.exitCode);
    }
    return;
  }
  if (error instanceof Error && (error as NodeJS.ErrnoException).code === "ENOENT") {
    fail(`cannot read ${(error as NodeJS.ErrnoException).path ?? "a file"}: no such file`);
    return;
  }
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/** Trajectory arguments, checked and with directories expanded, before a command runs (files/input-files.ts). */
async function inputFiles(files: readonly string[], what?: string): Promise<string[]> {
  const { resolveInputFiles } = await import("./files/input-files.js");
  // What a directory leaves out (subfolders, broken symlinks) is said, never skipped in silence.
  return resolveInputFiles(files, what, (message) => process.stderr.write(`behavior-judge: note: ${printableLines(message)}\n`));
}

function program(): Command {
  const cli = new Command("behavior-judge")
    .description("Compile Agent Behavior specs into deterministic trajectory judges.")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })
    // The command list names each command's own usage line where it has one (`enqueue --redis <url> …`): a required option is shown as required.
    .configureHelp({
      subcommandTerm: (cmd) => `${cmd.name()} ${cmd.usage()}`.replace(/ \[options\](?= |$)/, cmd.options.length > 0 ? " [options]" : ""),
    });

  cli
    .command("build")
    .description("compile judge.yaml into a standalone judge.mjs (and judge.d.mts beside it)")
    .argument("<judge.yaml>", "the judge to compile")
    .option("-o, --out <judge.mjs>", "where to write the judge (default: beside the yaml)")
    .option("--ts <judge.ts>", "also write the generated TypeScript")
    .option("--samples <files...>", "sample trajectory files or folders: warn about actions and metadata keys they never use")
    .action(async (yamlPath: string, opts: { out?: string; ts?: string; samples?: string[] }) => {
      const { buildJudgeFile } = await import("./commands/build.js");
      const { formatDiagnostic } = await import("./diagnostics.js");
      const { samples: sampleFiles, ...paths } = opts;
      // Bad samples are a SamplesError, as for lint: nothing is built.
      const samples =
        sampleFiles === undefined
          ? undefined
          : await (await import("./generate/samples.js")).loadSamples(await inputFiles(sampleFiles, "samples"));
      const written = await buildJudgeFile(yamlPath, {
        ...paths,
        ...(samples !== undefined ? { samples } : {}),
        warn: (d) => process.stderr.write(`${printableLines(formatDiagnostic(d))}\n`),
      });
      for (const path of written) process.stdout.write(`wrote ${path}\n`);
    });

  const importCommand = cli
    .command("import")
    .description("convert agent traces (OpenAI, Anthropic, AI SDK logs…) into trajectories, one JSON line each")
    .argument("<files...>", "trace files (.json or .jsonl), or folders of them; - reads stdin")
    .option("-o, --out <file>", "write here instead of stdout (.json: one JSON document; otherwise JSON Lines)")
    .addOption(new Option("--complete <bool>", "override whether the traces ended normally").choices(["true", "false"]))
    .option("--reasoning", "keep the model's reasoning as agent/reasoning events")
    .action(async (files: string[], opts: { out?: string; complete?: string; reasoning?: boolean; from?: string; id?: string }) => {
      const { runImportCommand } = await import("./commands/import.js");
      process.exitCode = await runImportCommand(await inputFiles(files, "traces"), opts);
    });
  addFromOption(importCommand);
  addIdOption(importCommand);

  const judgeCommand = cli
    .command("judge")
    .description("judge trajectories with a judge.mjs or judge.yaml")
    .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
    .argument("<trajectories...>", ".json or .jsonl trajectory files, or agent traces (see --from), or folders of them; - reads stdin")
    .option("--json", "print the judgments as JSON (docs/FORMATS.md §6)")
    .addOption(
      new Option("--jsonl", "print each judgment as one JSON line as soon as it is judged, in input order (docs/SCALE.md)").conflicts(
        "json",
      ),
    )
    .option("--fail-on-false", "exit 1 when any trajectory's verdict is false")
    .option("--fail-on-overturned", "exit 1 when a model overturned any deterministic failure (verify-on-false)")
    .option("--html <report.html>", "also write the report as one self-contained HTML file")
    .option("--junit <report.xml>", "also write a JUnit XML report (one testcase per trajectory and rule)")
    .addOption(new Option("--no-web", "do not serve the report in the browser (the default on an interactive terminal)"))
    .addOption(new Option("--no-verify", "do not ask a model to confirm deterministic failures"))
    .option("--dry-run", DRY_RUN_HELP)
    .action(
      async (
        judgePath: string,
        files: string[],
        opts: {
          json?: boolean;
          jsonl?: boolean;
          failOnFalse?: boolean;
          failOnOverturned?: boolean;
          verify: boolean;
          html?: string;
          junit?: string;
          web: boolean;
          dryRun?: boolean;
        } & ModelCommandOptions &
          TraceCommandOptions &
          WorkersFlags,
      ) => {
        const { runJudgeCommand } = await import("./commands/judge.js");
        process.exitCode = await runJudgeCommand(judgePath, await inputFiles(files), opts);
      },
    );
  addModelOptions(judgeCommand, { noModel: true, sample: true });
  addFromOption(judgeCommand);
  addIdOption(judgeCommand);
  addWorkersOption(judgeCommand);

  const watchCommand = cli
    .command("watch")
    .description(
      "run a judge beside an agent: read events as JSON Lines, print each violation as it becomes certain, and the judgment at the end",
    )
    .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
    .argument("[events]", "a .jsonl file of events (or a .json trajectory to replay); - or nothing for stdin")
    .option("--json", "print each violation and the final judgment as JSON Lines")
    .option("--follow", "keep reading the file as it grows, until its end line or Ctrl-C")
    .option("--id <id>", "the trajectory id (default: the header line's, or the file name)")
    .addOption(
      new Option(
        "--complete <bool>",
        "whether the trajectory ended normally when the input ends without an end line (default false)",
      ).choices(["true", "false"]),
    )
    .option("--fail-on-false", "exit 1 when the final verdict is false")
    .addOption(new Option("--no-verify", "do not ask a model to confirm deterministic failures"))
    .action(
      async (
        judgePath: string,
        events: string | undefined,
        opts: {
          json?: boolean;
          follow?: boolean;
          id?: string;
          complete?: string;
          failOnFalse?: boolean;
          verify: boolean;
        } & ModelCommandOptions &
          TraceCommandOptions,
      ) => {
        const { runWatchCommand } = await import("./commands/watch.js");
        process.exitCode = await runWatchCommand(judgePath, events, opts);
      },
    );
  addModelOptions(watchCommand, { noModel: true, concurrency: false });
  addFromOption(watchCommand);

  cli
    .command("guard")
    .description("refuse, before it runs, a tool call that would break a rule: a Claude Code hook (--claude-code) or an MCP proxy (--mcp)")
    .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
    .argument("[server...]", "with --mcp: the MCP server's command and arguments, after --")
    .option("--claude-code", "a Claude Code / Claude Agent SDK hook: read the hook's JSON on stdin, answer as hooks do")
    .option("--mcp", "a stdio MCP server that forwards to the server command given after --")
    .option(
      "--fail-closed",
      "when the guard cannot decide (bad input, unreadable transcript, a judge that fails to load), block instead of allowing",
    )
    .option(
      "--cache-dir <dir>",
      "where each session's memory and the refusal log are kept (default .cache/behavior-judge/guard in the project)",
    )
    .action(
      async (
        judgePath: string,
        server: string[],
        opts: { claudeCode?: boolean; mcp?: boolean; failClosed?: boolean; cacheDir?: string },
      ) => {
        const { runGuardCommand } = await import("./commands/guard.js");
        process.exitCode = await runGuardCommand(judgePath, server, opts);
      },
    );

  const calibrateCommand = cli
    .command("calibrate")
    .description("compare a judge's verdicts with labeled trajectories; exit 1 on any disagreement")
    .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
    .argument("<labeled...>", "files of {trajectory, expected} cases, or folders of them; - reads stdin")
    .option("--json", "print {comparisons, judgments, totals} as JSON")
    .option("--html <report.html>", "also write the report as one self-contained HTML file, each verdict beside its label")
    .option("--junit <report.xml>", "also write a JUnit XML report (a disagreement with a label is a failure)")
    .option(
      "--fail-on-overturned",
      "exit 1 when a model overturned any deterministic failure (verify-on-false), even if the verdicts agree",
    )
    .addOption(new Option("--no-verify", "do not ask a model to confirm deterministic failures"))
    .addOption(
      new Option(
        "--runs <n>",
        "run the judge N times (cache off) and report agreement per run, pooled accuracy, perfect runs and unanimous verdicts",
      )
        .argParser(positiveInteger)
        // Its report is the runs' statistics; the per-case reports would show one run of N.
        .conflicts(["html", "junit"]),
    )
    .option("--dry-run", DRY_RUN_HELP)
    .action(
      async (
        judgePath: string,
        files: string[],
        opts: {
          json?: boolean;
          html?: string;
          junit?: string;
          failOnOverturned?: boolean;
          verify: boolean;
          runs?: number;
          dryRun?: boolean;
        } & ModelCommandOptions &
          TraceCommandOptions &
          WorkersFlags,
      ) => {
        const { runCalibrateCommand } = await import("./commands/calibrate.js");
        process.exitCode = await runCalibrateCommand(judgePath, await inputFiles(files, "labeled cases"), opts);
      },
    );
  addModelOptions(calibrateCommand, { noModel: true });
  addFromOption(calibrateCommand);
  addIdOption(calibrateCommand);
  addWorkersOption(calibrateCommand);

  const labelCommand = cli
    .command("label")
    .usage("-o <dir> [options] <judge> <traces...>")
    .description(
      "start labels from a judge's verdicts: write one {trajectory, expected} file per case for a person to correct and calibrate to read",
    )
    .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
    .argument("<traces...>", ".json or .jsonl trajectory files, or agent traces (see --from), or folders of them; - reads stdin")
    .requiredOption("-o, --out <dir>", "required: the folder to write the labeled case files to (created if missing)")
    .option("--force", "replace files that exist (default: keep them and say which)")
    .addOption(new Option("--no-verify", "do not ask a model to confirm deterministic failures"))
    .option("--dry-run", `${DRY_RUN_HELP}; write no file`)
    .action(
      async (
        judgePath: string,
        files: string[],
        opts: { out: string; force?: boolean; verify: boolean; dryRun?: boolean } & ModelCommandOptions &
          TraceCommandOptions &
          WorkersFlags,
      ) => {
        const { runLabelCommand } = await import("./commands/label.js");
        process.exitCode = await runLabelCommand(judgePath, await inputFiles(files), opts);
      },
    );
  addModelOptions(labelCommand, { noModel: true });
  addFromOption(labelCommand);
  addIdOption(labelCommand);
  addWorkersOption(labelCommand);

  const baselineCommand = cli
    .command("baseline")
    .description("judge labeled trajectories with a one-call LLM judge over the whole spec and report the same figures as calibrate --runs")
    .argument("<BEHAVIOR.md>", "the spec (or the folder that holds it)")
    .argument("<labeled...>", "files of {trajectory, expected} cases, or folders of them; - reads stdin")
    .addOption(new Option("--runs <n>", "how many runs (default 1); answers are never cached").argParser(positiveInteger))
    .option("--judge <judge>", "also run this judge.mjs or judge.yaml N times and show both side by side")
    .addOption(new Option("--no-verify", "with --judge: do not ask a model to confirm deterministic failures"))
    .option("--json", "print the figures as JSON")
    .action(
      async (
        specPath: string,
        files: string[],
        opts: { json?: boolean; verify: boolean; runs?: number; judge?: string } & ModelCommandOptions & TraceCommandOptions,
      ) => {
        const { runBaselineCommand } = await import("./commands/baseline.js");
        process.exitCode = await runBaselineCommand(specPath, await inputFiles(files, "labeled cases"), opts);
      },
    );
  addModelOptions(baselineCommand, { cache: false });
  addFromOption(baselineCommand);

  const generateCommand = cli
    .command("generate")
    .description("draft judge.yaml from a spec and sample trajectories, then confirm each rule in the browser (or the terminal)")
    .argument("<BEHAVIOR.md>", "the spec (or the folder that holds it)")
    .argument(
      "[samples...]",
      "sample trajectory files (.json or .jsonl, or agent traces), or folders of them; without them the vocabulary is guessed from the spec",
    )
    .option(
      "-o, --out <judge.yaml>",
      "where to write (default: judge.yaml beside the spec; an existing file is replaced after the review and kept as .bak)",
    )
    .option("--offline", "draft without a model, from the spec's wording and the samples")
    .addOption(new Option("--no-web", "ask in the terminal instead of the browser"))
    .option("--update <judge.yaml>", "update this judge.yaml: carry over unchanged sections, ask only about what changed")
    .option("--fail-on-warning", "exit 1 when any written rule carries a warning (a clause not covered, a name no sample shows, …)")
    .option(
      "--labels <dir>",
      "where answers to the interview's verdict questions are saved as labeled cases (default: labels/ beside judge.yaml)",
    )
    .action(async (specPath: string, samples: string[], opts: GenerateCommandOptions) => {
      const { runGenerateCommand } = await import("./commands/generate.js");
      // Without samples the vocabulary is guessed from the spec; given, they are read as judge reads its files.
      process.exitCode = await runGenerateCommand(specPath, samples.length === 0 ? [] : await inputFiles(samples, "samples"), opts);
    });
  addModelOptions(generateCommand, { concurrency: false });
  addFromOption(generateCommand);

  const queueFlags = (command: Command): Command =>
    command.requiredOption(
      "--redis <url>",
      "required: the Redis server, e.g. redis://127.0.0.1:6379 (a password in the URL is never printed)",
    );

  const enqueueCommand = queueFlags(
    cli
      .command("enqueue")
      .usage("--redis <url> [options] <trajectories...>")
      .description("append trajectories to a Redis stream, one entry each, for `worker` to judge")
      .argument("<trajectories...>", ".json or .jsonl trajectory files, or agent traces (see --from), or folders of them")
      .option("--stream <name>", "the stream to append to", "trajectories"),
  ).action(async (files: string[], opts: { redis: string; stream: string } & TraceCommandOptions) => {
    const { runEnqueueCommand } = await import("./commands/queue.js");
    process.exitCode = await runEnqueueCommand(await inputFiles(files), opts);
  });
  addFromOption(enqueueCommand);

  const workerCommand = queueFlags(
    cli
      .command("worker")
      .usage("--redis <url> [options] <judge>")
      .description(
        "judge trajectories from a Redis stream with a consumer group; write each judgment to the results stream, then acknowledge",
      )
      .argument("<judge>", "judge.mjs (built) or judge.yaml (compiled in memory)")
      .option("--stream <name>", "the stream to read", "trajectories")
      .option("--group <name>", "the consumer group (created at the stream's start if missing)", "judges")
      .option("--results <name>", "the stream to write judgments to", "verdicts")
      .addOption(
        new Option("--claim-after <ms>", "claim entries another worker has held unacknowledged this long (default 300000)").argParser(
          positiveInteger,
        ),
      )
      .option("--until-empty", "exit once the group has no new and no pending entries (default: wait for more)")
      .addOption(new Option("--batch <n>", "entries read per call (default 16)").argParser(positiveInteger))
      .addOption(
        new Option(
          "--max-deliveries <n>",
          "judge an entry at most N times: past that (its workers died judging it) it is written as a case error and acknowledged (default 3, at least 2)",
        ).argParser(deliveryLimit),
      )
      .option("--consumer <name>", "this worker's consumer name (default: host-pid-random)")
      .addOption(new Option("--no-verify", "do not ask a model to confirm deterministic failures")),
  ).action(async (judgePath: string, opts: { redis: string } & ModelCommandOptions) => {
    const { runWorkerCommand } = await import("./commands/queue.js");
    process.exitCode = await runWorkerCommand(judgePath, opts);
  });
  addModelOptions(workerCommand, { noModel: true, sample: true });

  queueFlags(
    cli
      .command("collect")
      .usage("--redis <url> [options]")
      .description("write one judgment per trajectory from the results stream as JSON Lines (duplicates from redelivery dropped by key)")
      .option("--results <name>", "the results stream", "verdicts")
      .option("-o, --out <file>", "write here instead of stdout")
      .option(
        "--judge <sha>",
        "collect only this judge's results (a prefix of its judge.yaml sha256): a stream that holds two judges' is refused otherwise",
      ),
  ).action(async (opts: { redis: string; results: string; out?: string; judge?: string }) => {
    const { runCollectCommand } = await import("./commands/queue.js");
    process.exitCode = await runCollectCommand(opts);
  });

  cli
    .command("init")
    .description(
      "scaffold a new behavior of your own in this repo: a one-rule starter spec, its judge, a passing sample, a test, a test script that runs it, and a CI workflow (never overwrites a file)",
    )
    .argument(
      "[name]",
      "the name of the new behavior, e.g. checkout-agent (lowercase words joined by -; default: package.json's name, asked on a terminal); every name starts from the same one-rule template",
    )
    .action(async (name: string | undefined) => {
      const { runInit } = await import("./commands/init.js");
      await runInit(name);
    });

  cli
    .command("lint")
    .description("check a spec, and how a judge.yaml lines up with it (quotes, rule names) and with sample trajectories")
    .argument("<BEHAVIOR.md>", "the spec (or the folder that holds it)")
    .argument("[judge.yaml]", "the judge to check (default: judge.yaml beside the spec, if any)")
    .option("--samples <files...>", "sample trajectory files or folders: flag actions and metadata keys they never use")
    .action(async (specPath: string, judgePath: string | undefined, opts: { samples?: string[] }) => {
      const { runLintCommand } = await import("./commands/lint.js");
      const samples = opts.samples === undefined ? {} : { samples: await inputFiles(opts.samples, "samples") };
      process.exitCode = await runLintCommand(specPath, judgePath, samples);
    });

  return cli;
}

/**
 * A reader that stops early (`judge … --json | head -1`) closes the pipe, and
 * the next write fails with EPIPE, emitted as an 'error' event that would end
 * the process with a stack trace. Nobody is left to read, so the rest of the
 * output is dropped: the command still finishes (report files are written)
 * and exits with its usual code. Any other stream error stays fatal.
 */
function dropOutputOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    throw error;
  });
}

export async function main(argv: readonly string[]): Promise<void> {
  dropOutputOnClosedPipe(process.stdout);
  dropOutputOnClosedPipe(process.stderr);
  try {
    await program().parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    reportError(error);
  }
}
