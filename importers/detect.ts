/**
 * Auto-detection over every format (IMPORTERS.md `--from auto`): each
 * format's cheap shape test, then, when several match, a check that they
 * import the input the same way (a plain `{role, content}` chat is the same
 * conversation in every chat format); if they do not, the shape is ambiguous
 * and the error names the candidates.
 */
import { ImportError } from "./core.js";
import { FORMAT_LIST, formatNames, looksLikeTrajectory, type FormatName } from "./formats.js";
import type { ImportOptions, ImportResult, Importer } from "./core.js";
import { detectAnthropic, fromAnthropic } from "./anthropic.js";
import { detectOpenAIChat, fromOpenAIChat } from "./openai-chat.js";
import { detectOpenAIResponses, fromOpenAIResponses } from "./openai-responses.js";
import { detectVercelAI, fromVercelAI } from "./vercel-ai.js";
import { detectOpenAIAgents, fromOpenAIAgents } from "./openai-agents.js";
import { detectOtel, fromOtel } from "./otel.js";
import { detectLangChain, fromLangChain } from "./langchain.js";
import { detectBedrock, fromBedrock } from "./bedrock.js";
import { detectLangfuse, fromLangfuse } from "./langfuse.js";
import { detectPydanticAI, fromPydanticAI } from "./pydantic-ai.js";
import { detectClaudeCode, fromClaudeCode } from "./claude-code.js";
import { detectCodex, fromCodex } from "./codex.js";
import { detectAdk, fromAdk } from "./adk.js";
import { detectInspect, fromInspect } from "./inspect.js";
import { detectGeminiCli, fromGeminiCli } from "./gemini-cli.js";
import { detectSweAgent, fromSweAgent } from "./swe-agent.js";

export interface Format {
  /** The `--from` value. */
  name: string;
  /** What the user has, in a few words (for help and error messages). */
  description: string;
  importer: Importer;
  detect: (input: unknown) => boolean;
}

/** Each format's importer and shape test, by name. */
const IMPLEMENTATIONS: Record<FormatName, Pick<Format, "importer" | "detect">> = {
  "openai-responses": { importer: fromOpenAIResponses, detect: detectOpenAIResponses },
  "vercel-ai": { importer: fromVercelAI, detect: detectVercelAI },
  "openai-chat": { importer: fromOpenAIChat, detect: detectOpenAIChat },
  anthropic: { importer: fromAnthropic, detect: detectAnthropic },
  "openai-agents": { importer: fromOpenAIAgents, detect: detectOpenAIAgents },
  otel: { importer: fromOtel, detect: detectOtel },
  langchain: { importer: fromLangChain, detect: detectLangChain },
  bedrock: { importer: fromBedrock, detect: detectBedrock },
  langfuse: { importer: fromLangfuse, detect: detectLangfuse },
  "pydantic-ai": { importer: fromPydanticAI, detect: detectPydanticAI },
  "claude-code": { importer: fromClaudeCode, detect: detectClaudeCode },
  codex: { importer: fromCodex, detect: detectCodex },
  adk: { importer: fromAdk, detect: detectAdk },
  inspect: { importer: fromInspect, detect: detectInspect },
  "gemini-cli": { importer: fromGeminiCli, detect: detectGeminiCli },
  "swe-agent": { importer: fromSweAgent, detect: detectSweAgent },
};

/** Every format, in the order detection tries them (more specific shapes first; formats.ts lists them). */
export const FORMATS: readonly Format[] = FORMAT_LIST.map((f) => ({
  name: f.name,
  description: f.description,
  ...IMPLEMENTATIONS[f.name],
}));

export { formatNames, looksLikeTrajectory };

export function findFormat(name: string): Format | undefined {
  return FORMATS.find((f) => f.name === name);
}

export interface Detection {
  /** The format to use, when exactly one fits (or all that fit import the input alike). */
  format?: string;
  /** The formats whose shape test passed. */
  candidates: string[];
}

/** Which format an input is. Never throws. */
export function detectFormat(input: unknown, options: ImportOptions = {}): Detection {
  const candidates = FORMATS.filter((f) => {
    try {
      return f.detect(input);
    } catch {
      return false;
    }
  });
  const names = candidates.map((f) => f.name);
  if (candidates.length === 1) return { format: names[0]!, candidates: names };
  if (candidates.length === 0) return { candidates: names };
  // Several shape tests pass: fine when they all read the input the same way.
  const first = JSON.stringify(candidates[0]!.importer(input, options));
  if (candidates.every((f, i) => i === 0 || JSON.stringify(f.importer(input, options)) === first))
    return { format: names[0]!, candidates: names };
  return { candidates: names };
}

/**
 * How a message names the setting that picks the format: the library's
 * `from` option (importTrace, assertBehavior, readCaseFiles…), or the CLI's
 * `--from` flag.
 */
export type FormatSetting = "from" | "--from";

/** The hint that ends a message about the format: which setting to give, and its values. */
export function formatHint(setting: FormatSetting = "from"): string {
  const names = `${formatNames().join(", ")} (or trajectory)`;
  return setting === "--from" ? `pass --from with one of: ${names}` : `set the from option to one of: ${names}`;
}

/** The error text for an input no format (or more than one) fits; `setting` is how the hint names the format setting (default: the library's `from` option). */
export function detectionError(detection: Detection, setting: FormatSetting = "from"): string {
  const from = formatHint(setting);
  if (detection.candidates.length > 1) return `ambiguous trace format: it could be ${detection.candidates.join(" or ")}; ${from}`;
  return `unknown trace format: not a trajectory (docs/FORMATS.md §2: id, complete, events with actor and action) and not a shape any importer knows; ${from}`;
}

export interface ImportTraceOptions extends ImportOptions {
  /** A format name, or "auto" (the default). */
  from?: string | undefined;
  /** How an unknown or ambiguous format's error names the setting: the `from` option (default), or the CLI's `--from`. */
  formatSetting?: FormatSetting | undefined;
}

/** Imports `input` in the given format, or the detected one; an unknown or ambiguous shape is one error naming the candidates. */
export function importTrace(input: unknown, options: ImportTraceOptions = {}): ImportResult & { format?: string } {
  const { from = "auto", formatSetting, ...rest } = options;
  if (from !== "auto") {
    const format = findFormat(from);
    if (format === undefined)
      throw new ImportError("", `unknown format ${JSON.stringify(from)}: expected auto or one of ${formatNames().join(", ")}`);
    return { ...format.importer(input, rest), format: format.name };
  }
  const detection = detectFormat(input, rest);
  if (detection.format === undefined)
    return { trajectories: [], errors: [{ path: "", message: detectionError(detection, formatSetting) }], warnings: [] };
  return { ...findFormat(detection.format)!.importer(input, rest), format: detection.format };
}
