/**
 * Lowers the checks that use the extended forms of the rule language
 * (docs/FORMATS.md §10) to a share of their rule's stepper, as lower.ts does
 * for version 1's. Each event is seen once; state per key value lives in a
 * `Keyed` map (runtime/keyed.ts) sized by the distinct values seen, so a step
 * costs O(keys the event touches), never O(events so far). A check that uses
 * no extension never comes here: its code is version 1's, byte for byte.
 *
 * Statement order inside a step is part of the semantics: an event is first
 * judged against what came strictly before it (served as a follower, tested
 * as a match inside open windows, evaluated as an `each` event), and only
 * then recorded as what later events will look back to.
 */
import type { Check } from "../ir/types.js";
import type { Constants } from "./constants.js";
import { lowerCondition } from "./lower-condition.js";
import { lowerExtendedPairing } from "./lower-extended-pairing.js";
import { lowerGroupedCount } from "./lower-grouped-count.js";
import { lowerKeyedOrdering } from "./lower-keyed-ordering.js";
import { lowerKeyedForbidden, lowerKeyedRequired } from "./lower-keyed-windows.js";
import type { LoweredCheck } from "./lowered.js";

/** True when the check uses a form version 1 does not have (a value matcher alone does not count: patterns lower the same way). */
export function isExtended(check: Check): boolean {
  switch (check.type) {
    case "ordering":
      return check.on !== undefined || check.fresh === true;
    case "pairing":
      return check.on !== undefined || check.within !== undefined;
    case "required":
    case "forbidden":
      return check.on !== undefined;
    case "count":
      return check.on !== undefined || check.per !== undefined || check.sum !== undefined;
    case "condition":
      return true;
  }
}

/** A check that uses an extended form (isExtended), lowered. */
export function lowerExtended(j: number, check: Check, constants: Constants): LoweredCheck {
  switch (check.type) {
    case "ordering":
      return lowerKeyedOrdering(j, check, constants);
    case "pairing":
      return lowerExtendedPairing(j, check, constants);
    case "required":
      return lowerKeyedRequired(j, check, constants);
    case "forbidden":
      return lowerKeyedForbidden(j, check, constants);
    case "count":
      return lowerGroupedCount(j, check, constants);
    case "condition":
      return lowerCondition(j, check, constants);
  }
}
