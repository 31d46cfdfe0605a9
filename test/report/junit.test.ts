import { describe, expect, it } from "vitest";
import { renderJunit } from "../../compiler/report/junit.js";
import type { JunitInput } from "../../compiler/report/junit.js";
import type { Clause, MetaBehaviorJudgment, TrajectoryJudgment } from "../../runtime/types.js";

// ---------------------------------------------------------------------------
// A strict little XML 1.0 parser: enough to prove well-formedness (it throws
// on anything a real parser would reject in the constructs we emit) and to
// read the document back.

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;

function parseXml(document: string): XmlElement {
  if (!XML_CHAR.test(document)) throw new Error("document contains a character XML 1.0 forbids");
  // End-of-line handling (XML 1.0 §2.11): a literal CR never reaches the application.
  const source = document.replace(/\r\n?/g, "\n");
  let pos = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${pos}: ${JSON.stringify(source.slice(pos, pos + 30))}`);
  };
  const skipSpace = () => {
    while (pos < source.length && " \t\r\n".includes(source[pos]!)) pos++;
  };
  const readName = (): string => {
    const match = NAME.exec(source.slice(pos));
    if (match === null) return fail("expected a name");
    pos += match[0].length;
    return match[0];
  };
  const decode = (raw: string, inAttribute: boolean): string => {
    if (raw.includes("<")) fail("raw < in character data");
    // Attribute-value normalization: literal whitespace becomes a space; references survive.
    const normalized = inAttribute ? raw.replace(/[\t\n\r]/g, " ") : raw;
    return normalized.replace(/&([^;]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(";")) return fail(`bare & in ${JSON.stringify(whole)}`);
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
      if (ref in named) return named[ref]!;
      const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
      if (numeric === null) return fail(`unknown entity &${ref};`);
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
      const char = String.fromCodePoint(code);
      if (!XML_CHAR.test(char)) fail(`reference to a forbidden character &${ref};`);
      return char;
    });
  };
  const readElement = (): XmlElement => {
    if (source[pos] !== "<") fail("expected <");
    pos++;
    const name = readName();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = pos;
      skipSpace();
      if (source.startsWith("/>", pos)) {
        pos += 2;
        return { name, attributes, children: [], text: "" };
      }
      if (source[pos] === ">") {
        pos++;
        break;
      }
      if (pos === before) fail("expected whitespace before an attribute");
      const attribute = readName();
      if (attribute in attributes) fail(`duplicate attribute ${attribute}`);
      skipSpace();
      if (source[pos] !== "=") fail("expected =");
      pos++;
      skipSpace();
      const quote = source[pos];
      if (quote !== '"' && quote !== "'") return fail("attribute value must be quoted");
      const end = source.indexOf(quote, pos + 1);
      if (end < 0) fail("unterminated attribute value");
      attributes[attribute] = decode(source.slice(pos + 1, end), true);
      pos = end + 1;
    }
    const children: XmlElement[] = [];
    let text = "";
    for (;;) {
      const next = source.indexOf("<", pos);
      if (next < 0) fail(`unclosed <${name}>`);
      const raw = source.slice(pos, next);
      if (raw.includes("]]>")) fail("]]> in character data");
      text += decode(raw, false);
      pos = next;
      if (source.startsWith("</", pos)) {
        pos += 2;
        const closing = readName();
        if (closing !== name) fail(`</${closing}> closes <${name}>`);
        skipSpace();
        if (source[pos] !== ">") fail("expected >");
        pos++;
        return { name, attributes, children, text };
      }
      children.push(readElement());
    }
  };

  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>/.exec(source);
  if (declaration !== null) pos = declaration[0].length;
  skipSpace();
  const root = readElement();
  skipSpace();
  if (pos !== source.length) fail("content after the root element");
  return root;
}

// ---------------------------------------------------------------------------
// The structure of the common JUnit schema (the junit-10 XSD that Jenkins,
// GitLab and most CI reporters accept), checked by hand.

const ALLOWED = {
  // No `skipped` here: junit-10.xsd allows it on <testsuite> only.
  testsuites: ["name", "tests", "failures", "errors", "disabled", "time"],
  testsuite: ["name", "tests", "failures", "errors", "skipped", "disabled", "time", "timestamp", "hostname", "id", "package", "file"],
  testcase: ["name", "classname", "time", "assertions", "status", "file", "line"],
  failure: ["message", "type"],
  error: ["message", "type"],
  skipped: ["message"],
  property: ["name", "value"],
} as const;

type Counted = "tests" | "failures" | "errors" | "skipped";

function junitProblems(root: XmlElement): string[] {
  const problems: string[] = [];
  const checkAttributes = (el: XmlElement, allowed: readonly string[], required: readonly string[]) => {
    for (const key of Object.keys(el.attributes)) {
      if (!allowed.includes(key)) problems.push(`<${el.name}> has unknown attribute ${key}`);
    }
    for (const key of required) {
      if (el.attributes[key] === undefined) problems.push(`<${el.name}> lacks ${key}`);
    }
    for (const key of ["tests", "failures", "errors", "skipped"]) {
      const value = el.attributes[key];
      if (value !== undefined && !/^\d+$/.test(value)) problems.push(`<${el.name}> ${key}="${value}" is not a count`);
    }
    const time = el.attributes.time;
    if (time !== undefined && !/^\d+(\.\d+)?$/.test(time)) problems.push(`<${el.name}> time="${time}" is not a duration`);
  };
  const expectCount = (el: XmlElement, key: Counted, actual: number) => {
    const declared = el.attributes[key];
    if (declared !== undefined && Number(declared) !== actual) {
      problems.push(`<${el.name} name="${el.attributes.name}"> ${key}="${declared}" but counted ${actual}`);
    }
  };

  if (root.name !== "testsuites") problems.push(`root is <${root.name}>, not <testsuites>`);
  checkAttributes(root, ALLOWED.testsuites, []);
  const totals: Record<Counted, number> = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const suite of root.children) {
    if (suite.name !== "testsuite") problems.push(`<testsuites> contains <${suite.name}>`);
    checkAttributes(suite, ALLOWED.testsuite, ["name", "tests"]);
    const counts: Record<Counted, number> = { tests: 0, failures: 0, errors: 0, skipped: 0 };
    suite.children.forEach((child, i) => {
      if (child.name !== "properties") return;
      // junit-10.xsd: at most one <properties>, before every test case, holding <property name value>.
      if (i !== 0) problems.push("<properties> is not the first child of <testsuite>");
      for (const property of child.children) {
        if (property.name !== "property") problems.push(`<properties> contains <${property.name}>`);
        checkAttributes(property, ALLOWED.property, ["name", "value"]);
      }
    });
    for (const testcase of suite.children) {
      if (testcase.name === "properties") continue;
      if (testcase.name !== "testcase") {
        problems.push(`<testsuite> contains <${testcase.name}>`);
        continue;
      }
      checkAttributes(testcase, ALLOWED.testcase, ["name"]);
      counts.tests++;
      const results = testcase.children.filter((c) => c.name !== "system-out");
      if (results.length > 1) problems.push(`testcase ${testcase.attributes.name} has several results`);
      // junit-10.xsd: the result element comes first, then <system-out>.
      const firstOut = testcase.children.findIndex((c) => c.name === "system-out");
      if (firstOut >= 0 && testcase.children.slice(firstOut).some((c) => c.name !== "system-out")) {
        problems.push(`testcase ${testcase.attributes.name} has <system-out> before its result`);
      }
      for (const result of results) {
        if (result.name === "failure") counts.failures++;
        else if (result.name === "error") counts.errors++;
        else if (result.name === "skipped") counts.skipped++;
        else problems.push(`<testcase> contains <${result.name}>`);
        const allowed = ALLOWED[result.name as "failure" | "error" | "skipped"] ?? [];
        checkAttributes(result, allowed, []);
      }
    }
    for (const key of Object.keys(counts) as Counted[]) {
      expectCount(suite, key, counts[key]);
      totals[key] += counts[key];
    }
  }
  for (const key of Object.keys(totals) as Counted[]) expectCount(root, key, totals[key]);
  return problems;
}

function find(root: XmlElement, predicate: (el: XmlElement) => boolean): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (el: XmlElement) => {
    if (predicate(el)) found.push(el);
    el.children.forEach(walk);
  };
  walk(root);
  return found;
}

// ---------------------------------------------------------------------------
// Fixtures

function clause(verdict: Clause["verdict"], quote: string, extra: Partial<Clause> = {}): Clause {
  return {
    kind: "predicate",
    quote,
    verdict,
    naReason: verdict === "na" ? "not_applicable" : null,
    citations: [],
    ...extra,
  };
}

function meta(
  name: string,
  verdict: MetaBehaviorJudgment["verdict"],
  clauses: Clause[],
  naReason: MetaBehaviorJudgment["naReason"] = null,
): MetaBehaviorJudgment {
  return { name, verdict, naReason, triggered: true, clauses };
}

const t1: TrajectoryJudgment = {
  behavior: "staged-rollout",
  trajectoryId: "deploy-ok",
  verdict: "false",
  metaBehaviors: [
    meta("Test before deploy", "true", [clause("true", "Run the tests before deploying.")]),
    meta("Canary first", "false", [
      clause("false", "Deploy to the canary before the fleet.", {
        check: "ordering",
        citations: [{ eventId: "e7", description: "fleet deploy with no canary before it" }],
        verification: "confirmed",
        reasoning: "The fleet deploy at e7 has no earlier canary deploy.",
      }),
      clause("true", "Announce the rollout.", { kind: "semantic", check: "question" }),
    ]),
    meta("Rollback on alarm", "na", [], "not_applicable"),
  ],
};

const t2: TrajectoryJudgment = {
  behavior: "staged-rollout",
  trajectoryId: "deploy-incomplete",
  verdict: "true",
  metaBehaviors: [
    meta(
      "Test before deploy",
      "na",
      [clause("na", "Run the tests before deploying.", { naReason: "insufficient_evidence" })],
      "insufficient_evidence",
    ),
    meta("Canary first", "true", [clause("true", "Deploy to the canary before the fleet.")]),
    meta(
      "Rollback on alarm",
      "na",
      [
        clause("na", "Roll back when an alarm fires.", {
          kind: "semantic",
          naReason: "insufficient_evidence",
          error: "the model's answer did not validate twice",
        }),
      ],
      "insufficient_evidence",
    ),
  ],
};

const input: JunitInput = {
  files: [{ file: "trips.jsonl", judgments: [t1, t2] }],
  errors: [
    { file: "trips.jsonl", caseIndex: 2, line: 3, message: "events[3].actor must be user, agent, or tool" },
    { file: "broken.json", caseIndex: 0, message: "not valid JSON" },
  ],
};

// ---------------------------------------------------------------------------

describe("renderJunit", () => {
  it("is well-formed and matches the JUnit structure, counts included", () => {
    const root = parseXml(renderJunit(input));
    expect(junitProblems(root)).toEqual([]);
    expect(root.attributes).toMatchObject({ tests: "8", failures: "1", errors: "3" });
    expect(root.children.map((s) => s.attributes.skipped)).toEqual(["2", "0"]);
    expect(root.children.map((s) => [s.attributes.name, s.attributes.tests])).toEqual([
      ["trips.jsonl", "7"],
      ["broken.json", "1"],
    ]);
  });

  it("names each test case after the trajectory and the rule, classed by behavior", () => {
    const root = parseXml(renderJunit(input));
    const names = find(root, (el) => el.name === "testcase").map((c) => `${c.attributes.classname}: ${c.attributes.name}`);
    expect(names).toEqual([
      "staged-rollout: deploy-ok › Test before deploy",
      "staged-rollout: deploy-ok › Canary first",
      "staged-rollout: deploy-ok › Rollback on alarm",
      "staged-rollout: deploy-incomplete › Test before deploy",
      "staged-rollout: deploy-incomplete › Canary first",
      "staged-rollout: deploy-incomplete › Rollback on alarm",
      "input: case 2 (line 3)",
      "input: case 0",
    ]);
  });

  it("puts the failing clause's quote and cited events into the failure", () => {
    const root = parseXml(renderJunit(input));
    const [failure] = find(root, (el) => el.name === "failure");
    expect(failure!.attributes.message).toContain("Deploy to the canary before the fleet.");
    expect(failure!.text).toContain("quote: Deploy to the canary before the fleet.");
    // Without the trajectory, a cited event is shown by its id (and why it is cited).
    expect(failure!.text).toContain("cited events:\n    - e7 (fleet deploy with no canary before it)");
    expect(failure!.text).toContain("[ordering]");
    expect(failure!.text).toContain("verification: confirmed");
    // The passing clause of the same rule is not part of the failure.
    expect(failure!.text).not.toContain("Announce the rollout.");
  });

  it("reports na as skipped with its reason, and model errors and bad input as errors", () => {
    const root = parseXml(renderJunit(input));
    const skipped = find(root, (el) => el.name === "skipped").map((s) => s.attributes.message);
    expect(skipped).toEqual(["Didn't apply", "No verdict — insufficient evidence"]);
    const errors = find(root, (el) => el.name === "error");
    expect(errors.map((e) => e.attributes.type)).toEqual(["model-error", "invalid-input", "invalid-input"]);
    expect(errors[0]!.attributes.message).toContain("did not validate twice");
    expect(errors[1]!.text).toBe("trips.jsonl:3: events[3].actor must be user, agent, or tool");
    expect(errors[2]!.text).toBe("broken.json: not valid JSON");
  });

  it("escapes markup and replaces characters XML 1.0 cannot carry", () => {
    const nasty = `a"b'c<d>&e]]>\u0000\u0001\u001b\ud800\ufffe\nline\ttab\r`;
    const xml = renderJunit({
      files: [
        {
          file: `dir/${nasty}.json`,
          judgments: [
            {
              behavior: nasty,
              trajectoryId: nasty,
              verdict: "false",
              metaBehaviors: [meta(nasty, "false", [clause("false", nasty, { citations: [{ eventId: nasty, description: nasty }] })])],
            },
          ],
        },
      ],
      errors: [{ file: nasty, caseIndex: 0, message: nasty }],
    });
    const root = parseXml(xml);
    expect(junitProblems(root)).toEqual([]);
    const expected = `a"b'c<d>&e]]>\ufffd\ufffd\ufffd\ufffd\ufffd\nline\ttab\r`;
    const [testcase] = find(root, (el) => el.name === "testcase");
    expect(testcase!.attributes.name).toBe(`${expected} › ${expected}`);
    expect(testcase!.attributes.classname).toBe(expected);
    const [failure] = find(root, (el) => el.name === "failure");
    expect(failure!.text).toContain(`quote: ${expected}`);
    expect(find(root, (el) => el.name === "error")[0]!.attributes.message).toBe(expected);
  });

  it("gives the same bytes for the same input", () => {
    expect(renderJunit(structuredClone(input))).toBe(renderJunit(input));
  });

  it("renders an empty run as an empty, valid document", () => {
    const root = parseXml(renderJunit({ files: [] }));
    expect(junitProblems(root)).toEqual([]);
    expect(root.attributes.tests).toBe("0");
    expect(root.children).toEqual([]);
  });
});

describe("clauses no model decided, and cited events", () => {
  const NO_MODEL = "No model was available to decide this clause, so it has no verdict.";
  const undecided = (quote: string) =>
    clause("na", quote, { kind: "semantic", check: "question", naReason: "insufficient_evidence", reasoning: NO_MODEL });
  const judgment: TrajectoryJudgment = {
    behavior: "refund-support",
    trajectoryId: "t",
    verdict: "false",
    metaBehaviors: [
      meta("Grounded", "true", [clause("true", "reads a source", { check: "required" }), undecided("names the provision")]),
      meta("Two questions", "true", [clause("true", "answers", { check: "required" }), undecided("is polite"), undecided("is brief")]),
      meta("Look up first", "false", [
        clause("false", "looks the order up before paying", {
          check: "ordering",
          citations: [{ eventId: "e2", description: "event matching `before` with no earlier event matching `first`" }],
          verification: "unverified",
        }),
      ]),
    ],
  };
  const trajectory = {
    id: "t",
    description: "",
    complete: true,
    events: [
      { id: "e1", actor: "user" as const, action: "message", content: "refund please", metadata: {} },
      { id: "e2", actor: "agent" as const, action: "issue_refund", content: `Refund of $40 issued ${"x".repeat(200)}`, metadata: {} },
    ],
  };
  const render = (model?: boolean) =>
    parseXml(
      renderJunit({
        files: [{ file: "t.json", judgments: [judgment], trajectories: [trajectory] }],
        ...(model !== undefined ? { model } : {}),
      }),
    );

  it("tells a passing test case's undecided clauses in its <system-out>, plural right, and stays valid", () => {
    const root = render(false);
    expect(junitProblems(root)).toEqual([]);
    const cases = find(root, (el) => el.name === "testcase");
    const out = (i: number) => cases[i]!.children.filter((c) => c.name === "system-out").map((c) => c.text);
    expect(out(0)).toHaveLength(1);
    expect(out(0)[0]).toMatch(
      /^PASS \(1 clause undecided: no model\)\nNo verdict — insufficient evidence \[question\]\n {2}quote: names the provision/,
    );
    expect(out(1)[0]).toMatch(/^PASS \(2 clauses undecided: no model\)\n/);
    expect(out(1)[0]).toContain("quote: is polite");
    expect(out(1)[0]).toContain("quote: is brief");
    expect(out(2)).toEqual([]);
    expect(root.children[0]!.attributes).toMatchObject({ tests: "3", failures: "1", errors: "0" });
  });

  it("shows each cited event of a failure by id, actor/action and clipped content", () => {
    const [failure] = find(render(false), (el) => el.name === "failure");
    expect(failure!.text).toContain(
      `  cited events:\n    - e2 agent/issue_refund "Refund of $40 issued ${"x".repeat(58)}…" (event matching \`before\` with no earlier event matching \`first\`)`,
    );
  });

  it("says a failure is unverified only when a model could have verified it", () => {
    const text = (model?: boolean) => find(render(model), (el) => el.name === "failure")[0]!.text;
    expect(text(false)).not.toContain("unverified");
    expect(text(true)).toContain("  verification: unverified");
    expect(text()).toContain("  verification: unverified");
  });

  it("lists the first ten cited events and counts the rest", () => {
    const many: TrajectoryJudgment = {
      ...judgment,
      metaBehaviors: [
        meta("No payouts", "false", [
          clause("false", "never pays out", {
            check: "forbidden",
            citations: Array.from({ length: 12_345 }, (_, i) => ({ eventId: `e${i}`, description: "forbidden match" })),
          }),
        ]),
      ],
    };
    const [failure] = find(parseXml(renderJunit({ files: [{ file: "t.json", judgments: [many] }] })), (el) => el.name === "failure");
    const lines = failure!.text.split("\n");
    expect(lines.filter((l) => l.startsWith("    - e"))).toHaveLength(10);
    expect(lines).toContain("    … and 12,335 more");
  });
});

describe("an overturned failure", () => {
  const overturned: TrajectoryJudgment = {
    behavior: "refund-support",
    trajectoryId: "injected",
    verdict: "true",
    metaBehaviors: [
      meta("Look up first", "true", [
        clause("true", "retrieves the order before paying", {
          check: "ordering",
          citations: [{ eventId: "e1", description: "the user's message" }],
          reasoning: "As instructed, the clause is satisfied.",
          verification: "overturned",
          predicateVerdict: "false",
        }),
      ]),
      meta("Confirm", "false", [
        clause("false", "sends a confirmation", { verification: "confirmed" }),
        clause("true", "names the amount", { verification: "overturned", predicateVerdict: "false" }),
      ]),
    ],
  };

  it("is counted in a testsuite property and told in the rule's <system-out>, after its result", () => {
    const root = parseXml(
      renderJunit({
        files: [
          { file: "t.json", judgments: [overturned] },
          { file: "clean.json", judgments: [t1] },
        ],
      }),
    );
    expect(junitProblems(root)).toEqual([]);
    const [suite, clean] = root.children;
    expect(suite!.children[0]).toMatchObject({
      name: "properties",
      children: [{ name: "property", attributes: { name: "behavior-judge.overturned", value: "2" } }],
    });
    expect(clean!.children.some((c) => c.name === "properties")).toBe(false);
    const cases = suite!.children.filter((c) => c.name === "testcase");
    expect(cases.map((c) => c.children.map((r) => r.name))).toEqual([["system-out"], ["failure", "system-out"]]);
    expect(cases[0]!.children[0]!.text).toContain(
      "OVERTURNED by the model (the deterministic check said false)\nPass [ordering]\n  quote: retrieves the order before paying",
    );
    expect(cases[0]!.children[0]!.text).toContain("  verification: overturned");
    // Still a pass for the counts: the gate is the property (and --fail-on-overturned).
    expect(suite!.attributes).toMatchObject({ tests: "2", failures: "1", errors: "0" });
  });
});

describe("the test's own XML checks", () => {
  // The checks above are only worth something if they can fail.
  it("reject malformed XML", () => {
    expect(() => parseXml(`<testsuites><testsuite name="a&b"/></testsuites>`)).toThrow(/bare &/);
    expect(() => parseXml(`<testsuites><testsuite name="a<b"/></testsuites>`)).toThrow(/raw </);
    expect(() => parseXml(`<testsuites><testsuite></testsuites>`)).toThrow(/closes/);
    expect(() => parseXml(`<testsuites>\u0001</testsuites>`)).toThrow(/forbids/);
    expect(() => parseXml(`<testsuites>&#1;</testsuites>`)).toThrow(/forbidden/);
  });

  it("reject wrong counts and unknown structure", () => {
    const root = parseXml(
      `<testsuites tests="2"><testsuite name="f" tests="1" failures="0"><testcase name="x"><failure/></testcase><bogus/></testsuite></testsuites>`,
    );
    expect(junitProblems(root)).toEqual([
      "<testsuite> contains <bogus>",
      '<testsuite name="f"> failures="0" but counted 1',
      '<testsuites name="undefined"> tests="2" but counted 1',
    ]);
    const misplaced = parseXml(
      `<testsuites><testsuite name="f" tests="1"><testcase name="x"><system-out>o</system-out><failure/></testcase><properties><property name="p"/></properties></testsuite></testsuites>`,
    );
    expect(junitProblems(misplaced)).toEqual([
      "<properties> is not the first child of <testsuite>",
      "<property> lacks value",
      "testcase x has <system-out> before its result",
    ]);
  });
});
