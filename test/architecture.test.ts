/**
 * The house rules of docs/ARCHITECTURE.md, read from the code's own imports:
 * runtime/ and importers/ import nothing of compiler/ (a judge.mjs and the
 * importers bundle carry them alone); only build/ imports esbuild; compiler/
 * has no import circle; no hand-written file in compiler/ or runtime/ is
 * over 500 lines.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

/** Every module a file names: static imports and re-exports, side-effect imports, and import() with a literal. */
export function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The repository path a relative specifier names (`.js` read as the `.ts` source), or the bare package name. */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return relative(ROOT, resolve(ROOT, dirname(file), specifier)).replace(/\.js$/, ".ts");
}

function imports(file: string): string[] {
  return specifiers(readFileSync(join(ROOT, file), "utf8")).map((s) => target(file, s));
}

/** The strongly connected components of more than one file (or a file importing itself). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let top: string;
      do {
        top = stack.pop()!;
        onStack.delete(top);
        component.push(top);
      } while (top !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the boundaries of docs/ARCHITECTURE.md", () => {
  test("runtime/ and importers/ import nothing of compiler/", () => {
    const crossings = [...sources("runtime"), ...sources("importers")].flatMap((file) =>
      imports(file)
        .filter((to) => to.startsWith("compiler/"))
        .map((to) => `${file} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });

  test("runtime/ imports nothing outside runtime/ (a judge.mjs carries it alone)", () => {
    const outside = sources("runtime").flatMap((file) =>
      imports(file)
        .filter((to) => !to.startsWith("runtime/"))
        .map((to) => `${file} -> ${to}`),
    );
    expect(outside).toEqual([]);
  });

  test("only compiler/build/ imports esbuild", () => {
    const users = [...sources("compiler"), ...sources("runtime"), ...sources("importers")].filter((file) =>
      imports(file).some((to) => to === "esbuild" || to.startsWith("esbuild/")),
    );
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((file) => !file.startsWith("compiler/build/"))).toEqual([]);
  });

  test("compiler/ has no import circle", () => {
    const graph = new Map(sources("compiler").map((file) => [file, imports(file)] as const));
    expect(circles(graph)).toEqual([]);
  });

  test("no hand-written file in compiler/ or runtime/ is over 500 lines", () => {
    const long = [...sources("compiler"), ...sources("runtime")]
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > 500)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });
});

describe("the checks can fail", () => {
  test("a circle is found, and a chain is not one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  test("every kind of import is read", () => {
    const text = [
      `import { a } from "./a.js";`,
      `import type { B } from "../b.js";`,
      `import {\n  c,\n  d,\n} from "./c.js";`,
      `export { e } from "./e.js";`,
      `export type * from "./f.js";`,
      `import "./g.js";`,
      `const h = await import("./h.js");`,
      `// a comment naming from "./not.js" is not an import`,
    ].join("\n");
    expect(specifiers(text).sort()).toEqual(["../b.js", "./a.js", "./c.js", "./e.js", "./f.js", "./g.js", "./h.js"]);
  });
});
