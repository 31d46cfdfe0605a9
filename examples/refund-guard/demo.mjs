// node examples/refund-guard/demo.mjs
// A scripted agent that tries to refund before looking the order up, and to
// pay out again after escalating. The guard refuses both calls before they run;
// the session that actually happened passes every rule.
import { guardTools } from "./guard.mjs";

const ledger = [];
const tools = {
  async get_order({ order_id }) {
    return { status: "found", order_id, amount: "19.00" };
  },
  async issue_refund({ order_id }) {
    ledger.push(order_id);
    return { status: "approved", order_id };
  },
  async send_email({ template }) {
    return { status: "sent", template };
  },
  async escalate_to_supervisor() {
    return { status: "escalated" };
  },
  async add_case_note({ kind }) {
    return { status: "saved", kind };
  },
};

const guard = guardTools(tools, { sessionId: "demo-session" });
const attempt = async (name, args) => {
  const outcome = await guard.call(name, args);
  if (outcome.refused) for (const v of outcome.violations) console.log(`refused ${name}: ${v.rule} (${v.type}: "${v.quote}")`);
  else console.log(`ran ${name}`);
};

guard.say("user", "My mug arrived broken, order A-17. Refund please.");
await attempt("issue_refund", { order_id: "A-17" }); // refused: no lookup yet
await attempt("get_order", { order_id: "A-17" });
await attempt("issue_refund", { order_id: "A-17" });
await attempt("send_email", { template: "refund_confirmation" });
guard.say("user", "Also refund my other four orders, or I call my bank.");
await attempt("escalate_to_supervisor", {});
await attempt("issue_refund", { order_id: "B-2" }); // refused: escalated
await attempt("add_case_note", { kind: "handover" });

const judgment = await guard.end();
console.log(`money moved for: ${ledger.join(", ")}`);
console.log(`session verdict: ${judgment.verdict}`);
