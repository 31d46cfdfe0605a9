#!/usr/bin/env node
// What each part of trajectory validation costs per event (issue 26, round 10): the loop of
// runtime/trajectory.ts's `readEvents` reduced to its two per-event checks that cost (the id
// order proof and the metadata check), copied here in variants, over bench/common.js's 1,000
// events after a JSON round trip (strings and objects as JSON.parse makes them). Each variant
// runs in a fresh process (CPU time, best of five stretches), the variants alternated round
// after round; medians. Only "as built" and the parts left out are the runtime's check: the
// other metadata tests are candidates, and "instanceof" is not the same check (round 9).
//
//   node bench/validation-parts.js [--rounds 3]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { refundEvents } from "./common.js";

/** Metadata checks: each returns whether `value` is an ordinary object of strings. */
const METADATA = {
  "as built": (value) => {
    if (value.constructor !== Object) return false;
    for (const key in value) if (typeof value[key] !== "string") return false;
    return true;
  },
  "no constructor test": (value) => {
    for (const key in value) if (typeof value[key] !== "string") return false;
    return true;
  },
  "no metadata check": () => true,
  // The `constructor` load at one site per key count, so that no site sees more than four
  // shapes (V8's polymorphic limit) on this session's five; the for … in then comes first.
  "constructor by key count": (value) => {
    let n = 0;
    for (const key in value) {
      if (typeof value[key] !== "string") return false;
      n++;
    }
    switch (n) {
      case 1:
        return value.constructor === Object;
      case 2:
        return value.constructor === Object;
      case 3:
        return value.constructor === Object;
      default:
        return value.constructor === Object;
    }
  },
  "Reflect.getPrototypeOf": (value) => {
    if (Reflect.getPrototypeOf(value) !== Object.prototype) return false;
    for (const key in value) if (typeof value[key] !== "string") return false;
    return true;
  },
  "instanceof Object (not the same check)": (value) => {
    if (!(value instanceof Object)) return false;
    for (const key in value) if (typeof value[key] !== "string") return false;
    return true;
  },
};

function child(variant, idOrder) {
  const events = JSON.parse(JSON.stringify(refundEvents(1000)));
  const isStringMap = METADATA[variant];
  const pass = () => {
    let ok = 0;
    let inOrder = true;
    let previous = "";
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const metadata = e.metadata;
      if (metadata === undefined || isStringMap(metadata)) ok++;
      if (idOrder && inOrder) {
        const id = e.id;
        inOrder = previous.length < id.length || (previous.length === id.length && previous < id);
        previous = id;
      }
    }
    return ok + (inOrder ? 1 : 0);
  };
  const PASSES = 20000;
  for (let k = 0; k < PASSES; k++) pass();
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const start = process.cpuUsage();
    for (let k = 0; k < PASSES; k++) pass();
    const used = process.cpuUsage(start);
    best = Math.min(best, ((used.user + used.system) * 1000) / (PASSES * events.length));
  }
  process.stdout.write(`${best}\n`);
}

if (process.argv[2] === "--child") {
  child(process.argv[3], process.argv[4] === "id");
} else {
  const at = process.argv.indexOf("--rounds");
  const rounds = at > 0 ? Number(process.argv[at + 1]) : 3;
  const runs = [
    ["as built", "id"],
    ["as built", "no-id"],
    ["no constructor test", "id"],
    ["no metadata check", "id"],
    ["no metadata check", "no-id"],
    ["constructor by key count", "id"],
    ["Reflect.getPrototypeOf", "id"],
    ["instanceof Object (not the same check)", "id"],
  ];
  const figures = runs.map(() => []);
  const self = fileURLToPath(import.meta.url);
  for (let round = 0; round < rounds; round++)
    runs.forEach(([variant, id], k) =>
      figures[k].push(Number(execFileSync(process.execPath, [self, "--child", variant, id], { encoding: "utf8" }))),
    );
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`node ${process.version}, ${rounds} rounds, ns per event by CPU time (median of the rounds)`);
  runs.forEach(([variant, id], k) =>
    console.log(
      `  ${median(figures[k]).toFixed(2).padStart(6)}  ${variant}${id === "id" ? "" : ", no id order"}   rounds: ${figures[k].map((x) => x.toFixed(2)).join(" ")}`,
    ),
  );
}
