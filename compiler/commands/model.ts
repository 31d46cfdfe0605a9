/**
 * The host model for a command: flags → adapter (or none), the one notice
 * when a judge with semantic parts runs without a model, and the usage lines
 * of the summaries.
 */
import type { SemanticAdapter } from "../../runtime/semantic.js";
import { loadEnvironment, NO_MODEL_NOTICE, resolveModelConfig } from "../model/config.js";
import type { HostModelOptions } from "../model/index.js";
import type { ModelCommandOptions } from "./model-flags.js";

export const DEFAULT_CONCURRENCY = 4;

export const NO_MODEL_FLAG_NOTICE = "--no-model: no model calls; semantic clauses are left undecided";

export function hostModelOptions(opts: ModelCommandOptions, overrides: Partial<HostModelOptions> = {}): HostModelOptions {
  return {
    ...(typeof opts.model === "string" ? { model: opts.model } : {}),
    ...(opts.rpm !== undefined ? { rpm: opts.rpm } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout * 1000 } : {}),
    cache: opts.cache !== false,
    ...(typeof opts.cache === "string" ? { cacheDir: opts.cache } : {}),
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    ...overrides,
  };
}

interface RuleShape {
  trigger: { kind: string };
  semanticChecks: readonly unknown[];
}

/** Whether a judge asks the model anything besides verify-on-false. */
export function hasSemanticParts(rules: readonly RuleShape[]): boolean {
  return rules.some((r) => r.trigger.kind === "semantic" || r.semanticChecks.length > 0);
}

/**
 * The adapter for a judge run. Without a model, a judge with semantic parts
 * gets a single notice on stderr; a deterministic-only judge runs silently
 * (and its failures do not say `unverified`: nothing could have verified them).
 */
export async function openJudgeModel(
  opts: ModelCommandOptions,
  rules: readonly RuleShape[],
  overrides: Partial<HostModelOptions> = {},
): Promise<SemanticAdapter | undefined> {
  if (opts.model === false) {
    if (hasSemanticParts(rules)) process.stderr.write(`behavior-judge: ${NO_MODEL_FLAG_NOTICE}\n`);
    return undefined;
  }
  const options = hostModelOptions(opts, overrides);
  const env = options.env ?? loadEnvironment(options.cwd);
  // The model layer (its cache, its transport) loads only with a model configured: a run without one reads the configuration alone.
  const configured = resolveModelConfig(options, env) !== undefined;
  const adapter = configured ? (await (await import("../model/index.js")).createHostModel({ ...options, env })).adapter : undefined;
  if (adapter === undefined && hasSemanticParts(rules)) process.stderr.write(`behavior-judge: ${NO_MODEL_NOTICE}\n`);
  return adapter;
}
