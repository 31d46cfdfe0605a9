// Instructions by function, read from a callgrind profile of node (docs/SPEED.md, round 17;
// issue 26): `bench/instructions.js --by-function` runs the judge under
// `valgrind --tool=callgrind --dump-instr=yes` with node's `--perf-basic-prof`, and this module
// adds up each instruction's count under the function it belongs to. Native code (V8's builtins,
// its C++) is named by the profile itself; code V8 compiled from JavaScript is not, so each of
// its addresses is looked up in the map V8 writes to /tmp/perf-<pid>.map (start, size, name).
// `bench/instructions.js --cache` (round 18) reads cachegrind's summary of data misses here too.

/** The entries of a perf map (`start size name`, hex without 0x), sorted by start. */
export function readPerfMap(text) {
  const entries = [];
  for (const line of text.split("\n")) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match === null) continue;
    const start = parseInt(match[1], 16);
    entries.push({ start, end: start + parseInt(match[2], 16), name: match[3], order: entries.length });
  }
  return entries.sort((a, b) => a.start - b.start || a.order - b.order);
}

/**
 * The name of the compiled code holding `address`, or undefined. When V8 reused memory, several
 * entries cover it; the last written is the code that was there last (a few entries back suffice:
 * entries rarely nest).
 */
function codeAt(entries, address) {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (entries[middle].start <= address) low = middle + 1;
    else high = middle - 1;
  }
  let best;
  for (let k = high; k >= 0 && k > high - 8; k--) {
    const entry = entries[k];
    if (address < entry.end && (best === undefined || entry.order > best.order)) best = entry;
  }
  return best?.name;
}

/** `JS:*step file:///tmp/j/judge.mjs:1405:7` → `*step judge.mjs:1405` (`*` optimized, `^` baseline, `~` interpreted). */
function shortName(name) {
  const js = /^JS:(\S+) (?:file:\/\/)?(?:.*\/)?([^/:\s]+):(\d+):\d+$/.exec(name);
  return js === null ? name : `${js[1]} ${js[2]}:${js[3]}`;
}

/** A native function's name without its argument list or anonymous namespaces: `v8::internal::Heap::Scavenge(…)` → `v8::internal::Heap::Scavenge`. */
function nativeName(name) {
  const plain = name.replaceAll("(anonymous namespace)::", "");
  const open = plain.indexOf("(");
  return open > 0 ? plain.slice(0, open) : plain;
}

/** One position field of a cost line: absolute (`0x1a`, `26`), relative to the last (`+3`, `-0x10`) or the same (`*`). */
function position(field, last) {
  if (field === "*") return last;
  if (field[0] === "+" || field[0] === "-") {
    const step = field.startsWith("0x", 1) ? parseInt(field.slice(3), 16) : Number(field.slice(1));
    return field[0] === "+" ? last + step : last - step;
  }
  return field.startsWith("0x") ? parseInt(field.slice(2), 16) : Number(field);
}

/**
 * Instructions (the first event, `Ir`) by function: a Map from name to count, its entries in no
 * particular order. `callgrindText` is a profile written with `--dump-instr=yes`; `perfMapText`
 * names the addresses of compiled JavaScript (code at an address it does not cover is counted as
 * `JIT code, unnamed`).
 */
export function costByFunction(callgrindText, perfMapText) {
  const entries = readPerfMap(perfMapText);
  const names = new Map();
  const costs = new Map();
  const add = (name, cost) => costs.set(name, (costs.get(name) ?? 0) + cost);
  let fields = ["line"];
  const last = [0, 0];
  let fn = "";
  let skipCall = false;
  for (const line of callgrindText.split("\n")) {
    if (line === "") continue;
    const first = line[0];
    const isCost = (first >= "0" && first <= "9") || first === "+" || first === "-" || first === "*";
    if (!isCost) {
      // Names are compressed: `fn=(12) name` the first time, `fn=(12)` after; a `cfn=` line may name it first.
      const named = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (named !== null) {
        if (named[2] !== undefined) names.set(named[1], named[2]);
        if (line.startsWith("fn=")) fn = names.get(named[1]) ?? "?";
      } else if (line.startsWith("positions:")) fields = line.slice(10).trim().split(/\s+/);
      // The cost line after `calls=` is the call's inclusive cost: the callee counts it as its own.
      else if (line.startsWith("calls=")) skipCall = true;
      continue;
    }
    const parts = line.split(" ");
    for (let k = 0; k < fields.length; k++) last[k] = position(parts[k], last[k]);
    if (skipCall) {
      skipCall = false;
      continue;
    }
    const cost = Number(parts[fields.length] ?? 0);
    if (cost === 0) continue;
    // Callgrind names code it has no symbol for by its address: V8's compiled JavaScript.
    if (/^0x[0-9a-f]+$/.test(fn)) add(shortName(codeAt(entries, last[0]) ?? "JIT code, unnamed"), cost);
    else add(nativeName(fn), cost);
  }
  return costs;
}

/** The data references and misses of cachegrind's summary (`D   refs:`, `D1  misses:`, `LLd misses:`), reads and writes together. */
export function cacheMisses(summary) {
  const figure = (label) => {
    const line = new RegExp(`${label}:\\s+([\\d,]+)`).exec(summary);
    if (line === null) throw new Error(`cachegrind printed no "${label}" line`);
    return Number(line[1].replaceAll(",", ""));
  };
  return { dataRefs: figure("D\\s+refs"), d1Misses: figure("D1\\s+misses"), llMisses: figure("LLd\\s+misses") };
}
