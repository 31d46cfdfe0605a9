/**
 * The preview's verdicts from the judge's own code. A rule's checks are
 * lowered by codegen exactly as `build` lowers them, their types stripped,
 * and the generated steppers are run on each sample the way judgeTrajectory
 * runs them (the runtime's event reader steps them, then `finish` builds the
 * clauses). Every form of the rule language (value matchers, `on`, `fresh`,
 * `within`, `per`, `sum`, the condition check) so gets the verdict the built
 * judge gives, with no second evaluator to drift from it.
 *
 * The interview previews the same rule again after every answer, so the
 * compiled steppers are kept per list of checks (a few milliseconds to
 * compile one, nothing to reuse one).
 */
import * as runtime from "../../runtime/index.js";
import type { JudgeDefinition } from "../../runtime/judge.js";
import type { Steppers } from "../../runtime/stepper.js";
import { readEvents } from "../../runtime/trajectory.js";
import type { Clause, Trajectory } from "../../runtime/types.js";
import { judgeTsAsCommonJs } from "../build/transpile.js";
import { generateJudgeModule, RUNTIME_SPECIFIER } from "../codegen/emit.js";
import type { Check, JudgeIR } from "../ir/types.js";

type StepperFactory = () => Steppers;

/** Compiled check lists kept; the least recently used goes first. */
const KEPT = 256;
const compiled = new Map<string, StepperFactory>();

/**
 * The checks as the one rule of a judge whose trigger is semantic: such a
 * rule's stepper never gates its clauses (a model would decide the trigger at
 * the end), so `finish` gives every check's clause; the preview gates them by
 * the real trigger itself.
 */
function previewIr(checks: readonly Check[]): JudgeIR {
  return {
    version: 1,
    behavior: "preview",
    metaBehaviors: [{ name: "preview", trigger: { description: "preview", semantic: true }, checks: [...checks], semanticChecks: [] }],
  };
}

/**
 * Generates, strips and loads the judge module. The module's text is codegen's
 * own (user text reaches it only through its one literal path), the same text
 * every judge.mjs is bundled from; it is given the runtime, with a
 * `createJudge` that hands back the stepper factory instead of a judge.
 */
function compileChecks(checks: readonly Check[]): StepperFactory {
  const { module } = generateJudgeModule(previewIr(checks), { judgeYamlSha256: "0".repeat(64), file: "judge.yaml" });
  const js = judgeTsAsCommonJs(String(module));
  let factory: StepperFactory | undefined;
  const previewRuntime = {
    ...runtime,
    createJudge(definition: JudgeDefinition) {
      factory = definition.steppers;
      return {};
    },
  };
  const requireRuntime = (specifier: string): unknown => {
    if (specifier !== RUNTIME_SPECIFIER) throw new Error(`internal: generated code imports ${specifier}`);
    return previewRuntime;
  };
  const commonJsModule = { exports: {} };
  new Function("require", "module", "exports", js)(requireRuntime, commonJsModule, commonJsModule.exports);
  if (factory === undefined) throw new Error("internal: the generated preview module did not call createJudge");
  return factory;
}

function steppersFor(checks: readonly Check[]): StepperFactory {
  const key = JSON.stringify(checks);
  let factory = compiled.get(key);
  if (factory !== undefined) {
    compiled.delete(key);
  } else {
    factory = compileChecks(checks);
    if (compiled.size >= KEPT) compiled.delete(compiled.keys().next().value!);
  }
  compiled.set(key, factory);
  return factory;
}

/** Every check's clause on one trajectory, in check order, as the built judge decides it (before trigger gating). */
export function checkClauses(checks: readonly Check[], trajectory: Trajectory): Clause[] {
  if (checks.length === 0) return [];
  const steppers = steppersFor(checks)();
  readEvents(trajectory.events, steppers);
  const clauses = steppers.stepper(0).finish(trajectory.complete);
  if (clauses === null) throw new Error("internal: a rule with a semantic trigger gated its clauses");
  return clauses;
}
