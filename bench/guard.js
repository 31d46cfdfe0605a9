#!/usr/bin/env node
// Guard latency and cost per event as a judge grows (issue 26). Not a test: the machine
// is shared, so read the ratios within one run, not the absolute figures across runs.
//
//   npm run build:cli && node bench/guard.js             # the published table: 1, 100 and 1,000 rules
//   node bench/guard.js --rules 1,100 --events 20000 --rounds 2   # other sizes, fewer rounds
//   node bench/guard.js --before /tmp/old   # also an older build: /tmp/old/guard-<rules>.mjs, alternated
//   node bench/guard.js --warm 0            # no steady-state rows
//   node bench/guard.js --processes 5       # section 1: each state of each judge in 5 fresh processes (default 3); medians
//   node bench/guard.js --rules 100 --tail  # section 1 also says what the slowest 1% of calls are (by kind of event,
//                                           # and calls that report a violation against those that report none), and the machine's own tail
//   node bench/guard.js --no-batch          # section 1 only
//
// Each judge is built from a judge.yaml written here (`guardJudgeYaml`): rule i is about a
// vocabulary of its own (lookup_i, refund_i, refund_i_result, notify_i) with an ordering, a
// pairing and, in turn, a count or a forbidden check, so an event's action concerns one rule.
// The events are a support session over that vocabulary: user messages (which no rule
// names) and, for a tool picked at random, lookup, refund, the processor's answer and a
// notification.
//
//   1. monitor.push and monitor.check: p50, p99 and p99.9 of each call, in ns, each judge in
//      three states, each in fresh processes (alternated), each percentile the median over them:
//      "cold", the first session of `--events` events right after the judge is imported, every
//      call counted from the first; "warm()", the same session after the judge's `warm()`
//      (its time is printed); "steady", 5 sessions pooled after `--warm` events per rule
//      (default 6,000: a long-running guard's state, once V8 has optimized every rule's class).
//      The machine's load average is printed before and after each judge, and a markdown table
//      of all rows at the end (docs/SCALE.md's).
//   2. judgeTrajectory: ns per event over the same kind of session, and over one whose
//      events concern only rules 0 and 1 (so a judge of 100 or 1,000 rules should cost
//      what one of 2 rules does), each measurement in a process of its own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argument = (flag, fallback) => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : fallback;
};

/** A judge.yaml of `rules` rules, rule i about its own tool i. */
export function guardJudgeYaml(rules) {
  const out = ["version: 1\nbehavior: guard-bench\nmetaBehaviors:\n"];
  for (let i = 0; i < rules; i++) {
    const third =
      i % 2 === 0
        ? `      - type: count\n        quote: "at most three orders on tool ${i}"\n        match: {action: refund_${i}}\n        max: 3\n        distinctBy: metadata.order_id\n`
        : `      - type: forbidden\n        quote: "no refund on tool ${i} once it declined"\n        match: {action: refund_${i}}\n        after: {action: refund_${i}_result, metadata: {status: declined}}\n`;
    out.push(
      `  - name: "Tool ${i}"\n    trigger:\n      description: "The agent refunds with tool ${i}."\n      match: {action: refund_${i}}\n    checks:\n` +
        `      - type: ordering\n        quote: "look up before refunding on tool ${i}"\n        first: {action: lookup_${i}, metadata: {status: found}}\n        before: {action: refund_${i}}\n` +
        `      - type: pairing\n        quote: "notify after each approval on tool ${i}"\n        each: {action: refund_${i}_result, metadata: {status: approved}}\n        followedBy: {action: notify_${i}}\n` +
        third,
    );
  }
  return out.join("");
}

/** A deterministic session of `size` events over tools 0 … tools-1 (xorshift, so every run judges the same events). */
export function guardEvents(size, tools, idPrefix = "e") {
  let seed = 2463534242;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const events = [];
  const push = (actor, action, content, metadata) =>
    events.push(
      metadata === undefined
        ? { id: `${idPrefix}${events.length + 1}`, actor, action, content }
        : { id: `${idPrefix}${events.length + 1}`, actor, action, content, metadata },
    );
  while (events.length < size) {
    const k = Math.floor(random() * tools);
    const order = `A-${Math.floor(random() * 5)}`;
    push("user", "message", "My order arrived damaged, can I get a refund?");
    push("tool", `lookup_${k}`, "Order found", { status: random() < 0.9 ? "found" : "missing", order_id: order });
    push("agent", `refund_${k}`, "Refunding", { order_id: order, amount: "19.00" });
    push("tool", `refund_${k}_result`, "Done", { status: random() < 0.8 ? "approved" : "declined", order_id: order });
    push("agent", `notify_${k}`, "Your refund is on its way");
  }
  events.length = size;
  return events;
}

/** Builds `yamlText` into `folder`/`base`.mjs with the CLI; returns the judge.mjs path. */
export function buildJudge(yamlText, folder, base) {
  const yaml = join(folder, `${base}.yaml`);
  const mjs = join(folder, `${base}.mjs`);
  writeFileSync(yaml, yamlText);
  execFileSync(process.execPath, [join(root, "bin", "behavior-judge.js"), "build", yaml, "-o", mjs], { stdio: "ignore" });
  return mjs;
}

function build(rules, folder) {
  return buildJudge(guardJudgeYaml(rules), folder, `guard-${rules}`);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/**
 * Latency of each push and each check, in ns, over `count` events of a session over all the
 * judge's rules, `rounds` rounds pooled after `warmup` rounds that are not counted.
 */
export function latency(judge, rules, count, rounds, warmup = 1) {
  const events = guardEvents(count, rules);
  const probes = guardEvents(count, rules, "c");
  // For `--tail`: each event's kind (its action with the tool's number left out) and whether it
  // is the first of its tool in a session (the push that makes the rule's stepper). Worked out
  // here, before any call is timed: the loop below does nothing between calls but store the times
  // into arrays made up front, so no bookkeeping of the bench runs between two calls of the judge.
  const kindOf = events.map((e) => e.action.replace(/_\d+/, "_K"));
  const touched = new Set();
  const firstOf = events.map((e, i) => {
    const tool = kindOf[i] === "message" ? undefined : e.action.split("_")[1];
    const first = tool !== undefined && !touched.has(tool);
    if (tool !== undefined) touched.add(tool);
    return first;
  });
  const calls = rounds * events.length;
  const checkNs = new Float64Array(calls);
  const pushNs = new Float64Array(calls);
  // And whether the call reported a violation: building the report is part of its time.
  const checkReported = new Uint8Array(calls);
  const pushReported = new Uint8Array(calls);
  for (let round = 1 - warmup; round <= rounds; round++) {
    const monitor = judge.createMonitor({ id: `guard-${round}` });
    for (let i = 0; i < events.length; i++) {
      // A check of the next event (its own id, so it is new), then the push of the event itself.
      const a = process.hrtime.bigint();
      const checked = monitor.check(probes[i]);
      const b = process.hrtime.bigint();
      const pushed = monitor.push(events[i]);
      const c = process.hrtime.bigint();
      if (round > 0) {
        const k = (round - 1) * events.length + i;
        checkNs[k] = Number(b - a);
        pushNs[k] = Number(c - b);
        checkReported[k] = checked.length > 0 ? 1 : 0;
        pushReported[k] = pushed.length > 0 ? 1 : 0;
      }
    }
  }
  const check = Array.from(checkNs);
  const push = Array.from(pushNs);
  const kinds = check.map((_, k) => kindOf[k % events.length]);
  const firstOfTool = check.map((_, k) => firstOf[k % events.length]);
  const timer = [];
  for (let i = 0; i < 100_000; i++) {
    const a = process.hrtime.bigint();
    timer.push(Number(process.hrtime.bigint() - a));
  }
  // The machine's own tail: the same timing around a function of fixed work (about 1 µs).
  const trivial = [];
  let sink = 0;
  for (let i = 0; i < 60_000; i++) {
    const a = process.hrtime.bigint();
    for (let j = 0; j < 1000; j++) sink += (j * 7) % 13;
    trivial.push(Number(process.hrtime.bigint() - a));
  }
  trivial.splice(0, 10_000);
  const summary = (list) => {
    const sorted = list.slice().sort((x, y) => x - y);
    return [0.5, 0.99, 0.999].map((p) => percentile(sorted, p));
  };
  // Per kind of event: share of the calls, p50, p99, and share of the slowest 1% of all calls.
  const tail = (list, reported) => {
    const cut = summary(list)[1];
    const rows = {};
    for (const kind of [...new Set(kinds)].sort()) {
      const own = list.filter((_, k) => kinds[k] === kind);
      const slow = own.filter((n) => n >= cut).length;
      rows[kind] = [own.length / list.length, ...summary(own).slice(0, 2), slow / list.filter((n) => n >= cut).length];
    }
    const subset = (label, keep) => {
      const own = list.filter((_, k) => keep(k));
      if (own.length === 0) return;
      rows[label] = [
        own.length / list.length,
        ...summary(own).slice(0, 2),
        own.filter((n) => n >= cut).length / list.filter((n) => n >= cut).length,
      ];
    };
    subset("(first of its tool)", (k) => firstOfTool[k]);
    subset("(reports a violation)", (k) => reported[k]);
    subset("(reports nothing)", (k) => !reported[k]);
    return rows;
  };
  return {
    push: summary(push),
    check: summary(check),
    timer: summary(timer)[0],
    machine: { timer: summary(timer), trivial: summary(trivial), sink: sink > 0 },
    tail: { push: tail(push, pushReported), check: tail(check, checkReported) },
  };
}

/** `--measure <judge.mjs> <events> <tools> <ms>`: best ns per event of judgeTrajectory, by CPU time, in a process of its own. */
async function measureAlone() {
  const at = process.argv.indexOf("--measure");
  const [path, size, tools, ms] = [
    process.argv[at + 1],
    Number(process.argv[at + 2]),
    Number(process.argv[at + 3]),
    Number(process.argv[at + 4]),
  ];
  const judge = await import(pathToFileURL(path).href);
  const trajectory = { id: "t", complete: true, events: guardEvents(size, tools) };
  const stretch = async (limit) => {
    const start = process.cpuUsage();
    let runs = 0;
    let elapsed = 0;
    do {
      await judge.judgeTrajectory(trajectory);
      runs++;
      const used = process.cpuUsage(start);
      elapsed = (used.user + used.system) / 1000;
    } while (elapsed < limit);
    return (elapsed * 1e6) / runs / size;
  };
  await stretch(ms / 2);
  let best = Infinity;
  for (let k = 0; k < 4; k++) best = Math.min(best, await stretch(ms / 4));
  process.stdout.write(`${best}\n`);
}

/**
 * One state of the judge at `path`, measured in this (fresh) process: "cold", its first session;
 * "warmed", its first session after `warm()`; "steady", after `warm` events per rule more.
 */
async function latencyAlone(path, rules, count, warm, state) {
  const judge = await import(pathToFileURL(path).href);
  if (state === "warmed") {
    if (typeof judge.warm !== "function") return undefined;
    const start = process.hrtime.bigint();
    const events = judge.warm();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return { ...latency(judge, rules, count, 1, 0), warmMs: ms, warmEvents: events };
  }
  if (state === "cold") return latency(judge, rules, count, 1, 0);
  return latency(judge, rules, count, 5, Math.ceil((warm * rules) / count));
}

const main = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (main && process.argv.includes("--latency")) {
  // `--latency <judge.mjs> <rules> <events> <warm> <state>`: one process's figures, as JSON.
  const at = process.argv.indexOf("--latency");
  const [path, rules, count, warm, state] = process.argv.slice(at + 1, at + 6);
  process.stdout.write(JSON.stringify((await latencyAlone(path, Number(rules), Number(count), Number(warm), state)) ?? null));
  process.exit(0);
}
if (main && process.argv.includes("--measure")) {
  await measureAlone();
  process.exit(0);
}
if (main) await run();

async function run() {
  const sizes = argument("--rules", "1,100,1000").split(",").map(Number);
  const count = Number(argument("--events", "10000"));
  const rounds = Number(argument("--rounds", "3"));
  const folder = mkdtempSync(join(tmpdir(), "bj-guard-"));
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; judges built in ${folder}\n`);
  const built = new Map(sizes.map((rules) => [rules, build(rules, folder)]));
  // --before: the same judges built by another version of the compiler, measured beside these.
  const beforeFolder = argument("--before", undefined);
  const judges = (rules) =>
    beforeFolder === undefined
      ? [["", built.get(rules)]]
      : [
          ["before ", join(beforeFolder, `guard-${rules}.mjs`)],
          ["after  ", built.get(rules)],
        ];

  const warm = Number(argument("--warm", "6000"));
  const processes = Number(argument("--processes", "3"));
  const showTail = process.argv.includes("--tail");
  const states = warm > 0 ? ["cold", "warmed", "steady"] : ["cold", "warmed"];
  const stateName = { cold: "cold", warmed: "warm()", steady: "steady" };
  console.log(`1. monitor latency per call, ns: cold, the first session of ${count} events right after import; warm(), the same`);
  console.log(`   after the judge's warm(); steady, 5 sessions pooled after ${warm} more events per rule. Median of ${processes}`);
  console.log("   fresh processes per row, alternated; the time of warm() beside its rows.");
  console.log("   rules  state       push p50    p99  p99.9   check p50    p99  p99.9   (timer alone p50; warm() ms)");
  const cols = (list) => list.map((n, k) => String(n).padStart(k === 0 ? 9 : 6)).join(" ");
  const median = (list) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const published = [];
  for (const rules of sizes) {
    const before = loadavg()[0];
    // Each process measures one state of one build, so no state inherits another's warm code.
    const measured = new Map(judges(rules).flatMap(([label]) => states.map((state) => [`${label}${state}`, []])));
    for (let p = 0; p < processes; p++) {
      for (const state of states) {
        for (const [label, path] of judges(rules)) {
          const args = [fileURLToPath(import.meta.url), "--latency", path, String(rules), String(count), String(warm), state];
          const run = JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 26 }));
          if (run !== null) measured.get(`${label}${state}`).push(run);
        }
      }
    }
    const after = loadavg()[0];
    console.log(`   (load average ${before.toFixed(1)} before, ${after.toFixed(1)} after)`);
    for (const [label] of judges(rules)) {
      for (const state of states) {
        const runs = measured.get(`${label}${state}`);
        if (runs.length === 0) {
          console.log(`   ${label}${String(rules).padStart(5)}  ${stateName[state].padEnd(8)}  (this build has no warm())`);
          continue;
        }
        const figures = (call) => [0, 1, 2].map((k) => median(runs.map((run) => run[call][k])));
        const warmMs = state === "warmed" ? median(runs.map((run) => run.warmMs)) : undefined;
        const row = { label, rules, state, push: figures("push"), check: figures("check"), warmMs, load: [before, after] };
        published.push(row);
        console.log(
          `   ${label}${String(rules).padStart(5)}  ${stateName[state].padEnd(8)}  ${cols(row.push)}   ${cols(row.check)}   (${runs[0].timer}${warmMs === undefined ? "" : `; ${warmMs.toFixed(0)} ms`})`,
        );
      }
    }
    if (showTail) {
      // What the slowest 1% are, from the first process of each state.
      for (const [label] of judges(rules)) {
        const cold = measured.get(`${label}cold`)[0];
        const { machine } = cold;
        console.log(
          `     ${label}${rules} rules, machine: timer alone p50/p99/p99.9 ${machine.timer.join("/")} ns, ~1 µs of fixed work ${machine.trivial.join("/")} ns`,
        );
        for (const state of states) {
          const first = measured.get(`${label}${state}`)[0];
          if (first === undefined) continue;
          for (const call of ["check", "push"]) {
            const rows = Object.entries(first.tail[call]).map(
              ([kind, [share, p50, p99, slow]]) =>
                `${kind} ${(100 * share).toFixed(0)}% of calls, p50 ${p50} p99 ${p99}, ${(100 * slow).toFixed(0)}% of the slowest 1%`,
            );
            console.log(`       ${stateName[state]} ${call}: ${rows.join("; ")}`);
          }
        }
      }
    }
  }
  // The table as docs/SCALE.md has it: µs, two significant figures past the point where it matters.
  const us = (ns) =>
    ns >= 1e6
      ? `${(ns / 1e6).toFixed(1)} ms`
      : `${ns >= 10_000 ? (ns / 1000).toFixed(0) : ns >= 1000 ? (ns / 1000).toFixed(1) : (ns / 1000).toFixed(2)} µs`;
  console.log(
    `\n| rules | state |${beforeFolder === undefined ? "" : " build |"} push p50 | p99 | p99.9 | check p50 | p99 | p99.9 | warm() | load average |`,
  );
  console.log(`|---:|---|${beforeFolder === undefined ? "" : "---|"}---:|---:|---:|---:|---:|---:|---:|---|`);
  for (const row of published) {
    const cells = [...row.push, ...row.check].map(us);
    console.log(
      `| ${row.rules.toLocaleString("en-US")} | ${stateName[row.state]} |${beforeFolder === undefined ? "" : ` ${row.label.trim()} |`} ${cells.join(" | ")} | ${row.warmMs === undefined ? "" : `${row.warmMs.toFixed(0)} ms`} | ${row.load.map((l) => l.toFixed(1)).join("–")} |`,
    );
  }

  if (process.argv.includes("--no-batch")) return;
  // Section 2 divides by the 2-rule judge's cost: it is measured whatever --rules says.
  const batchSizes = [...new Set([2, ...sizes])].sort((a, b) => a - b);
  if (!built.has(2)) built.set(2, build(2, folder));
  console.log(`\n2. judgeTrajectory, ns per event by CPU time (best of ${rounds} rounds, each in a fresh process)`);
  console.log("   rules   events   all tools   tools 0-1 only   (tools 0-1 only) / (2-rule judge)");
  const measure = (path, size, tools) =>
    Number(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--measure", path, String(size), String(tools), "600"], {
        encoding: "utf8",
      }).trim(),
    );
  for (const size of [1_000, 100_000]) {
    const rows = new Map();
    for (let round = 0; round < rounds; round++) {
      for (const rules of batchSizes) {
        for (const [label, path] of judges(rules)) {
          const key = `${label}${rules}`;
          const row = rows.get(key) ?? { label, rules, all: Infinity, two: Infinity };
          row.all = Math.min(row.all, measure(path, size, rules));
          row.two = Math.min(row.two, measure(path, size, Math.min(2, rules)));
          rows.set(key, row);
        }
      }
    }
    for (const row of rows.values()) {
      const base = rows.get(`${row.label}2`)?.two;
      const ratio = base === undefined ? "" : `${(row.two / base).toFixed(2)}x`;
      console.log(
        `   ${row.label}${String(row.rules).padStart(5)}  ${String(size).padStart(7)}  ${row.all.toFixed(1).padStart(10)}  ${row.two.toFixed(1).padStart(15)}   ${ratio.padStart(10)}`,
      );
    }
  }
}
