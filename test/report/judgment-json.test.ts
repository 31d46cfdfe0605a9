/**
 * `--json` and `--jsonl` write a judgment of the known shape piece by piece
 * (report/judgment-json.ts, issue 26): the bytes must be JSON.stringify's,
 * with an indent of two spaces one level deep in the array and compact,
 * for every judgment the judges give (with and without a model, a model
 * that fails) and for judgments made up of every value a field can hold;
 * anything of another shape must be left to JSON.stringify, and still come
 * out the same.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CaseResult } from "../../compiler/run/judge-cases.js";
import { Tally } from "../../compiler/analyses/tally.js";
import { elementHead, elementWithCase, jsonElement, jsonLine, jsonSink, lineHead, lineWithCase } from "../../compiler/report/json.js";
import { compactJudgmentHead, indentedJudgmentHead } from "../../compiler/report/judgment-json.js";
import type { TrajectoryJudgment } from "../../runtime/types.js";
import { mulberry32 as random } from "../oracle/random.js";

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples");

/** The element of `--json`'s array as JSON.stringify indents it, without "[\n  " and "\n]". */
const indentedElement = (value: unknown) => JSON.stringify([value], null, 2).slice(4, -2);

/** The writer's bytes, or undefined where it leaves the judgment to JSON.stringify. */
function written(j: unknown): { indented: string | undefined; compact: string | undefined } {
  const indented = indentedJudgmentHead(j as TrajectoryJudgment);
  const compact = compactJudgmentHead(j as TrajectoryJudgment);
  return { indented: indented === undefined ? undefined : `${indented}\n  }`, compact: compact === undefined ? undefined : `${compact}}` };
}

/** Checks the writer and the CLI's functions on one judgment against JSON.stringify; returns whether the writer wrote it. */
function same(j: unknown, file = "dir/a.jsonl", index = 3): boolean {
  const { indented, compact } = written(j);
  if (indented !== undefined) expect(indented).toBe(indentedElement(j));
  if (compact !== undefined) expect(compact).toBe(JSON.stringify(j));
  expect(indented === undefined).toBe(compact === undefined);
  const judgment = j as TrajectoryJudgment;
  const result: CaseResult = { kind: "judged", input: { file, index }, judgment };
  expect(jsonLine(result)).toBe(JSON.stringify(jsonElement(result)));
  const head = elementHead(judgment, file);
  if (head !== undefined) expect(elementWithCase(head, index)).toBe(indentedElement(jsonElement(result)));
  const line = lineHead(judgment, file);
  if (line !== undefined) expect(lineWithCase(line, index)).toBe(JSON.stringify(jsonElement(result)));
  return indented !== undefined;
}

interface Example {
  name: string;
  judge: { judgeTrajectory(t: unknown, options?: object): unknown };
  trajectories: { id: string; events: { id: string }[] }[];
}

async function examples(): Promise<Example[]> {
  const out: Example[] = [];
  for (const name of readdirSync(EXAMPLES).sort()) {
    const dir = join(EXAMPLES, name, "trajectories");
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    } catch {
      continue;
    }
    const judge = (await import(pathToFileURL(join(EXAMPLES, name, "judge.mjs")).href)) as Example["judge"];
    const trajectories = files.sort().map((f) => {
      const value = JSON.parse(readFileSync(join(dir, f), "utf8")) as { trajectory?: unknown };
      return (value.trajectory ?? value) as Example["trajectories"][number];
    });
    out.push({ name, judge, trajectories });
  }
  return out;
}

/** Texts a model or a trajectory could put in a judgment: every kind of character JSON escapes or must keep. */
const ODD_TEXTS = [
  "",
  "plain",
  'a "quoted" word',
  "back\\slash",
  "tab\there, newline\nthere, return\r, \b\f",
  "\u0000\u0001\u001f\u007f",
  "line\u2028and paragraph\u2029separators",
  "dash — and ü and 日本",
  "emoji 😀 paired",
  "lone high \ud800 here",
  "lone low \udfff here",
  "\ud83d",
  "x".repeat(63),
  "y".repeat(64),
  `${"z".repeat(80)}"${"z".repeat(10)}`,
  `${"long ".repeat(40)}\ud800`,
  "</script>",
];

/** Judgments of the known shape with every value a field can take, fields in the runtime's order (runtime/judgment.ts). */
function madeUp(count: number, seed: number): TrajectoryJudgment[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const text = () => (next() < 0.5 ? pick(["e1", "e12", "first match", "counted match of refund"]) : pick(ODD_TEXTS));
  const verdicts = ["true", "false", "na"] as const;
  const reasons = [null, "not_applicable", "insufficient_evidence"] as const;
  const out: TrajectoryJudgment[] = [];
  for (let n = 0; n < count; n++) {
    const rules = [];
    for (let r = Math.floor(next() * 4); r > 0; r--) {
      const clauses = [];
      for (let c = Math.floor(next() * 4); c > 0; c--) {
        const citations = [];
        for (let k = Math.floor(next() * 4); k > 0; k--) citations.push({ eventId: text(), description: text() });
        const clause: Record<string, unknown> = {
          kind: pick(["predicate", "semantic"]),
          quote: text(),
          verdict: pick(verdicts),
          naReason: pick(reasons),
          citations,
        };
        // The optional fields in the order the runtime adds them, each there or not.
        if (next() < 0.3) clause.reasoning = text();
        if (next() < 0.2) clause.verification = pick(["confirmed", "overturned", "unverified"]);
        if (next() < 0.2) clause.predicateVerdict = pick(verdicts);
        if (next() < 0.8)
          clause.check = pick(["ordering", "pairing", "required", "forbidden", "count", "condition", "trigger", "question", text()]);
        if (next() < 0.1) clause.error = text();
        if (next() < 0.2) clause.explanation = text();
        if (next() < 0.2) clause.found = text();
        clauses.push(clause);
      }
      const error = next() < 0.15;
      const verdict = pick(verdicts);
      const naReason = pick(reasons);
      const triggered = next() < 0.5;
      rules.push(
        error
          ? { name: text(), verdict, naReason, error: true, triggered, clauses }
          : { name: text(), verdict, naReason, triggered, clauses },
      );
    }
    const behavior = pick(["refund-support", "b", ...ODD_TEXTS]);
    const trajectoryId = next() < 0.5 ? `s-${n}` : pick(ODD_TEXTS);
    const verdict = pick(verdicts);
    out.push(
      (next() < 0.15
        ? { behavior, trajectoryId, verdict, error: true, metaBehaviors: rules }
        : { behavior, trajectoryId, verdict, metaBehaviors: rules }) as unknown as TrajectoryJudgment,
    );
  }
  return out;
}

describe("a judgment's JSON written piece by piece (issue 26)", () => {
  it("is JSON.stringify's, indented and compact, for every judgment of the examples' judges", async () => {
    let count = 0;
    for (const { judge, trajectories } of await examples())
      for (const t of trajectories) {
        expect(same(await judge.judgeTrajectory(t))).toBe(true);
        count++;
      }
    expect(count).toBeGreaterThan(20);
  });

  it("is JSON.stringify's for judgments with a model: answers with odd texts and citations, verify-on-false, failed calls", async () => {
    let count = 0;
    let n = 0;
    for (const { judge, trajectories } of await examples())
      for (const t of trajectories) {
        const ids = t.events.map((e) => e.id);
        const answer = async () => {
          n++;
          const verdict = ["true", "false", "na"][n % 3];
          return JSON.stringify({
            verdict,
            na_reason: verdict === "na" ? (n % 2 === 0 ? "not_applicable" : "insufficient_evidence") : null,
            reasoning: ODD_TEXTS[n % ODD_TEXTS.length] || "because",
            citations: ids.slice(0, 1 + (n % 3)).map((id, i) => ({ event_id: id, description: ODD_TEXTS[(n + i) % ODD_TEXTS.length] })),
          });
        };
        const failing = async () => Promise.reject(new Error(`offline "${ODD_TEXTS[n++ % ODD_TEXTS.length]}"`));
        for (const complete of [answer, failing]) {
          const j = (await judge.judgeTrajectory(t, { complete })) as TrajectoryJudgment;
          expect(same(j)).toBe(true);
          count++;
        }
      }
    expect(count).toBeGreaterThan(40);
  });

  it("is JSON.stringify's for 3,000 made-up judgments of the known shape, every one written by the writer", () => {
    for (const j of madeUp(3000, 26)) expect(same(j)).toBe(true);
  });

  it("covers the small cases: no rules, a rule without clauses, a clause without citations or extra fields, every verdict and na reason", () => {
    const cases: unknown[] = [
      { behavior: "b", trajectoryId: "t", verdict: "na", metaBehaviors: [] },
      { behavior: "b", trajectoryId: "t", verdict: "true", error: true, metaBehaviors: [] },
      {
        behavior: "b",
        trajectoryId: "",
        verdict: "false",
        metaBehaviors: [
          { name: "R", verdict: "na", naReason: "not_applicable", triggered: false, clauses: [] },
          { name: "R", verdict: "na", naReason: "insufficient_evidence", error: true, triggered: true, clauses: [] },
          {
            name: "S",
            verdict: "false",
            naReason: null,
            triggered: true,
            clauses: [
              { kind: "predicate", quote: "q", verdict: "false", naReason: null, citations: [] },
              {
                kind: "semantic",
                quote: "q",
                verdict: "na",
                naReason: "insufficient_evidence",
                citations: [],
                reasoning: "r",
                check: "question",
              },
              {
                kind: "predicate",
                quote: "q",
                verdict: "true",
                naReason: null,
                citations: [{ eventId: "e1", description: "d" }],
                check: "count",
              },
            ],
          },
        ],
      },
    ];
    for (const j of cases) expect(same(j)).toBe(true);
  });

  it("leaves anything of another shape to JSON.stringify, with the same bytes", () => {
    const base = (): Record<string, unknown> => ({
      behavior: "b",
      trajectoryId: "t",
      verdict: "true",
      metaBehaviors: [
        {
          name: "R",
          verdict: "true",
          naReason: null,
          triggered: true,
          clauses: [
            {
              kind: "predicate",
              quote: "q",
              verdict: "true",
              naReason: null,
              citations: [{ eventId: "e1", description: "d" }],
              check: "required",
            },
          ],
        },
      ],
    });
    type J = Record<string, unknown> & {
      metaBehaviors: (Record<string, unknown> & { clauses: (Record<string, unknown> & { citations: Record<string, unknown>[] })[] })[];
    };
    const variant = (change: (j: J) => void): unknown => {
      const j = base() as J;
      change(j);
      return j;
    };
    const rule = (j: J) => j.metaBehaviors[0]!;
    const clause = (j: J) => rule(j).clauses[0]!;
    const citation = (j: J) => clause(j).citations[0]!;
    const hidden = (o: object, name: string, value: unknown) => Object.defineProperty(o, name, { value, enumerable: false });
    const others: [string, unknown][] = [
      ["fields in another order", { trajectoryId: "t", behavior: "b", verdict: "true", metaBehaviors: [] }],
      ["a field missing", { behavior: "b", trajectoryId: "t", metaBehaviors: [] }],
      ["a field of its own", variant((j) => (j.extra = 1))],
      ["its own file and case", variant((j) => Object.assign(j, { file: "mine", case: 9 }))],
      ["error false", { behavior: "b", trajectoryId: "t", verdict: "true", error: false, metaBehaviors: [] }],
      ["error after the rules", variant((j) => (j.error = true))],
      ["error before verdict", { behavior: "b", trajectoryId: "t", error: true, verdict: "true", metaBehaviors: [] }],
      ["an unknown verdict", variant((j) => (j.verdict = "maybe"))],
      ["a number for an id", variant((j) => (j.trajectoryId = 7))],
      ["metaBehaviors not an array", variant((j) => (j.metaBehaviors = { 0: 1 } as never))],
      ["a hole in the rules", variant((j) => (j.metaBehaviors = [undefined, ...j.metaBehaviors] as never))],
      ["a sparse array", variant((j) => (j.metaBehaviors.length = 3))],
      ["a rule's error a string", variant((j) => Object.assign(rule(j), { error: "x" }))],
      ["a rule's extra field", variant((j) => (rule(j).note = "n"))],
      ["a rule's triggered a string", variant((j) => (rule(j).triggered = "yes"))],
      ["a rule's na reason unknown", variant((j) => (rule(j).naReason = "because"))],
      ["a rule's name a number", variant((j) => (rule(j).name = 1))],
      [
        "a clause's fields reordered",
        variant((j) => (rule(j).clauses = [{ quote: "q", kind: "predicate", verdict: "true", naReason: null, citations: [] }])),
      ],
      ["a clause without citations", variant((j) => delete (clause(j) as Record<string, unknown>).citations)],
      ["nested metadata in a clause", variant((j) => (clause(j).metadata = { a: { b: ["c", 1, null] }, empty: {}, list: [] }))],
      ["an undefined field", variant((j) => (clause(j).reasoning = undefined))],
      ["a function field", variant((j) => (clause(j).check = () => 1))],
      ["numbers in a clause", variant((j) => Object.assign(clause(j), { a: 0, b: -0, c: 1e21, d: 1.5e-7, e: NaN, f: Infinity }))],
      ["a bigint-free symbol", variant((j) => (clause(j).check = Symbol("s")))],
      ["a citation's extra field", variant((j) => (citation(j).line = 4))],
      ["a citation's fields reordered", variant((j) => (clause(j).citations = [{ description: "d", eventId: "e1" }]))],
      ["a citation's id a number", variant((j) => (citation(j).eventId = 1))],
      ["a citation with no description", variant((j) => delete citation(j).description)],
      ["a toJSON of its own", variant((j) => (j.toJSON = () => ({ replaced: true })))],
      ["a hidden toJSON", variant((j) => hidden(j, "toJSON", () => "hidden"))],
      ["a rule's hidden toJSON", variant((j) => hidden(rule(j), "toJSON", () => "rule"))],
      ["a clause's hidden toJSON", variant((j) => hidden(clause(j), "toJSON", () => "clause"))],
      ["a citation's hidden toJSON", variant((j) => hidden(citation(j), "toJSON", () => "citation"))],
      ["the rules' hidden toJSON", variant((j) => hidden(j.metaBehaviors, "toJSON", () => "rules"))],
      ["the citations' hidden toJSON", variant((j) => hidden(clause(j).citations, "toJSON", () => "citations"))],
      ["a prototype of its own", Object.assign(Object.create({ inherited: true }) as object, base())],
      ["no prototype", Object.assign(Object.create(null) as object, base())],
      ["a class instance", Object.assign(new (class Judgment {})(), base())],
      ["a rule without a prototype", variant((j) => (j.metaBehaviors = [Object.assign(Object.create(null) as object, rule(j))] as never))],
      [
        "an array subclass",
        variant((j) => (clause(j).citations = Object.assign(new (class Cites extends Array {})(), clause(j).citations))),
      ],
      ["a String object", variant((j) => (j.trajectoryId = new String("t")))],
    ];
    for (const [what, j] of others) {
      expect([what, written(j).indented]).toEqual([what, undefined]);
      same(j);
    }
    // Read as JSON.stringify reads them: a getter's value, no hidden field.
    expect(same(variant((j) => Object.defineProperty(rule(j), "name", { get: () => "got", enumerable: true })))).toBe(true);
    expect(same(variant((j) => hidden(clause(j), "check", "hidden")))).toBe(true);
    // What JSON.stringify finds on a prototype changes what it writes: the writer looks there too.
    const known = base();
    expect(same(known)).toBe(true);
    for (const [proto, name, value] of [
      [Object.prototype, "toJSON", () => "everything"],
      [Array.prototype, "toJSON", () => "arrays"],
      [Object.prototype, "enumerable", "inherited"],
    ] as const) {
      Object.defineProperty(proto, name, { value, enumerable: name === "enumerable", configurable: true, writable: true });
      try {
        expect(written(known)).toEqual({ indented: undefined, compact: undefined });
        const result: CaseResult = { kind: "judged", input: { file: "f", index: 0 }, judgment: known as unknown as TrajectoryJudgment };
        expect(jsonLine(result)).toBe(JSON.stringify(jsonElement(result)));
      } finally {
        delete (proto as Record<string, unknown>)[name];
      }
    }
    expect(same(known)).toBe(true);
  });

  it("a clause's quote of two kinds, rule names and descriptions past the cache's bound, stay right", () => {
    const j = (kind: string, i: number) => ({
      behavior: "b",
      trajectoryId: `t${i}`,
      verdict: "true",
      metaBehaviors: [
        {
          name: `rule ${i}`,
          verdict: "true",
          naReason: null,
          triggered: true,
          clauses: [
            {
              kind,
              quote: "same quote",
              verdict: "true",
              naReason: null,
              citations: [{ eventId: `e${i}`, description: `description ${i}` }],
              check: `check ${i % 7}`,
            },
          ],
        },
      ],
    });
    for (let i = 0; i < 10_000; i++) expect(same(j(i % 3 === 0 ? "semantic" : "predicate", i))).toBe(true);
  });

  it("--json's array over made-up and odd judgments is JSON.stringify(all, null, 2)", async () => {
    const judgments: unknown[] = [...madeUp(200, 7), { behavior: "b" }, { ...madeUp(1, 8)[0], file: "own" }];
    const results: CaseResult[] = judgments.map((judgment, index) => ({
      kind: "judged",
      input: { file: index % 2 === 0 ? "a.jsonl" : `dir/"q"\u2028.json`, index },
      judgment: judgment as TrajectoryJudgment,
    }));
    let out = "";
    const sink = jsonSink(
      (t) => (out += t),
      () => {},
      { usage: false },
    );
    for (const r of results) sink.add(r);
    await sink.finish(new Tally());
    expect(out).toBe(`${JSON.stringify(results.map(jsonElement), null, 2)}\n`);
  });
});
