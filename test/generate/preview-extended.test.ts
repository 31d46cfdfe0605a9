/**
 * Issue 21: the verdict preview knows the extended rule language. Its
 * verdicts (each rule's, each check's, with the check's na reason and cited
 * events) are judgeTrajectory's, for every form: value matchers, on, fresh,
 * within, per, sum and the condition check, on random judges that use them
 * all (the differential corpus) and on the airline example's real sessions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileJudgeYamlText } from "../../compiler/build/compile.js";
import { checkClauses } from "../../compiler/generate/preview-eval.js";
import { previewJudge, type VerdictSamples } from "../../compiler/generate/preview.js";
import type { BuiltJudge } from "../../compiler/run/load.js";
import { importJudgeSource } from "../../compiler/run/load.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { validateTrajectory } from "../../runtime/trajectory.js";
import type { Clause, Trajectory } from "../../runtime/types.js";
import { formsOf } from "../oracle/random-extended.js";
import { extendedJudges } from "../support/differential-extended.js";
import { EXTENDED_SESSIONS, session } from "../support/extended-sessions.js";
import { parseOrThrow } from "../support/judges.js";

function where(samples: VerdictSamples, id: string): string {
  return samples.pass.includes(id) ? "true" : samples.fail.includes(id) ? "false" : samples.na.includes(id) ? "na" : "missing";
}

/** What a clause decides: the verdict, why it is na, and the events it cites. */
function decided(clause: Pick<Clause, "verdict" | "naReason" | "citations">): string {
  return JSON.stringify({ verdict: clause.verdict, naReason: clause.naReason, cited: clause.citations.map((c) => c.eventId) });
}

/** Every difference between the preview and the built judge on these samples, as lines to read. */
async function differences(ir: JudgeIR, judge: Pick<BuiltJudge, "judgeTrajectory">, samples: readonly Trajectory[]): Promise<string[]> {
  const out: string[] = [];
  const preview = previewJudge(ir, samples);
  for (const sample of samples) {
    const judgment = await judge.judgeTrajectory(sample, { verify: false });
    judgment.metaBehaviors.forEach((m, r) => {
      const rule = preview.rules[r]!;
      const at = `${sample.id} ${m.name}`;
      if (where(rule.rule, sample.id) !== m.verdict) out.push(`${at}: preview ${where(rule.rule, sample.id)}, judge ${m.verdict}`);
      if (!m.triggered) return;
      const predicates = m.clauses.filter((c) => c.kind === "predicate");
      const previewed = checkClauses(ir.metaBehaviors[r]!.checks, sample);
      predicates.forEach((clause, k) => {
        const shown = where(rule.clauses[k]!.samples, sample.id);
        if (shown !== clause.verdict) out.push(`${at} checks[${k}]: preview ${shown}, judge ${clause.verdict}`);
        if (decided(previewed[k]!) !== decided(clause))
          out.push(`${at} checks[${k}]: preview ${decided(previewed[k]!)}, judge ${decided(clause)}`);
      });
    });
  }
  return out;
}

describe("issue 21: preview verdicts are the built judge's for every extended form", () => {
  it("random judges using every form (60 judges x 25 trajectories): same verdicts, na reasons and citations", async () => {
    const forms = new Map<string, number>();
    const mismatches: string[] = [];
    let judged = 0;
    for await (const { ir, judge, trajectories } of extendedJudges(60, 25, { seed: 20261203 })) {
      for (const check of ir.metaBehaviors.flatMap((m) => m.checks))
        for (const form of formsOf(check)) forms.set(form, (forms.get(form) ?? 0) + 1);
      mismatches.push(...(await differences(ir, judge, trajectories)));
      judged += trajectories.length;
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(judged).toBe(1500);
    // The corpus exercises each form, or the agreement says nothing about it.
    for (const form of [
      "ordering+on",
      "ordering+fresh",
      "pairing+on",
      "pairing+within",
      "required+on",
      "forbidden+on",
      "count+on",
      "count+per",
      "count+sum",
      "condition",
      "condition+first",
      "condition+latest",
      "condition+on",
    ])
      expect(forms.get(form) ?? 0, form).toBeGreaterThan(0);
  }, 600_000);

  it("the airline example (on, fresh, a condition over real tau-bench sessions): same verdicts, and the condition is decided", async () => {
    const dir = join(import.meta.dirname, "..", "..", "examples", "airline-cancellations");
    const text = readFileSync(join(dir, "judge.yaml"), "utf8");
    const { ir } = parseOrThrow(text);
    const { compiled } = await compileJudgeYamlText(text, "judge.yaml");
    const judge = await importJudgeSource(compiled.judgeMjs);
    const samples = readdirSync(join(dir, "trajectories"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => {
        const data = JSON.parse(readFileSync(join(dir, "trajectories", f), "utf8")) as { trajectory?: unknown };
        return validateTrajectory(data.trajectory ?? data);
      });
    expect(samples.length).toBeGreaterThan(5);
    expect(await differences(ir, judge, samples)).toEqual([]);
    // Before the preview knew the condition check it called it n.a. everywhere: here it passes and fails samples.
    const preview = previewJudge(ir, samples);
    const conditions = preview.rules.flatMap((rule, r) =>
      rule.clauses.filter((c) => c.clause.kind === "check" && ir.metaBehaviors[r]!.checks[c.clause.index]!.type === "condition"),
    );
    expect(conditions.length).toBeGreaterThan(0);
    expect(conditions.some((c) => c.samples.pass.length > 0)).toBe(true);
    expect(conditions.some((c) => c.samples.fail.length > 0)).toBe(true);
  }, 120_000);

  it("the judge.yaml with every form once, on sessions written for it: each extended check is decided as the judge decides it", async () => {
    const text = readFileSync(join(import.meta.dirname, "..", "fixtures", "golden", "extended.yaml"), "utf8");
    const { ir } = parseOrThrow(text);
    const { compiled } = await compileJudgeYamlText(text, "judge.yaml");
    const judge = await importJudgeSource(compiled.judgeMjs);
    const samples = EXTENDED_SESSIONS.map((s) => validateTrajectory(s));
    expect(await differences(ir, judge, samples)).toEqual([]);
    const preview = previewJudge(ir, samples);
    // Every check passes somewhere and fails somewhere: the sessions tell each form's verdicts apart.
    const undecided = preview.rules.flatMap((rule) =>
      rule.clauses
        .filter((c) => c.samples.pass.length === 0 || c.samples.fail.length === 0)
        .map((c) => `${rule.name} ${JSON.stringify(c.clause)}`),
    );
    expect(undecided).toEqual([]);
  }, 120_000);
});

describe("issue 21: preview warnings read value matchers as the judge does", () => {
  const samples = [
    session("a", [
      ["agent", "issue_refund", { amount: "600" }],
      ["agent", "reply"],
    ]),
    session("b", [["agent", "issue_credit", { amount: "20" }]]),
  ].map((s) => validateTrajectory(s));
  const rule = (match: string) =>
    parseOrThrow(
      `version: 1\nbehavior: b\nmetaBehaviors:\n  - name: r\n    trigger: { description: d, match: { actor: agent } }\n    checks:\n      - { type: forbidden, quote: q, match: ${match} }\n`,
    ).ir;
  const warnings = (match: string) => previewJudge(rule(match), samples).rules[0]!.warnings.map((w) => w.message);

  it("an action or metadata operator some sample satisfies draws no unused-name warning", () => {
    const found = warnings("{ action: { in: [issue_refund, issue_credit] }, metadata: { amount: { gt: 500 } } }");
    expect(found.filter((m) => /no sample/.test(m))).toEqual([]);
  });

  it("one no sample satisfies is named as written, not as [object Object]", () => {
    expect(warnings("{ action: { matches: ^void_ } }")).toContain("checks[0]: no sample has an event whose action is matching /^void_/");
    expect(warnings("{ action: issue_refund, metadata: { amount: { gt: 1000 } } }")).toContain(
      'checks[0]: no sample "issue_refund" event has metadata amount > 1000',
    );
  });
});
