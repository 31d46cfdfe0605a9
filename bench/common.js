// Pieces the benchmarks share: the refund example's support session, a child process timed by
// its own resource usage, a spec folder's labeled cases, a command-line option, and the offline
// drafter benches' spec groups, the drafter's built modules and rule-verdict agreement.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
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

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The spec folders of `folder` (relative to the repository or absolute): itself if it holds a BEHAVIOR.md, else its sub-folders that do, sorted. */
export function specFolders(folder) {
  const path = isAbsolute(folder) ? folder : join(ROOT, folder);
  if (existsSync(join(path, "BEHAVIOR.md"))) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(path, d.name, "BEHAVIOR.md")))
    .map((d) => join(path, d.name))
    .sort();
}

/**
 * The offline drafter benches' default groups, [title, spec folders]: the development sets, named
 * one by one (never a glob: the held-out set must not come in with a merge).
 */
export function defaultGroups() {
  return [
    ["held-out-2026 (in-sample)", specFolders("test/fixtures/spec/held-out-2026")],
    ["held-out-2026-12 (written by the drafter's developer before changing it)", specFolders("test/fixtures/spec/held-out-2026-12")],
    ["blind", specFolders("test/fixtures/blind")],
    ["blind2 (in-sample since the drafter was changed with its drafts in view)", specFolders("test/fixtures/blind2")],
    ["blind3 (in-sample since the drafter was changed with its drafts in view)", specFolders("test/fixtures/blind3")],
    ["blind4 (in-sample since 6 December 2026)", specFolders("test/fixtures/blind4")],
    ["blind5 (in-sample since 6 December 2026)", specFolders("test/fixtures/blind5")],
    ["blind6 (in-sample since the third session of 6 December 2026)", specFolders("test/fixtures/blind6")],
    ["blind7 (in-sample since the fourth session of 6 December 2026)", specFolders("test/fixtures/blind7")],
    ["blind8 (in-sample since the fifth session of 6 December 2026)", specFolders("test/fixtures/blind8")],
    ["blind9 (in-sample since the sixth session of 6 December 2026)", specFolders("test/fixtures/blind9")],
    ["blind10 (in-sample since the seventh session of 6 December 2026)", specFolders("test/fixtures/blind10")],
    ["blind11 (in-sample since the eighth session of 6 December 2026)", specFolders("test/fixtures/blind11")],
    ["blind12 (in-sample since the first session of 7 December 2026)", specFolders("test/fixtures/blind12")],
    ["blind13 (in-sample since the second session of 7 December 2026)", specFolders("test/fixtures/blind13")],
    ["blind14 (in-sample since the third session of 7 December 2026)", specFolders("test/fixtures/blind14")],
    ["blind15 (in-sample since the end of the third session of 7 December 2026)", specFolders("test/fixtures/blind15")],
    ["blind16 (in-sample since the end of the fourth session of 7 December 2026)", specFolders("test/fixtures/blind16")],
    ["blind17 (in-sample since the end of the fifth session of 7 December 2026)", specFolders("test/fixtures/blind17")],
    ["blind18 (in-sample since the end of the sixth session of 7 December 2026)", specFolders("test/fixtures/blind18")],
    ["blind19 (in-sample since the end of the seventh session of 7 December 2026)", specFolders("test/fixtures/blind19")],
    ["blind20 (in-sample since the end of the eighth session of 7 December 2026)", specFolders("test/fixtures/blind20")],
    ["blind21 (in-sample since the end of the ninth session of 7 December 2026)", specFolders("test/fixtures/blind21")],
  ];
}

/**
 * The built offline drafter (dist/, so `npm run build:cli` first) as the drafter benches use it:
 * parse a BEHAVIOR.md, build the samples' vocabulary, draft, preview the draft's verdicts, and
 * validate a trajectory. One place, so the benches measure the same modules.
 */
export async function loadDrafter() {
  const dist = (path) => import(join(ROOT, "dist", path));
  const [{ parseBehaviorMd }, { buildVocabulary }, { draftOffline }, { previewJudge }, { validateTrajectory }] = await Promise.all([
    dist("compiler/behavior-md/load.js"),
    dist("compiler/generate/vocabulary.js"),
    dist("compiler/generate/offline/draft.js"),
    dist("compiler/generate/preview.js"),
    dist("runtime/trajectory.js"),
  ]);
  return { parseBehaviorMd, buildVocabulary, draftOffline, previewJudge, validateTrajectory };
}

/** A preview rule's verdict on one sample: "true", "false" or "na". */
export const verdictOf = (rule, id) => (rule.rule.pass.includes(id) ? "true" : rule.rule.fail.includes(id) ? "false" : "na");

/**
 * Rule-verdict agreement of a drafted IR with the hand labels of `cases`, counted on the samples
 * whose ids are in `ids`; verdicts from `previewJudge` (compiler/generate/preview.js), which runs
 * the checks' generated code. `wrong` names the rules with at least one disagreement.
 */
export function ruleAgreement(previewJudge, ir, samples, cases, ids) {
  const preview = previewJudge(ir, samples);
  let agree = 0;
  let total = 0;
  const wrong = new Set();
  for (const c of cases) {
    if (!ids.has(c.trajectory.id)) continue;
    for (const rule of preview.rules) {
      total++;
      if (c.expected.metaBehaviorVerdicts[rule.name] === verdictOf(rule, c.trajectory.id)) agree++;
      else wrong.add(rule.name);
    }
  }
  return { agree, total, exact: preview.rules.length - wrong.size, rules: preview.rules.length, wrong };
}
