/**
 * OpenAI Agents SDK (JS) tools under a guard (docs/GUARDS.md): a tool input
 * guardrail of the SDK's own type that checks each call against the judge's
 * monitor, and a tool output guardrail that records each result. A refused
 * call is the SDK's `rejectContent`: the tool does not run, the model gets
 * the refusal as the call's output, and the run goes on. The guardrails are
 * plain objects of the SDK's shape: nothing of `@openai/agents` is imported.
 */
import type { ToolInputGuardrailDefinition, ToolOutputGuardrailDefinition } from "@openai/agents";
import { SessionGuard, type GuardJudge, type SessionGuardOptions } from "./session.js";

/** The guardrails' name, as the SDK's results and traces show it. */
export const GUARDRAIL_NAME = "behavior-judge";

/** An agent as far as the guard reads it: its tools, each of which may carry guardrails. */
interface GuardableAgent {
  tools: readonly unknown[];
}

interface GuardableTool {
  type?: string;
  inputGuardrails?: ToolInputGuardrailDefinition[];
  outputGuardrails?: ToolOutputGuardrailDefinition[];
}

function session(guard: SessionGuard | GuardJudge, options: Partial<SessionGuardOptions>): SessionGuard {
  return guard instanceof SessionGuard ? guard : new SessionGuard(guard, { id: "openai-agents-run", ...options });
}

/**
 * The input guardrail (checks the call; refuses it with the rule's message)
 * and the output guardrail (records the result the monitor must know of).
 */
export function toolGuardrails(
  guard: SessionGuard | GuardJudge,
  options: Partial<SessionGuardOptions> = {},
): { guard: SessionGuard; input: ToolInputGuardrailDefinition; output: ToolOutputGuardrailDefinition } {
  const s = session(guard, options);
  const input: ToolInputGuardrailDefinition = {
    type: "tool_input",
    name: GUARDRAIL_NAME,
    // Synchronous up to its answer: sibling calls of one response are checked and recorded in call order.
    run: async ({ toolCall }) => {
      const decision = s.call(toolCall.name, toolCall.arguments, toolCall.callId);
      if (decision.allowed) return { behavior: { type: "allow" } };
      return {
        behavior: { type: "rejectContent", message: decision.message },
        outputInfo: { violations: decision.violations },
      };
    },
  };
  const output: ToolOutputGuardrailDefinition = {
    type: "tool_output",
    name: GUARDRAIL_NAME,
    run: async ({ toolCall, output }) => {
      s.result(toolCall.callId, typeof output === "string" ? output : (JSON.stringify(output) ?? ""));
      return { behavior: { type: "allow" } };
    },
  };
  return { guard: s, input, output };
}

/**
 * Puts the guardrails on every function tool of `agent` (in front of the
 * tool's own input guardrails, after its own output guardrails) and returns
 * the session guard, whose `trajectory()` and `end()` give the run's trace
 * and judgment. Record the run's input with `guard.user(text)` for rules
 * that read the user's words.
 */
export function guardAgent(
  agent: GuardableAgent,
  guard: SessionGuard | GuardJudge,
  options: Partial<SessionGuardOptions> = {},
): SessionGuard {
  const { guard: s, input, output } = toolGuardrails(guard, options);
  for (const tool of agent.tools as GuardableTool[]) {
    if (tool.type !== "function") continue;
    tool.inputGuardrails = [input, ...(tool.inputGuardrails ?? [])];
    tool.outputGuardrails = [...(tool.outputGuardrails ?? []), output];
  }
  return s;
}
