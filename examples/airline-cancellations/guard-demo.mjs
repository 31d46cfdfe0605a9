// node examples/airline-cancellations/guard-demo.mjs
// The airline judge as a guard: before a tool runs, the monitor is asked
// whether the call would break a rule (monitor.check changes nothing); a call
// it refuses never runs and is not pushed. Here a scripted agent looks up an
// economy reservation booked two weeks ago, without insurance, and tries to
// cancel it: the condition rule refuses the cancellation before any money
// moves, and the reason names the values it compared.
import { createMonitor } from "./judge.mjs";

const reservations = {
  KX31P0: { reservation_id: "KX31P0", cabin: "economy", insurance: "no", created_at: "2024-05-01T09:30:00" },
  BZ77Q2: { reservation_id: "BZ77Q2", cabin: "business", insurance: "no", created_at: "2024-05-03T12:00:00" },
};
const cancelled = [];
const tools = {
  get_reservation_details: ({ reservation_id }) => reservations[reservation_id],
  cancel_reservation: ({ reservation_id }) => (cancelled.push(reservation_id), { reservation_id, status: "cancelled" }),
};

const monitor = createMonitor({ id: "guard-demo" });
let n = 0;
let turn = 0;
const strings = (record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));

function say(actor, content) {
  monitor.push({ id: `e${++n}`, actor, action: "message", content, metadata: { "@turn": String(++turn) } });
}

function call(name, args) {
  const at = String(++turn);
  const event = {
    id: `e${n + 1}`,
    actor: "agent",
    action: name,
    content: JSON.stringify(args),
    metadata: { ...strings(args), "@turn": at },
  };
  const refused = monitor.check(event);
  if (refused.length > 0) {
    console.log(`refused ${name}(${JSON.stringify(args)}):`);
    for (const v of refused) {
      console.log(`  ${v.rule}: "${v.quote}" [${v.eventIds.join(", ")}]`);
      // What the rule expected and the values it compared: what the host can tell the agent.
      if (v.explanation !== undefined) console.log(`  why: ${v.explanation}`);
    }
    return undefined;
  }
  monitor.push(event);
  n++;
  const result = tools[name](args);
  monitor.push({
    id: `e${++n}`,
    actor: "tool",
    action: `${name}_result`,
    content: JSON.stringify(result),
    metadata: { ...strings(result), "@turn": at },
  });
  console.log(`ran ${name}(${JSON.stringify(args)})`);
  return result;
}

say("user", "Please cancel KX31P0 and BZ77Q2, my plans changed.");
call("get_reservation_details", { reservation_id: "KX31P0" });
call("get_reservation_details", { reservation_id: "BZ77Q2" });
say("agent", "I will cancel KX31P0. Shall I proceed?");
say("user", "Yes.");
call("cancel_reservation", { reservation_id: "KX31P0" }); // refused: economy, booked two weeks ago, no insurance
say("agent", "KX31P0 cannot be cancelled under its fare. I will cancel BZ77Q2 (business). Proceed?");
say("user", "Yes, go ahead.");
call("cancel_reservation", { reservation_id: "BZ77Q2" });

const judgment = await monitor.end({ complete: true });
const explained = judgment.metaBehaviors.flatMap((m) => m.clauses).find((c) => c.explanation !== undefined);
console.log(`cancelled: ${cancelled.join(", ")}`);
console.log(`session verdict: ${judgment.verdict}${explained === undefined ? "" : ` (${explained.explanation})`}`);
