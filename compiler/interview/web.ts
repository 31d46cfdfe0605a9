/**
 * The interview in the browser: a small HTTP server on 127.0.0.1 that holds
 * the interview state (state.ts) and a page that shows one question
 * at a time and posts the person's answers back.
 *
 * The page shows the sample trajectories and writes the judge.yaml, so it is
 * guarded like the live report (compiler/report/serve.ts): a random port, a
 * one-time 256-bit token in the URL that every request must carry (compared
 * in constant time), a Host check against DNS rebinding, and a CSP that lets
 * only the page's own inline style and script run. The page loads nothing
 * from anywhere else, so it works offline.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isObject } from "../../runtime/is-object.js";
import { formatDiagnostic } from "../diagnostics.js";
import { InterviewCancelledError } from "../errors.js";
import { SECURITY_HEADERS, authorizedUrl, listenOnLoopback, newToken, refuse, sendPage } from "../web/local-server.js";
import { escapeHtml, fillSlots, pageContentSecurityPolicy, pageTemplates } from "../web/page.js";
import { interviewResult, startInterview, step, currentQuote } from "./state.js";
import { currentView, previewEdit } from "./view.js";
import { VerdictSession, type VerdictAnswer } from "./verdicts.js";
import { CHECK_TYPES, PATTERN_ROLES, type BindingFields, type ClauseForm, type MatcherFields } from "./fields.js";
import { formSnippet } from "./form-snippet.js";
import type { CheckType } from "../../runtime/types.js";
import type { ClauseRef } from "../generate/types.js";
import type { InterviewAction, InterviewState } from "./state.js";
import type { InterviewInput, InterviewResult } from "../generate/types.js";

export interface WebInterviewOptions {
  /** Port to bind; default 0 (a free port chosen by the OS). */
  port?: number;
}

export interface WebInterview {
  /** The page's address, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  /** Resolves when the person confirms the review; the server has closed by then. */
  result: Promise<InterviewResult>;
  /** Stops serving; an unconfirmed interview's `result` rejects. */
  close(): Promise<void>;
}

/** Starts the interview server and resolves once it is listening. */
export async function startWebInterview(input: InterviewInput, options: WebInterviewOptions = {}): Promise<WebInterview> {
  const token = newToken();
  const expectedToken = Buffer.from(token, "utf8");
  const page = renderInterviewPage(input.draft.ir.behavior);
  // Verdict questions come first (verdicts.ts); the clause interview starts on the draft their answers leave.
  const verdicts = new VerdictSession(input);
  let state = startInterview(verdicts.clauseInput());
  const view = () => verdicts.current() ?? currentView(state);
  let port = 0;
  let settle: { resolve: (r: InterviewResult) => void; reject: (e: Error) => void } | undefined;
  const result = new Promise<InterviewResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A caller that only awaits close() must not see an unhandled rejection.
  result.catch(() => {});

  const server = createServer((req, res) => {
    const url = authorizedUrl(req, port, expectedToken);
    if (url === undefined) return refuse(res, 403);
    if (url.pathname === "/" && isRead(req)) return sendPage(res, req.method === "HEAD", page, interviewContentSecurityPolicy());
    if (url.pathname === "/state" && isRead(req)) {
      if (!verdicts.done) verdicts.markShown();
      return sendJson(res, 200, { view: view() });
    }
    if (url.pathname === "/verdict" && req.method === "POST") {
      return void handleVerdict(req, res, port).catch(() => {
        if (!res.headersSent) refuse(res, 500);
      });
    }
    if (url.pathname === "/action" && req.method === "POST") {
      return void handleAction(req, res, port).catch(() => {
        if (!res.headersSent) refuse(res, 500);
      });
    }
    if (url.pathname === "/cancel" && req.method === "POST") return handleCancel(req, res, port);
    if (url.pathname === "/preview" && req.method === "POST") {
      return void handlePreview(req, res, port).catch(() => {
        if (!res.headersSent) refuse(res, 500);
      });
    }
    if (["/", "/state", "/action", "/cancel", "/preview", "/verdict"].includes(url.pathname)) return refuse(res, 405);
    return refuse(res, 404);
  });

  /**
   * The answer to the verdict question shown: `{sample, rule, answer}` with answer "true",
   * "false", "na" or "skip". An answer meant for another question (another tab) is refused with
   * the current view. The reply says where the label went; after the last one, the first clause.
   */
  let answering = false;
  async function handleVerdict(req: IncomingMessage, res: ServerResponse, ownPort: number): Promise<void> {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413);
    const request = parseVerdictRequest(body);
    if (typeof request === "string") return sendJson(res, 400, { error: request, view: view() });
    const shown = verdicts.current();
    if (answering || shown === undefined || shown.sample.id !== request.sample || shown.rule.name !== request.rule)
      return sendJson(res, 409, { error: "that question is no longer asked; this is where the interview is now", view: view() });
    answering = true;
    try {
      await verdicts.answer(request.answer);
    } finally {
      answering = false;
    }
    if (verdicts.done) state = startInterview(verdicts.clauseInput());
    else verdicts.markShown();
    sendJson(res, 200, { view: view(), previous: verdicts.previous });
  }

  /** The person ends the interview without writing: `result` rejects with InterviewCancelledError. */
  function handleCancel(req: IncomingMessage, res: ServerResponse, ownPort: number): void {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    res.on("finish", () => {
      void shutDown().then(() => settle?.reject(new InterviewCancelledError()));
    });
    sendJson(res, 200, { cancelled: true });
  }

  /**
   * An edit checked as it is typed: the parser's diagnostics, or the edit's
   * preview and evidence. Changes nothing; the page asks after each keystroke.
   */
  async function handlePreview(req: IncomingMessage, res: ServerResponse, ownPort: number): Promise<void> {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413);
    const request = parsePreviewRequest(body);
    if (typeof request === "string") return sendJson(res, 400, { error: request });
    // A preview of a question already answered is a race the page loses when its last keystroke's
    // preview is still on the way as the answer lands. It is not an HTTP failure (the browser would
    // log one), only stale: the page ignores it unless it is still on that question (another tab).
    if (request.at !== state.at) return sendJson(res, 200, { ok: false, stale: true, error: "the interview moved on in another tab" });
    const edit = "form" in request ? { text: formSnippet(request.form, quoteAt(state)), as: request.form.kind } : request;
    const checked = previewEdit(state, edit.text, edit.as);
    if (!checked.ok) {
      // A form's snippet is the server's own text: its lines mean nothing to the person, its paths do.
      const located = "form" in request ? checked.diagnostics.map((d) => ({ ...d, line: 0, col: 0 })) : checked.diagnostics;
      return sendJson(res, 200, { ok: false, diagnostics: located.map((d) => ({ ...d, text: formatDiagnostic(d) })) });
    }
    sendJson(res, 200, checked);
  }

  async function handleAction(req: IncomingMessage, res: ServerResponse, ownPort: number): Promise<void> {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413);
    const parsed = parseActionRequest(body);
    if (typeof parsed === "string") return sendJson(res, 400, { error: parsed, view: view() });
    if (!verdicts.done) return sendJson(res, 409, { error: "answer the verdict questions first", view: view() });
    const fromForm = parsed.action.type === "edit-form";
    // A form is written with the clause's quote as it stands: the page never sends one.
    const request: ActionRequest = {
      at: parsed.at,
      action:
        parsed.action.type === "edit-form"
          ? { type: "edit", text: formSnippet(parsed.action.form, quoteAt(state)), as: parsed.action.form.kind }
          : parsed.action,
    };
    // The page says which question it answered, so a double click cannot answer the next one too.
    if (request.at !== state.at) {
      return sendJson(res, 409, {
        error: "the interview moved on in another tab; this is where it is now",
        view: currentView(state),
      });
    }
    const outcome = step(state, request.action);
    state = outcome.state;
    // A refused answer (an edit the parser rejects) is part of the conversation, not an HTTP failure.
    if (!outcome.ok) {
      return sendJson(res, 200, {
        refused: true,
        error: outcome.error,
        // Written here, by the formatter the terminal uses: the page shows `text` as it is.
        diagnostics: outcome.diagnostics
          .map((d) => (fromForm ? { ...d, line: 0, col: 0 } : d))
          .map((d) => ({ ...d, text: formatDiagnostic(d) })),
        view: currentView(state),
      });
    }
    if (!state.confirmed) return sendJson(res, 200, { view: currentView(state) });
    const done = interviewResult(state);
    const confirmed = { ...done, questionsAsked: done.questionsAsked + verdicts.shown };
    res.on("finish", () => {
      void shutDown().then(() => settle?.resolve(confirmed));
    });
    sendJson(res, 200, { view: currentView(state), done: true });
  }

  let closing: Promise<void> | undefined;
  function shutDown(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  }

  port = await listenOnLoopback(server, options.port);

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    result,
    async close() {
      await shutDown();
      if (!state.confirmed) settle?.reject(new Error("interview: the browser interview was closed before the judge.yaml was confirmed"));
    },
  };
}

// ---------------------------------------------------------------------------
// Requests

interface ActionRequest {
  at: InterviewState["at"];
  action: InterviewAction;
}

/** An edit from the page's form, written into a snippet by the server. */
type FormEdit = { type: "edit-form"; form: ClauseForm };

type PageActionRequest = { at: InterviewState["at"]; action: InterviewAction | FormEdit };

type PreviewRequest = { at: InterviewState["at"]; form: ClauseForm } | { at: InterviewState["at"]; text: string; as?: ClauseRef["kind"] };

const MAX_BODY_BYTES = 1 << 20;

/** The quote of the clause at the current question, which a form edit keeps. */
function quoteAt(state: InterviewState): string {
  if (state.at === "review") return "";
  return currentQuote(state.questions[state.at]!, state.decisions[state.at]);
}

/** Checks a preview request by hand, like an action. */
export function parsePreviewRequest(body: string): PreviewRequest | string {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return "the request body is not JSON";
  }
  if (!isObject(data)) return "expected {at, form} or {at, text}";
  const at = data.at;
  if (at !== "review" && !(typeof at === "number" && Number.isInteger(at))) return 'at must be a question index or "review"';
  if (Object.hasOwn(data, "form")) {
    const form = readForm(data.form);
    return typeof form === "string" ? form : { at, form };
  }
  if (typeof data.text !== "string") return "expected {at, form} or {at, text}";
  const as = readKind(data.as);
  if (as === null) return "as must be trigger, check or semanticCheck";
  return as === undefined ? { at, text: data.text } : { at, text: data.text, as };
}

function readKind(raw: unknown): ClauseRef["kind"] | undefined | null {
  if (raw === undefined) return undefined;
  return raw === "trigger" || raw === "check" || raw === "semanticCheck" ? raw : null;
}

const MAX_ALTERNATIVES = 64;

function readString(raw: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(raw, key) || raw[key] === undefined) return "";
  return typeof raw[key] === "string" ? raw[key] : undefined;
}

const MATCHER_FIELDS = ["action", "actor", "contentIncludes", "content", "metadata"] as const;

function readMatchers(raw: unknown, where: string): MatcherFields[] | string {
  if (!Array.isArray(raw) || raw.length > MAX_ALTERNATIVES) return `${where} must be a list of matchers`;
  const matchers: MatcherFields[] = [];
  for (const item of raw) {
    if (!isObject(item)) return `${where} must be a list of matchers`;
    const [action, actor, contentIncludes, content, metadata] = MATCHER_FIELDS.map((k) => readString(item, k));
    if (action === undefined || actor === undefined || contentIncludes === undefined || content === undefined || metadata === undefined) {
      return `${where}: every field is text`;
    }
    matchers.push({ action, actor, contentIncludes, content, metadata });
  }
  return matchers;
}

/** A condition's names from the page: each a name, a side, a pattern and an `on`, all text. */
function readBindings(raw: unknown): BindingFields[] | string {
  if (!Array.isArray(raw) || raw.length > MAX_ALTERNATIVES) return "form.with must be a list of names";
  const bindings: BindingFields[] = [];
  for (const [i, item] of raw.entries()) {
    if (!isObject(item)) return "form.with must be a list of names";
    const [name, side, on] = ["name", "side", "on"].map((k) => readString(item, k));
    if (name === undefined || side === undefined || on === undefined) return `form.with[${i}]: name, side and on are text`;
    const pattern = readMatchers(item.pattern ?? [], `form.with[${i}].pattern`);
    if (typeof pattern === "string") return pattern;
    bindings.push({ name, side, pattern, on });
  }
  return bindings;
}

const CHECK_TEXT_FIELDS = ["min", "max", "distinctBy", "on", "fresh", "within", "per", "sum", "when"] as const;

/** A form from the page: its shape checked here, its values by the parser. */
export function readForm(raw: unknown): ClauseForm | string {
  if (!isObject(raw)) return "form must be an object";
  switch (raw.kind) {
    case "semanticCheck": {
      const question = readString(raw, "question");
      return question === undefined ? "form.question must be text" : { kind: "semanticCheck", question };
    }
    case "trigger": {
      const description = readString(raw, "description");
      if (description === undefined) return "form.description must be text";
      const match = readMatchers(raw.match ?? [], "form.match");
      if (typeof match === "string") return match;
      return { kind: "trigger", description, semantic: raw.semantic === true, match };
    }
    case "check": {
      const type = raw.type as CheckType;
      if (typeof raw.type !== "string" || !CHECK_TYPES.includes(type)) return `form.type must be one of ${CHECK_TYPES.join(", ")}`;
      if (!isObject(raw.patterns)) return "form.patterns must be an object";
      const patterns: Record<string, MatcherFields[]> = {};
      for (const role of PATTERN_ROLES[type]) {
        const matchers = readMatchers(Object.hasOwn(raw.patterns, role) ? raw.patterns[role] : [], `form.patterns.${role}`);
        if (typeof matchers === "string") return matchers;
        patterns[role] = matchers;
      }
      const after = readMatchers(raw.after ?? [], "form.after");
      if (typeof after === "string") return after;
      const text: Partial<Record<(typeof CHECK_TEXT_FIELDS)[number], string>> = {};
      for (const key of CHECK_TEXT_FIELDS) {
        const value = readString(raw, key);
        if (value === undefined) return `form.${key} must be text`;
        text[key] = value;
      }
      const bindings = readBindings(raw.with ?? []);
      if (typeof bindings === "string") return bindings;
      const { min = "", max = "", distinctBy = "", on = "", fresh = "", within = "", per = "", sum = "", when = "" } = text;
      return { kind: "check", type, patterns, after, min, max, distinctBy, on, fresh, within, per, sum, with: bindings, when };
    }
    default:
      return "form.kind must be trigger, check or semanticCheck";
  }
}

/** A verdict answer from the page, checked by hand. */
export function parseVerdictRequest(body: string): { sample: string; rule: string; answer: VerdictAnswer } | string {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return "the request body is not JSON";
  }
  if (!isObject(data) || typeof data.sample !== "string" || typeof data.rule !== "string") return "expected {sample, rule, answer}";
  const answer = data.answer;
  if (answer !== "true" && answer !== "false" && answer !== "na" && answer !== "skip")
    return 'answer must be "true", "false", "na" or "skip"';
  return { sample: data.sample, rule: data.rule, answer };
}

/** Checks the page's JSON by hand: the body is untrusted input like any other. */
export function parseActionRequest(body: string): PageActionRequest | string {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return "the request body is not JSON";
  }
  if (!isObject(data) || !isObject(data.action)) return "expected {at, action}";
  const at = data.at;
  if (at !== "review" && !(typeof at === "number" && Number.isInteger(at))) return 'at must be a question index or "review"';
  const action = readAction(data.action);
  return typeof action === "string" ? action : { at, action };
}

function readAction(raw: Record<string, unknown>): InterviewAction | FormEdit | string {
  switch (raw.type) {
    case "accept":
    case "drop":
    case "back":
    case "forward":
    case "confirm":
    case "widen":
      return { type: raw.type };
    case "edit": {
      if (typeof raw.text !== "string") return "edit needs text";
      const as = readKind(raw.as);
      if (as === null) return "as must be trigger, check or semanticCheck";
      return as === undefined ? { type: "edit", text: raw.text } : { type: "edit", text: raw.text, as };
    }
    case "edit-form": {
      const form = readForm(raw.form);
      return typeof form === "string" ? form : { type: "edit-form", form };
    }
    case "semantic":
      return typeof raw.question === "string" ? { type: "semantic", question: raw.question } : "semantic needs a question";
    case "goto":
      return typeof raw.question === "number" ? { type: "goto", question: raw.question } : "goto needs a question index";
    default:
      return `unknown action ${JSON.stringify(raw.type)}`;
  }
}

function isRead(req: IncomingMessage): boolean {
  return req.method === "GET" || req.method === "HEAD";
}

function isJson(req: IncomingMessage): boolean {
  return (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** Browsers send Origin with every POST; a page from anywhere else is refused even if it learned the token. */
function sameOrigin(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return false;
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(undefined));
  });
}

// ---------------------------------------------------------------------------
// Responses

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  const body = Buffer.from(JSON.stringify(data), "utf8");
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(body.length),
  });
  res.end(body);
}

// ---------------------------------------------------------------------------
// The page

/** The page fetches its questions from this server, so it may connect back to it. */
export function interviewContentSecurityPolicy(): string {
  return pageContentSecurityPolicy("interview", { connect: true });
}

/** The page is static apart from its title; the script fetches the questions from the server. */
export function renderInterviewPage(behavior: string): string {
  const { html, css, js } = pageTemplates("interview");
  return fillSlots(html, {
    csp: escapeHtml(interviewContentSecurityPolicy()),
    title: escapeHtml(behavior === "" ? "behavior-judge: confirm the judge" : `${behavior}: confirm the judge`),
    behavior: escapeHtml(behavior),
    style: css,
    script: js,
  });
}
