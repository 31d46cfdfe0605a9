/** The command line, spawned for real: exit codes, outputs, and located errors. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { declarationPath } from "../../compiler/commands/build.js";
import { ROOT, runCli } from "../support/cli.js";
import { SMALL_JUDGE } from "../support/judges.js";

const REFUND = join(ROOT, "examples", "refund-support");
const refundCases = (): string[] => {
  const dir = join(REFUND, "trajectories");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(dir, f));
};

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "bj-cli-"));
}

function trajectory(id: string, actions: string[], complete = true) {
  return { id, complete, events: actions.map((action, i) => ({ id: `e${i + 1}`, actor: "agent", action })) };
}

describe("build", () => {
  test("writes judge.mjs and its types beside the yaml; the judge loads from there", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "judge.yaml"), SMALL_JUDGE);
    const run = runCli(["build", join(dir, "judge.yaml"), "--ts", join(dir, "judge.ts")]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    for (const f of ["judge.mjs", "judge.d.mts", "judge.ts"]) expect(existsSync(join(dir, f))).toBe(true);
    const judge = await import(pathToFileURL(join(dir, "judge.mjs")).href);
    expect(judge.behavior).toBe("small");
    expect(readFileSync(join(dir, "judge.mjs"), "utf8")).not.toMatch(/^\s*import\s/m);
  });

  test("an invalid judge.yaml exits 1 with every problem located", () => {
    const dir = tempDir();
    const broken = SMALL_JUDGE.replace("type: ordering", "type: orderng").replace(
      "action: deploy\n    checks",
      "acton: deploy\n    checks",
    );
    writeFileSync(join(dir, "judge.yaml"), broken);
    const run = runCli(["build", join(dir, "judge.yaml")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/judge\.yaml:\d+:\d+ error: .*orderng.*did you mean "ordering"/);
    expect(run.stderr).toMatch(/judge\.yaml:\d+:\d+ error: .*acton.*did you mean "action"/);
    expect(existsSync(join(dir, "judge.mjs"))).toBe(false);
  });

  test("a judge.yaml that is not UTF-8 is located by line, column and byte, for build and for judge", () => {
    const dir = tempDir();
    const yaml = join(dir, "judge.yaml");
    // "déploy" saved as Latin-1: read leniently, the name would hold U+FFFD.
    writeFileSync(yaml, Buffer.from(SMALL_JUDGE.replace("Tests before deploy", "Tests before d\u00e9ploy"), "latin1"));
    writeFileSync(join(dir, "t.json"), JSON.stringify(trajectory("t", ["deploy"])));
    const expected = `${yaml}:4:25 error: invalid UTF-8 at byte 66: 0xE9 0x70 (save the file as UTF-8)`;
    for (const args of [
      ["build", yaml],
      ["judge", yaml, join(dir, "t.json")],
    ]) {
      const run = runCli(args);
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(expected);
    }
    expect(existsSync(join(dir, "judge.mjs"))).toBe(false);
  });

  test("the types go where TypeScript looks for them: x.mjs → x.d.mts, x.js → x.d.ts", () => {
    expect(declarationPath("out/judge.mjs")).toBe("out/judge.d.mts");
    expect(declarationPath("out/judge.js")).toBe("out/judge.d.ts");
  });

  test("usage errors exit 2", () => {
    expect(runCli(["build"]).status).toBe(2);
    expect(runCli(["no-such-command"]).status).toBe(2);
    expect(runCli(["judge", "judge.yaml"]).status).toBe(2);
  });
});

describe("judge", () => {
  function setup() {
    const dir = tempDir();
    writeFileSync(join(dir, "judge.yaml"), SMALL_JUDGE);
    expect(runCli(["build", join(dir, "judge.yaml")]).status).toBe(0);
    const good = [trajectory("good", ["run_tests", "deploy"]), trajectory("bad", ["deploy", "run_tests"])];
    writeFileSync(join(dir, "many.json"), JSON.stringify(good));
    return dir;
  }

  test("text report names rules, clauses and cited events; JSON is the §6 shape and byte-stable", () => {
    const dir = setup();
    const text = runCli(["judge", join(dir, "judge.mjs"), join(dir, "many.json")]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain("Tests before deploy");
    expect(text.stdout).toMatch(/FAIL\s+bad/);
    expect(text.stdout).toContain("[e1]");
    expect(text.stdout).toContain("2 trajectories judged: 1 true, 1 false, 0 na");

    const json1 = runCli(["judge", join(dir, "judge.mjs"), join(dir, "many.json"), "--json"]);
    const json2 = runCli(["judge", join(dir, "judge.yaml"), join(dir, "many.json"), "--json"]);
    expect(json1.status).toBe(0);
    expect(json2.stdout).toBe(json1.stdout);
    const parsed = JSON.parse(json1.stdout);
    expect(JSON.stringify(parsed, null, 2) + "\n").toBe(json1.stdout);
    expect(parsed[1]).toEqual({
      behavior: "small",
      trajectoryId: "bad",
      verdict: "false",
      metaBehaviors: [
        {
          name: "Tests before deploy",
          verdict: "false",
          naReason: null,
          triggered: true,
          clauses: [
            {
              kind: "predicate",
              quote: "tests run before the deploy",
              verdict: "false",
              naReason: null,
              citations: [{ eventId: "e1", description: expect.any(String) }],
              check: "ordering",
              verification: "unverified",
              explanation: "run_tests before the first deploy",
              found: "before deploy at e1: no run_tests",
            },
          ],
        },
      ],
      file: join(dir, "many.json"),
      case: 1,
    });
  });

  test("--fail-on-false exits 1 when a verdict is false", () => {
    const dir = setup();
    expect(runCli(["judge", join(dir, "judge.mjs"), join(dir, "many.json"), "--fail-on-false"]).status).toBe(1);
  });

  test("a malformed JSONL case is located; the other cases are still judged; --json keeps its place; exit 1", () => {
    const dir = setup();
    const lines = [
      JSON.stringify(trajectory("first", ["run_tests", "deploy"])),
      "",
      JSON.stringify({ id: "broken", complete: true, events: [{ id: "e1", actor: "robot", action: "deploy" }] }),
      "{not json",
      JSON.stringify(trajectory("last", ["deploy"], false)),
    ];
    writeFileSync(join(dir, "trips.jsonl"), lines.join("\n") + "\n");
    const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "trips.jsonl"), "--json"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("trips.jsonl:3: case 1: events[0].actor must be user, agent, or tool");
    expect(run.stderr).toContain("trips.jsonl:4:2: case 2: invalid JSON: expected a property name in double quotes, got 'n'");
    // Element i is input case i: a case that could not be judged keeps its place as an element with `caseError` and no verdict.
    const file = join(dir, "trips.jsonl");
    const elements = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(elements.map((e) => e.trajectoryId ?? e.caseError)).toEqual([
      "first",
      "events[0].actor must be user, agent, or tool",
      expect.stringMatching(/^invalid JSON/),
      "last",
    ]);
    expect(elements[1]).toEqual({ file, case: 1, line: 3, caseError: "events[0].actor must be user, agent, or tool" });
    expect(Object.keys(elements[2]!)).toEqual(["file", "case", "line", "caseError"]);
    expect(elements[2]).toMatchObject({ file, case: 2, line: 4 });
    expect(elements.filter((e) => "verdict" in e)).toHaveLength(2);
    expect(JSON.stringify(elements, null, 2) + "\n").toBe(run.stdout);
  });

  test("--json gives a case of a .json array that could not be judged its place too", () => {
    const dir = setup();
    writeFileSync(join(dir, "pair.json"), JSON.stringify([trajectory("ok", ["deploy"]), { id: "no-complete", events: [] }]));
    const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "pair.json"), "--json"]);
    expect(run.status).toBe(1);
    const elements = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(elements[0]).toMatchObject({ trajectoryId: "ok" });
    expect(elements[1]).toMatchObject({ file: join(dir, "pair.json"), case: 1, caseError: "complete must be true or false" });
  });

  test("an error in the 4,000th element of a .json array, or on a JSONL line, names its line (found only when needed, issue 26)", () => {
    const dir = setup();
    // Elements over several lines (pretty-printed), so a line is not an index plus one; element 3999 is invalid.
    const elements = Array.from({ length: 4_500 }, (_, i) =>
      i === 3_999
        ? { id: "bad", complete: true, events: [{ id: "e1", actor: "robot", action: "deploy" }] }
        : trajectory(`t${i}`, ["deploy"]),
    );
    const text = JSON.stringify(elements, null, 1);
    writeFileSync(join(dir, "big.json"), text);
    const line = text.slice(0, text.indexOf('"id": "bad"')).split("\n").length - 1;
    expect(line).toBeGreaterThan(4_000 * 3);
    const lines = elements.map((e) => JSON.stringify(e));
    lines.splice(10, 0, "", "   ");
    writeFileSync(join(dir, "big.jsonl"), lines.join("\n") + "\n");
    for (const workers of ["1", "2"]) {
      const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "big.json"), "--jsonl", "--workers", workers]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`big.json:${line}: case 3999: events[0].actor must be user, agent, or tool`);
      expect(run.stdout.split("\n")[3_999]).toBe(
        JSON.stringify({ file: join(dir, "big.json"), case: 3_999, line, caseError: "events[0].actor must be user, agent, or tool" }),
      );
      const jsonl = runCli(["judge", join(dir, "judge.mjs"), join(dir, "big.jsonl"), "--json", "--workers", workers]);
      expect(jsonl.status).toBe(1);
      expect(jsonl.stderr).toContain("big.jsonl:4002: case 3999: events[0].actor must be user, agent, or tool");
      expect((JSON.parse(jsonl.stdout) as Record<string, unknown>[])[3_999]).toMatchObject({ case: 3_999, line: 4_002 });
    }
  });

  test("a metadata value nested 200,000 deep is a located error, not a stack overflow; the other case is judged", () => {
    const dir = setup();
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const event = '{"id":"e1","actor":"agent","action":"deploy","metadata":{"tags":DEEP}}'.replace("DEEP", deep);
    writeFileSync(
      join(dir, "deep.json"),
      `[{"id":"deep","complete":true,"events":[${event}]},\n${JSON.stringify(trajectory("fine", ["run_tests", "deploy"]))}]`,
    );
    const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "deep.json"), "--json"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "deep.json:1: case 0: events[0].metadata.tags nests lists more than 100 deep (metadata values are compared as strings)",
    );
    expect(run.stderr).not.toContain("call stack");
    const elements = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(elements.map((e) => e.trajectoryId ?? e.caseError)).toEqual([
      "events[0].metadata.tags nests lists more than 100 deep (metadata values are compared as strings)",
      "fine",
    ]);
  });

  test("a labeled case's field path starts at trajectory", () => {
    const dir = setup();
    writeFileSync(
      join(dir, "case.json"),
      JSON.stringify({ trajectory: { id: "x", events: [] }, expected: { verdict: "na", metaBehaviorVerdicts: {} } }),
    );
    const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "case.json")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("case.json: case 0: trajectory.complete must be true or false");
  });

  test("--html and --junit write the reports; the text report ends with the per-rule summary", () => {
    const dir = setup();
    const run = runCli([
      "judge",
      join(dir, "judge.mjs"),
      join(dir, "many.json"),
      "--html",
      join(dir, "out", "r.html"),
      "--junit",
      join(dir, "out", "r.xml"),
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Rule\s+Passed\s+Failed\s+Didn't apply\s+No verdict\n[- ]+\nTests before deploy\s+1\s+1\s+0\s+0\n/);
    const html = readFileSync(join(dir, "out", "r.html"), "utf8");
    expect(html).toContain("Tests before deploy");
    expect(html).toContain("bad");
    const xml = readFileSync(join(dir, "out", "r.xml"), "utf8");
    expect(xml).toMatch(/<testsuites[^>]*tests="2"[^>]*failures="1"/);
  });

  test("a judge.yaml compiled once is reused from the build cache, without loading the compiler", () => {
    const dir = setup();
    writeFileSync(join(dir, "package.json"), "{}"); // the cache lives in the project that holds the cwd
    const trace = join(dir, "trace.txt");
    const args = ["judge", join(dir, "judge.yaml"), join(dir, "many.json"), "--json"];
    const first = runCli(args, { cwd: dir });
    expect(first.status).toBe(0);
    expect(readdirSync(join(dir, ".cache", "behavior-judge", "builds"))).toHaveLength(1);
    const second = runCli(args, {
      cwd: dir,
      nodeArgs: ["--import", pathToFileURL(join(ROOT, "test", "support", "trace-imports.mjs")).href],
      env: { BJ_TRACE_FILE: trace },
    });
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(trace, "utf8")).not.toMatch(/^(ts-morph|prettier|esbuild)$/m);
    // A changed judge.yaml is a different build.
    writeFileSync(join(dir, "judge.yaml"), SMALL_JUDGE.replace("tests run before the deploy", "tests run first"));
    expect(runCli(args, { cwd: dir }).stdout).toContain("tests run first");
    expect(readdirSync(join(dir, ".cache", "behavior-judge", "builds"))).toHaveLength(2);
  });

  test("a judge.mjs that does not exist is a plain error, not a crash", () => {
    const dir = setup();
    const run = runCli(["judge", join(dir, "missing.mjs"), join(dir, "many.json")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`behavior-judge: cannot read ${join(dir, "missing.mjs")}: no such file\n`);
  });

  test("judging with a judge.mjs never loads the compiler", () => {
    const dir = setup();
    const trace = join(dir, "trace.txt");
    const run = runCli(["judge", join(dir, "judge.mjs"), join(dir, "many.json")], {
      nodeArgs: ["--import", pathToFileURL(join(ROOT, "test", "support", "trace-imports.mjs")).href],
      env: { BJ_TRACE_FILE: trace },
    });
    expect(run.status).toBe(0);
    const loaded = readFileSync(trace, "utf8");
    // The trace sees the command's own modules (commander is required, not imported: compiler/commands/commander.ts).
    expect(loaded).toMatch(/\/dist\/compiler\/commands\/judge\.js$/m);
    for (const heavy of ["ts-morph", "prettier", "esbuild", "zod", "yaml"]) expect(loaded).not.toMatch(new RegExp(`^${heavy}$`, "m"));
  });
});

describe("calibrate", () => {
  test("the refund example agrees fully and exits 0", () => {
    const run = runCli(["calibrate", join(REFUND, "judge.mjs"), ...refundCases()]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/meta agreement (\d+)\/\1, file agreement (\d+)\/\2/);
  });

  test("a wrong label is a disagreement: exit 1, the difference shown; --json has the totals", () => {
    const dir = tempDir();
    const [first] = refundCases();
    const labeled = JSON.parse(readFileSync(first!, "utf8"));
    labeled.expected.verdict = labeled.expected.verdict === "false" ? "true" : "false";
    writeFileSync(join(dir, "wrong.json"), JSON.stringify(labeled));
    const run = runCli(["calibrate", join(REFUND, "judge.mjs"), join(dir, "wrong.json")]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/DIFF .*\n\s+file verdict: expected/);
    const json = runCli(["calibrate", join(REFUND, "judge.mjs"), join(dir, "wrong.json"), "--json"]);
    expect(json.status).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(Object.keys(parsed)).toEqual(["comparisons", "judgments", "totals"]);
    expect(parsed.totals.fileAgree).toBe(0);
  });

  test("zero labeled cases prove nothing: exit 1", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "none.json"), "[]");
    const run = runCli(["calibrate", join(REFUND, "judge.mjs"), join(dir, "none.json")]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("no labeled cases");
  });

  test("a file that is neither judge.mjs nor judge.yaml is named, without a stack trace", () => {
    const run = runCli(["judge", join(REFUND, "BEHAVIOR.md"), join(REFUND, "trajectories", "clean-escalation.json")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("a judge is a built judge.mjs or a judge.yaml");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test("a case without expected is an error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plain.json"), JSON.stringify(trajectory("plain", ["deploy"])));
    const run = runCli(["calibrate", join(REFUND, "judge.mjs"), join(dir, "plain.json")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('plain.json: case 0: has no "expected" labels');
  });
});

describe("import", () => {
  test("a trace that is no valid trajectory is located and worded as judge words it, escaped: an id quoted with U+202E cannot reorder the line", () => {
    const dir = tempDir();
    const file = join(dir, "cases.jsonl");
    const dup = {
      id: "dup",
      complete: true,
      events: [
        { id: "x\u202e", actor: "agent", action: "a" },
        { id: "x\u202e", actor: "agent", action: "a" },
      ],
    };
    const labeled = {
      trajectory: { id: "t", complete: true, events: [{ id: "e1", actor: "robot" }] },
      expected: { verdict: "true", metaBehaviorVerdicts: {} },
    };
    writeFileSync(file, [dup, labeled].map((c) => JSON.stringify(c)).join("\n") + "\n");
    const imported = runCli(["import", file]);
    expect(imported.status).toBe(1);
    expect(imported.stderr).toBe(
      `error: ${file}:1: case 0: events[1].id duplicates the id "x\\u202e" of an earlier event\n` +
        `error: ${file}:2: case 1: trajectory.events[0].actor must be user, agent, or tool\n`,
    );
    // The same lines, word for word, as judge reports them.
    const judged = runCli(["judge", join(REFUND, "judge.mjs"), file, "--json"]);
    expect(judged.stderr).toBe(imported.stderr);
  });
});
