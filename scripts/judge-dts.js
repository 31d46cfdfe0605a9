#!/usr/bin/env node
// Writes templates/judge.d.ts, the judge.d.mts every build puts beside
// judge.mjs, from the runtime's own declarations: each public type is the
// runtime's (runtime/types.ts, semantic.ts, judgment.ts, format-judgment.ts),
// and the module's exports are runtime/judge.ts's JudgeModule. So a field is
// written once, in the runtime; `npm run build:cli` regenerates this file and
// test/artifact.test.ts checks that the committed one is up to date.
//   node scripts/judge-dts.js          (write templates/judge.d.ts)
//   node scripts/judge-dts.js --check  (exit 1 when it is out of date)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import prettier from "prettier";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = join(root, "templates", "judge.d.ts");

/** The runtime files that declare the public API. */
const FILES = ["types.ts", "semantic.ts", "judgment.ts", "trajectory.ts", "format-judgment.ts", "judge.ts"];

/** The public types, in the order they are declared; a runtime type they name is added after the first that names it. */
const PUBLIC = [
  "Verdict",
  "NaReason",
  "Actor",
  "CheckType",
  "TrajectoryInput",
  "Citation",
  "Clause",
  "MetaBehaviorJudgment",
  "SemanticUsage",
  "TrajectoryJudgment",
  "ChatMessage",
  "AdapterReply",
  "SemanticAdapter",
  "JudgeOptions",
  "RuleInfo",
  "Violation",
  "Obligation",
  "MonitorHeader",
  "Monitor",
];

/** Each runtime file's declarations as tsc emits them (bodies and initializers gone, JSDoc kept). */
function declarations() {
  const byName = new Map();
  for (const file of FILES) {
    const source = readFileSync(join(root, "runtime", file), "utf8");
    const { outputText } = ts.transpileDeclaration(source, { fileName: file, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
    const sf = ts.createSourceFile(`${file}.d.ts`, outputText, ts.ScriptTarget.ES2022, true);
    for (const node of sf.statements) {
      const name = node.name?.text;
      if (name === undefined || byName.has(name)) continue;
      if (
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isFunctionDeclaration(node)
      )
        byName.set(name, { node, sf });
    }
  }
  return byName;
}

/** A declaration's text with its JSDoc, as declared. */
function text({ node, sf }) {
  // The last JSDoc is the declaration's own (a file's opening comment comes before it).
  const docs = (node.jsDoc ?? []).slice(-1).map((d) => d.getText(sf));
  return [...docs, node.getText(sf)].join("\n");
}

/** The names of types a node refers to. */
function referenced(node) {
  const names = [];
  const visit = (n) => {
    if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) names.push(n.typeName.text);
    if (ts.isTypeQueryNode(n) && ts.isIdentifier(n.exprName)) names.push(n.exprName.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return names;
}

/** The text of templates/judge.d.ts, formatted as the repository's code is. */
export async function judgeDtsText() {
  const byName = declarations();
  const emitted = [];
  const seen = new Set();
  const emitType = (name) => {
    if (seen.has(name)) return;
    const found = byName.get(name);
    if (found === undefined) throw new Error(`scripts/judge-dts.js: no runtime declaration of ${name}`);
    seen.add(name);
    emitted.push(text(found));
    for (const ref of referenced(found.node)) if (byName.has(ref) && !ts.isClassDeclaration(byName.get(ref).node)) emitType(ref);
  };
  for (const name of PUBLIC) emitType(name);

  // The module's exports: JudgeModule's members, as declarations.
  const module = byName.get("JudgeModule");
  const exports = [];
  for (const member of module.node.members) {
    const name = member.name.getText(module.sf);
    const docs = (member.jsDoc ?? []).slice(-1).map((d) => d.getText(module.sf));
    if (ts.isMethodSignature(member)) {
      const params = member.parameters.map((p) => p.getText(module.sf)).join(", ");
      exports.push([...docs, `export declare function ${name}(${params}): ${member.type.getText(module.sf)};`].join("\n"));
    } else if (member.type !== undefined && ts.isTypeQueryNode(member.type)) {
      // `typeof X`: X's own declaration (a class or a function), with the types it names.
      const target = byName.get(member.type.exprName.getText(module.sf));
      for (const ref of referenced(target.node)) if (byName.has(ref) && ref !== name) emitType(ref);
      exports.push(text(target));
    } else {
      exports.push([...docs, `export declare const ${name}: ${member.type.getText(module.sf)};`].join("\n"));
    }
  }
  const header = "// Types of a judge.mjs built by behavior-judge. Generated beside judge.mjs; do not edit.\n";
  const joined = `${header}\n${emitted.join("\n\n")}\n\n${exports.join("\n\n")}\n`;
  const options = (await prettier.resolveConfig(join(root, "compiler", "index.ts"))) ?? {};
  return prettier.format(joined, { ...options, parser: "typescript" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await judgeDtsText();
  if (process.argv.includes("--check")) {
    if (readFileSync(OUT, "utf8") !== text) {
      process.stderr.write("templates/judge.d.ts is out of date: run node scripts/judge-dts.js\n");
      process.exit(1);
    }
  } else writeFileSync(OUT, text);
}
