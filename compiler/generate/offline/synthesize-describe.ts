/** How the search from labels names a trigger it found (issue 25): "A dispense (days_supply > 90) event occurs." */
import type { Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue, valueTest } from "../../ir/values.js";

export function describe(pattern: Pattern): string {
  return pattern
    .map((m) => {
      const facts = Object.entries(m.metadata ?? {}).map(([k, v]) => `${k} ${exactValue(v) ?? describeOperator(v)}`);
      const what = exactValue(m.action) ?? m.actor ?? "matching";
      return facts.length === 0 ? what : `${what} (${facts.join(", ")})`;
    })
    .join(" or ");
}

function describeOperator(v: ValueMatcher): string {
  const t = valueTest(v);
  if (t.op === "range") {
    const symbols = { gt: ">", gte: "≥", lt: "<", lte: "≤" } as const;
    return (Object.keys(symbols) as (keyof typeof symbols)[])
      .flatMap((op) => (t.range[op] === undefined ? [] : [`${symbols[op]} ${String(t.range[op])}`]))
      .join(" and ");
  }
  if (t.op === "in") return `one of ${t.values.join(", ")}`;
  if (t.op === "not") return `not ${exactValue(t.inner) ?? ""}`;
  return "";
}
