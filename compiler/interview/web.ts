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
import { interviewResult, startInterview, step } from "./state.js";
import { currentView } from "./view.js";
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
  let state = startInterview(input);
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
    if (url.pathname === "/state" && isRead(req)) return sendJson(res, 200, { view: currentView(state) });
    if (url.pathname === "/action" && req.method === "POST") {
      return void handleAction(req, res, port).catch(() => {
        if (!res.headersSent) refuse(res, 500);
      });
    }
    if (url.pathname === "/cancel" && req.method === "POST") return handleCancel(req, res, port);
    if (url.pathname === "/" || url.pathname === "/state" || url.pathname === "/action" || url.pathname === "/cancel")
      return refuse(res, 405);
    return refuse(res, 404);
  });

  /** The person ends the interview without writing: `result` rejects with InterviewCancelledError. */
  function handleCancel(req: IncomingMessage, res: ServerResponse, ownPort: number): void {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    res.on("finish", () => {
      void shutDown().then(() => settle?.reject(new InterviewCancelledError()));
    });
    sendJson(res, 200, { cancelled: true });
  }

  async function handleAction(req: IncomingMessage, res: ServerResponse, ownPort: number): Promise<void> {
    if (!sameOrigin(req, ownPort)) return refuse(res, 403);
    if (!isJson(req)) return refuse(res, 415);
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413);
    const request = parseActionRequest(body);
    if (typeof request === "string") return sendJson(res, 400, { error: request, view: currentView(state) });
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
        diagnostics: outcome.diagnostics.map((d) => ({ ...d, text: formatDiagnostic(d) })),
        view: currentView(state),
      });
    }
    if (!state.confirmed) return sendJson(res, 200, { view: currentView(state) });
    const confirmed = interviewResult(state);
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

const MAX_BODY_BYTES = 1 << 20;

/** Checks the page's JSON by hand: the body is untrusted input like any other. */
export function parseActionRequest(body: string): ActionRequest | string {
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

function readAction(raw: Record<string, unknown>): InterviewAction | string {
  switch (raw.type) {
    case "accept":
    case "drop":
    case "back":
    case "forward":
    case "confirm":
      return { type: raw.type };
    case "edit":
      return typeof raw.text === "string" ? { type: "edit", text: raw.text } : "edit needs text";
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
