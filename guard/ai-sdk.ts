/**
 * Vercel AI SDK tools under a guard (docs/GUARDS.md): `guardTools(tools, judge)`
 * wraps each tool's `execute`. A call the judge's monitor says would break a
 * rule does not run: `execute` throws a `GuardRefusal`, which the AI SDK
 * gives the model as the tool's error result (`tool-error`), and the loop
 * goes on. Structural: nothing of the `ai` package is imported.
 */
import type { ToolExecutionOptions } from "ai";
import { contentText, isRecord } from "../importers/core.js";
import type { Violation } from "../runtime/types.js";
import { SessionGuard, type GuardJudge, type SessionGuardOptions } from "./session.js";

/** What is thrown in place of running a refused call; its message is what the model reads. */
export class GuardRefusal extends Error {
  readonly violations: Violation[];
  constructor(message: string, violations: Violation[]) {
    super(message);
    this.name = "GuardRefusal";
    this.violations = violations;
  }
}

/** A tool as the AI SDK defines it: only `execute` is read. */
interface ExecutableTool {
  execute?: ((input: never, options: ToolExecutionOptions) => unknown) | undefined;
}

/**
 * The user's messages since the last call: the AI SDK gives each `execute`
 * the messages sent to the model before the call, and the guard records the
 * user's words among them (its own calls and results it records itself).
 */
function syncUser(guard: SessionGuard, messages: readonly unknown[] | undefined, seen: { count: number }): void {
  if (messages === undefined || messages.length <= seen.count) return;
  for (const message of messages.slice(seen.count)) {
    if (!isRecord(message) || message.role !== "user") continue;
    const text = contentText(message.content);
    if (text.trim() !== "") guard.user(text);
  }
  seen.count = messages.length;
}

/**
 * `tools` with every `execute` checked first (a tool without one is left as
 * it is). `guard` is a SessionGuard (to read its trace or end it later) or a
 * judge module, for which one is made with `options` (`id` defaults to
 * "ai-sdk-session").
 */
export function guardTools<T extends Record<string, ExecutableTool>>(
  tools: T,
  guard: SessionGuard | GuardJudge,
  options: Partial<SessionGuardOptions> = {},
): T {
  const session = guard instanceof SessionGuard ? guard : new SessionGuard(guard, { id: "ai-sdk-session", ...options });
  const seen = { count: 0 };
  const out: Record<string, ExecutableTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (execute === undefined) {
      out[name] = tool;
      continue;
    }
    out[name] = {
      ...tool,
      execute: async (input: never, opts: ToolExecutionOptions) => {
        syncUser(session, opts?.messages, seen);
        const decision = session.call(name, input, opts?.toolCallId);
        if (!decision.allowed) throw new GuardRefusal(decision.message, decision.violations);
        const callId = String(decision.event.metadata?.["@call_id"]);
        try {
          const result = await execute.call(tool, input, opts);
          session.result(callId, result);
          return result;
        } catch (error) {
          session.result(callId, error instanceof Error ? error.message : String(error), { error: true });
          throw error;
        }
      },
    };
  }
  return out as T;
}
