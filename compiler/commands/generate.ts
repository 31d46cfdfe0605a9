/**
 * `generate`: flags → the library's generateJudgeYaml, with the host model
 * (unless --offline) and the browser or terminal interview, imported lazily
 * so that other commands never load it.
 */
import { dirname, join } from "node:path";
import { createHostModel, NO_MODEL_NOTICE } from "../model/index.js";
import { emptyUsage } from "../../runtime/semantic.js";
import { generateJudgeYaml, type GenerateResult } from "../generate/pipeline.js";
import { printableLines } from "../report/printable.js";
import type { InterviewInput } from "../generate/types.js";
import { resolveSpecPath } from "../behavior-md/load.js";
import { canShowBrowser } from "../web/display.js";
import type { ModelCommandOptions } from "./model-flags.js";
import { hostModelOptions } from "./model.js";
import { traceReadOptions, type TraceCommandOptions } from "./trace-flags.js";
import { plural } from "../report/plural.js";
import { checkSpecArgument } from "../files/argument-kind.js";

export interface GenerateCommandOptions extends ModelCommandOptions, TraceCommandOptions {
  out?: string;
  offline?: boolean;
  /** Commander's --no-web: false asks in the terminal. */
  web: boolean;
  update?: string;
  /** Exit 1 when any written rule carries a warning (for scripted use). */
  failOnWarning?: boolean;
  /** Where answers to verdict questions are saved (default: labels/ beside judge.yaml). */
  labels?: string;
}

/**
 * Where judge.yaml goes: -o, else the --update file, else beside the spec.
 * A file that exists is replaced only after the person confirmed the review,
 * and kept as `<file>.bak`: a hand-written judge.yaml never disappears.
 */
export async function generateTarget(specPath: string, opts: Pick<GenerateCommandOptions, "out" | "update">): Promise<string> {
  if (opts.out !== undefined) return opts.out;
  if (opts.update !== undefined) return opts.update;
  return join(dirname(await resolveSpecPath(specPath)), "judge.yaml");
}

function summary(result: GenerateResult, reviewed: boolean): string {
  const interviewed = result.rules - result.carried;
  // Input that is not a terminal takes every default: nobody looked at the draft.
  const confirmed = reviewed ? "confirmed in the interview" : "accepted without review";
  const carried = result.carried > 0 ? `, ${result.carried} carried over unchanged` : "";
  const how =
    result.drafter === "model"
      ? "drafted by the model"
      : result.drafter === "offline"
        ? result.fallback !== undefined
          ? "drafted offline after the model's proposal failed"
          : "drafted offline"
        : "nothing to draft";
  return [
    `wrote ${result.out}: ${result.rules} ${plural(result.rules, "rule")} (${interviewed} ${confirmed}${carried})`,
    `questions asked: ${result.questionsAsked}; model calls: ${result.modelCalls} (${how})`,
    ...(result.backup !== undefined ? [`the previous ${result.out} is kept as ${result.backup}`] : []),
  ].join("\n");
}

/** Returns the exit code. */
export async function runGenerateCommand(specPath: string, sampleFiles: string[], opts: GenerateCommandOptions): Promise<number> {
  // A judge.yaml (or a built judge, or trajectories) in place of the spec: one line saying which file goes where.
  await checkSpecArgument(specPath);
  const out = await generateTarget(specPath, opts);
  // Notices and errors quote the spec, samples and model replies: escaped.
  const notice = (message: string) => void process.stderr.write(`behavior-judge: ${printableLines(message)}\n`);
  let adapter;
  if (opts.offline !== true) {
    adapter = (await createHostModel(hostModelOptions(opts))).adapter;
    if (adapter === undefined)
      notice(`${NO_MODEL_NOTICE.split(":")[0]}: drafting offline from the spec's wording (use --offline to say so)`);
  }
  const interviewer = async (input: InterviewInput) => {
    const { runInterview } = await import("../interview/index.js");
    // Without a display nobody can open the page, and the server would wait forever: ask in the terminal, as `judge` skips its browser report.
    const web = opts.web && canShowBrowser();
    if (opts.web && !web) notice("no display to show the interview page (DISPLAY and WAYLAND_DISPLAY are unset): asking in the terminal");
    // Scripted input takes every default: no verdict question is asked (each stays a note on its rule).
    const { verdicts, ...unasked } = input;
    const asked = web || process.stdin.isTTY === true ? input : unasked;
    // The questions from labels are in the rules' notes; those on rules no label speaks of (from the words) are not: unmentioned, as before.
    const noted = verdicts?.questions.filter((q) => q.fromWords !== true).length ?? 0;
    if (noted > 0 && asked === unasked)
      notice(`${noted} verdict ${plural(noted, "question")} not asked (no terminal): see the rules' notes`);
    return runInterview(asked, { web, input: process.stdin, output: process.stderr });
  };
  // Bad samples and a cancelled interview are UserErrors: the CLI prints them and exits 1.
  const result = await generateJudgeYaml({
    spec: specPath,
    samples: sampleFiles,
    read: traceReadOptions(opts),
    out,
    update: opts.update,
    ...(opts.labels !== undefined ? { labelsDir: opts.labels } : {}),
    adapter,
    interviewer,
    notice,
    usage: emptyUsage(),
  });
  const reviewed = (opts.web && canShowBrowser()) || process.stdin.isTTY === true;
  process.stdout.write(`${summary(result, reviewed)}\n`);
  if (!reviewed || opts.failOnWarning === true) {
    for (const { rule, messages } of result.warnings) {
      process.stdout.write(printableLines(`warnings on ${JSON.stringify(rule)}:\n${messages.map((m) => `  - ${m}\n`).join("")}`));
    }
  }
  if (opts.failOnWarning === true && result.warnings.length > 0) {
    const n = result.warnings.length;
    notice(`${n} ${plural(n, "rule")} ${n === 1 ? "carries" : "carry"} warnings (--fail-on-warning)`);
    return 1;
  }
  return 0;
}
