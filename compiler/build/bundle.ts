/**
 * The bundler of judges: judge.ts + runtime/ → one judge.mjs with no imports
 * left, so it loads from any folder, with or without node_modules. (The only
 * other user of esbuild, transpile.ts, strips types for the preview.)
 */
import { build, type Plugin } from "esbuild";
import { escapeScriptClose } from "../codegen/code.js";
import { PACKAGE_ROOT, RUNTIME_ENTRY } from "../paths.js";

const runtimeAlias: Plugin = {
  name: "behavior-judge-runtime",
  setup(b) {
    // Generated code imports RUNTIME_SPECIFIER ("behavior-judge/runtime"); resolve it to the sources.
    b.onResolve({ filter: /^behavior-judge\/runtime$/ }, () => ({ path: RUNTIME_ENTRY }));
  },
};

export class BundleError extends Error {
  override name = "BundleError";
}

/** Bundles generated judge.ts; `banner` is kept verbatim at the top of judge.mjs. */
export async function bundleJudge(judgeTs: string, banner: string): Promise<string> {
  const result = await build({
    // Paths in the bundle's comments are relative to absWorkingDir: pin it so the bytes do not depend on the cwd.
    absWorkingDir: PACKAGE_ROOT,
    stdin: { contents: judgeTs, loader: "ts", resolveDir: PACKAGE_ROOT, sourcefile: "generated/judge.ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    charset: "ascii",
    legalComments: "none",
    banner: { js: banner },
    metafile: true,
    logLevel: "silent",
    plugins: [runtimeAlias],
  });
  const outputs = Object.values(result.metafile.outputs);
  const imports = outputs.flatMap((o) => o.imports);
  if (imports.length > 0) {
    throw new BundleError(`judge.mjs would import ${imports.map((i) => i.path).join(", ")}; a judge must be self-contained`);
  }
  const file = result.outputFiles[0];
  if (file === undefined) throw new BundleError("esbuild produced no output");
  // esbuild escapes `</script` in some string literals but not all (it depends on
  // the quote style it picks), and the runtime's own text passes through here too.
  return escapeScriptClose(file.text);
}
