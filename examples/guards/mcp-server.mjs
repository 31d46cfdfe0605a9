// A small MCP server over stdio (the official SDK's McpServer): a refund desk.
//   node examples/guards/mcp-server.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "refund-desk", version: "1.0.0" });
server.registerTool("get_order", { description: "Looks an order up.", inputSchema: { order_id: z.string() } }, async ({ order_id }) => {
  const order = { status: "found", order_id, amount: "19.00" };
  return { content: [{ type: "text", text: JSON.stringify(order) }], structuredContent: order };
});
server.registerTool("issue_refund", { description: "Refunds an order.", inputSchema: { order_id: z.string() } }, async ({ order_id }) => ({
  content: [{ type: "text", text: JSON.stringify({ status: "approved", order_id }) }],
}));
await server.connect(new StdioServerTransport());
