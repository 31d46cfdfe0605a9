/**
 * Where the model comes from (docs/FORMATS.md §5): the Braintrust gateway with
 * `BRAINTRUST_API_KEY`, or any OpenAI-compatible endpoint with
 * `OPENAI_API_KEY` (and `--base-url` for a local server). A `.env` file at or
 * above the working directory fills in variables that are not already set.
 *
 * The key lives only in the returned config object; nothing here prints it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const DEFAULT_MODEL = "gpt-5-mini";
export const DEFAULT_GATEWAY_BASE_URL = "https://gateway.braintrust.dev";
/** The key sent to a `--base-url` server when OPENAI_API_KEY is unset (the client needs one): no secret. */
export const NO_KEY = "no-key";

export interface ModelFlags {
  /** `--model`: wins over every variable. */
  model?: string;
  /** `--base-url`: an OpenAI-style base URL, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl?: string;
  /** `--temperature`: sent only when set, since reasoning models reject non-default values. */
  temperature?: number;
}

export interface ModelConfig {
  provider: "braintrust" | "openai";
  apiKey: string;
  baseURL: string | undefined;
  model: string;
  temperature?: number;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Parses `.env` text: `KEY=value`, optional `export `, `#` comments, single
 * or double quotes (double quotes understand `\n`). No interpolation.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (match === null) continue;
    vars[match[1]!] = unquote(match[2]!);
  }
  return vars;
}

function unquote(value: string): string {
  // A quoted value may be followed by a comment (`KEY="sk-..." # note`): the
  // quotes end the value, so neither they nor the comment become part of it.
  const double = /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(value);
  if (double !== null)
    return double[1]!.replace(/\\(.)/g, (escape, c: string) => (c === "n" ? "\n" : c === '"' || c === "\\" ? c : escape));
  const single = /^'([^']*)'\s*(?:#.*)?$/.exec(value);
  if (single !== null) return single[1]!;
  return value.replace(/\s+#.*$/, "");
}

/** The nearest `.env` at or above `cwd`, or undefined. */
export function findDotEnv(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, ".env");
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** process.env over the nearest `.env`: variables already set win. */
export function loadEnvironment(cwd = process.cwd(), env: Environment = process.env): Environment {
  const file = findDotEnv(cwd);
  if (file === undefined) return env;
  let fromFile: Record<string, string>;
  try {
    fromFile = parseDotEnv(readFileSync(file, "utf8"));
  } catch {
    return env;
  }
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** A gateway URL given as a bare origin gets the OpenAI-style `/v1` path. */
export function gatewayBaseURL(value: string): string {
  const trimmed = value.replace(/\/+$/, "");
  try {
    const url = new URL(trimmed);
    return url.pathname === "/" || url.pathname === "" ? `${trimmed}/v1` : trimmed;
  } catch {
    return trimmed;
  }
}

/** The model name: `--model`, then BRAINTRUST_JUDGE_MODEL, then BRAINTRUST_MODEL, then the default. */
export function resolveModelName(flags: ModelFlags, env: Environment): string {
  return nonEmpty(flags.model) ?? nonEmpty(env.BRAINTRUST_JUDGE_MODEL) ?? nonEmpty(env.BRAINTRUST_MODEL) ?? DEFAULT_MODEL;
}

/**
 * The model configuration, or undefined when no model is configured (no key
 * and no `--base-url`). The Braintrust key goes only to the Braintrust
 * gateway: with `--base-url` (another provider, or a local server) only
 * OPENAI_API_KEY is sent, and a `--base-url` without it is taken to be a
 * local server that needs no key.
 */
export function resolveModelConfig(flags: ModelFlags, env: Environment): ModelConfig | undefined {
  const model = resolveModelName(flags, env);
  const temperature = flags.temperature !== undefined ? { temperature: flags.temperature } : {};
  const braintrustKey = nonEmpty(env.BRAINTRUST_API_KEY);
  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  const baseUrl = nonEmpty(flags.baseUrl);
  if (baseUrl !== undefined) {
    return { provider: "openai", apiKey: openaiKey ?? NO_KEY, baseURL: baseUrl, model, ...temperature };
  }
  if (braintrustKey !== undefined) {
    const base = gatewayBaseURL(nonEmpty(env.BRAINTRUST_GATEWAY_BASE_URL) ?? DEFAULT_GATEWAY_BASE_URL);
    return { provider: "braintrust", apiKey: braintrustKey, baseURL: base, model, ...temperature };
  }
  if (openaiKey !== undefined) {
    return { provider: "openai", apiKey: openaiKey, baseURL: nonEmpty(env.OPENAI_BASE_URL), model, ...temperature };
  }
  return undefined;
}

/** A description safe to print: provider, endpoint and model, never the key. */
export function describeModelConfig(config: ModelConfig): string {
  const where = config.baseURL ?? "https://api.openai.com/v1";
  return `${config.model} via ${config.provider === "braintrust" ? "the Braintrust gateway" : "an OpenAI-compatible endpoint"} (${where})`;
}

/** One short line; the report itself says which clauses were left undecided (`PASS (1 clause undecided: no model)`). */
export const NO_MODEL_NOTICE = "no model configured (set BRAINTRUST_API_KEY or OPENAI_API_KEY): semantic clauses are left undecided";
