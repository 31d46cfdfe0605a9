// Loaded with `node --import` by bench/scale.js: at exit, the main thread writes what the
// whole process used (CPU of every thread, peak RSS) to $BENCH_USAGE_OUT.
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const out = process.env.BENCH_USAGE_OUT;
if (isMainThread && out !== undefined) process.on("exit", () => writeFileSync(out, JSON.stringify(process.resourceUsage())));
