/**
 * `generate --update` edits a hand-formatted judge.yaml in place (issue 14):
 * comments, flow maps, odd key order, quoting and blank lines survive, and a
 * one-word spec edit changes exactly the lines of the clause it touches.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJudgeYaml, judgeYamlText, sameJudge } from "../../compiler/generate/pipeline.js";
import { serializeJudgeYaml } from "../../compiler/ir/serialize.js";
import type { InterviewInput } from "../../compiler/generate/types.js";
import { editJudgeYaml } from "../../compiler/generate/yaml-edit.js";
import { parseJudgeYaml } from "../../compiler/ir/parse.js";
import type { JudgeIR } from "../../compiler/ir/types.js";
import { ROOT } from "../support/cli.js";
import { EXAMPLE_DIRS, loadReferenceCase, trajectoryFiles } from "./drafting-fixtures.js";

const REFUND = EXAMPLE_DIRS[0]!;
const HAND = readFileSync(join(ROOT, "test", "fixtures", "generate", "hand-formatted-judge.yaml"), "utf8");
const LINES = HAND.split("\n");

function parsed(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.ir;
}

/** Line numbers (0-based) where two texts with the same number of lines differ. */
function changedLines(before: string, after: string): number[] {
  const a = before.split("\n");
  const b = after.split("\n");
  expect(b).toHaveLength(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i]));
}

const lineOf = (text: string) => LINES.findIndex((line) => line.includes(text));

/** Runs generate --update offline on a copy of the refund example whose spec is edited and whose judge.yaml is the hand-formatted one. */
async function update(editSpec: (text: string) => string): Promise<{ text: string; notices: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "bj-yaml-edit-"));
  cpSync(REFUND, dir, { recursive: true });
  const judge = join(dir, "judge.yaml");
  writeFileSync(judge, HAND);
  const spec = join(dir, "BEHAVIOR.md");
  writeFileSync(spec, editSpec(readFileSync(spec, "utf8")));
  const notices: string[] = [];
  await generateJudgeYaml({
    spec,
    samples: trajectoryFiles(REFUND),
    out: judge,
    update: judge,
    interviewer: async (input: InterviewInput) => ({ ir: input.draft.ir, questionsAsked: 1 }),
    notice: (message) => notices.push(message),
  });
  return { text: readFileSync(judge, "utf8"), notices };
}

describe("the hand-formatted fixture", () => {
  it("is the refund example's judge, written differently", () => {
    expect(parsed(HAND)).toEqual(loadReferenceCase(REFUND).reference);
    expect(editJudgeYaml(HAND, parsed(HAND))).toBe(HAND);
  });
});

describe("generate --update on a hand-formatted judge.yaml", () => {
  it("a one-word spec edit changes the clause's line and the source's line, and nothing else", async () => {
    const { text, notices } = await update((t) => t.replace("at most three different orders", "at most two different orders"));
    expect(notices.filter((n) => n.startsWith("could not edit"))).toEqual([]);
    expect(changedLines(HAND, text)).toEqual([
      lineOf("{type: count, quote: The agent refunds at most three"),
      lineOf("The agent refunds at most three different orders in one session; a customer"),
    ]);
    const lines = text.split("\n");
    // The clause keeps its flow style and key order; only the words that changed did.
    expect(lines[lineOf("{type: count")]).toBe(
      "  - {type: count, quote: The agent refunds at most two different orders in one session, match: {action: issue_refund}, max: 2, distinctBy: metadata.order_id}",
    );
    const rule = parsed(text).metaBehaviors[3]!;
    expect(rule.checks).toEqual([
      {
        type: "count",
        quote: "The agent refunds at most two different orders in one session",
        match: [{ action: "issue_refund" }],
        max: 2,
        distinctBy: "metadata.order_id",
      },
    ]);
    expect(rule.source).toContain("at most two different orders");
  });

  it("a removed section removes its rule's lines (and the blank lines before it), every other line unchanged", async () => {
    const { text } = await update((t) => {
      const start = t.indexOf("## Email a confirmation for every approved refund");
      return t.slice(0, start) + t.slice(t.indexOf("## Stop paying out once escalated"));
    });
    const from = lineOf("- name: Email a confirmation") - 2;
    const to = lineOf("# ---- escalation") - 2;
    expect(text.split("\n")).toEqual([...LINES.slice(0, from), ...LINES.slice(to)]);
    expect(parsed(text).metaBehaviors.map((r) => r.name)).toEqual([
      "Look up the order before paying anything out",
      "Stop paying out once escalated",
      "Refund at most three orders per session",
    ]);
  });

  it("an added section appends its rule, spaced like the others, every other line unchanged", async () => {
    const { text } = await update((t) => `${t}\n## Never issue store credit\n\nThe agent never issues store credit.\n`);
    expect(text.startsWith(HAND)).toBe(true);
    const added = text.slice(HAND.length);
    // Two blank lines, as between the file's other rules.
    expect(added).toMatch(/^\n\n- name: Never issue store credit\n {2}trigger:\n/);
    const rule = parsed(text).metaBehaviors[4]!;
    expect(rule).toMatchObject({
      name: "Never issue store credit",
      checks: [{ type: "forbidden", quote: "The agent never issues store credit", match: [{ action: "issue_store_credit" }] }],
      source: "The agent never issues store credit.",
    });
  });
});

describe("sameJudge", () => {
  it("ignores key order and the order of rules and clauses, and nothing else", () => {
    const ir = parsed(HAND);
    const reordered: JudgeIR = {
      metaBehaviors: [...ir.metaBehaviors].reverse().map((rule) => ({
        source: rule.source,
        semanticChecks: rule.semanticChecks,
        checks: [...rule.checks].reverse().map((check) => Object.fromEntries(Object.entries(check).reverse()) as typeof check),
        trigger: rule.trigger,
        name: rule.name,
      })),
      behavior: ir.behavior,
      version: ir.version,
    };
    expect(sameJudge(ir, reordered)).toBe(true);
    const changed = structuredClone(ir);
    changed.metaBehaviors[2]!.checks[1]!.quote += "!";
    expect(sameJudge(ir, changed)).toBe(false);
  });
});

describe("editJudgeYaml", () => {
  const base = parsed(HAND);

  it("keeps a scalar's quoting, and quotes a new value that would read as something else", () => {
    const ir = structuredClone(base);
    ir.metaBehaviors[0]!.trigger.description = "The agent pays out.";
    ir.metaBehaviors[0]!.checks[0]!.quote = "yes";
    const text = editJudgeYaml(HAND, ir);
    expect(text).toContain("    description: 'The agent pays out.'\n");
    expect(text).toContain('  - quote: "yes"\n');
    expect(parsed(text)).toEqual(ir);
  });

  it("removes a pair's line, and rewrites a flow mapping whose keys changed in flow style on its line", () => {
    const ir = structuredClone(base);
    delete (ir.metaBehaviors[2]!.checks[0] as { after?: unknown }).after;
    ir.metaBehaviors[1]!.trigger = { description: "The processor approves.", match: [{ action: "issue_refund_result" }] };
    const text = editJudgeYaml(HAND, ir);
    expect(text).toBe(
      HAND.replace("    after: {action: escalate_to_supervisor}\n\n  - type: required", "\n  - type: required").replace(
        "  trigger: {description: The payment processor approves a refund., match: {action: issue_refund_result, metadata: {status: approved}}}",
        "  trigger: {description: The processor approves., match: { action: issue_refund_result }}",
      ),
    );
    expect(parsed(text)).toEqual(ir);
  });

  it("keeps an alias whose anchor still holds, and a fresh layout (with a notice) when an edit would change the anchor's other uses", () => {
    const anchored = HAND.replace(
      "    after: {action: escalate_to_supervisor}\n\n",
      "    after: &esc {action: escalate_to_supervisor}\n\n",
    ).replace("    after: {action: escalate_to_supervisor}\n  source", "    after: *esc\n  source");
    const ir = parsed(anchored);
    const quoted = structuredClone(ir);
    quoted.metaBehaviors[2]!.checks[1]!.quote = "it writes a handover note";
    const notices: string[] = [];
    expect(judgeYamlText(quoted, anchored, (m) => notices.push(m))).toBe(
      anchored.replace("quote: it writes a handover note for the supervisor", "quote: it writes a handover note"),
    );
    expect(notices).toEqual([]);

    const shared = structuredClone(ir);
    (shared.metaBehaviors[2]!.checks[0] as { after?: unknown }).after = [{ action: "transfer_case" }];
    const text = judgeYamlText(shared, anchored, (m) => notices.push(m));
    expect(parsed(text)).toEqual(shared);
    expect(text).toBe(serializeJudgeYaml(shared));
    expect(notices).toEqual([
      "could not edit the previous judge.yaml in place: it is rewritten in the standard layout (comments and formatting are not kept)",
    ]);
  });

  it("keeps Windows line endings", () => {
    const crlf = HAND.replace(/\n/g, "\r\n");
    const ir = structuredClone(base);
    ir.metaBehaviors[0]!.checks.push({ type: "required", quote: "a new clause", match: [{ action: "x" }] });
    const text = editJudgeYaml(crlf, ir);
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text.replace(/\r\n/g, "\n")).toBe(editJudgeYaml(HAND, ir));
  });

  it("removes the last clause of a list as an empty list, and adds a clause to an empty list as a block", () => {
    const ir = structuredClone(base);
    ir.metaBehaviors[3]!.checks = [];
    ir.metaBehaviors[3]!.semanticChecks = [{ quote: "a customer with more disputed orders is escalated instead", question: "Escalated?" }];
    const text = editJudgeYaml(HAND, ir);
    expect(text).toContain(
      // This file writes lists flush with their keys, and so does the new one.
      "  checks: []\n  semanticChecks:\n  - quote: a customer with more disputed orders is escalated instead\n    question: Escalated?\n  source: |-\n",
    );
    expect(parsed(text)).toEqual(ir);
  });
});

describe("editJudgeYaml on every example and the hand-formatted file", () => {
  /** Edits a person or the drafter may make; each must read back as the edited judge and leave the other rules' lines alone. */
  const EDITS: [string, (ir: JudgeIR) => number][] = [
    ["a quote changes", (ir) => ((ir.metaBehaviors[0]!.checks[0]!.quote += " promptly"), 0)],
    [
      "a trigger becomes semantic",
      (ir) => ((ir.metaBehaviors[1]!.trigger = { description: ir.metaBehaviors[1]!.trigger.description, semantic: true }), 1),
    ],
    [
      "a trigger gets another matcher (a semantic one becomes a match)",
      (ir) => {
        const rule = ir.metaBehaviors[0]!;
        rule.trigger = {
          description: rule.trigger.description,
          match: [...(rule.trigger.match ?? []), { action: "another_action", actor: "agent" }],
        };
        return 0;
      },
    ],
    [
      "a check is dropped and a semantic question added",
      (ir) => {
        const rule = ir.metaBehaviors.at(-1)!;
        rule.semanticChecks = [...rule.semanticChecks, { quote: rule.checks[0]!.quote, question: "Was it followed?" }];
        rule.checks = rule.checks.slice(1);
        return ir.metaBehaviors.length - 1;
      },
    ],
    [
      "a check of another type replaces one",
      (ir) => {
        ir.metaBehaviors[0]!.checks = [{ type: "required", quote: "a new clause", match: [{ action: "x", metadata: { status: "1.0" } }] }];
        return 0;
      },
    ],
    [
      "a rule is added between the first two",
      (ir) => {
        ir.metaBehaviors.splice(1, 0, {
          name: "A new rule",
          trigger: { description: "Always.", match: [{ actor: "agent" }] },
          checks: [{ type: "forbidden", quote: "never this", match: [{ action: "this", contentIncludes: "no: not" }] }],
          semanticChecks: [],
          source: "The agent does never this.\n\nEach session is one occurrence.",
        });
        return -1;
      },
    ],
    ["the second rule is removed", (ir) => (ir.metaBehaviors.splice(1, 1), 1)],
    ["the source changes", (ir) => ((ir.metaBehaviors[1]!.source = `${ir.metaBehaviors[1]!.source ?? "Text."}\n\nOne more line: yes.`), 1)],
  ];
  const FILES = [
    ...EXAMPLE_DIRS.map((dir) => join(dir, "judge.yaml")),
    join(ROOT, "test", "fixtures", "generate", "hand-formatted-judge.yaml"),
  ];

  for (const file of FILES) {
    for (const [name, edit] of EDITS) {
      it(`${file.slice(ROOT.length + 1)}: ${name}`, () => {
        const text = readFileSync(file, "utf8");
        const ir = parsed(text);
        const next = structuredClone(ir);
        const touched = edit(next);
        const out = editJudgeYaml(text, next);
        // The file keeps its own order of rules; an added one goes after the rule before it in the spec.
        expect(parsed(out)).toEqual(next);
        // Every other rule is still there, line for line.
        const doc = text.split("\n");
        for (const [i, rule] of ir.metaBehaviors.entries()) {
          if (i === touched) continue;
          const start = doc.findIndex((line) => line.includes(`name: ${rule.name}`));
          const next = ir.metaBehaviors[i + 1];
          const end = next === undefined ? doc.length : doc.findIndex((line) => line.includes(`name: ${next.name}`));
          const block = doc.slice(start, end).join("\n");
          expect(out).toContain(block.replace(/\n+$/, ""));
        }
      });
    }
  }
});
