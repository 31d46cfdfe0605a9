/** The MCP proxy (issue 27, item 4): not built yet. */
export async function runMcpProxy(_judge: unknown, _server: readonly string[], _options: { failClosed: boolean }): Promise<number> {
  process.stderr.write("behavior-judge guard: --mcp is not available in this build\n");
  return 1;
}
