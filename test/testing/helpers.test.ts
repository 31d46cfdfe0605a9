/**
 * behavior-judge/testing, /vitest and /braintrust (issue 13 item 2, 3): a
 * failing trajectory names each failing rule with its quote, clause type and
 * cited events; semantic clauses without a model are undecided, never a pass
 * or a failure; labels compare as calibrate compares them; the bundles load
 * no compiler and import nothing (the vitest entry: only vitest).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { formatJudgment } from "../../runtime/format-judgment.js";
import * as refund from "../../examples/refund-support/judge.mjs";
import * as tax from "../../examples/tax-research/judge.mjs";
import { AssertionError, assertBehavior, compareLabels, labelsAgree } from "../../testing/index.js";
import { behaviorScorer, verdictScore } from "../../testing/braintrust.js";
import "../../testing/vitest.js";
import { compareCase } from "../../compiler/analyses/calibrate.js";
import { toCase } from "../../compiler/inputs/case.js";
import { ROOT } from "../support/cli.js";
import { createOpenAIAdapter } from "../../compiler/model/openai.js";
import { inOrder, startChatServer, type ChatServer, type Script } from "../support/chat-server.js";
import { compileYaml, importBundled, isolatedDir } from "../support/judges.js";

// @ts-expect-error a plain JS build script, without types
const { bundleLibrary, LIBRARIES } = (await import("../../scripts/bundle-importers.js")) as {
  bundleLibrary(l: unknown): Promise<string>;
  LIBRARIES: { source: string; out: string; external: string[] }[];
};

const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const refundCase = (name: string) => read(`examples/refund-support/trajectories/${name}.json`);
const taxCase = (name: string) => read(`examples/tax-research/trajectories/${name}.json`);
const LOOKUP_QUOTE =
  "Before the agent issues a refund or store credit, it retrieves the order from the order system and the lookup finds it";

async function failure(promise: Promise<unknown>): Promise<AssertionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AssertionError);
  return error as AssertionError;
}

describe("formatJudgment", () => {
  test("a failing rule: its quote, clause type and the cited events by id, actor/action and clipped content", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    const text = formatJudgment(await refund.judgeTrajectory(trajectory), { trajectory, clip: 20 });
    expect(text.split("\n")).toEqual([
      "FAIL refund-support: trajectory credit-before-lookup is false",
      "  ✗ Look up the order before paying anything out: false",
      `    ordering [false]: "${LOOKUP_QUOTE}"`,
      // What the check looked for, in words (issue 24).
      '      expected: get_order_result (actor tool, status "found") before the first issue_refund or issue_store_credit',
      // What it found instead: the payout, and no lookup before it.
      "      found: before issue_store_credit at e3: no get_order_result",
      '      - e3 agent/issue_store_credit "Store credit of $15…" (event matching `before` with no earlier event matching `first`)',
    ]);
  });

  test("without the trajectory, cited events are shown by id; passing rules are not listed", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    const text = formatJudgment(await refund.judgeTrajectory(trajectory));
    expect(text).toContain("      - e3 (event matching");
    expect(text).not.toContain("Email a confirmation");
  });

  test("semantic clauses without a model are undecided, with the count in the headline", async () => {
    const { trajectory } = taxCase("asks-year-then-grounds-answer");
    const text = formatJudgment(await tax.judgeTrajectory(trajectory), { trajectory });
    expect(text.split("\n")[0]).toBe("PASS (2 clauses undecided: no model) tax-research: trajectory asks-year-then-grounds-answer is true");
    expect(text).toContain('semantic question [undecided (no model)]: "the final answer names the specific provision');
    expect(text).toContain("semantic trigger [undecided (no model)]");
  });

  test("every judge.mjs exports formatJudgment, with the same text as the helpers", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    const judgment = await refund.judgeTrajectory(trajectory);
    expect(refund.formatJudgment(judgment, { trajectory })).toBe(formatJudgment(judgment, { trajectory }));
    expect(refund.formatJudgment(judgment, { trajectory })).toContain(LOOKUP_QUOTE);
  });

  test("a long citation list shows the first ten events and counts the rest; one undecided clause is singular", () => {
    const judgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "false" as const,
      metaBehaviors: [
        {
          name: "r",
          verdict: "false" as const,
          naReason: null,
          triggered: true,
          clauses: [
            {
              kind: "predicate" as const,
              quote: "q",
              verdict: "false" as const,
              naReason: null,
              citations: Array.from({ length: 100_000 }, (_, i) => ({ eventId: `e${i}`, description: "forbidden match" })),
              check: "forbidden" as const,
            },
            {
              kind: "semantic" as const,
              quote: "s",
              verdict: "na" as const,
              naReason: "insufficient_evidence" as const,
              citations: [],
              check: "question" as const,
              reasoning: "No model was available to decide this clause, so it has no verdict.",
            },
          ],
        },
      ],
    };
    const events = Array.from({ length: 100_000 }, (_, i) => ({
      id: `e${i}`,
      actor: "agent" as const,
      action: "pay",
      content: `payout ${i}`,
    }));
    const lines = formatJudgment(judgment, { trajectory: { events } }).split("\n");
    expect(lines[0]).toBe("FAIL (1 clause undecided: no model) b: trajectory t is false");
    expect(lines[1]).toBe("  ✗ r: false (1 clause undecided: no model)");
    expect(lines.filter((l) => l.startsWith("      - e"))).toEqual(
      Array.from({ length: 10 }, (_, i) => `      - e${i} agent/pay "payout ${i}" (forbidden match)`),
    );
    expect(lines).toContain("      … and 99,990 more");
    expect(lines.join("\n").length).toBeLessThan(1000);
  });

  test("control characters in content are escaped, so one event cannot garble the message", () => {
    const judgment = {
      behavior: "b",
      trajectoryId: "t",
      verdict: "false" as const,
      metaBehaviors: [
        {
          name: "r",
          verdict: "false" as const,
          naReason: null,
          triggered: true,
          clauses: [
            {
              kind: "predicate" as const,
              quote: "q",
              verdict: "false" as const,
              naReason: null,
              citations: [{ eventId: "e1", description: "" }],
              check: "forbidden" as const,
            },
          ],
        },
      ],
    };
    const text = formatJudgment(judgment, {
      trajectory: { events: [{ id: "e1", actor: "agent", action: "say", content: "a\nb\u001b[31m" }] },
    });
    expect(text).toContain('      - e1 agent/say "a\\nb\\u001b[31m"');
    expect(text.split("\n")).toHaveLength(4);
  });
});

describe("assertBehavior", () => {
  test("resolves for a passing trajectory, with the judgments", async () => {
    const { trajectory } = refundCase("clean-single-refund");
    const { judgments } = await assertBehavior(refund, trajectory);
    expect(judgments.map((j) => j.verdict)).toEqual(["true"]);
  });

  test("throws an AssertionError naming the failing rule, its quote and cited events", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    const error = await failure(assertBehavior(refund, trajectory));
    expect(error.name).toBe("AssertionError");
    expect(error.message).toContain("behavior refund-support not satisfied");
    expect(error.message).toContain(`ordering [false]: "${LOOKUP_QUOTE}"`);
    expect(error.message).toContain("e3 agent/issue_store_credit");
  });

  test("a labeled case is compared with its labels, as calibrate compares them", async () => {
    // credit-before-lookup is false, and its labels say so: the assertion holds.
    await assertBehavior(refund, refundCase("credit-before-lookup"));
    const wrong = {
      verdict: "true" as const,
      metaBehaviorVerdicts: { "Look up the order before paying anything out": "true" as const, "No such rule": "na" as const },
    };
    const error = await failure(assertBehavior(refund, refundCase("credit-before-lookup").trajectory, { expected: wrong }));
    expect(error.message).toContain("  file verdict: expected true, got false");
    expect(error.message).toContain("  Look up the order before paying anything out: expected true, got false");
    // A rule without a label is not compared (partial labels, issue 24).
    expect(error.message).not.toContain("Email a confirmation for every approved refund");
    expect(error.message).toContain('  label "No such rule" names no rule of this judge');
  });

  test("rules: only the named rules count; an unknown name is an error", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    await assertBehavior(refund, trajectory, { rules: ["Email a confirmation for every approved refund"] });
    await failure(assertBehavior(refund, trajectory, { rules: ["Look up the order before paying anything out"] }));
    await expect(assertBehavior(refund, trajectory, { rules: ["Nope"] })).rejects.toThrow('no rule named "Nope" in refund-support');
  });

  test("undecided semantic clauses are neither a pass nor a failure: the rule's deterministic part decides", async () => {
    await assertBehavior(tax, taxCase("asks-year-then-grounds-answer").trajectory);
    const error = await failure(assertBehavior(tax, taxCase("figure-from-memory").trajectory));
    expect(error.message).toContain("undecided (no model)");
  });

  test("an agent trace in any importer format is imported first", async () => {
    const trace = read("examples/refund-support/traces/chat-log.json");
    const result = await assertBehavior(refund, trace).then(
      (r) => r.judgments,
      (e: AssertionError) => e.judgments,
    );
    expect(result.length).toBeGreaterThan(0);
    await expect(assertBehavior(refund, { hello: 1 })).rejects.toThrow(/not a trajectory: unknown trace format/);
  });

  test("compareLabels is the comparison calibrate runs", async () => {
    const c = refundCase("credit-before-lookup");
    const judgment = await refund.judgeTrajectory(c.trajectory);
    const { verdict, metaBehaviors, unknownLabels, unlabeled } = compareCase(
      { file: "f", index: 0, trajectory: c.trajectory, expected: c.expected, labeled: true } as never,
      judgment,
    );
    expect(compareLabels(c.expected, judgment)).toEqual({ verdict, metaBehaviors, unknownLabels, unlabeled });
    expect(labelsAgree(compareLabels(c.expected, judgment))).toBe(true);
    expect(labelsAgree(compareLabels({ ...c.expected, verdict: "true" }, judgment))).toBe(false);
  });
});

describe("toSatisfyBehavior (behavior-judge/vitest)", () => {
  test("passes for a passing trajectory and fails with assertBehavior's message", async () => {
    await expect(refundCase("clean-single-refund").trajectory).toSatisfyBehavior(refund);
    await expect(expect(refundCase("credit-before-lookup").trajectory).toSatisfyBehavior(refund)).rejects.toThrow(LOOKUP_QUOTE);
    await expect(refundCase("credit-before-lookup").trajectory).not.toSatisfyBehavior(refund);
  });
});

// Item 19 (issue 20): the helpers took `expected` unchecked (booleans, `{}`
// and `null` crashed or passed) and `rules: []` counted nothing, so a failing
// trajectory passed. Labels are now read by calibrate's reader.
describe("labels are read as calibrate reads them", () => {
  const LOOKUP = "Look up the order before paying anything out";
  const badLabels: [string, unknown][] = [
    ["true", true],
    ["false", false],
    ["null", null],
    ["{}", {}],
    ['"true"', "true"],
    ["boolean verdicts", { verdict: false, metaBehaviorVerdicts: { [LOOKUP]: false } }],
    ["a boolean rule label", { verdict: "false", metaBehaviorVerdicts: { [LOOKUP]: false } }],
    ["an array of rule labels", { verdict: "false", metaBehaviorVerdicts: ["false"] }],
  ];
  /** What calibrate says of the same case. */
  const calibrateSays = (expected: unknown) => toCase({ trajectory: {}, expected }, { file: "f", index: 0 }).error!;

  test.each(badLabels)(
    "item 19: expected %s in a case is refused with calibrate's message, in both directions",
    async (_name, expected) => {
      const labeled = { trajectory: refundCase("credit-before-lookup").trajectory, expected };
      const message = calibrateSays(expected);
      expect(message).toMatch(/^expected/);
      await expect(assertBehavior(refund, labeled)).rejects.toThrow(new TypeError(`not a labeled case: ${message}`));
      await expect(expect(labeled).not.toSatisfyBehavior(refund)).rejects.toThrow(message);
      await expect(expect(labeled).toSatisfyBehavior(refund)).rejects.toThrow(message);
    },
  );

  test.each(badLabels)("item 19: options.expected %s is refused with calibrate's message", async (_name, expected) => {
    const { trajectory } = refundCase("credit-before-lookup");
    const message = calibrateSays(expected);
    await expect(assertBehavior(refund, trajectory, { expected: expected as never })).rejects.toThrow(
      new TypeError(`assertBehavior: ${message}`),
    );
    await expect(expect(trajectory).not.toSatisfyBehavior(refund, { expected: expected as never })).rejects.toThrow(message);
  });

  test("item 19: labels without metaBehaviorVerdicts are read as calibrate reads them (every rule unlabeled, only the verdict compared)", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    await assertBehavior(refund, { trajectory, expected: { verdict: "false" } });
    const error = await failure(assertBehavior(refund, { trajectory, expected: { verdict: "true" } }));
    expect(error.message).toContain("  file verdict: expected true, got false");
    expect(error.message).not.toContain("(no label)");
  });

  test("item 19: rules: [] is refused, not a pass for a failing trajectory; so are rule names that are not strings", async () => {
    const { trajectory } = refundCase("credit-before-lookup");
    await expect(assertBehavior(refund, trajectory, { rules: [] })).rejects.toThrow(
      new TypeError("assertBehavior: rules is empty: name at least one rule, or leave rules out to count every rule"),
    );
    await expect(expect(trajectory).toSatisfyBehavior(refund, { rules: [] })).rejects.toThrow("rules is empty");
    await expect(expect(trajectory).not.toSatisfyBehavior(refund, { rules: [] })).rejects.toThrow("rules is empty");
    await expect(assertBehavior(refund, trajectory, { rules: [1] as never })).rejects.toThrow(
      new TypeError("assertBehavior: rules must be a list of rule names (strings)"),
    );
    await expect(assertBehavior(refund, trajectory, { rules: LOOKUP as never })).rejects.toThrow(
      new TypeError("assertBehavior: rules must be a list of rule names (strings)"),
    );
  });
});

// Item 14 (issue 20): every AssertionError became `pass: false`, so a model
// call that failed made `.not.toSatisfyBehavior` pass.
describe("a failed model call is never a pass, in either direction", () => {
  let server: ChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  /** The real adapter against a scripted server: 401 is not retried, so a failing call is quick. */
  async function modelOptions(script: Script) {
    server = await startChatServer(script);
    const complete = createOpenAIAdapter(
      { provider: "openai", apiKey: "sk-helper-test-0000", baseURL: server.baseURL, model: "scripted" },
      { maxRetries: 0, timeoutMs: 2_000 },
    );
    return { judgeOptions: { complete } };
  }
  const refused = inOrder({ status: 401, body: { error: { message: "invalid key" } } });

  test("item 14: .not.toSatisfyBehavior fails with the model error when the model call fails", async () => {
    const options = await modelOptions(refused);
    const { trajectory } = taxCase("asks-year-then-grounds-answer");
    const error = await expect(trajectory)
      .not.toSatisfyBehavior(tax, options)
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error, ".not passed although no model answered").toBeInstanceOf(Error);
    expect(error!.message).toContain("a model call failed");
    expect(error!.message).toContain("the model call failed: 401 invalid key");
    expect(server!.requests.length).toBeGreaterThan(0);
  });

  test("item 14: .not fails too when a rule is false and another clause got no answer", async () => {
    const options = await modelOptions(refused);
    // figure-from-memory is false on its deterministic part; its semantic clauses fail.
    const { trajectory } = taxCase("figure-from-memory");
    await expect(expect(trajectory).not.toSatisfyBehavior(tax, options)).rejects.toThrow("a model call failed");
  });

  test("item 14: toSatisfyBehavior fails with the model error, and so does assertBehavior (naming rule and message)", async () => {
    const options = await modelOptions(refused);
    const { trajectory } = taxCase("asks-year-then-grounds-answer");
    await expect(expect(trajectory).toSatisfyBehavior(tax, options)).rejects.toThrow("the model call failed: 401 invalid key");
    const error = await failure(assertBehavior(tax, trajectory, options));
    expect(error.modelErrors.length).toBeGreaterThan(0);
    expect(error.modelErrors[0]).toMatchObject({
      trajectoryId: "asks-year-then-grounds-answer",
      message: "the model call failed: 401 invalid key",
    });
  });

  test("item 14: with labels, .not fails on a model error rather than counting it as a disagreement", async () => {
    const options = await modelOptions(refused);
    await expect(expect(taxCase("asks-year-then-grounds-answer")).not.toSatisfyBehavior(tax, options)).rejects.toThrow(
      "a model call failed",
    );
  });

  test("item 14 (guard): a model error in a rule left out by `rules` does not count", async () => {
    const options = await modelOptions(refused);
    const { trajectory } = refundCase("credit-before-lookup");
    // The refund judge asks the model only to verify its falses: the lookup rule's verification is refused,
    // the confirmation rule is true and asks nothing.
    await expect(trajectory).toSatisfyBehavior(refund, { ...options, rules: ["Email a confirmation for every approved refund"] });
    await expect(expect(trajectory).not.toSatisfyBehavior(refund, options)).rejects.toThrow("a model call failed");
  });
});

describe("behaviorScorer (behavior-judge/braintrust)", () => {
  test("one score for the trajectory and one per rule: 1 / 0 / null, clause details in metadata", async () => {
    const scores = await behaviorScorer(refund)({ input: "q", output: refundCase("credit-before-lookup").trajectory });
    expect(scores.map((s) => [s.name, s.score])).toEqual([
      ["refund-support", 0],
      ["refund-support/Look up the order before paying anything out", 0],
      ["refund-support/Email a confirmation for every approved refund", 1],
      ["refund-support/Stop paying out once escalated", null],
      ["refund-support/Refund at most three orders per session", 1],
    ]);
    expect(scores[0]!.metadata).toMatchObject({ verdict: "false", failing: ["Look up the order before paying anything out"] });
    expect(scores[1]!.metadata).toMatchObject({
      verdict: "false",
      clauses: [
        {
          type: "ordering",
          quote: LOOKUP_QUOTE,
          verdict: "false",
          citations: [
            { eventId: "e3", actor: "agent", action: "issue_store_credit", content: "Store credit of $15.00 for the late delivery." },
          ],
        },
      ],
    });
    expect(scores[3]!.metadata).toMatchObject({ verdict: "na", naReason: "not_applicable" });
  });

  test("follows the SDK's score-array rules: non-empty objects, unique string names, score in [0, 1] or null", async () => {
    const scorer = behaviorScorer(tax, { trajectory: (args) => (args.metadata as { t: unknown }).t });
    expect(scorer.name).toBe("tax-research");
    const scores = await scorer({ output: "answer", metadata: { t: taxCase("asks-year-then-grounds-answer").trajectory } });
    expect(new Set(scores.map((s) => s.name)).size).toBe(scores.length);
    for (const s of scores) expect(s.score === null || (s.score >= 0 && s.score <= 1)).toBe(true);
    // A semantic trigger with no model: no verdict, and the clause says why.
    expect(scores[1]!.score).toBeNull();
    expect(scores[1]!.metadata).toMatchObject({ clauses: [{ type: "semantic trigger", undecided: "no model" }] });
  });

  test("metadata lists the first ten cited events of a clause and counts the rest", async () => {
    const { compiled } = await compileYaml(`version: 1
behavior: many
metaBehaviors:
  - name: Every approval is confirmed
    trigger: { description: an approval, match: { action: approve } }
    checks:
      - type: pairing
        quote: every approval is followed by a confirmation
        each: { action: approve }
        followedBy: { action: confirm }
`);
    const judge = await importBundled(compiled);
    const events = Array.from({ length: 20_000 }, (_, i) => ({ id: `e${i}`, actor: "agent", action: i % 2 === 0 ? "approve" : "confirm" }));
    const scores = await behaviorScorer(judge)({ output: { id: "long", complete: true, events } });
    const [clause] = (scores[1]!.metadata as { clauses: { citations: { eventId: string }[]; moreCitations?: number }[] }).clauses;
    expect(scores[1]!.score).toBe(1);
    expect(clause!.citations.map((c) => c.eventId)).toEqual(Array.from({ length: 10 }, (_, i) => `e${i}`));
    expect(clause!.moreCitations).toBe(19_990);
    expect(JSON.stringify(scores).length).toBeLessThan(5_000);
  });

  test("a failed model call is no score, never a pass", () => {
    expect(verdictScore("true", true)).toBeNull();
    expect([verdictScore("true"), verdictScore("false"), verdictScore("na")]).toEqual([1, 0, null]);
  });
});

describe("the bundles", () => {
  test("import nothing (vitest: only vitest), load no compiler, and run alone in a folder without node_modules", async () => {
    const dir = isolatedDir();
    // behavior-judge/files reads files (Node only): test/testing/files.test.ts checks its imports.
    for (const library of LIBRARIES.filter((l) => l.source.startsWith("testing/") && l.out !== "files.mjs")) {
      const bundle = await bundleLibrary(library);
      const imports = [...bundle.matchAll(/^\s*import\s[^;]*?from\s*"([^"]+)"|\bimport\s*\(|\brequire\s*\(|["']node:[a-z]+/gm)].map(
        (m) => m[1] ?? m[0],
      );
      expect(imports, library.out).toEqual(library.external);
      expect(bundle).not.toMatch(/ts-morph|prettier|esbuild|commander/);
      writeFileSync(join(dir, library.out), bundle);
    }
    const testing = (await import(pathToFileURL(join(dir, "testing.mjs")).href)) as typeof import("../../testing/index.js");
    const error = await testing.assertBehavior(refund, refundCase("credit-before-lookup").trajectory).catch((e: Error) => e);
    expect((error as Error).name).toBe("AssertionError");
    expect((error as Error).message).toContain(LOOKUP_QUOTE);
    const braintrust = (await import(pathToFileURL(join(dir, "braintrust.mjs")).href)) as typeof import("../../testing/braintrust.js");
    expect((await braintrust.behaviorScorer(refund)({ output: refundCase("clean-single-refund").trajectory }))[0]!.score).toBe(1);
  });
});
