/**
 * Compatibility with the reference implementation's examples, kept in
 * test/fixtures/conformance/upstream (Apache-2.0, attributed in its
 * NOTICE.md) so that a fresh clone runs these checks and reads nothing
 * outside itself.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { questionKind, trajectoryIdOf } from "./support/scripted.js";
import { answer, startChatServer, type Script, scriptedAdapter } from "./support/chat-server.js";
import { disagreements, isDeterministicRule, loadCorpus } from "./support/corpus.js";

const UPSTREAM = join(import.meta.dirname, "fixtures", "conformance", "upstream");

const CORPORA: [string, { metas: number; files: number }][] = [
  ["verified-refund-support", { metas: 36, files: 9 }],
  ["staged-rollout-deploys", { metas: 36, files: 9 }],
  ["primary-source-tax-research", { metas: 6, files: 0 }],
];

describe("reference corpus", () => {
  test.each(CORPORA)("%s agrees offline on every rule that needs no model", async (name, want) => {
    const { ir, judges, cases } = await loadCorpus(join(UPSTREAM, name));
    for (const { judge } of judges) {
      let metas = 0;
      let files = 0;
      const problems: string[] = [];
      for (const c of cases) {
        const judgment = await judge.judgeTrajectory(c.trajectory);
        const select = (rule: string) => isDeterministicRule(ir, rule);
        problems.push(...disagreements(c, judgment, select));
        metas += judgment.metaBehaviors.filter((m) => select(m.name)).length;
        if (judgment.metaBehaviors.every((m) => select(m.name))) files++;
      }
      expect(problems).toEqual([]);
      expect({ metas, files }).toEqual(want);
    }
  });
});

/**
 * With a model: the reference tax example against a scripted chat-completions
 * server whose answers follow the labels — a trigger fires unless its rule is
 * labeled na, every deterministic false is confirmed, and a semantic check
 * answers its rule's label. The real `openai` client talks to it over HTTP.
 */
describe("reference corpus with a scripted model", () => {
  test("primary-source-tax-research calibrates on every rule and file verdict", async () => {
    const dir = join(UPSTREAM, "primary-source-tax-research");
    const { judges, cases } = await loadCorpus(dir);
    const byId = new Map(cases.map((c) => [c.trajectory.id, c]));
    const script: Script = (request) => {
      const prompt = request.body.messages[1]?.content ?? "";
      const labeled = byId.get(trajectoryIdOf(prompt) ?? "")!;
      const rule = /^Rule: (.*)$/m.exec(prompt)![1]!;
      const label = labeled.expected.metaBehaviorVerdicts[rule]!;
      const events = (labeled.trajectory as unknown as { events: { id: string }[] }).events;
      const cite = [events[events.length - 1]!.id];
      const kind = questionKind(prompt);
      if (kind === "trigger") return { reply: answer(label === "na" ? "false" : "true", cite) };
      if (kind === "verify") return { reply: answer("false", cite) };
      return { reply: answer(label, cite, label === "na" ? { naReason: "not_applicable" } : {}) };
    };
    const server = await startChatServer(script);
    try {
      const complete = scriptedAdapter(server);
      for (const { judge } of judges) {
        const problems: string[] = [];
        for (const c of cases) problems.push(...disagreements(c, await judge.judgeTrajectory(c.trajectory, { complete }), () => true));
        expect(problems).toEqual([]);
      }
    } finally {
      await server.close();
    }
  });
});
