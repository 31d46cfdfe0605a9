/**
 * `guard judge.mjs --mcp -- <server command…>` (docs/GUARDS.md): a stdio MCP
 * server in front of another. It starts the given server with the official
 * SDK's stdio client transport, serves its own client with the SDK's stdio
 * server transport, and forwards every JSON-RPC message both ways as it is
 * (initialize, tools/list, resources, prompts, notifications, the server's
 * own requests). A `tools/call` is checked first: one that would break a
 * rule is answered here with a tool result `isError: true` whose text is the
 * refusal, and never reaches the server; the result of a call that ran is
 * recorded for the monitor when the server's answer passes back.
 *
 * The SDK is loaded when the proxy starts: `@modelcontextprotocol/sdk` must
 * be installed beside behavior-judge to use it (nothing else needs it).
 */
import { basename } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../importers/core.js";
import { SessionGuard, type GuardJudge } from "./session.js";

type Id = string | number;

function requestOf(message: JSONRPCMessage): { id: Id; method: string; params: Record<string, unknown> } | undefined {
  const m = message as Record<string, unknown>;
  if (typeof m.method !== "string" || (typeof m.id !== "string" && typeof m.id !== "number")) return undefined;
  return { id: m.id, method: m.method, params: isRecord(m.params) ? m.params : {} };
}

/** What the monitor is given of a call's result: its structured content, else its content parts (text parts read as their text). */
function resultOutput(result: Record<string, unknown>): unknown {
  return result.structuredContent ?? result.content ?? "";
}

/** Runs the proxy until either side closes; returns the exit code. */
export async function runMcpProxy(judge: GuardJudge, server: readonly string[], options: { failClosed: boolean }): Promise<number> {
  let transports: [typeof import("@modelcontextprotocol/sdk/server/stdio.js"), typeof import("@modelcontextprotocol/sdk/client/stdio.js")];
  try {
    transports = await Promise.all([
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
    ]);
  } catch (error) {
    process.stderr.write(
      `behavior-judge guard: --mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk (${(error as Error).message})\n`,
    );
    return 1;
  }
  const [{ StdioServerTransport }, { StdioClientTransport }] = transports;
  const log = (line: string) => void process.stderr.write(`behavior-judge guard: ${line}\n`);
  // A proxy guards every call of a long session: the rules' code is warmed before the first.
  const guard = new SessionGuard(judge, { id: `mcp:${basename(server[0]!)}`, log, warm: true });
  const upstream = new StdioServerTransport();
  const downstream = new StdioClientTransport({
    command: server[0]!,
    args: server.slice(1),
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: "inherit",
  });
  /** Forwarded tools/call requests, by request id: their call ids in the guard's trace. */
  const calls = new Map<Id, string>();
  const failed = (error: unknown) => log(`could not pass a message on: ${(error as Error).message}`);

  upstream.onmessage = (message) => {
    const request = requestOf(message);
    if (request?.method === "tools/call") {
      const callId = `mcp-${String(request.id)}`;
      const name = typeof request.params.name === "string" ? request.params.name : "";
      let refusal: string | undefined;
      try {
        const decision = guard.call(name, request.params.arguments ?? {}, callId);
        if (!decision.allowed) refusal = decision.message;
      } catch (error) {
        const line = `cannot check ${name}: ${(error as Error).message}`;
        log(`${line} (${options.failClosed ? "failing closed: the call is refused" : "failing open: the call goes on"})`);
        if (options.failClosed) refusal = `[behavior-judge guard] ${name} was not run: ${line}`;
      }
      if (refusal !== undefined) {
        const answer = { jsonrpc: "2.0" as const, id: request.id, result: { content: [{ type: "text", text: refusal }], isError: true } };
        upstream.send(answer).catch(failed);
        return;
      }
      calls.set(request.id, callId);
    }
    downstream.send(message).catch(failed);
  };

  downstream.onmessage = (message) => {
    const m = message as Record<string, unknown>;
    const id = m.id as Id | undefined;
    if (id !== undefined && m.method === undefined && calls.has(id)) {
      const callId = calls.get(id)!;
      calls.delete(id);
      try {
        if (isRecord(m.result)) guard.result(callId, resultOutput(m.result), { error: m.result.isError === true });
        else guard.result(callId, isRecord(m.error) ? String(m.error.message) : "error", { error: true });
      } catch (error) {
        log(`cannot record the result of ${callId}: ${(error as Error).message}`);
      }
    }
    upstream.send(message).catch(failed);
  };

  return new Promise<number>((resolve, reject) => {
    let closed = false;
    const close = (code: number) => {
      if (closed) return;
      closed = true;
      void Promise.allSettled([upstream.close(), downstream.close()]).then(() => resolve(code));
    };
    upstream.onclose = () => close(0);
    // The client closing its end of stdin ends the session, and the server with it.
    process.stdin.once("end", () => close(0));
    downstream.onclose = () => close(0);
    downstream.onerror = (error) => log(`the server: ${error.message}`);
    upstream.onerror = (error) => log(`the client: ${error.message}`);
    downstream
      .start()
      .then(() => upstream.start())
      .catch((error: Error) => {
        log(`cannot start ${server.join(" ")}: ${error.message}`);
        reject(error);
      });
  }).catch(() => 1);
}
