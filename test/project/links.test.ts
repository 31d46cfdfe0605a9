/**
 * Every link in README.md and docs/*.md resolves, in the repository and in
 * the npm package (issues 23 and 24): the README a user reads on npm or in
 * node_modules must not point at files the package leaves out. A relative
 * link must name a file (and, with #anchor, a heading) that exists here and
 * that `npm pack` ships; anything only the repository has (examples/) is
 * linked by URL, built from package.json's `repository`, and that URL must
 * name a path that exists here.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "../support/cli.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { repository?: { url?: string } };
/** https://github.com/owner/name, from `git+https://github.com/owner/name.git`. */
const REPO_URL = pkg.repository?.url?.replace(/^git\+/, "").replace(/\.git$/, "");

const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The text without fenced code blocks and inline code, line numbers kept: a link in code is no link. */
function withoutCode(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, " "))
    .replace(/(`+)[^`\n][\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, " "));
}

function linksOf(file: string): Link[] {
  const text = withoutCode(readFileSync(join(ROOT, file), "utf8"));
  const links: Link[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  // [text](target) and ![alt](target), and reference definitions `[id]: target`.
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ file, line: lineOf(m.index!), target: m[1]! });
  for (const m of text.matchAll(/^\[[^\]]+\]:\s+(\S+)/gm)) links.push({ file, line: lineOf(m.index!), target: m[1]! });
  return links;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutCodeBlocks(readFileSync(path, "utf8")).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

/** Headings inside code fences (`# a comment` in a shell block) are not headings. */
function withoutCodeBlocks(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The files `npm pack` puts in the tarball (package.json "files", plus what npm always adds). */
function packedFiles(): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Set((JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
}

const links = DOCS.flatMap(linksOf);

describe("links in README.md and docs/", () => {
  test("there are links to check, and package.json names the repository they are built from", () => {
    expect(links.length).toBeGreaterThan(30);
    expect(REPO_URL).toBe("https://github.com/behavior-judge/behavior-judge");
    expect(links.some((l) => l.file === "README.md" && l.target.startsWith(`${REPO_URL}/tree/main/examples`))).toBe(true);
  });

  test("every relative link names a file and heading that exist in the repository and in the npm package", () => {
    const packed = packedFiles();
    expect(packed.has("README.md")).toBe(true);
    const broken: string[] = [];
    for (const { file, line, target } of links) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const resolved = path === "" ? file : normalize(join(dirname(file), decodeURI(path))).replace(/\\/g, "/");
      const where = `${file}:${line}: ${target}`;
      if (resolved.startsWith("..") || !existsSync(join(ROOT, resolved))) {
        broken.push(`${where}: no such file in the repository`);
        continue;
      }
      const isDirectory = statSync(join(ROOT, resolved)).isDirectory();
      const shipped = isDirectory ? [...packed].some((p) => p.startsWith(`${resolved}/`)) : packed.has(resolved);
      if (!shipped) broken.push(`${where}: not in the npm package (link it by URL, ${REPO_URL}/blob/main/${resolved})`);
      if (anchor !== undefined && anchor !== "" && resolved.endsWith(".md") && !anchorsOf(join(ROOT, resolved)).has(anchor))
        broken.push(`${where}: ${resolved} has no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  }, 60_000);

  test("every document they cite by name (FORMATS.md §9, docs/SCALE.md) exists and is in the package", () => {
    const packed = packedFiles();
    /** Files of the user's, not ours. */
    const theirs = new Set(["BEHAVIOR.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"]);
    const missing: string[] = [];
    for (const file of DOCS)
      for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(/(?<![\w/.-])((?:docs\/)?([A-Z][A-Z_-]*\.md))\b/g)) {
        if (theirs.has(m[2]!)) continue;
        const candidates = m[1]!.startsWith("docs/") ? [m[1]!] : [`docs/${m[2]}`, m[2]!];
        if (!candidates.some((c) => packed.has(c))) missing.push(`${file}: ${m[1]}`);
      }
    expect(missing).toEqual([]);
  }, 60_000);

  test("every link into the repository by URL names a path that exists here", () => {
    const broken: string[] = [];
    for (const { file, line, target } of links) {
      if (!target.startsWith(`${REPO_URL}/`)) continue;
      const m = /^\/(blob|tree|raw)\/main\/([^#?]+)/.exec(target.slice(REPO_URL!.length));
      if (m === null) {
        if (!/^#|^$/.test(target.slice(REPO_URL!.length + 1))) broken.push(`${file}:${line}: ${target}: not a blob/tree/raw link on main`);
        continue;
      }
      const path = join(ROOT, decodeURI(m[2]!));
      const ok = existsSync(path) && (m[1] === "tree") === statSync(path).isDirectory();
      if (!ok) broken.push(`${file}:${line}: ${target}: ${relative(ROOT, path)} is not a ${m[1] === "tree" ? "folder" : "file"} here`);
    }
    expect(broken).toEqual([]);
  });
});
