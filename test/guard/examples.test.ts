/**
 * examples/guards: the runnable guard of each library host (the AI SDK, the
 * OpenAI Agents SDK, an MCP client through the proxy), each refusing the
 * refund asked before the lookup and running the one after it.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "../support/cli.js";

const run = (name: string) =>
  execFileSync(process.execPath, [join(ROOT, "examples", "guards", name)], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });

describe("examples/guards", () => {
  test.each(["ai-sdk.mjs", "openai-agents.mjs", "mcp.mjs"])("%s refuses the early refund and runs the later one", (name) => {
    const out = run(name);
    const refused = out.indexOf('issue_refund was not run: it would break rule "Look up the order before paying anything out"');
    const ranRefund = out.search(/ran issue_refund/);
    expect(refused).toBeGreaterThan(-1);
    expect(ranRefund).toBeGreaterThan(refused);
    expect(out.match(/ran issue_refund/g)).toHaveLength(1);
    if (name !== "mcp.mjs") expect(out).toContain("still owed: Email a confirmation for every approved refund");
  });
});
