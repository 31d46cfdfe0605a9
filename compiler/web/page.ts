/**
 * Pages are fixed templates (templates/<name>.html, .css, .js) with slots;
 * their inline style and script are allowed by hash, so the output is
 * deterministic and nothing else can run.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TEMPLATES_DIR } from "../paths.js";

export interface PageTemplates {
  html: string;
  css: string;
  js: string;
}

const loaded = new Map<string, PageTemplates>();

/** templates/<name>.html, .css and .js, read once. */
export function pageTemplates(name: string): PageTemplates {
  let templates = loaded.get(name);
  if (templates === undefined) {
    const read = (ext: string) => readFileSync(join(TEMPLATES_DIR, `${name}.${ext}`), "utf8");
    templates = { html: read("html"), css: read("css"), js: read("js") };
    loaded.set(name, templates);
  }
  return templates;
}

/** A CSP source for an inline block. */
export function sha256Source(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

/**
 * The policy for a page built from templates/<name>: only its own inline
 * style and script (by hash) and data: images; `connect` allows requests back
 * to the server that sent it. The meta tag in the page carries it; a server
 * sends it as a header too, with header-only directives such as
 * frame-ancestors added there.
 */
export function pageContentSecurityPolicy(name: string, options: { connect: boolean }): string {
  const { css, js } = pageTemplates(name);
  return [
    "default-src 'none'",
    `script-src '${sha256Source(js)}'`,
    `style-src '${sha256Source(css)}'`,
    "img-src data:",
    ...(options.connect ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * Fills `{{slot}}`s in one pass with a replacer function: text inserted into
 * a slot is never re-scanned for slots or `$` patterns. Slot values must
 * already be escaped for where they go.
 */
export function fillSlots(html: string, slots: Readonly<Record<string, string>>): string {
  return html.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => slots[name] ?? whole);
}

/** Escapes text for HTML element content and quoted attribute values. Non-strings become their String() form. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
