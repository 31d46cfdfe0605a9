/**
 * Lowers pairing with `on` (the follower shares the `each` event's key value)
 * and/or `within: N` (the follower is one of the next N events): LANGUAGE.md
 * §2-3. The waiting `each` events of a key form a chain through their
 * indices, so a follower serves its key's waiting events without scanning the
 * others; with `within`, expiry walks the `each` events in index order.
 */
import type { PairingCheck } from "../ir/types.js";
import { sidesOf } from "../ir/values.js";
import { code, join, lit, name, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { clauseBase, keyed, list, metadataOf, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";

export function lowerExtendedPairing(j: number, check: PairingCheck, constants: Constants): LoweredCheck {
  const sides = check.on === undefined ? undefined : sidesOf(check.on, "each", "followedBy");
  const within = check.within;
  const each = self(name("each", j));
  const eachKeys = self(name("eachKeys", j));
  const eachAt = self(name("eachAt", j));
  const servedIndex = self(name("servedIndex", j));
  const servedBy = self(name("servedBy", j));
  // The `each` events still waiting, per key: the newest one's index, and from each the one before it (-1: none).
  const lastWaiting = self(name("lastWaiting", j));
  const prevWaiting = self(name("prevWaiting", j));
  const servedAhead = self(name("servedAhead", j));
  const failed = self(name("failedEach", j));
  const recent = self(name("recent", j));
  const firstInstead = self(name("firstInstead", j));
  const lastInstead = self(name("lastInstead", j));
  const expireFrom = self(name("expireFrom", j));
  const position = self(name("position", j));
  const at = name("at", j);
  const keyFollower = name("keyFollower", j);
  const keyEach = name("keyEach", j);
  const waiting = name("waiting", j);
  const index = name("index", j);

  const fields: Field[] = [
    list(name("each", j)),
    list(name("servedIndex", j), code`number[]`),
    list(name("servedBy", j)),
    keyed(name("lastWaiting", j), code`number`, constants),
    list(name("prevWaiting", j), code`number[]`),
  ];
  if (sides !== undefined) fields.push(list(name("eachKeys", j), code`(string | null)[]`));
  if (within !== undefined) {
    fields.push(
      list(name("eachAt", j), code`number[]`),
      // The served `each` events the expiry has not passed yet: at most `within` of them, whatever the trajectory's length.
      keyed(name("servedAhead", j), code`true`, constants, code`number`),
      list(name("failedEach", j), code`number[]`),
      // The last `within` events while an `each` event waits, by position modulo `within`: what came instead of a follower.
      keyed(name("recent", j), code`StepEvent`, constants, code`number`),
      // Those events, in words, for the first failed `each` event (the clause) and the newest (a monitor's violation).
      value(name("firstInstead", j), code`string`, code`""`),
      value(name("lastInstead", j), code`string`, code`""`),
      value(name("expireFrom", j), code`number`, code`0`),
      value(name("position", j), code`number`, code`0`),
    );
  }
  // Without on, every event has the same key: "".
  const followerKey = sides === undefined ? code`""` : metadataOf(sides.followedBy);
  const eachKey = sides === undefined ? code`""` : metadataOf(sides.each);
  // With within, an `each` event may have failed before its key's follower came: it is not served then.
  // Expiry goes in index order, so the ones below expireFrom have failed (a served one left the chain),
  // and so has every older one further down the chain.
  const serve =
    within === undefined
      ? [code`${servedIndex}.push(${waiting});`, code`${servedBy}.push(${EVENT}.id);`]
      : [
          code`if (${waiting} < ${expireFrom}) break;`,
          code`${servedAhead}.set(${waiting}, true);`,
          code`${servedIndex}.push(${waiting});`,
          code`${servedBy}.push(${EVENT}.id);`,
        ];
  const step: Code[] = [
    ...(within === undefined
      ? []
      : [
          code`const ${at} = ${position};`,
          code`${position} = ${at} + 1;`,
          code`if (${expireFrom} < ${each}.length) ${recent}.set(${at} % ${within}, ${EVENT});`,
        ]),
    code`if ${lowerPattern(check.followedBy, constants)} {`,
    code`const ${keyFollower} = ${followerKey};`,
    code`if (typeof ${keyFollower} === "string") {`,
    code`let ${waiting} = ${lastWaiting}.get(${keyFollower}) ?? -1;`,
    code`if (${waiting} >= 0) ${lastWaiting}.delete(${keyFollower});`,
    code`while (${waiting} >= 0) {`,
    ...serve,
    code`${waiting} = ${prevWaiting}[${waiting}]!;`,
    code`}`,
    code`}`,
    code`}`,
  ];
  if (within !== undefined) {
    // The oldest `each` events whose N-th following event this is, and that no follower served, fail here.
    const expired = name("expired", j);
    step.push(
      code`while (${expireFrom} < ${each}.length && ${eachAt}[${expireFrom}]! + ${within} <= ${at}) {`,
      code`const ${expired} = ${expireFrom};`,
      code`${expireFrom} = ${expired} + 1;`,
      code`if (${servedAhead}.has(${expired})) ${servedAhead}.delete(${expired});`,
      code`else {`,
      code`${failed}.push(${expired});`,
      code`${lastInstead} = ${constants.runtime("eventsInstead")}(${recent}, ${eachAt}[${expired}]!, ${at}, ${sides === undefined ? code`undefined` : lit(sides.followedBy)});`,
      code`if (${failed}.length === 1) ${firstInstead} = ${lastInstead};`,
      code`}`,
      code`}`,
    );
  }
  step.push(
    code`if ${lowerPattern(check.each, constants)} {`,
    code`const ${keyEach} = ${eachKey};`,
    code`const ${index} = ${each}.length;`,
    code`${each}.push(${EVENT}.id);`,
    ...(sides === undefined ? [] : [code`${eachKeys}.push(typeof ${keyEach} === "string" ? ${keyEach} : null);`]),
    ...(within === undefined ? [] : [code`${eachAt}.push(${at});`]),
    code`if (typeof ${keyEach} === "string") {`,
    code`${prevWaiting}.push(${lastWaiting}.get(${keyEach}) ?? -1);`,
    code`${lastWaiting}.set(${keyEach}, ${index});`,
    code`} else ${prevWaiting}.push(-1);`,
    code`}`,
  );
  const failedList = within === undefined ? code`[]` : failed;
  const options = [
    code`${clauseBase(check)}`,
    code`each: ${each}`,
    code`servedIndex: ${servedIndex}`,
    code`servedBy: ${servedBy}`,
    code`failed: ${failedList}`,
    ...(within === undefined ? [] : [code`instead: ${firstInstead}`, code`within: ${within}`]),
    ...(sides === undefined ? [] : [code`eachKeys: ${eachKeys}`, code`key: ${lit(sides.each)}`]),
  ];
  const lowered: LoweredCheck = {
    type: "pairing",
    fields,
    step,
    clause: code`${constants.runtime("extendedPairingClause")}({ ${join(options)} })`,
    obligation: {
      when: code`${servedIndex}.length + ${failedList}.length < ${each}.length`,
      ids: code`${constants.runtime("waitingEach")}(${each}, ${servedIndex}, ${failedList})`,
    },
  };
  if (within !== undefined) {
    const newest = code`${failed}[${failed}.length - 1]!`;
    lowered.violation = {
      when: code`${failed}.length > 0`,
      cited: code`${failed}.length`,
      ids: code`${failed}.map((k) => ${each}[k]!)`,
      explanation: code`${constants.runtime("withinExplanation")}(${each}[${newest}]!, ${sides === undefined ? code`undefined` : code`${eachKeys}[${newest}]`}, ${sides === undefined ? code`undefined` : lit(sides.each)}, ${within}, ${lastInstead})`,
    };
  }
  return lowered;
}
