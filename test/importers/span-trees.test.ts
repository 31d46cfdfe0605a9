/**
 * Span and run trees (spans.ts): parent cycles are broken, never dropped
 * (issue 20 item 1), and trees are walked without recursion, so a deep tree
 * imports the same on any thread's stack (item 5).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromLangChain, fromOpenAIAgents, fromOtel } from "../../importers/index.js";
import type { ImportResult } from "../../importers/index.js";
import { runCli } from "../support/cli.js";
import { IMPORTER_FIXTURES } from "../support/importer-fixtures.js";

const TRACE = "0123456789abcdef0123456789abcdef";
const hex = (n: number): string => n.toString(16).padStart(16, "0");

/** An OTLP span: a GenAI tool span when `tool` is given, else an agent span. */
function otelSpan(id: number, parent: number | undefined, start: number, tool?: string): Record<string, unknown> {
  const attrs: Record<string, string> =
    tool === undefined
      ? { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "desk" }
      : { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool };
  return {
    traceId: TRACE,
    spanId: hex(id),
    ...(parent === undefined ? {} : { parentSpanId: hex(parent) }),
    name: tool ?? "agent",
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1),
    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
  };
}
const otlp = (spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const actions = (r: ImportResult): string[][] => r.trajectories.map((t) => t.events.map((e) => e.action));

describe("item 1: spans on a parent cycle are kept, the cycle broken at its earliest span, with a warning naming the ids", () => {
  test("otel: a 2-cycle under nothing (parentSpanId a → b → a)", () => {
    const result = fromOtel(otlp([otelSpan(1, undefined, 10), otelSpan(3, 2, 40, "issue_refund"), otelSpan(2, 3, 20, "escalate")]));
    expect(actions(result)).toEqual([["escalate", "escalate_result", "issue_refund", "issue_refund_result"]]);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        path: "resourceSpans[0].scopeSpans[0].spans[2].parentSpanId",
        message: `${hex(2)} → ${hex(3)} → ${hex(2)} form a parent cycle: the link from ${hex(2)} to its parent is dropped and ${hex(2)} is read as a root, so no span is lost`,
        trace: 0,
      },
    ]);
  });

  test("otel: a span under a cycle comes with it; two cycles give two warnings; the same file imports to the same bytes", () => {
    const spans = [
      otelSpan(5, 6, 50, "b"),
      otelSpan(6, 5, 60, "c"),
      otelSpan(2, 3, 20, "x"),
      otelSpan(3, 2, 30, "y"),
      otelSpan(4, 3, 35, "under"),
    ];
    const first = fromOtel(otlp(spans));
    expect(actions(first)).toEqual([["x", "x_result", "y", "y_result", "under", "under_result", "b", "b_result", "c", "c_result"]]);
    expect(first.warnings.map((w) => w.path)).toEqual([
      "resourceSpans[0].scopeSpans[0].spans[0].parentSpanId",
      "resourceSpans[0].scopeSpans[0].spans[2].parentSpanId",
    ]);
    expect(JSON.stringify(fromOtel(otlp(spans)))).toBe(JSON.stringify(first));
  });

  test("openai-agents: function spans whose parent_id point at each other", () => {
    const span = (id: string, parent: string, name: string, at: string) => ({
      object: "trace.span",
      id,
      trace_id: "trace_1",
      parent_id: parent,
      started_at: at,
      ended_at: at,
      span_data: { type: "function", name, input: "{}", output: "ok" },
    });
    const result = fromOpenAIAgents([
      { object: "trace", id: "trace_1", workflow_name: "desk" },
      span("span_b", "span_a", "issue_refund", "2025-01-01T00:00:02Z"),
      span("span_a", "span_b", "escalate", "2025-01-01T00:00:01Z"),
    ]);
    expect(actions(result)).toEqual([["escalate", "issue_refund", "escalate_result", "issue_refund_result"]]);
    expect(result.warnings).toEqual([
      {
        path: "[2].parent_id",
        message:
          "span_a → span_b → span_a form a parent cycle: the link from span_a to its parent is dropped and span_a is read as a root, so no span is lost",
        trace: 0,
      },
    ]);
  });

  test("langchain: runs on a parent_run_id cycle stay in the trace of their trace_id", () => {
    const run = (id: string, parent: string | undefined, name: string, at: string, type = "tool") => ({
      id,
      trace_id: "root",
      ...(parent === undefined ? {} : { parent_run_id: parent }),
      run_type: type,
      name,
      inputs: {},
      outputs: { output: "ok" },
      start_time: at,
      end_time: at,
    });
    const result = fromLangChain([
      run("root", undefined, "desk", "2025-01-01T00:00:00", "chain"),
      run("b", "a", "issue_refund", "2025-01-01T00:00:02"),
      run("a", "b", "escalate", "2025-01-01T00:00:01"),
    ]);
    expect(actions(result)).toEqual([["escalate", "escalate_result", "issue_refund", "issue_refund_result"]]);
    expect(result.warnings).toEqual([
      {
        path: "[2].parent_run_id",
        message:
          "a → b → a form a parent cycle: the link from a to its parent is dropped and a is read under the root run of its trace_id, root, so no span is lost",
        trace: 0,
      },
    ]);
  });

  test("judge --fail-on-false: a refund on a 2-cycle is judged (FAIL, exit 1), and the warning is on stderr", () => {
    const dir = mkdtempSync(join(tmpdir(), "bj-cycle-"));
    const file = join(dir, "cycle.otlp.json");
    writeFileSync(
      file,
      JSON.stringify(otlp([otelSpan(1, undefined, 10), otelSpan(2, 3, 20, "issue_refund"), otelSpan(3, 2, 30, "escalate_to_supervisor")])),
    );
    const run = runCli(["judge", join(IMPORTER_FIXTURES, "refund-rules.judge.yaml"), file, "--no-verify", "--no-web", "--fail-on-false"]);
    expect(run.stdout).toContain("FAIL");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("form a parent cycle");
  });
});

describe("item 5: trees nested 5,000 deep import without recursion", () => {
  test("langchain: a run tree nested 5,000 deep (child_runs) imports every run", () => {
    const root: Record<string, unknown> = { id: "r0", run_type: "chain", name: "root", inputs: {} };
    let current = root;
    for (let i = 1; i <= 5000; i++) {
      const child: Record<string, unknown> = {
        id: `r${i}`,
        run_type: i === 5000 ? "tool" : "chain",
        name: i === 5000 ? "deep_tool" : "c",
        inputs: {},
      };
      current.child_runs = [child];
      current = child;
    }
    const result = fromLangChain(root);
    expect(result.errors).toEqual([]);
    expect(actions(result)).toEqual([["deep_tool", "deep_tool_result"]]);
  });

  test("langchain: a flat list of 20,000 runs, each the parent of the next", () => {
    const runs = Array.from({ length: 20_000 }, (_, i) => ({
      id: `r${i}`,
      ...(i === 0 ? {} : { parent_run_id: `r${i - 1}` }),
      run_type: i === 19_999 ? "tool" : "chain",
      name: i === 19_999 ? "deep_tool" : "c",
      inputs: {},
    }));
    expect(actions(fromLangChain(runs))).toEqual([["deep_tool", "deep_tool_result"]]);
  });

  test("otel and openai-agents: a parent chain of 20,000 spans", () => {
    const spans = Array.from({ length: 20_000 }, (_, i) =>
      otelSpan(i + 1, i === 0 ? undefined : i, i, i === 19_999 ? "deep_tool" : undefined),
    );
    expect(actions(fromOtel(otlp(spans)))).toEqual([["deep_tool", "deep_tool_result"]]);
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      object: "trace.span",
      id: `s${i}`,
      trace_id: "t",
      parent_id: i === 0 ? null : `s${i - 1}`,
      started_at: null,
      ended_at: null,
      span_data: i === 19_999 ? { type: "function", name: "deep_tool", input: "{}", output: "ok" } : { type: "agent", name: "desk" },
    }));
    expect(actions(fromOpenAIAgents(items))).toEqual([["deep_tool", "deep_tool_result"]]);
  });
});
