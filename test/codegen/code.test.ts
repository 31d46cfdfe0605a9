/** The safe codegen builder: what it escapes, and that raw strings cannot be spliced (by type and at run time). */
import { join } from "node:path";
import { ModuleKind, ModuleResolutionKind, Project, ScriptTarget } from "ts-morph";
import { describe, expect, test } from "vitest";
import { code, comment, escapeScriptClose, join as joinCode, lit, name, type Code } from "../../compiler/codegen/code.js";

describe("lit", () => {
  test.each([
    ['say "hi"', '"say \\"hi\\""'],
    ["back\\slash", '"back\\\\slash"'],
    ["two\nlines\r", '"two\\nlines\\r"'],
    ["sep\u2028para\u2029", '"sep\\u2028para\\u2029"'],
    ["</script><script>", '"<\\/script><script>"'],
    ["${x} `t`", '"${x} `t`"'],
  ])("%j", (text, expected) => {
    const literal = String(lit(text));
    expect(literal).toBe(expected);
    // Whatever the text, the literal evaluates back to it.
    expect(new Function(`return ${literal};`)()).toBe(text);
  });
});

describe("comment", () => {
  test("line breaks cannot end it early and </ cannot close a script", () => {
    expect(String(comment("a\nb\r\nc\u2028d\u2029e </script>"))).toBe("// a b c d e <\\/script>");
  });
});

describe("name", () => {
  test("prefix and counter", () => {
    expect(String(name("first", 12))).toBe("first12");
  });
  test("refuses what is not an identifier prefix or a counter", () => {
    expect(() => name("a-b" as "ab", 0)).toThrow(TypeError);
    expect(() => name("x1" as "x", 0)).toThrow(TypeError);
    expect(() => name("x", -1)).toThrow(TypeError);
    expect(() => name("x", 1.5)).toThrow(TypeError);
  });
});

describe("code and join", () => {
  test("holes accept Code, numbers and booleans", () => {
    const parts: Code[] = [code`a`, code`b`];
    expect(String(code`f(${joinCode(parts)}, ${-1}, ${false}, ${lit("x")})`)).toBe('f(a, b, -1, false, "x")');
    expect(String(joinCode(parts, code` || `))).toBe("a || b");
  });

  test("a string spliced past the type checker is refused at run time", () => {
    const smuggled = "process.exit(1)" as unknown as Code;
    expect(() => code`f(${smuggled})`).toThrow(/accepts only Code/);
    expect(() => code`f(${Number.NaN})`).toThrow(/accepts only Code/);
  });

  test("escapeScriptClose", () => {
    expect(escapeScriptClose("a</b </ c")).toBe("a<\\/b <\\/ c");
  });
});

describe("splicing a string does not type-check", () => {
  test("every @ts-expect-error in code-types.ts is an error", () => {
    const project = new Project({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: ScriptTarget.ES2022,
        module: ModuleKind.NodeNext,
        moduleResolution: ModuleResolutionKind.NodeNext,
        lib: ["lib.es2022.d.ts"],
        types: [],
        skipLibCheck: true,
        noEmit: true,
      },
    });
    const file = project.addSourceFileAtPath(join(import.meta.dirname, "code-types.ts"));
    project.resolveSourceFileDependencies();
    const diagnostics = project
      .getPreEmitDiagnostics()
      .map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${d.getMessageText().toString()}`);
    // An unused directive (TS2578) would mean a splice type-checked.
    expect(diagnostics).toEqual([]);
    expect(file.getFullText().match(/^\s*\/\/ @ts-expect-error/gm)).toHaveLength(4);
  });
});
