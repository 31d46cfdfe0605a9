/**
 * The worker thread of a JSONL file judged in byte ranges (ranges.ts holds
 * the main side, range-judge.ts the judging of a range): it loads the judge
 * once, then judges the ranges it is sent and posts what they give, the
 * rendered bytes moved rather than copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { importJudgeCode } from "./load.js";
import { runRange, spare, type RangeInput, type RangeMessage, type RangeSetup } from "./range-judge.js";

async function main(): Promise<void> {
  const port = parentPort!;
  const setup = workerData as RangeSetup;
  const judge = await importJudgeCode(setup.judge);
  // Rendered bytes move to the main thread rather than being copied.
  const post = (message: RangeMessage) =>
    port.postMessage(
      message,
      message.kind === "batch" ? message.items.flatMap((item) => (item.kind === "rendered" ? [item.bytes.buffer as ArrayBuffer] : [])) : [],
    );
  let chain = Promise.resolve();
  port.on("message", (input: RangeInput) => {
    if ("spare" in input) {
      spare(input.spare);
      return;
    }
    chain = chain.then(() => runRange(judge, setup, input, post));
  });
  post({ kind: "ready" });
}

if (parentPort !== null) await main();
