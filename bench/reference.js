// The reference interpreter beside the compiled judge in bench/table.js (issue 26).
//
// The reference implementation of behavior-judge (github.com/MaanavKhaitan/agentbehavior-judge,
// Apache-2.0) judges by interpreting judge.yaml: its `judgeTrajectory({ir, trajectory})` walks
// the matchers of every check over the events. Nothing of it is in this repository: give a
// checkout of it with `--reference <folder>` and this module bundles its TypeScript sources
// (src/core/judge.ts and ir.ts) with the esbuild this project already uses, into the bench's
// temporary folder, resolving its one dependency (`yaml`) from this project's node_modules.
//
//   git clone https://github.com/MaanavKhaitan/agentbehavior-judge /tmp/ref
//   npm run build:cli && node bench/table.js --quick --reference /tmp/ref
//
// It runs without a model: no gateway key is set in the measuring process, and `verify: false`
// skips its confirmation calls on false verdicts, so both sides do the deterministic work only.
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Bundles the reference's interpreter from the checkout at `dir` into `folder`; returns the bundle's path. */
export async function bundleReference(dir, folder) {
  const judge = join(dir, "src", "core", "judge.ts");
  const ir = join(dir, "src", "core", "ir.ts");
  if (!existsSync(judge) || !existsSync(ir))
    throw new Error(`--reference ${dir}: no src/core/judge.ts and src/core/ir.ts there (a checkout of the reference implementation)`);
  const entry = join(folder, "reference-entry.mjs");
  writeFileSync(entry, `export { judgeTrajectory } from ${JSON.stringify(judge)};\nexport { parseIr } from ${JSON.stringify(ir)};\n`);
  return bundle(entry, join(folder, "reference.mjs"));
}

/** Bundles the reference's command line (src/cli.ts) into `folder`: `node <path> judge …` runs it. */
export async function bundleReferenceCli(dir, folder) {
  const cli = join(dir, "src", "cli.ts");
  if (!existsSync(cli)) throw new Error(`--reference ${dir}: no src/cli.ts there (a checkout of the reference implementation)`);
  return bundle(cli, join(folder, "reference-cli.mjs"));
}

async function bundle(entry, outfile) {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    nodePaths: [join(root, "node_modules")],
    // `yaml` is CommonJS and requires Node's built-ins: give the ESM bundle a `require`.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    logLevel: "error",
  });
  return outfile;
}

/**
 * A `judge(trajectory)` over the reference bundle for the judge.yaml at `yamlPath`, its result
 * reduced to each rule's verdict (what both implementations must agree on).
 */
export async function referenceJudge(bundlePath, yamlText) {
  // The gateway reads its key from the environment: none, so no call can leave this process.
  delete process.env.BRAINTRUST_API_KEY;
  const reference = await import(bundlePath);
  const ir = reference.parseIr(yamlText);
  return (trajectory) => reference.judgeTrajectory({ ir, trajectory, verify: false });
}

/** Each rule's verdict, in rule order, from either implementation's judgment. */
export function ruleVerdicts(judgment) {
  const rules = judgment.metaBehaviors ?? judgment.rules ?? [];
  return rules.map((rule) => rule.verdict);
}
