import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The browser report opens a browser: record the call instead.
const opened = vi.hoisted(() => [] as string[][]);
vi.mock("node:child_process", () => ({
  spawn: (command: string, args: string[]) => {
    opened.push([command, ...args]);
    return { on() {}, unref() {} };
  },
}));
import { progressEvent, reportSinks } from "../../compiler/report/outputs.js";
import { Tally } from "../../compiler/analyses/tally.js";
import { runSinks } from "../../compiler/report/sink.js";
import type { CaseResult } from "../../compiler/run/judge-cases.js";
import type { MetaBehaviorJudgment, TrajectoryJudgment } from "../../runtime/types.js";

const dir = mkdtempSync(join(tmpdir(), "bj-outputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function meta(
  name: string,
  verdict: MetaBehaviorJudgment["verdict"],
  naReason: MetaBehaviorJudgment["naReason"] = null,
): MetaBehaviorJudgment {
  return { name, verdict, naReason, triggered: verdict !== "na", clauses: [] };
}

function result(trajectory: unknown, judgment: TrajectoryJudgment): CaseResult {
  return { kind: "judged", input: { file: "t.json", index: 0, trajectory }, judgment };
}

/** Adds the results to every sink and finishes them, as `judge` does; returns the files written. */
async function report(options: { html?: string; junit?: string }, results: CaseResult[]): Promise<string[]> {
  return runSinks(results, await reportSinks("b", [], options), new Tally());
}

describe("report sinks", () => {
  it("are none when no report is asked for", async () => {
    expect(await reportSinks("b", [], {})).toEqual([]);
  });

  it("shows the trajectory in the evidence panel as the judge read it (docs/FORMATS.md §2 defaults)", async () => {
    const html = join(dir, "normalized.html");
    // No description; non-string content counts as ""; metadata values are String(v).
    const raw = {
      id: "t1",
      complete: true,
      events: [{ id: "e1", actor: "agent", action: "issue_refund", content: 42, metadata: { amount: 40, note: null } }],
    };
    const judgment: TrajectoryJudgment = {
      behavior: "b",
      trajectoryId: "t1",
      verdict: "false",
      metaBehaviors: [
        {
          ...meta("R", "false"),
          clauses: [{ kind: "predicate", quote: "q", verdict: "false", naReason: null, citations: [{ eventId: "e1", description: "" }] }],
        },
      ],
    };
    expect(await report({ html }, [result(raw, judgment)])).toEqual([html]);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('<code class="event-id">e1</code>');
    expect(page).not.toContain('class="description"');
    expect(page).not.toContain('class="content"');
    expect(page).toContain("<dt>amount</dt><dd>40</dd><dt>note</dt><dd>null</dd>");
  });

  it("names the place of a case that could not be judged once, in the HTML and the JUnit report", async () => {
    const html = join(dir, "errors.html");
    const junit = join(dir, "errors.xml");
    const failed: CaseResult = {
      kind: "failed",
      input: { file: "bad.jsonl", index: 2, line: 3 },
      message: "events[0].actor must be user, agent, or tool",
    };
    expect(await report({ html, junit }, [failed])).toEqual([html, junit]);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("<li><code>bad.jsonl:3 (case 2)</code> events[0].actor must be user, agent, or tool</li>");
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('message="events[0].actor must be user, agent, or tool"');
    expect(xml).toContain(">bad.jsonl:3: events[0].actor must be user, agent, or tool</error>");
  });
});

describe("the browser report sink", () => {
  it("serves the live page, opens it, and finishes once the final report has reached the browser", async () => {
    let stderr = "";
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const sinks = await reportSinks("b", [], { web: true });
      const url = /^report: (\S+)\n/.exec(stderr)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
      expect(opened.at(-1)?.at(-1)).toBe(url);
      const judged = result(
        { id: "t1", complete: true, events: [] },
        { behavior: "b", trajectoryId: "judged-trajectory", verdict: "true", metaBehaviors: [] },
      );
      let finished = false;
      const finishing = runSinks([judged], sinks, new Tally()).then((written) => {
        expect(written).toEqual([]);
        finished = true;
      });
      // Until the final report is served, the page is the live one and finish keeps waiting.
      let page = "";
      for (let i = 0; i < 100 && !page.includes("judged-trajectory"); i++) {
        page = await (await fetch(url!)).text();
        if (!page.includes("judged-trajectory")) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(page).toContain("judged-trajectory");
      await finishing;
      expect(finished).toBe(true);
      expect(stderr).toContain("report: waiting up to 60 s for the browser to show the final report");
    } finally {
      err.mockRestore();
    }
  });
});

describe("progressEvent", () => {
  it("tells the live page why a trajectory has no verdict, as the final report will", () => {
    const judgment = (metas: MetaBehaviorJudgment[], verdict: TrajectoryJudgment["verdict"]): TrajectoryJudgment => ({
      behavior: "b",
      trajectoryId: "t",
      verdict,
      metaBehaviors: metas,
    });
    expect(progressEvent(1, result({}, judgment([meta("R", "na", "not_applicable")], "na")))).toEqual({
      done: 1,
      file: "t.json",
      trajectoryId: "t",
      verdict: "na",
      naReason: "not_applicable",
    });
    expect(progressEvent(2, result({}, judgment([meta("R", "na", "insufficient_evidence")], "na"))).naReason).toBe("insufficient_evidence");
    expect(progressEvent(3, result({}, judgment([meta("R", "false")], "false")))).not.toHaveProperty("naReason");
    // A failed model call: insufficient_evidence, whatever reason an earlier rule gave, and the marker.
    const errored = {
      ...judgment([meta("A", "na", "not_applicable"), { ...meta("B", "na", "insufficient_evidence"), error: true as const }], "na"),
      error: true as const,
    };
    expect(progressEvent(5, result({}, errored))).toMatchObject({ verdict: "na", naReason: "insufficient_evidence", error: true });
    expect(progressEvent(6, result({}, judgment([meta("R", "true")], "true")))).not.toHaveProperty("error");
    // The live page names the place in front of the message.
    expect(progressEvent(4, { kind: "failed", input: { file: "bad.jsonl", index: 2, line: 3 }, message: "not JSON" })).toEqual({
      done: 4,
      file: "bad.jsonl",
      message: "bad.jsonl:3: case 2: not JSON",
    });
  });
});
