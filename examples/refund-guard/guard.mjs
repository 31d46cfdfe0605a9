// A guard for an agent's tools: every tool call is checked by the refund
// judge's monitor before it runs, and refused when it would break a rule
// (a refund before the order was looked up, a payout after an escalation, a
// fourth order refunded). Calls that run, and their results, are pushed as
// they happen, so the monitor always knows the session so far.
//
// Event conventions (docs/FORMATS.md §2): a call is an `agent` event named
// after the tool, its arguments in `metadata`; its result is a `tool` event
// named `<tool>_result`, the result's fields in `metadata`.
import { createMonitor } from "../refund-support/judge.mjs";

/** Metadata values are compared as strings: the call's or result's top-level fields. */
function facts(value) {
  const out = {};
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) if (item !== null && typeof item !== "object") out[key] = String(item);
  }
  return out;
}

/**
 * Wraps `tools` (name → async function of its arguments) for one session.
 * `call` runs a tool unless the monitor says the call would violate a rule;
 * `say` records what happens outside the tools (user and agent messages);
 * `end` gives the session's judgment.
 */
export function guardTools(tools, { sessionId, description = "" }) {
  const monitor = createMonitor({ id: sessionId, description });
  let count = 0;
  const push = (event) => {
    monitor.push(event);
    count++;
  };
  return {
    monitor,

    say(actor, content) {
      push({ id: `e${count + 1}`, actor, action: "message", content });
    },

    async call(name, args) {
      const event = { id: `e${count + 1}`, actor: "agent", action: name, content: JSON.stringify(args), metadata: facts(args) };
      // Asked before the money moves; a refused call never happened, so it is not pushed.
      const violations = monitor.check(event);
      if (violations.length > 0) return { refused: true, violations };
      push(event);
      const result = await tools[name](args);
      push({ id: `e${count + 1}`, actor: "tool", action: `${name}_result`, content: JSON.stringify(result), metadata: facts(result) });
      return { refused: false, result };
    },

    end(complete = true) {
      return monitor.end({ complete });
    },
  };
}
