// node examples/guards/mcp.mjs               (after npm run build:cli)
// An MCP client (the official SDK's) connected, as mcp.json configures it, to
// `behavior-judge guard judge.mjs --mcp -- node mcp-server.mjs`: a refund
// before the lookup comes back as a tool error naming the rule; after the
// lookup the refund runs.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = import.meta.dirname;
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    join(here, "..", "..", "bin", "behavior-judge.js"),
    "guard",
    join(here, "..", "refund-support", "judge.mjs"),
    "--mcp",
    "--",
    process.execPath,
    join(here, "mcp-server.mjs"),
  ],
  stderr: "ignore",
});
const client = new Client({ name: "guard-demo", version: "1.0.0" });
await client.connect(transport);
console.log(`tools: ${(await client.listTools()).tools.map((t) => t.name).join(", ")}`);
for (const [name, args] of [
  ["issue_refund", { order_id: "A-17" }],
  ["get_order", { order_id: "A-17" }],
  ["issue_refund", { order_id: "A-17" }],
]) {
  const result = await client.callTool({ name, arguments: args });
  console.log(`${result.isError ? "refused" : "ran"} ${name}: ${result.content[0].text}`);
}
await client.close();
