/**
 * Test helpers for `when` expressions: parse, lower, and run the lowered
 * code (type-stripped by esbuild, evaluated with new Function: the test may,
 * the product may not) with the real runtime: regexes compiled by
 * compileRegex, hoisted as regexLiteral constants and run by regexTest; plus
 * a module of many lowered expressions for one strict type-check against the
 * runtime's real signatures.
 */
import { transformSync } from "esbuild";
import { code, join, lit, name, type Code } from "../../compiler/codegen/code.js";
import { lowerWhen, WHEN_RUNTIME_NAMES } from "../../compiler/codegen/lower-when.js";
import { parseWhen, type WhenNode } from "../../compiler/ir/when.js";
import type { StepEvent } from "../../runtime/stepper.js";
import * as values from "../../runtime/values.js";
import { regexTest, type RegexProgram } from "../../runtime/regex.js";
import { regexLiteral } from "../../compiler/codegen/regex.js";
import { compileRegex } from "../../compiler/ir/regex-program.js";

/** The program of a regex parseWhen accepted (so compileRegex accepts it too). */
function compiled(source: string, flags: string): RegexProgram {
  const result = compileRegex(source, flags);
  if (!result.ok) throw new Error(`compileRegex refused a regex parseWhen accepted: ${result.message}`);
  return result.program;
}

export type Bound = Record<string, StepEvent>;

export interface BuiltWhen {
  tree: WhenNode;
  /** The lowered test and reads, as a TypeScript function body (for the type-check module). */
  source: string;
  test(e: StepEvent, bound: Bound): boolean;
  reads(e: StepEvent, bound: Bound): [string, unknown][];
}

export function treeOf(text: string, names: readonly string[] = ["r", "u"]): WhenNode {
  const parsed = parseWhen(text, names);
  if (!parsed.ok) throw new Error(`parseWhen(${JSON.stringify(text)}) failed: ${JSON.stringify(parsed.errors)}`);
  return parsed.tree;
}

/** Lowers `text` and compiles the result into callable functions. */
export function buildWhen(text: string, names: readonly string[] = ["r", "u"]): BuiltWhen {
  const tree = treeOf(text, names);
  const regexes: { source: string; flags: string }[] = [];
  const lowered = lowerWhen(tree, {
    event: code`e`,
    bound: (n) => code`bound[${lit(n)}]!`,
    regex: (source, flags) => {
      regexes.push({ source, flags });
      return name("regex", regexes.length - 1);
    },
  });
  const declarations: Code[] = regexes.map(
    (r, i) => code`const ${name("regex", i)}: RegexProgram = ${regexLiteral(compiled(r.source, r.flags))};`,
  );
  const reads = join(lowered.reads.map((r) => code`[${lit(r.label)}, ${r.value}]`));
  const source = `${join(declarations, code`\n`)}\nreturn { test: ${lowered.test}, reads: [${reads}] as [string, unknown][] };`;
  const wrapper = `(rt) => { const { regexTest, ${WHEN_RUNTIME_NAMES.join(", ")} } = rt; return (e: StepEvent, bound: Bound) => { ${source} }; }`;
  const js = transformSync(wrapper, { loader: "ts" }).code;
  const make = new Function(`return ${js}`)() as (
    rt: unknown,
  ) => (e: StepEvent, bound: Bound) => { test: boolean; reads: [string, unknown][] };
  const run = make({ ...values, regexTest });
  return { tree, source, test: (e, bound) => run(e, bound).test, reads: (e, bound) => run(e, bound).reads };
}

/** One module holding every given expression's lowered body, to type-check with typeCheckJudgeTs. */
export function typeCheckModule(built: readonly BuiltWhen[]): string {
  const functions = built.map(
    (b, i) =>
      `export function when${i}(e: StepEvent, bound: Record<string, StepEvent>): { test: boolean; reads: [string, unknown][] } {\n${b.source}\n}`,
  );
  return [
    `import { regexTest, ${WHEN_RUNTIME_NAMES.join(", ")}, type RegexProgram, type StepEvent } from "behavior-judge/runtime";`,
    ...functions,
  ].join("\n");
}
