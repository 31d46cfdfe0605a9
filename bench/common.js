// Pieces the benchmarks share: the refund example's support session, a child process timed by
// its own resource usage, a spec folder's labeled cases, and a command-line option.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const USAGE = join(dirname(fileURLToPath(import.meta.url)), "usage-at-exit.mjs");

/**
 * A long support session of `size` events in the refund example's vocabulary: lookups, refunds
 * over a few orders, approvals with confirmation emails, chat, and an escalation with a handover
 * note near the end, so every rule of the refund judges is triggered. Deterministic; `k0` shifts
 * which blocks are declined, so sessions of one corpus differ. Events without metadata have none
 * (as a parsed trajectory file has none).
 */
export function refundEvents(size, k0 = 0) {
  const events = [];
  const push = (actor, action, content, metadata) =>
    events.push(
      metadata === undefined
        ? { id: `e${events.length + 1}`, actor, action, content }
        : { id: `e${events.length + 1}`, actor, action, content, metadata },
    );
  // Blocks of six, leaving room for the three closing events.
  for (let k = k0; events.length + 6 <= size - 3; k++) {
    const order = `A-${k % 3}`;
    push("user", "message", "My order arrived damaged, can I get a refund?");
    push("agent", "get_order", order, { order_id: order });
    push("tool", "get_order_result", "Order found", { status: "found", order_id: order });
    push("agent", "issue_refund", "Refunding", { order_id: order, amount: "19.00" });
    push("tool", "issue_refund_result", "Approved", { status: k % 5 === 0 ? "declined" : "approved", order_id: order });
    push("agent", "send_email", "Your refund is on its way", { template: "refund_confirmation" });
  }
  while (events.length < size - 3) push("user", "message", "Thanks.");
  push("agent", "escalate_to_supervisor", "Escalating");
  push("agent", "add_case_note", "Handover", { kind: "handover" });
  push("agent", "send_message", "A supervisor will follow up.");
  return events;
}

/** Runs node with `args`, stdout to /dev/null; wall seconds, the child's own CPU seconds and peak RSS (MB). */
export function measureNode(args, usageFile) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", USAGE, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, BENCH_USAGE_OUT: usageFile, OPENAI_API_KEY: "", BRAINTRUST_API_KEY: "" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0 && code !== 1) return reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(0, 2000)}`));
      const usage = JSON.parse(readFileSync(usageFile, "utf8"));
      resolve({ wall, cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6, maxRssMb: usage.maxRSS / 1024 });
    });
  });
}

/** The labeled cases of a spec folder: every `trajectories/*.json`, in name order, a file holding one case or an array of them. */
export function casesOf(dir) {
  const folder = join(dir, "trajectories");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .flatMap((f) => {
      const value = JSON.parse(readFileSync(join(folder, f), "utf8"));
      return Array.isArray(value) ? value : [value];
    });
}

/** The value after `flag` in `args`, taken out of `args` with the flag (so what is left is positional), or `fallback`. */
export function takeOption(args, flag, fallback) {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
}
