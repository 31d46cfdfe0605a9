/**
 * `judge` must stay fast: the `openai` package loads only when a request is
 * actually made, never for a run without a key or a run that asks nothing.
 */
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";

const loads = vi.hoisted(() => ({ openai: 0 }));
vi.mock("openai", () => {
  loads.openai++;
  return { default: class {} };
});

const { runInProcess } = await import("../support/in-process.js");
const examples = join(import.meta.dirname, "..", "..", "examples");

/** Runs the CLI in this process (so its module loads are visible) and returns the exit code. */
async function quietly(argv: string[]): Promise<number> {
  return (await runInProcess(...argv)).code;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

it("does not load openai without a key", async () => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", "");
  const tax = join(examples, "tax-research");
  expect(await quietly(["judge", join(tax, "judge.yaml"), join(tax, "trajectories", "year-stated-upfront.json"), "--no-cache"])).toBe(0);
  expect(loads.openai).toBe(0);
});

it("does not load openai when a keyed run asks nothing", async () => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", "sk-unused");
  const refund = join(examples, "refund-support");
  expect(
    await quietly([
      "judge",
      join(refund, "judge.yaml"),
      join(refund, "trajectories", "clean-escalation.json"),
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--no-cache",
      "--no-verify",
    ]),
  ).toBe(0);
  expect(loads.openai).toBe(0);
});

it("does not load openai for --dry-run, whose judge asks the model a lot", async () => {
  vi.stubEnv("BRAINTRUST_API_KEY", "");
  vi.stubEnv("OPENAI_API_KEY", "sk-unused");
  const tax = join(examples, "tax-research");
  for (const command of ["judge", "calibrate"])
    expect(
      await quietly([
        command,
        join(tax, "judge.yaml"),
        join(tax, "trajectories"),
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--no-cache",
        "--dry-run",
      ]),
    ).toBe(0);
  expect(loads.openai).toBe(0);
});

it("(control) the counter sees a load", async () => {
  await import("openai");
  expect(loads.openai).toBe(1);
});
