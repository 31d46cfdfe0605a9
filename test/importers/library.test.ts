/**
 * The library entry `behavior-judge/importers` (issue 10 item 4): the same
 * code the CLI runs, one ESM file with no imports (so it runs in Node, Deno,
 * Bun, browsers and edge runtimes), typed, behind a subpath export.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from "ts-morph";
import { describe, expect, test } from "vitest";
import * as source from "../../importers/index.js";
import { ROOT } from "../support/cli.js";
import { isolatedDir } from "../support/judges.js";
import { IMPORTER_FIXTURES, fixtureFiles, readFixture } from "../support/importer-fixtures.js";

// @ts-expect-error a plain JS build script, without types
const { bundleImporters } = (await import("../../scripts/bundle-importers.js")) as { bundleImporters(): Promise<string> };

describe("behavior-judge/importers", () => {
  test("the sources import nothing at run time: only each other, and types", () => {
    const dir = join(ROOT, "importers");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"/gm)) {
        const [, , typeOnly, specifier] = match;
        if (typeOnly !== undefined) continue;
        expect(`${file}: ${specifier}`).toMatch(/: \.\/[a-z-]+\.js$/);
      }
    }
  });

  test("every format's importer and shape test are exported by name (claude-code … swe-agent included)", () => {
    const exported = new Set(Object.values(source));
    for (const format of source.FORMATS) {
      expect(exported.has(format.importer), `${format.name}: importer`).toBe(true);
      expect(exported.has(format.detect), `${format.name}: detect`).toBe(true);
    }
    expect(source.FORMATS.map((f) => f.name)).toEqual(
      expect.arrayContaining(["claude-code", "codex", "langfuse", "adk", "gemini-cli", "bedrock", "pydantic-ai", "inspect", "swe-agent"]),
    );
  });

  test("the bundle has no import, require or node: left, and runs alone in a folder without node_modules", async () => {
    const bundle = await bundleImporters();
    expect(bundle).not.toMatch(/^\s*import[\s{]|\bimport\s*\(|\brequire\s*\(|["']node:/m);
    const file = join(isolatedDir(), "importers.mjs");
    writeFileSync(file, bundle);
    const bundled = (await import(pathToFileURL(file).href)) as typeof source;
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(source).sort());
    // The same code: every fixture imports to the same bytes through the bundle and the sources.
    for (const format of bundled.FORMATS.map((f) => f.name)) {
      for (const name of fixtureFiles(format)) {
        const input = readFixture(join(IMPORTER_FIXTURES, format, name));
        expect(JSON.stringify(bundled.importTrace(input))).toBe(JSON.stringify(source.importTrace(input)));
      }
    }
  });

  test("package.json exports ./importers: a program outside the repo resolves it by name and imports a chat log", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(pkg.exports["./importers"]).toEqual({ types: "./dist/importers/index.d.ts", default: "./dist/importers.mjs" });
    const script = `import { fromOpenAIChat } from "behavior-judge/importers";
const r = fromOpenAIChat([{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]);
console.log(JSON.stringify(r.trajectories[0].events.map((e) => e.actor + ":" + e.content)));`;
    // Self-reference by package name resolves through "exports", as it does for an installed package.
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe('["user:hi","agent:hello"]');
  });

  test("the types describe the entry for a TypeScript consumer", () => {
    const dir = isolatedDir();
    const consumer = `import { importTrace, fromAnthropic, FACT, type ImportResult, type Trajectory } from "${join(ROOT, "dist", "importers", "index.js")}";
const r: ImportResult = importTrace([], { from: "openai-chat", complete: true });
const t: Trajectory | undefined = r.trajectories[0];
const turn: "@turn" = FACT.turn;
const a = fromAnthropic({ messages: [] }).errors.map((e) => e.path + e.message);
// @ts-expect-error options are typed
importTrace([], { complete: "yes" });
export { t, turn, a };
`;
    writeFileSync(join(dir, "consumer.mts"), consumer);
    const project = new Project({
      compilerOptions: {
        strict: true,
        target: ScriptTarget.ES2022,
        module: ModuleKind.NodeNext,
        moduleResolution: ModuleResolutionKind.NodeNext,
        lib: ["lib.es2022.d.ts"],
        types: [],
        noEmit: true,
      },
    });
    project.addSourceFileAtPath(join(dir, "consumer.mts"));
    project.resolveSourceFileDependencies();
    expect(project.getPreEmitDiagnostics().map((d) => d.getMessageText().toString())).toEqual([]);
  });
});
