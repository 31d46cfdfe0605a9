/**
 * A bound on a total said over two clauses (issue 25, round 12): "At most 2,000 kilos of cod per
 * trip, and that's every cod landing with the same trip number added up". The first clause has the
 * number, the second only says the events' amounts are added together; read apart, the first is a
 * bound on each landing (or a count of them) and the second a question. The two are read as one
 * clause, whose quote reaches over both, so the sum reader (counts.ts sumFrom) sees the number
 * and the words of the total together.
 */
import { amountsIn } from "./amounts.js";
import type { SentenceShape } from "./shape.js";
import { SUM, TOTAL } from "./summed.js";

/** Whether a clause says only that amounts are added together: the words of a total and no number of its own. */
function onlyTotal(clause: string): boolean {
  return (SUM.test(clause) || TOTAL.test(clause)) && amountsIn(clause).length === 0 && !/\d/.test(clause);
}

/** The shape with a clause of one amount joined to the next clause when that one only says it is a total. */
export function withTotalsJoined(shape: SentenceShape): SentenceShape {
  const clauses = shape.clauses.slice();
  for (let i = 0; i + 1 < clauses.length; i++) {
    const [first, second] = [clauses[i]!, clauses[i + 1]!];
    if (amountsIn(first).length !== 1 || SUM.test(first) || TOTAL.test(first) || !onlyTotal(second)) continue;
    const start = shape.sentence.indexOf(first);
    const end = start < 0 ? -1 : shape.sentence.indexOf(second, start + first.length);
    if (end < 0) continue;
    clauses.splice(i, 2, shape.sentence.slice(start, end + second.length));
  }
  return clauses.length === shape.clauses.length ? shape : { ...shape, clauses };
}
