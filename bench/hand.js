// The refund judge's four rules written by hand as one loop (docs/SPEED.md): the ceiling that
// bench/run.js, bench/compare.js and bench/instructions.js measure the generated judge against.

/**
 * The same four rules written by hand as one loop over raw events: the ceiling a
 * generated judge is measured against. It decides verdicts only (no citations, no validation).
 */
export function handWritten(t) {
  let lookup = -1,
    payout = -1,
    pending = 0,
    unmatched = false,
    escalated = false,
    paidAfter = false,
    handover = false;
  const orders = new Set();
  const events = t.events;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const a = e.action;
    const m = e.metadata;
    if (payout < 0 && (a === "issue_refund" || a === "issue_store_credit")) payout = i;
    if (lookup < 0 && a === "get_order_result" && m !== undefined && m.status === "found") lookup = i;
    if (pending > 0 && a === "send_email" && m !== undefined && m.template === "refund_confirmation") pending = 0;
    if (a === "issue_refund_result" && m !== undefined && m.status === "approved") pending++;
    if (escalated) {
      if (a === "issue_refund" || a === "issue_store_credit") paidAfter = true;
      if (a === "add_case_note" && m !== undefined && m.kind === "handover") handover = true;
    } else if (a === "escalate_to_supervisor") escalated = true;
    if (a === "issue_refund" && m !== undefined && typeof m.order_id === "string") orders.add(m.order_id);
  }
  unmatched = pending > 0;
  return [lookup >= 0 && lookup < payout, !unmatched, escalated && !paidAfter && handover, orders.size <= 3];
}
