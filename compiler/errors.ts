/**
 * The errors a person can cause. A UserError is bad input or bad usage: the
 * CLI prints its message, never a stack, and exits with its `exitCode`.
 * Anything else that reaches the CLI is a bug in behavior-judge and keeps its
 * stack: GeneratedCodeError (codegen/typecheck.ts) and BundleError
 * (build/bundle.ts) say the compiler wrote something it must not, so they are
 * plain Errors on purpose.
 *
 * The two errors that carry located diagnostics, JudgeYamlError and SpecError,
 * live beside their formatter in diagnostics.ts. runtime/'s TrajectoryError is
 * not a UserError: judge.mjs inlines runtime/ and cannot import the compiler,
 * so the commands recognise it by its name and `field` (run/judge-cases.ts).
 *
 * This file imports nothing: cli.ts loads it up front to tell user errors from
 * bugs with `instanceof`, and every command is still loaded lazily after it.
 */

/** Invalid input: a file, a case, a spec, a model that failed, an interview the person cancelled. */
export const EXIT_INVALID = 1;
/** The command line cannot be carried out as given (e.g. no model for a command that needs one). */
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_INVALID | typeof EXIT_USAGE;

export interface UserErrorOptions<D> {
  /** Default EXIT_INVALID. */
  exitCode?: ExitCode;
  /** Located problems, one line of the message each. */
  diagnostics?: readonly D[];
}

/**
 * A problem with what the person gave: shown as its message alone. `D` is
 * diagnostics.ts's Diagnostic where there are any (a type parameter rather
 * than an import keeps this file free of imports).
 */
export class UserError<D = never> extends Error {
  override name = "UserError";
  readonly exitCode: ExitCode;
  /** Empty when the message stands alone; else the located problems it lists, one per line. */
  readonly diagnostics: readonly D[];

  constructor(message: string, options: UserErrorOptions<D> = {}) {
    super(message);
    this.exitCode = options.exitCode ?? EXIT_INVALID;
    this.diagnostics = options.diagnostics ?? [];
  }
}

/** A command that cannot run as asked, e.g. `baseline` with no model configured. Exit code 2. */
export class UsageError extends UserError {
  override name = "UsageError";
  constructor(message: string) {
    super(message, { exitCode: EXIT_USAGE });
  }
}

/** A file given as a judge that is neither a built judge nor a judge.yaml. */
export class JudgeLoadError extends UserError {
  override name = "JudgeLoadError";
}

/** Sample trajectories that could not be read: every problem at once, one per line, each naming file, case and field. */
export class SamplesError extends UserError {
  override name = "SamplesError";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

/** The person answered "n" at the interview's review: nothing is to be written. */
export class InterviewCancelledError extends UserError {
  override name = "InterviewCancelledError";
  constructor() {
    super("interview cancelled: judge.yaml was not written");
  }
}

/** A model call that failed after every retry; its message is safe to show and to store (the key is redacted). */
export class ModelCallError extends UserError {
  override name = "ModelCallError";
  /** @param requests what the call sent, retries included: the usage line counts them. */
  constructor(
    message: string,
    readonly requests: number,
  ) {
    super(message);
  }
}
