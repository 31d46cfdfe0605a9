/**
 * A generated JSONL corpus for scale tests: the refund example's labeled
 * trajectories, round-robin, each given a unique id and its events repeated
 * `repeat` times (event ids kept unique), so one trajectory costs more to judge.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const REFUND = join(import.meta.dirname, "..", "..", "examples", "refund-support");

interface Event {
  id: string;
  [key: string]: unknown;
}

export function refundTrajectories(): { id: string; events: Event[]; [key: string]: unknown }[] {
  const folder = join(REFUND, "trajectories");
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => (JSON.parse(readFileSync(join(folder, f), "utf8")) as { trajectory: { id: string; events: Event[] } }).trajectory);
}

export function generatedTrajectory(i: number, repeat: number, bases = refundTrajectories()): unknown {
  const base = bases[i % bases.length]!;
  const events: Event[] = [];
  for (let r = 0; r < repeat; r++) for (const e of base.events) events.push({ ...e, id: repeat === 1 ? e.id : `${e.id}-r${r}` });
  return { ...base, id: `${base.id}-${i}`, events };
}

/** Writes `count` trajectories, one JSON line each; returns the path. */
export function writeGeneratedCorpus(path: string, count: number, repeat = 1): string {
  const bases = refundTrajectories();
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify(generatedTrajectory(i, repeat, bases)));
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
