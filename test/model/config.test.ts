/** Where the model comes from: flags, environment and `.env` (docs/FORMATS.md §5). */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeModelConfig, loadEnvironment, parseDotEnv, resolveModelConfig } from "../../compiler/model/config.js";

describe("resolveModelConfig", () => {
  it("defaults to gpt-5-mini through the Braintrust gateway", () => {
    expect(resolveModelConfig({}, { BRAINTRUST_API_KEY: "bt" })).toEqual({
      provider: "braintrust",
      apiKey: "bt",
      baseURL: "https://gateway.braintrust.dev/v1",
      model: "gpt-5-mini",
    });
  });

  it("takes the model from --model, then BRAINTRUST_JUDGE_MODEL, then BRAINTRUST_MODEL", () => {
    const env = { BRAINTRUST_API_KEY: "bt", BRAINTRUST_JUDGE_MODEL: "judge-model", BRAINTRUST_MODEL: "model" };
    expect(resolveModelConfig({}, env)?.model).toBe("judge-model");
    expect(resolveModelConfig({}, { ...env, BRAINTRUST_JUDGE_MODEL: undefined })?.model).toBe("model");
    expect(resolveModelConfig({ model: "flag-model" }, env)?.model).toBe("flag-model");
  });

  it("reads the gateway URL, adding /v1 to a bare origin only", () => {
    expect(resolveModelConfig({}, { BRAINTRUST_API_KEY: "bt", BRAINTRUST_GATEWAY_BASE_URL: "https://gw.example/" })?.baseURL).toBe(
      "https://gw.example/v1",
    );
    expect(resolveModelConfig({}, { BRAINTRUST_API_KEY: "bt", BRAINTRUST_GATEWAY_BASE_URL: "https://gw.example/proxy/v1" })?.baseURL).toBe(
      "https://gw.example/proxy/v1",
    );
  });

  it("uses OPENAI_API_KEY with --base-url for OpenAI or a local server", () => {
    expect(resolveModelConfig({ baseUrl: "http://127.0.0.1:8000/v1", model: "llama" }, { OPENAI_API_KEY: "sk" })).toEqual({
      provider: "openai",
      apiKey: "sk",
      baseURL: "http://127.0.0.1:8000/v1",
      model: "llama",
    });
    expect(resolveModelConfig({}, { OPENAI_API_KEY: "sk" })).toMatchObject({ provider: "openai", baseURL: undefined });
    // Both keys and a --base-url: the URL is an OpenAI-style endpoint, so the OpenAI key goes there.
    expect(resolveModelConfig({ baseUrl: "http://127.0.0.1:8000/v1" }, { OPENAI_API_KEY: "sk", BRAINTRUST_API_KEY: "bt" })).toMatchObject({
      provider: "openai",
      apiKey: "sk",
    });
  });

  it("never sends the Braintrust key to a --base-url", () => {
    const config = resolveModelConfig({ baseUrl: "http://127.0.0.1:8000/v1" }, { BRAINTRUST_API_KEY: "bt-secret" });
    expect(config).toEqual({ provider: "openai", apiKey: "no-key", baseURL: "http://127.0.0.1:8000/v1", model: "gpt-5-mini" });
  });

  it("sends a temperature only when the user set one", () => {
    expect(resolveModelConfig({}, { BRAINTRUST_API_KEY: "bt" })).not.toHaveProperty("temperature");
    expect(resolveModelConfig({ temperature: 0 }, { BRAINTRUST_API_KEY: "bt" })).toHaveProperty("temperature", 0);
  });

  it("is undefined with no key and no --base-url; empty variables count as unset", () => {
    expect(resolveModelConfig({}, {})).toBeUndefined();
    expect(resolveModelConfig({}, { BRAINTRUST_API_KEY: "", OPENAI_API_KEY: " " })).toBeUndefined();
  });

  it("describes the model without the key", () => {
    const config = resolveModelConfig({}, { BRAINTRUST_API_KEY: "bt-secret-key" })!;
    expect(describeModelConfig(config)).toBe("gpt-5-mini via the Braintrust gateway (https://gateway.braintrust.dev/v1)");
  });
});

describe(".env", () => {
  it("parses assignments, export, quotes and comments", () => {
    expect(parseDotEnv('# comment\nexport A=1\nB="two words"\nC=\'x#y\'\nD=plain # trailing\nE="line\\nbreak"\nnot a line\n')).toEqual({
      A: "1",
      B: "two words",
      C: "x#y",
      D: "plain",
      E: "line\nbreak",
    });
  });

  it("reads a quoted value followed by a comment without its quotes", () => {
    expect(parseDotEnv('A="sk-abc" # the key\nB=\'x y\'  # note\nC="say \\"hi\\"" #c\n')).toEqual({ A: "sk-abc", B: "x y", C: 'say "hi"' });
  });

  it("is found at or above the working directory, and set variables win", async () => {
    const root = await mkdtemp(join(tmpdir(), "bj-env-"));
    try {
      const nested = join(root, "a", "b");
      await mkdir(nested, { recursive: true });
      await writeFile(join(root, ".env"), "BRAINTRUST_API_KEY=from-file\nBRAINTRUST_MODEL=file-model\n");
      const env = loadEnvironment(nested, { BRAINTRUST_MODEL: "set-model" });
      expect(env.BRAINTRUST_API_KEY).toBe("from-file");
      expect(env.BRAINTRUST_MODEL).toBe("set-model");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
