#!/usr/bin/env node
// What each output mode of `judge` costs per case, in one process (issue 26, docs/SPEED.md "Sixth round"):
//
//   npm run build:cli && node bench/render-case.js            # 20,000 judgments of 10 events, 3,000 of 48
//   node bench/render-case.js --dist OTHER/dist               # another build's renderers
//   node bench/render-case.js --before OTHER/dist             # this build's and another's, one process
//
// The refund example's judge judges generated sessions once; then, best of seven passes over the
// judgments, each variant's output joined in chunks of 32K characters as the CLI writes it:
// compact JSON.stringify (what the floor of bench/cli-floor.js does), the indented stringify that
// --json's format asks for, the CLI's --jsonl line and --json element (report/json.ts; a judgment of
// the runtime's shape written by report/judgment-json.ts since the seventh round), and the
// text report's block given the raw trajectory (report/text.ts). µs per case of CPU, and the
// characters written.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { refundEvents } from "./common.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const at = process.argv.indexOf("--dist");
const DIST = at > 0 ? process.argv[at + 1] : join(ROOT, "dist");
const judge = await import(pathToFileURL(join(ROOT, "examples", "refund-support", "judge.mjs")).href);
const json = await import(pathToFileURL(join(DIST, "compiler", "report", "json.js")).href);
const text = await import(pathToFileURL(join(DIST, "compiler", "report", "text.js")).href);
const on = process.argv.indexOf("--before");
const BEFORE = on > 0 ? process.argv[on + 1] : undefined;
const before =
  BEFORE === undefined
    ? undefined
    : {
        json: await import(pathToFileURL(join(BEFORE, "compiler", "report", "json.js")).href),
        text: await import(pathToFileURL(join(BEFORE, "compiler", "report", "text.js")).href),
      };

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};

for (const [events, count] of [
  [10, 20_000],
  [48, 3_000],
]) {
  const trajectories = [];
  const judgments = [];
  for (let i = 0; i < count; i++) {
    const trajectory = JSON.parse(JSON.stringify({ id: `s-${i}`, complete: true, events: refundEvents(events, i) }));
    trajectories.push(trajectory);
    judgments.push(await judge.judgeTrajectory(trajectory));
  }
  const variants = {
    "JSON.stringify(j)": (i) => JSON.stringify(judgments[i]),
    "JSON.stringify([j], null, 2)": (i) => JSON.stringify([judgments[i]], null, 2),
    "--jsonl line": (i) => `${json.lineWithCase(json.lineHead(judgments[i], "f.jsonl"), i)}\n`,
    "--json element": (i) => `${i === 0 ? "[\n  " : ",\n  "}${json.elementWithCase(json.elementHead(judgments[i], "f.jsonl"), i)}`,
    "text block": (i) => `${text.renderTrajectoryText(judgments[i], "f.jsonl", { model: false, trajectory: trajectories[i] })}\n`,
  };
  if (before !== undefined)
    Object.assign(variants, {
      "--jsonl line, before": (i) => `${before.json.lineWithCase(before.json.lineHead(judgments[i], "f.jsonl"), i)}\n`,
      "--json element, before": (i) =>
        `${i === 0 ? "[\n  " : ",\n  "}${before.json.elementWithCase(before.json.elementHead(judgments[i], "f.jsonl"), i)}`,
      "text block, before": (i) =>
        `${before.text.renderTrajectoryText(judgments[i], "f.jsonl", { model: false, trajectory: trajectories[i] })}\n`,
    });
  const pass = (render) => {
    let parts = [];
    let size = 0;
    let written = 0;
    for (let i = 0; i < count; i++) {
      const piece = render(i);
      parts.push(piece);
      size += piece.length;
      if (size >= 1 << 15) {
        written += parts.join("").length;
        parts = [];
        size = 0;
      }
    }
    return written + parts.join("").length;
  };
  console.log(`\n${count.toLocaleString("en")} judgments of ${events}-event trajectories:\n`);
  console.log("| output | µs a case | characters |");
  console.log("|---|---:|---:|");
  for (const [name, render] of Object.entries(variants)) {
    let best = Infinity;
    let chars = 0;
    for (let run = 0; run < 7; run++) {
      const start = cpu();
      chars = pass(render);
      best = Math.min(best, cpu() - start);
    }
    console.log(`| ${name} | ${((best * 1000) / count).toFixed(2)} | ${chars.toLocaleString("en")} |`);
  }
}
