/**
 * `--sample RATE`: which trajectories get model calls. Decided by a hash of
 * the trajectory's id, not by chance, so a rerun (or another worker, or
 * another shard) picks the same trajectories and the answer cache serves them.
 */
import { createHash } from "node:crypto";

/** The id the decision hashes: the trajectory's `id` when it has a string one, else its place in the input. */
function sampleKey(trajectory: unknown, fallback: string): string {
  const id = typeof trajectory === "object" && trajectory !== null ? (trajectory as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : fallback;
}

/** Whether a trajectory is in the sample: the first 48 bits of sha-256(id), as a fraction of 2^48, below `rate`. */
export function inSample(trajectory: unknown, rate: number, fallback = ""): boolean {
  if (rate >= 1) return true;
  const digest = createHash("sha256").update(sampleKey(trajectory, fallback)).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48 < rate;
}

/** Whether a case's trajectory is in the sample; a trajectory without a string id falls back to its place in the input. */
export function caseInSample(input: { trajectory?: unknown; file: string; index: number }, rate: number): boolean {
  return inSample(input.trajectory, rate, `${input.file}#${input.index}`);
}
