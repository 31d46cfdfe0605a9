/**
 * examples/airline-cancellations/guard-demo.mjs: the airline judge as a guard.
 * A cancellation the condition rule forbids (economy, booked two weeks
 * before, no insurance) is refused by `monitor.check` before the tool runs;
 * the allowed one runs, and the session that happened passes.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "vitest";

const DEMO = join(import.meta.dirname, "..", "examples", "airline-cancellations", "guard-demo.mjs");

test("the guard refuses the non-refundable cancellation before it runs, and only that call", () => {
  const out = execFileSync(process.execPath, [DEMO], { encoding: "utf8" });
  const lines = out.trimEnd().split("\n");
  expect(lines[0]).toBe('ran get_reservation_details({"reservation_id":"KX31P0"})');
  expect(lines[1]).toBe('ran get_reservation_details({"reservation_id":"BZ77Q2"})');
  expect(lines[2]).toBe('refused cancel_reservation({"reservation_id":"KX31P0"}):');
  // The refusal names the rule and cites the refused call with the lookup it bound.
  expect(lines[3]).toMatch(/^ {2}Cancel only what the fare allows: "A reservation may be cancelled when .*" \[e8, e3\]$/);
  // And says why: the expression, the lookup it bound and the values it compared.
  expect(lines[4]).toMatch(/^ {2}why: at e8, `.*` does not hold \(it is false\); r = e3 \(get_reservation_details_result\); /);
  expect(lines[4]).toContain('r.cabin = "economy"');
  expect(lines[4]).toContain('r.insurance = "no"');
  expect(lines[5]).toBe('ran cancel_reservation({"reservation_id":"BZ77Q2"})');
  expect(lines.slice(6)).toEqual(["cancelled: BZ77Q2", "session verdict: true"]);
});
