/**
 * The worker thread of a JSONL file judged in byte ranges (ranges.ts holds
 * the main side, range-judge.ts the judging of a range, range-start.ts the
 * start). It starts loading the judge at once when it was started with its
 * code, takes the run's setup, then judges the ranges it is sent and posts
 * what they give, the rendered bytes moved rather than copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { importJudgeCode, type JudgeCode, type JudgeModule } from "./load.js";
import { runRange, spare, type RangeInput, type RangeMessage, type RangeSetup } from "./range-judge.js";
import type { RangeWorkerData } from "./range-start.js";

function sameCode(a: JudgeCode, b: JudgeCode): boolean {
  return "path" in a ? "path" in b && a.path === b.path : "source" in b && a.source === b.source;
}

function main(): void {
  const port = parentPort!;
  const { judge: early } = workerData as RangeWorkerData;
  // Loaded while the main thread loads its own; a failure counts only if the setup needs this judge.
  const loading = early !== undefined ? importJudgeCode(early) : undefined;
  loading?.catch(() => undefined);
  // Rendered bytes move to the main thread rather than being copied.
  const post = (message: RangeMessage) =>
    port.postMessage(
      message,
      message.kind === "batch" ? message.items.flatMap((item) => (item.kind === "rendered" ? [item.bytes.buffer as ArrayBuffer] : [])) : [],
    );
  let setup: RangeSetup | undefined;
  let judge: JudgeModule | undefined;
  // Listening at once: the setup and the first ranges may come before the judge is loaded; they wait their turn here.
  let chain = Promise.resolve();
  port.on("message", (input: RangeInput) => {
    if ("spare" in input) {
      spare(input.spare);
      return;
    }
    if ("setup" in input) {
      const run = input.setup;
      setup = run;
      chain = chain.then(async () => {
        judge = await (early !== undefined && loading !== undefined && sameCode(early, run.judge) ? loading : importJudgeCode(run.judge));
        post({ kind: "ready" });
      });
      return;
    }
    chain = chain.then(() => runRange(judge!, setup!, input, post));
  });
}

if (parentPort !== null) main();
