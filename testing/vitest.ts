/**
 * behavior-judge/vitest: `expect(trajectory).toSatisfyBehavior(judge, opts?)`.
 * Importing this module registers the matcher; the message is assertBehavior's.
 * A failed model call is no result in either direction: the matcher then
 * throws, so `.not.toSatisfyBehavior` fails too.
 *
 *   import "behavior-judge/vitest";
 *   await expect(trajectory).toSatisfyBehavior(judge);
 */
import { expect } from "vitest";
import { AssertionError, assertBehavior, type AssertBehaviorOptions } from "./assert.js";
import type { JudgeLike } from "./inputs.js";

export async function toSatisfyBehavior(this: { isNot?: boolean }, received: unknown, judge: JudgeLike, options?: AssertBehaviorOptions) {
  try {
    const { judgments } = await assertBehavior(judge, received, options);
    const ids = judgments.map((j) => j.trajectoryId).join(", ");
    return { pass: true, message: () => `expected ${ids} not to satisfy behavior ${judge.behavior}, but it does` };
  } catch (error) {
    // Thrown, not returned as `pass: false`: `.not` would turn that into a pass.
    if (error instanceof AssertionError && error.modelErrors.length > 0) throw error;
    if (error instanceof AssertionError) return { pass: false, message: () => error.message };
    throw error;
  }
}

expect.extend({ toSatisfyBehavior });

declare module "vitest" {
  interface Assertion<T = any> {
    /** Judges the value (trajectory, labeled case or agent trace) with an imported judge.mjs; await it. */
    toSatisfyBehavior(judge: JudgeLike, options?: AssertBehaviorOptions): Promise<void>;
  }
  interface AsymmetricMatchersContaining {
    toSatisfyBehavior(judge: JudgeLike, options?: AssertBehaviorOptions): void;
  }
}
