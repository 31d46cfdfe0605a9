import { readdirSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { Check, JudgeIR } from "../../compiler/ir/types.js";

const VALID = new URL("../fixtures/ir-valid/", import.meta.url);

function parseOrThrow(text: string): JudgeIR {
  const result = parseJudgeYaml(text);
  if (!result.ok) throw new Error(`${result.diagnostics.map(formatDiagnostic).join("\n")}\n--- text ---\n${text}`);
  return result.ir;
}

function expectRoundTrip(ir: JudgeIR): void {
  const text = serializeJudgeYaml(ir);
  expect(parseOrThrow(text)).toStrictEqual(ir);
}

describe("serializeJudgeYaml", () => {
  it.each(readdirSync(VALID).filter((name) => name.endsWith(".yaml")))("round-trips %s", (name) => {
    const ir = parseOrThrow(readFileSync(new URL(name, VALID), "utf8"));
    expectRoundTrip(ir);
    // A serialized file is a fixed point: serializing what it parses to gives it back.
    const text = serializeJudgeYaml(ir);
    expect(serializeJudgeYaml(parseOrThrow(text))).toBe(text);
  });

  it("writes canonical key order whatever the key order in memory, single matchers as plain mappings", () => {
    const count = {
      distinctBy: "metadata.host",
      max: 5,
      min: 3,
      match: [{ metadata: { stage: "canary" }, action: "health_check_result" }],
      quote: "three hosts",
      type: "count",
    } as unknown as Check;
    const ir = {
      metaBehaviors: [
        {
          source: "The section.",
          semanticChecks: [{ question: "Was it healthy?", quote: "healthy" }],
          checks: [
            count,
            {
              after: [{ actor: "user" }],
              match: [{ action: "deploy" }, { action: "rollback" }],
              quote: "no deploys",
              type: "forbidden",
            } as unknown as Check,
          ],
          trigger: { match: [{ action: "deploy" }], description: "The agent deploys." },
          name: "Rollout",
        },
      ],
      behavior: "staged-rollout",
      version: 1,
    } as unknown as JudgeIR;
    expect(serializeJudgeYaml(ir)).toBe(`version: 1
behavior: staged-rollout
metaBehaviors:
  - name: Rollout
    trigger:
      description: The agent deploys.
      match:
        action: deploy
    checks:
      - type: count
        quote: three hosts
        match:
          action: health_check_result
          metadata:
            stage: canary
        min: 3
        max: 5
        distinctBy: metadata.host
      - type: forbidden
        quote: no deploys
        match:
          - action: deploy
          - action: rollback
        after:
          actor: user
    semanticChecks:
      - quote: healthy
        question: Was it healthy?
    source: The section.
`);
  });

  it("writes a semantic trigger as semantic: true and keeps empty lists explicit", () => {
    const ir: JudgeIR = {
      version: 1,
      behavior: "b",
      metaBehaviors: [
        {
          name: "n",
          trigger: { description: "d", semantic: true },
          checks: [],
          semanticChecks: [{ quote: "q", question: "?" }],
        },
      ],
    };
    expect(serializeJudgeYaml(ir)).toContain("    trigger:\n      description: d\n      semantic: true\n    checks: []\n");
    expectRoundTrip(ir);
  });
});

/** Strings that break naive emitters: YAML syntax, other types, JS/HTML injection, whitespace, invisibles. */
const TRICKY = [
  "true",
  "false",
  "1",
  "-1",
  "1.5",
  "1e3",
  "0x1F",
  "0o17",
  "017",
  ".inf",
  "null",
  "~",
  "yes",
  "no",
  "on",
  "off",
  "y",
  "12:30",
  "2024-01-01",
  'say "hi"',
  "it's",
  "`cmd`",
  "${process.exit(1)}",
  "*/ alert(1) /*",
  "</script><script>alert(1)</script>",
  "process.exit(1)",
  " leading",
  "trailing ",
  "  both  ",
  "\ttab",
  "a\tb",
  "line\nbreak",
  "ends with newline\n",
  "\n",
  "\n\nblank lines\n\n",
  "crlf\r\nline",
  "cr\ronly",
  "sep\u2028arator",
  "para\u2029graph",
  "\u2028",
  "nel\u0085",
  "bidi\u202eoverride",
  "zero\u200bwidth",
  "\ufeffbom",
  "soft\u00adhyphen",
  "bell\u0007",
  "nul\u0000",
  "esc\u001b[31m",
  "emoji 😀",
  "ünïcödé",
  "中文",
  "- item",
  "? key",
  ": colon",
  "key: value",
  "# comment",
  "a #b",
  "&anchor",
  "*alias",
  "!tag",
  "!!str",
  "%directive",
  "@at",
  "|",
  ">",
  "[flow]",
  "{flow}",
  "---",
  "...",
  "'",
  '"',
  "\\",
  "\\n",
  "back\\slash \\u0041",
  "// comment",
  "x".repeat(150),
  `${"long words ".repeat(30)}\n  indented\nend  `,
];

function irWithEverywhere(value: string): JudgeIR {
  return {
    version: 1,
    behavior: value,
    metaBehaviors: [
      {
        name: value,
        trigger: {
          description: value,
          match: [{ action: value, contentIncludes: value, metadata: { [value]: value } }],
        },
        checks: [
          {
            type: "ordering",
            quote: value,
            first: [{ action: value }],
            before: [{ actor: "tool", contentIncludes: value }, { action: "x" }],
          },
          { type: "count", quote: value, match: [{ metadata: { k: value } }], min: 0, distinctBy: `metadata.${value}` },
        ],
        semanticChecks: [{ quote: value, question: value }],
        source: value,
      },
    ],
  };
}

describe("round trip of tricky strings", () => {
  it.each(TRICKY.map((value) => [JSON.stringify(value), value]))("%s in every string field", (_label, value) => {
    expectRoundTrip(irWithEverywhere(value));
  });

  it("writes invisible and line-separator characters as escapes, not raw", () => {
    const text = serializeJudgeYaml(irWithEverywhere("a\u2028b\u202ec\u200bd"));
    expect(text).not.toMatch(/[\u2028\u202e\u200b]/);
    expect(text).toContain('"a\\u2028b\\u202ec\\u200bd"');
  });

  it("quotes strings a YAML 1.1 reader would take for booleans or numbers", () => {
    const text = serializeJudgeYaml(irWithEverywhere("yes"));
    expect(text).toContain('behavior: "yes"');
    expect(text).not.toMatch(/: yes$/m);
  });

  it("round-trips random strings built from tricky pieces", () => {
    const pieces = [
      "a",
      " ",
      "  ",
      "\n",
      "\t",
      ":",
      "#",
      "-",
      "'",
      '"',
      "\\",
      "`",
      "${",
      "*/",
      "\u2028",
      "\u0085",
      "\r",
      "1",
      "true",
      "{",
      "[",
      "&",
      "!",
      "😀",
      "\u00a0",
      "x".repeat(40),
    ];
    let seed = 12345;
    // A fixed-seed LCG keeps the cases reproducible without a dependency.
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 150; i++) {
      const value = Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join("");
      expectRoundTrip(irWithEverywhere(value));
    }
  });
});

describe("round trip of random judges", () => {
  it("parse(serialize(ir)) is ir for 3,000 random judges from the differential generator", async () => {
    const { randomCases } = await import("../oracle/random.js");
    const mismatches: string[] = [];
    for (const { ir } of randomCases(20261129, 3000)) {
      const back = parseJudgeYaml(serializeJudgeYaml(ir));
      if (!back.ok) mismatches.push(back.diagnostics.map(formatDiagnostic).join("\n"));
      else if (!isDeepStrictEqual(back.ir, ir)) mismatches.push(JSON.stringify({ ir, back: back.ir }));
    }
    expect(mismatches.slice(0, 1)).toEqual([]);
  });
});
