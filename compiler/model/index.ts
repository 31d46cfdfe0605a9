/**
 * The host's model, as the CLI and the library API use it: configuration
 * from flags, environment and `.env`; the OpenAI-compatible transport; the
 * answer cache in front of it. Without a configured model there is no
 * adapter, and the judge's semantic parts come out na.
 */
import { requireInstalled } from "../optional.js";
import type { SemanticAdapter } from "../../runtime/semantic.js";
import { defaultCacheDir, withAnswerCache, type AnswerCacheOptions } from "./answer-cache.js";
import { describeModelConfig, loadEnvironment, resolveModelConfig, type Environment, type ModelConfig, type ModelFlags } from "./config.js";
import type { TransportOptions } from "./openai.js";

export { NO_MODEL_NOTICE } from "./config.js";
export type { ModelConfig, ModelFlags } from "./config.js";
export type { TransportOptions } from "./openai.js";

export interface HostModelOptions extends ModelFlags, TransportOptions {
  /** Serve and store answers in the cache (default true). */
  cache?: boolean;
  /** Where the cache lives (default `.cache/behavior-judge/answers` in the project). */
  cacheDir?: string;
  /** Where `.env` lookup starts (default the working directory). */
  cwd?: string;
  /** The variables to read (default process.env over `.env`). */
  env?: Environment;
}

export interface HostModel {
  /** Undefined when no model is configured. */
  adapter: SemanticAdapter | undefined;
  config?: ModelConfig;
  /** Model and endpoint, safe to print (never the key). */
  description?: string;
}

/** The model the options configure and the cache in front of it, without any transport: what `--dry-run` needs. */
export interface HostModelPlan {
  config: ModelConfig;
  /** Model and endpoint, safe to print (never the key). */
  description: string;
  /** Undefined with `cache: false`. */
  cache: AnswerCacheOptions | undefined;
}

/** The configured model and its cache, or undefined when no model is configured. */
export function planHostModel(options: HostModelOptions = {}): HostModelPlan | undefined {
  const env = options.env ?? loadEnvironment(options.cwd);
  const config = resolveModelConfig(options, env);
  if (config === undefined) return undefined;
  const cache =
    options.cache === false
      ? undefined
      : {
          dir: options.cacheDir ?? defaultCacheDir(options.cwd),
          model: config.model,
          ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        };
  return { config, description: describeModelConfig(config), cache };
}

/** Builds the adapter the options describe; the transport's module loads only with a model configured, `openai` itself only when a request is made. */
export async function createHostModel(options: HostModelOptions = {}): Promise<HostModel> {
  const plan = planHostModel(options);
  if (plan === undefined) return { adapter: undefined };
  requireInstalled("openai");
  const { createOpenAIAdapter } = await import("./openai.js");
  const transport = createOpenAIAdapter(plan.config, options);
  const adapter = plan.cache === undefined ? transport : withAnswerCache(transport, plan.cache);
  return { adapter, config: plan.config, description: plan.description };
}
