/**
 * Sessions written for test/fixtures/golden/extended.yaml (every form of the
 * extended rule language once): one that keeps every rule, one that breaks
 * each check. The preview and interview tests use them as samples.
 */
export type Session = {
  id: string;
  complete: boolean;
  events: { id: string; actor: string; action: string; content?: string; metadata?: Record<string, string> }[];
};

export function session(id: string, events: [string, string, Record<string, string>?, string?][], complete = true): Session {
  return {
    id,
    complete,
    events: events.map(([actor, action, metadata, content], i) => ({
      id: `e${i + 1}`,
      actor,
      action,
      ...(metadata === undefined ? {} : { metadata }),
      ...(content === undefined ? {} : { content }),
    })),
  };
}

/** Sessions for test/fixtures/golden/extended.yaml: one that keeps every rule, and ones that break each check. */
export const EXTENDED_SESSIONS: Session[] = [
  session("keeps-all", [
    ["user", "message", { "@turn": "1" }, "please cancel"],
    ["agent", "get_user_details", { "@turn": "1" }],
    ["tool", "get_user_details_result", { id: "u1", membership: "gold" }],
    ["agent", "get_reservation_details", { "@turn": "2", reservation_id: "R1" }],
    ["tool", "get_reservation_details_result", { reservation_id: "R1", cabin: "economy", insurance: "yes" }],
    ["user", "message", { "@turn": "3" }, "yes"],
    ["agent", "cancel_reservation", { reservation_id: "R1", user_id: "u1", "@turn": "3" }],
    ["agent", "issue_refund", { amount: "400", customer_id: "c1", "@turn": "4" }],
    ["agent", "lookup", { id: "7", "@turn": "5" }],
    ["tool", "lookup_result", { id: "7" }],
    ["agent", "open_order", { order_id: "o1", "@turn": "6" }],
    ["agent", "add_item", { order_id: "o1", "@turn": "7" }],
    ["agent", "confirm_order", { order_id: "o1", "@turn": "8" }],
    ["agent", "close_order", { order_id: "o1", at: "2024-05-20", region: "EU-west", "@turn": "9" }],
    ["agent", "reply", { "@turn": "10" }, "Goodbye!"],
  ]),
  session("breaks-all", [
    ["user", "message", { "@turn": "1" }, "cancel both"],
    ["agent", "issue_refund", { amount: "600", customer_id: "c1", "@turn": "1" }],
    ["agent", "issue_refund", { amount: "700", customer_id: "c1", "@turn": "1" }],
    ["agent", "get_reservation_details", { reservation_id: "R2", "@turn": "2" }],
    ["tool", "get_reservation_details_result", { reservation_id: "R2", cabin: "basic_economy", insurance: "no" }],
    ["tool", "get_user_details_result", { id: "u2", membership: "regular" }],
    ["user", "message", { "@turn": "3" }, "yes"],
    ["agent", "cancel_reservation", { reservation_id: "R2", user_id: "u2", "@turn": "3" }],
    ["agent", "cancel_reservation", { reservation_id: "R3", user_id: "u2", "@turn": "4" }],
    ["agent", "lookup", { id: "8", "@turn": "5" }],
    ["agent", "say", { "@turn": "6" }],
    ["agent", "say", { "@turn": "7" }],
    ["tool", "lookup_result", { id: "8" }],
    ["agent", "open_order", { order_id: "o2", "@turn": "8" }],
    ["agent", "add_item", { order_id: "o2", "@turn": "9" }],
    ["agent", "add_item", { order_id: "o2", "@turn": "10" }],
    ["agent", "add_item", { order_id: "o2", "@turn": "11" }],
    ["agent", "add_item", { order_id: "o2", "@turn": "12" }],
    ["agent", "close_order", { order_id: "o2", at: "2024-05-20", region: "apac", "@turn": "13" }],
    ["agent", "charge", { order: "o2", "@turn": "14" }],
    ["agent", "reply", { "@turn": "15" }, "done"],
  ]),
];
