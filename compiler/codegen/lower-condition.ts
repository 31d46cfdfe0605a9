import type { ConditionCheck } from "../ir/types.js";
import { compileRegex } from "../ir/regex-program.js";
import { sidesOf } from "../ir/values.js";
import { parseWhen } from "../ir/when.js";
import { code, join, lit, name, name2, type Code } from "./code.js";
import type { Constants } from "./constants.js";
import { lowerWhen, WHEN_RUNTIME_NAMES } from "./lower-when.js";
import { clauseBase, keyed, list, metadataOf, self, value, type Field, type LoweredCheck } from "./lowered.js";
import { EVENT, lowerPattern } from "./match.js";
import { regexLiteral } from "./regex.js";

/**
 * The condition check: each `with` name holds the latest (or first) event
 * matching its pattern, per key value with `on`; an `each` event is judged
 * against the names as they stand before it, then may itself be bound.
 */
export function lowerCondition(j: number, check: ConditionCheck, constants: Constants): LoweredCheck {
  const bindings = Object.entries(check.with ?? {});
  const eaches = self(name("eaches", j));
  const failed = self(name("failed", j));
  const failedCitations = self(name("failedCitations", j));
  const explanation = self(name("explanation", j));
  const lastExplanation = self(name("lastExplanation", j));
  const fields: Field[] = [
    list(name("eaches", j)),
    list(name("failed", j)),
    list(name("failedCitations", j)),
    value(name("explanation", j), code`string | undefined`, code`undefined`),
    // The newest failing event's explanation: what a monitor's violation says (the clause explains the first).
    value(name("lastExplanation", j), code`string`, code`""`),
  ];
  const locals = new Map<string, Code>();
  const judgeEach: Code[] = [];
  const record: Code[] = [];
  bindings.forEach(([bindingName, binding], b) => {
    const field = self(name2("bound", j, b));
    const local = name2("b", j, b);
    locals.set(bindingName, local);
    const latest = binding.latest !== undefined;
    const pattern = binding.latest ?? binding.first!;
    const sides = binding.on === undefined ? undefined : sidesOf(binding.on, "each", latest ? "latest" : "first");
    if (sides === undefined) {
      fields.push(value(name2("bound", j, b), code`StepEvent | undefined`, code`undefined`));
      judgeEach.push(code`const ${local} = ${field};`);
      record.push(
        latest
          ? code`if ${lowerPattern(pattern, constants)} ${field} = ${EVENT};`
          : code`if (${field} === undefined && ${lowerPattern(pattern, constants)}) ${field} = ${EVENT};`,
      );
      return;
    }
    fields.push(keyed(name2("bound", j, b), code`StepEvent`, constants));
    const eachKey = name2("keyEach", j, b);
    const boundKey = name2("keyBound", j, b);
    judgeEach.push(
      code`const ${eachKey} = ${metadataOf(sides.each)};`,
      code`const ${local} = typeof ${eachKey} === "string" ? ${field}.get(${eachKey}) : undefined;`,
    );
    record.push(
      code`if ${lowerPattern(pattern, constants)} {`,
      code`const ${boundKey} = ${metadataOf(latest ? sides.latest! : sides.first!)};`,
      latest
        ? code`if (typeof ${boundKey} === "string") ${field}.set(${boundKey}, ${EVENT});`
        : code`if (typeof ${boundKey} === "string" && !${field}.has(${boundKey})) ${field}.set(${boundKey}, ${EVENT});`,
      code`}`,
    );
  });
  const parsed = parseWhen(
    check.when,
    bindings.map(([n]) => n),
  );
  if (!parsed.ok) throw new Error("internal: a when expression the schema accepted does not parse");
  const when = lowerWhen(parsed.tree, {
    event: EVENT,
    bound: (bindingName) => {
      const local = locals.get(bindingName);
      if (local === undefined) throw new Error("internal: a when expression reads a name with no binding");
      return local;
    },
    regex: (source, flags) => {
      const compiled = compileRegex(source, flags);
      if (!compiled.ok) throw new Error(`internal: a regular expression the schema accepted does not compile: ${compiled.message}`);
      constants.runtime("regexTest");
      return constants.add("regex", constants.runtime("RegexProgram"), regexLiteral(compiled.program));
    },
  });
  constants.whenRuntime(String(when.test) + when.reads.map((r) => String(r.value)).join(" "), WHEN_RUNTIME_NAMES);
  const allBound = join(
    [...locals.values()].map((local) => code`${local} !== undefined`),
    code` && `,
  );
  const bound = [...locals.values()];
  const guard = bound.length === 0 ? when.test : code`${allBound} && ${when.test}`;
  const bindingList = code`[${join(bindings.map(([bindingName], b) => code`[${lit(bindingName)}, ${bound[b]!}]`))}]`;
  const reads = code`[${join(when.reads.map((r) => code`[${lit(r.label)}, ${r.value}]`))}]`;
  const readsIfBound = bound.length === 0 ? reads : code`${allBound} ? ${reads} : undefined`;
  const step: Code[] = [
    code`if ${lowerPattern(check.each, constants)} {`,
    ...judgeEach,
    code`${eaches}.push(${EVENT}.id);`,
    code`if (!(${guard})) {`,
    code`${failed}.push(${EVENT}.id);`,
    code`${failedCitations}.push(${EVENT}.id);`,
    ...bound.map((local) => code`if (${local} !== undefined) ${failedCitations}.push(${local}.id);`),
    code`${lastExplanation} = ${constants.runtime("explainCondition")}(${EVENT}.id, ${lit(check.when)}, ${bindingList}, ${readsIfBound});`,
    code`if (${explanation} === undefined) ${explanation} = ${lastExplanation};`,
    code`}`,
    code`}`,
    ...record,
  ];
  return {
    type: "condition",
    fields,
    step,
    clause: code`${constants.runtime("conditionClause")}({ ${clauseBase(check)}, eaches: ${eaches}, failed: ${failed}, failedCitations: ${failedCitations}, explanation: ${explanation} })`,
    violation: {
      when: code`${failed}.length > 0`,
      cited: code`${failed}.length`,
      ids: code`[...new Set(${failedCitations})]`,
      explanation: lastExplanation,
    },
  };
}
