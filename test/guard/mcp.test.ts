/**
 * `guard judge.mjs --mcp -- <server command…>`: the official MCP SDK's client
 * talks over stdio to the proxy, which runs a small real MCP server
 * (test/fixtures/guard/mcp-refund-server.mjs). Every request is forwarded; a
 * tools/call that would break a rule is answered with an MCP tool error
 * naming the rule, and the server never runs it.
 */
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, test } from "vitest";
import { BIN, ROOT } from "../support/cli.js";

const JUDGE = join(ROOT, "examples", "refund-support", "judge.mjs");
const SERVER = join(ROOT, "test", "fixtures", "guard", "mcp-refund-server.mjs");

describe("guard --mcp", () => {
  test("forwards tools/list and allowed calls; a refund before the lookup is a tool error naming the rule, never run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-mcp-"));
    const ranLog = join(dir, "ran.log");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "guard", JUDGE, "--mcp", "--", process.execPath, SERVER, ranLog],
      cwd: ROOT,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "guard-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("refund-desk");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["get_order", "issue_refund"]);

      const refused = await client.callTool({ name: "issue_refund", arguments: { order_id: "A-17" } });
      expect(refused.isError).toBe(true);
      const text = (refused.content as { type: string; text: string }[])[0]!.text;
      expect(text).toMatch(
        /^\[behavior-judge guard\] issue_refund was not run: it would break rule "Look up the order before paying anything out"/,
      );
      expect(existsSync(ranLog)).toBe(false);

      const order = await client.callTool({ name: "get_order", arguments: { order_id: "A-17" } });
      expect(order.isError).toBeFalsy();
      expect(order.structuredContent).toEqual({ status: "found", order_id: "A-17", amount: "19.00" });
      // The lookup's result reached the monitor: the refund is allowed now.
      const refund = await client.callTool({ name: "issue_refund", arguments: { order_id: "A-17" } });
      expect(refund.isError).toBeFalsy();
      expect(readFileSync(ranLog, "utf8")).toBe("get_order A-17\nissue_refund A-17\n");
    } finally {
      await client.close();
    }
    expect(stderr).toContain(
      'behavior-judge guard: [behavior-judge guard] issue_refund was not run: it would break rule "Look up the order',
    );
  });
});
