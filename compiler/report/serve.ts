/**
 * Serves the report to a local browser while judging runs: a progress page
 * fed by server-sent events, then the full report. Bound to 127.0.0.1 only,
 * and every request must carry the one-time token minted here, so other
 * local users, other sites (DNS rebinding) and other tabs cannot read the
 * trajectories.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NaReason, Verdict } from "../../runtime/types.js";
import { renderHtmlReport, renderLivePage, reportContentSecurityPolicy } from "./html.js";
import type { ReportInput } from "./html.js";
import { SECURITY_HEADERS, authorizedUrl, listenOnLoopback, newToken, refuse, sendPage } from "../web/local-server.js";

/** One step of progress, pushed as each trajectory is judged. */
export interface ProgressEvent {
  /** Trajectories judged so far. */
  done: number;
  /** How many there are in all, when known. */
  total?: number;
  file?: string;
  trajectoryId?: string;
  verdict?: Verdict;
  naReason?: NaReason | null;
  /** The trajectory's error marker: a model call failed (docs/FORMATS.md §4). */
  error?: true;
  /** A free-form status line ("reading trips.jsonl"). */
  message?: string;
}

export interface ServeReportOptions {
  /** Shown in the title of the progress page. */
  behavior?: string;
  /** Port to bind; default 0 (a free port chosen by the OS). */
  port?: number;
}

export interface ReportServer {
  /** The page's address, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  /** Sends progress to every open page (and to pages opened later). Ignored after finish. */
  push(event: ProgressEvent): void;
  /** Switches the page to the full report and tells open pages to load it. */
  finish(finalInput: ReportInput): void;
  /** Resolves the first time the full report has been sent to a browser, so a CLI knows when it may exit. */
  finalServed: Promise<void>;
  /** Whether a page has asked for the report (live or final) yet: a browser did open the URL. */
  readonly visited: boolean;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 15_000;

/** Starts the report server on 127.0.0.1 and resolves once it is listening. */
export async function serveReport(options: ServeReportOptions = {}): Promise<ReportServer> {
  const token = newToken();
  const expectedToken = Buffer.from(token, "utf8");
  const livePage = renderLivePage(options.behavior ?? "");
  const streams = new Set<ServerResponse>();
  // Replayed to late or reconnecting pages; holds only short progress lines.
  const sent: string[] = [];
  let finalPage: string | undefined;
  let seq = 0;
  let port = 0;
  let visited = false;
  let markFinalServed: () => void = () => {};
  const finalServed = new Promise<void>((resolve) => {
    markFinalServed = resolve;
  });

  const server = createServer((req, res) => {
    const url = authorizedUrl(req, port, expectedToken);
    if (url === undefined) return refuse(res, 403);
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405);
    if (url.pathname === "/") {
      visited = true;
      const mode = finalPage === undefined ? "live" : "report";
      sendPage(res, req.method === "HEAD", finalPage ?? livePage, reportContentSecurityPolicy(mode));
      // Only once the whole page has left this process: closing the server at once would cut a large report short.
      if (mode === "report" && req.method === "GET") res.once("finish", markFinalServed);
      return;
    }
    if (url.pathname === "/events") return openEventStream(req, res);
    return refuse(res, 404);
  });

  function openEventStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "text/event-stream; charset=utf-8",
      Connection: "keep-alive",
    });
    if (req.method === "HEAD") return void res.end();
    res.write("retry: 1000\n\n");
    for (const message of sent) res.write(message);
    if (finalPage !== undefined) return void res.end(FINAL_MESSAGE);
    streams.add(res);
    res.on("close", () => streams.delete(res));
  }

  function broadcast(message: string): void {
    for (const stream of streams) stream.write(message);
  }

  const heartbeat = setInterval(() => broadcast(": keep-alive\n\n"), HEARTBEAT_MS);
  heartbeat.unref();

  port = await listenOnLoopback(server, options.port);

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    finalServed,
    get visited() {
      return visited;
    },
    push(event) {
      if (finalPage !== undefined) return;
      const message = sseMessage("progress", { ...progressFields(event), seq: seq++ });
      sent.push(message);
      broadcast(message);
    },
    finish(finalInput) {
      if (finalPage !== undefined) return;
      // The page must be in place before pages are told to reload.
      finalPage = renderHtmlReport(finalInput);
      for (const stream of streams) stream.end(FINAL_MESSAGE);
      streams.clear();
    },
    async close() {
      clearInterval(heartbeat);
      for (const stream of streams) stream.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const FINAL_MESSAGE = "event: final\ndata: {}\n\n";

/** Copies the known fields only, so nothing else the caller attached reaches the page. */
function progressFields(event: ProgressEvent): ProgressEvent {
  const fields: ProgressEvent = { done: event.done };
  if (event.total !== undefined) fields.total = event.total;
  if (event.file !== undefined) fields.file = event.file;
  if (event.trajectoryId !== undefined) fields.trajectoryId = event.trajectoryId;
  if (event.verdict !== undefined) fields.verdict = event.verdict;
  if (event.naReason !== undefined) fields.naReason = event.naReason;
  if (event.error === true) fields.error = true;
  if (event.message !== undefined) fields.message = event.message;
  return fields;
}

/** JSON.stringify never emits a raw CR or LF, so the payload stays one `data:` line. */
function sseMessage(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
