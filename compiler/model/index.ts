/**
 * The host's model, as the CLI and the library API use it: configuration
 * from flags, environment and `.env`; the OpenAI-compatible transport; the
 * answer cache in front of it. Without a configured model there is no
 * adapter, and the judge's semantic parts come out na.
 */
import type { SemanticAdapter } from "../../runtime/semantic.js";
import { defaultCacheDir, withAnswerCache } from "./answer-cache.js";
import { describeModelConfig, loadEnvironment, resolveModelConfig, type Environment, type ModelConfig, type ModelFlags } from "./config.js";
import { createOpenAIAdapter, type TransportOptions } from "./openai.js";

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

/** Builds the adapter the options describe; `openai` itself loads only when a request is made. */
export async function createHostModel(options: HostModelOptions = {}): Promise<HostModel> {
  const env = options.env ?? loadEnvironment(options.cwd);
  const config = resolveModelConfig(options, env);
  if (config === undefined) return { adapter: undefined };
  const transport = createOpenAIAdapter(config, options);
  const adapter =
    options.cache === false
      ? transport
      : withAnswerCache(transport, {
          dir: options.cacheDir ?? defaultCacheDir(options.cwd),
          model: config.model,
          ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        });
  return { adapter, config, description: describeModelConfig(config) };
}
