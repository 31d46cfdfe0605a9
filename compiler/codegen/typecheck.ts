/**
 * Type-checks generated judge.ts against the runtime sources. A type error
 * here is a compiler bug, so it fails the build loudly. The lib set is kept
 * to ES2022 with no @types: ts-morph's defaults cost ten times as much.
 */
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from "ts-morph";
import { RUNTIME_ENTRY } from "../paths.js";
import { RUNTIME_SPECIFIER } from "./emit.js";

let project: Project | undefined;

function checker(): Project {
  project ??= new Project({
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ScriptTarget.ES2022,
      module: ModuleKind.ESNext,
      moduleResolution: ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts"],
      types: [],
      skipLibCheck: true,
      noEmit: true,
      paths: { [RUNTIME_SPECIFIER]: [RUNTIME_ENTRY] },
    },
  });
  return project;
}

export class GeneratedCodeError extends Error {
  constructor(readonly diagnostics: string[]) {
    super(`internal compiler error: the generated judge.ts does not type-check:\n${diagnostics.join("\n")}`);
    this.name = "GeneratedCodeError";
  }
}

/** @throws GeneratedCodeError with every diagnostic of the generated file. */
export function typeCheckJudgeTs(code: string): void {
  const p = checker();
  const file = p.createSourceFile("/__generated__/judge.ts", code, { overwrite: true });
  p.getSourceFileOrThrow(file.getFilePath());
  const diagnostics = p.getPreEmitDiagnostics();
  if (diagnostics.length > 0) {
    throw new GeneratedCodeError(diagnostics.map((d) => p.formatDiagnosticsWithColorAndContext([d]).trim()));
  }
}
