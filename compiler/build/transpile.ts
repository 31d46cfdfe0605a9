/**
 * Generated judge.ts as CommonJS text, synchronously: the verdict preview
 * (compiler/generate/preview-eval.ts) runs the checks' generated steppers
 * after every edit, in code that cannot wait for a bundle. esbuild is
 * required only when a preview first needs it, so a command that never
 * previews (judging with a cached build) never loads it.
 */
import { createRequire } from "node:module";

type TransformSync = (code: string, options: Record<string, unknown>) => { code: string };

let transformSync: TransformSync | undefined;

/** Strips the types of generated judge.ts; its runtime import becomes a `require` call the caller answers. */
export function judgeTsAsCommonJs(judgeTs: string): string {
  transformSync ??= (createRequire(import.meta.url)("esbuild") as { transformSync: TransformSync }).transformSync;
  return transformSync(judgeTs, { loader: "ts", format: "cjs", target: "es2022", charset: "ascii" }).code;
}
