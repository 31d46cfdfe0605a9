/** The run options every judging command builds from its flags, in one place. */
import { describe, expect, it } from "vitest";
import { runOptions } from "../../compiler/commands/run-options.js";
import type { SemanticAdapter } from "../../runtime/semantic.js";

describe("runOptions", () => {
  const model: SemanticAdapter = async () => ({ text: "" }) as never;

  it("verifies by default, runs four cases at once, and passes no model when there is none", () => {
    expect(runOptions({}, undefined)).toEqual({ verify: true, concurrency: 4 });
  });

  it("follows --no-verify and --concurrency, and hands the model to the judge", () => {
    const options = runOptions({ verify: false, concurrency: 7 }, model);
    expect(options).toEqual({ verify: false, concurrency: 7, complete: model });
    expect(options.complete).toBe(model);
  });
});
