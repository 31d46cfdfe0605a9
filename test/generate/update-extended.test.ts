/**
 * Issue 21, "generate --update round-trips them": `generate --update` on a
 * hand-formatted judge.yaml that uses every form of the extended rule language
 * (the golden extended.yaml's forms: value matchers of every operator, on with
 * one key and with two, fresh, within, per, sum, keyed windows of required,
 * forbidden and count, a condition with latest and first bindings).
 *
 * Unchanged, the file is carried over byte for byte, with no question and no
 * model call; through the command too. After a one-sentence edit, the edited
 * clause (now `within: 3`, as the person sets it in the interview) and the
 * section's source are the only lines that change, and the file means exactly
 * the judge the interview returned.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";
import type { InterviewInput } from "../../compiler/generate/types.js";
import { formatDiagnostic, parseJudgeYaml } from "../../compiler/ir/index.js";
import type { JudgeIR, PairingCheck } from "../../compiler/ir/types.js";
import { ROOT, runCli } from "../support/cli.js";

const FIXTURE = join(ROOT, "test", "fixtures", "generate", "every-form");
const HAND = readFileSync(join(FIXTURE, "judge.yaml"), "utf8");
const GOLDEN = readFileSync(join(ROOT, "test", "fixtures", "golden", "extended.yaml"), "utf8");

function parsed(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join("\n"));
  return result.ir;
}

/** The judge's checks without their quotes (the fixture's quote its own spec): what the golden file holds. */
function forms(ir: JudgeIR): unknown {
  return ir.metaBehaviors.map((rule) => [rule.name, rule.trigger, rule.checks.map(({ quote: _quote, ...check }) => check)]);
}

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "bj-update-extended-"));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

async function update(dir: string, interview: (ir: JudgeIR) => JudgeIR) {
  const asked: number[][] = [];
  const notices: string[] = [];
  const result = await generateJudgeYaml({
    spec: join(dir, "BEHAVIOR.md"),
    samples: [],
    out: join(dir, "judge.yaml"),
    update: join(dir, "judge.yaml"),
    interviewer: async (input: InterviewInput) => {
      asked.push(input.ask ?? []);
      return { ir: interview(input.draft.ir), questionsAsked: input.ask?.length ?? 0 };
    },
    notice: (message) => notices.push(message),
  });
  return { result, asked, notices, text: readFileSync(join(dir, "judge.yaml"), "utf8") };
}

describe("issue 21: generate --update on a judge.yaml using every extended form", () => {
  it("the fixture is the golden judge of every form, written by hand with sources", () => {
    expect(forms(parsed(HAND))).toEqual(forms(parsed(GOLDEN)));
  }, 180_000);

  it("an unchanged spec carries the file over byte for byte: no question, no model call", async () => {
    const dir = copy();
    const { result, text, notices } = await update(dir, (ir) => ir);
    expect(text).toBe(HAND);
    expect(result).toMatchObject({ rules: 4, carried: 4, questionsAsked: 0, modelCalls: 0 });
    expect(notices.filter((n) => /could not|dropped/.test(n))).toEqual([]);
  }, 180_000);

  it("through the command too", () => {
    const dir = copy();
    const run = runCli(["generate", join(dir, "BEHAVIOR.md"), "--offline", "--no-web", "--update", join(dir, "judge.yaml")]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/4 rules \([^)]*4 carried over unchanged\)\nquestions asked: 0; model calls: 0\b/);
    expect(readFileSync(join(dir, "judge.yaml"), "utf8")).toBe(HAND);
  }, 180_000);

  it("a one-sentence edit changes the edited clause's lines and the source's, every other byte kept", async () => {
    const dir = copy();
    const spec = join(dir, "BEHAVIOR.md");
    const before = "Each lookup is answered within two events, for the same id";
    const after = "Each lookup is answered within three events, for the same id";
    writeFileSync(spec, readFileSync(spec, "utf8").replace(before, after));
    const wanted: PairingCheck = {
      type: "pairing",
      quote: after,
      each: [{ action: "lookup" }],
      followedBy: [{ action: "lookup_result" }],
      on: "metadata.id",
      within: 3,
    };
    // The offline drafter makes the new sentence a model question; in the interview the person
    // replaces it with the pairing they mean.
    const { text, asked } = await update(dir, (ir) => ({
      ...ir,
      metaBehaviors: ir.metaBehaviors.map((rule) =>
        rule.name === "Turns, sums and nearness"
          ? {
              ...rule,
              checks: [...rule.checks.filter((c) => !c.quote.includes("lookup")), wanted],
              semanticChecks: rule.semanticChecks.filter((c) => !c.quote.includes("lookup")),
            }
          : rule,
      ),
    }));
    expect(asked).toEqual([[3]]);
    const expected = parsed(HAND);
    const turns = expected.metaBehaviors[3]!;
    turns.checks[2] = wanted;
    turns.source = turns.source!.replace(before, after);
    expect(parsed(text)).toEqual(expected);
    const was = HAND.split("\n");
    const now = text.split("\n");
    expect(now).toHaveLength(was.length);
    const changed = was.flatMap((line, i) => (line === now[i] ? [] : [[line.trim(), now[i]!.trim()]]));
    expect(changed).toEqual([
      [`quote: ${before}`, `quote: ${after}`],
      ["within: 2", "within: 3"],
      [
        `The agent makes at most one tool call per turn. Refunds total at most $1000 per customer. ${before}.`,
        `The agent makes at most one tool call per turn. Refunds total at most $1000 per customer. ${after}.`,
      ],
    ]);
  }, 180_000);
});
