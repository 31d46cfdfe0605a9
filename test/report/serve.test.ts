import { request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestsWithoutTheToken } from "../support/token-refusals.js";
import { renderHtmlReport } from "../../compiler/report/html.js";
import type { ReportInput } from "../../compiler/report/html.js";
import { serveReport } from "../../compiler/report/serve.js";
import type { ProgressEvent, ReportServer } from "../../compiler/report/serve.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";

const PAYLOAD = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

const finalReport: ReportInput = {
  behavior: "refund-support",
  rules: [
    {
      name: "Check the order before refunding",
      trigger: { description: "the agent issues a refund", kind: "match" },
      checks: [{ type: "ordering", quote: "Look the order up before any refund." }],
      semanticChecks: [],
    },
  ],
  results: [
    {
      file: "refunds.jsonl",
      trajectory: {
        id: "refund-1",
        description: "",
        complete: true,
        events: [
          { id: "e1", actor: "user", action: "message", content: PAYLOAD, metadata: {} },
          { id: "e2", actor: "agent", action: "issue_refund", content: "", metadata: { amount: "40" } },
        ],
      },
      judgment: {
        behavior: "refund-support",
        trajectoryId: "refund-1",
        verdict: "false",
        metaBehaviors: [
          {
            name: "Check the order before refunding",
            verdict: "false",
            naReason: null,
            triggered: true,
            clauses: [
              {
                kind: "predicate",
                check: "ordering",
                quote: "Look the order up before any refund.",
                verdict: "false",
                naReason: null,
                citations: [
                  { eventId: "e2", description: "refund without lookup" },
                  { eventId: "e1", description: "the request" },
                ],
                verification: "unverified",
              },
            ],
          },
        ],
      },
    },
  ],
};

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request, so tests control the Host header and method exactly. */
function send(url: string, options: { method?: string; host?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? "GET",
        headers: options.host === undefined ? {} : { host: options.host },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Reads a server-sent event stream as it arrives. */
function openStream(url: string) {
  let received = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((w) => w());
  const req = request(url, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      received += chunk;
      notify();
    });
    res.on("end", () => {
      ended = true;
      notify();
    });
  });
  req.end();
  return {
    get text() {
      return received;
    },
    get ended() {
      return ended;
    },
    /** Resolves once the stream holds `needle` (or ended, when waiting for the end). */
    async waitFor(done: () => boolean): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out; stream so far: ${received}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => req.destroy(),
  };
}

function progressMessages(stream: string): ProgressEvent[] {
  return [...stream.matchAll(/event: progress\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]!) as ProgressEvent);
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const originOf = (url: string) => new URL(url).origin;

describe("serveReport", () => {
  let server: ReportServer;

  beforeAll(async () => {
    server = await serveReport({ behavior: "refund-support" });
  });

  afterAll(async () => {
    await server.close();
  });

  it("listens on 127.0.0.1 with a fresh random token", async () => {
    const other = await serveReport();
    try {
      expect(new URL(server.url).hostname).toBe("127.0.0.1");
      expect(tokenOf(server.url)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokenOf(other.url)).not.toBe(tokenOf(server.url));
      expect(new URL(other.url).port).not.toBe(new URL(server.url).port);
    } finally {
      await other.close();
    }
  });

  it("refuses every request without the right token, and says nothing else", async () => {
    const origin = originOf(server.url);
    const token = tokenOf(server.url);
    const refused = requestsWithoutTheToken(token, ["/", "/events", "/favicon.ico"]);
    for (const path of refused) {
      const reply = await send(origin + path);
      expect([path, reply.status, reply.body]).toEqual([path, 403, ""]);
    }
  });

  it("refuses the right token under another host name (DNS rebinding)", async () => {
    const reply = await send(server.url, { host: `attacker.example:${new URL(server.url).port}` });
    expect(reply.status).toBe(403);
    expect((await send(server.url, { host: `localhost:${new URL(server.url).port}` })).status).toBe(200);
  });

  it("serves the page with the token, under a strict policy", async () => {
    const reply = await send(server.url);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    const csp = reply.headers["content-security-policy"];
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+';/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(reply.body).toContain('id="live-status"');

    const token = tokenOf(server.url);
    expect((await send(`${originOf(server.url)}/other?token=${token}`)).status).toBe(404);
    expect((await send(server.url, { method: "POST" })).status).toBe(405);
  });
});

describe("serveReport progress and final report", () => {
  let server: ReportServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const eventsUrl = (s: ReportServer) => `${originOf(s.url)}/events?token=${tokenOf(s.url)}`;

  it("streams progress as it is pushed, then the final report", async () => {
    server = await serveReport();
    const stream = openStream(eventsUrl(server));
    await stream.waitFor(() => stream.text.includes("retry:"));

    server.push({ done: 1, total: 2, file: "refunds.jsonl", trajectoryId: "refund-1", verdict: "false" });
    server.push({
      done: 2,
      total: 2,
      trajectoryId: "refund-2",
      verdict: "na",
      naReason: "not_applicable",
      secret: "x",
    } as ProgressEvent);
    await stream.waitFor(() => progressMessages(stream.text).length === 2);
    expect(progressMessages(stream.text)).toEqual([
      { done: 1, total: 2, file: "refunds.jsonl", trajectoryId: "refund-1", verdict: "false", seq: 0 },
      { done: 2, total: 2, trajectoryId: "refund-2", verdict: "na", naReason: "not_applicable", seq: 1 },
    ]);

    let served = false;
    void server.finalServed.then(() => (served = true));
    server.finish(finalReport);
    await stream.waitFor(() => stream.ended);
    expect(stream.text).toMatch(/event: final\ndata: \{\}\n\n$/);

    const page = await send(server.url);
    expect(page.body).toContain('<article class="card"');
    expect(page.body).toContain("Look the order up before any refund.");
    expect(page.headers["content-security-policy"]).not.toContain("connect-src");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(served).toBe(true);
  });

  it("replays earlier progress to a late page, and the end to a page that arrives after it", async () => {
    server = await serveReport();
    server.push({ done: 1, message: "reading refunds.jsonl" });
    const late = openStream(eventsUrl(server));
    await late.waitFor(() => progressMessages(late.text).length === 1);
    expect(progressMessages(late.text)[0]).toEqual({ done: 1, message: "reading refunds.jsonl", seq: 0 });
    late.close();

    server.finish(finalReport);
    server.push({ done: 99 }); // ignored: judging is over
    const after = openStream(eventsUrl(server));
    await after.waitFor(() => after.ended);
    expect(progressMessages(after.text).map((p) => p.done)).toEqual([1]);
    expect(after.text).toContain("event: final");
  });

  it("counts the final report as served only once all of it has left, so closing then cuts nothing off", async () => {
    // Megabytes of evidence, read slowly: more than the socket takes at once.
    const events = Array.from({ length: 2000 }, (_, i) => ({
      id: `e${i + 1}`,
      actor: "user" as const,
      action: "message",
      content: "x".repeat(2000),
      metadata: {},
    }));
    const big: ReportInput = {
      ...finalReport,
      results: [
        {
          ...finalReport.results[0]!,
          trajectory: { id: "refund-1", description: "", complete: true, events },
          judgment: {
            ...finalReport.results[0]!.judgment,
            metaBehaviors: [
              {
                ...finalReport.results[0]!.judgment.metaBehaviors[0]!,
                clauses: [
                  {
                    ...finalReport.results[0]!.judgment.metaBehaviors[0]!.clauses[0]!,
                    citations: events.map((e) => ({ eventId: e.id, description: "" })),
                  },
                ],
              },
            ],
          },
        },
      ],
    };
    server = await serveReport();
    server.finish(big);
    const received = new Promise<number>((resolve) => {
      const req = request(server!.url, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
        res.on("end", () => resolve(bytes));
        res.on("error", () => resolve(bytes));
      });
      req.on("error", () => resolve(-1));
      req.end();
    });
    // What the CLI does: close as soon as the report counts as served.
    await server.finalServed;
    await server.close();
    server = undefined;
    expect(await received).toBe(Buffer.byteLength(renderHtmlReport(big)));
  });

  it("closes while a page still listens", async () => {
    server = await serveReport();
    const stream = openStream(eventsUrl(server));
    await stream.waitFor(() => stream.text.includes("retry:"));
    await server.close();
    await stream.waitFor(() => stream.ended);
    server = undefined;
  });
});

describeWithBrowser("the served report in chromium", () => {
  let browser: Browser;
  let server: ReportServer;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await serveReport({ behavior: "refund-support" });
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("refuses the page without the token", async () => {
    for (const path of ["/", "/?token=wrong"]) {
      // A page of its own each: chromium replaces an empty error response with its error page, and goto rejects.
      const page = await browser.newPage();
      const statuses: number[] = [];
      page.on("response", (r) => statuses.push(r.status()));
      await page.goto(originOf(server.url) + path).catch(() => undefined);
      expect([path, statuses]).toEqual([path, [403]]);
      await page.close();
    }

    // Even a script on the report's own origin gets nothing without the token.
    const page = await browser.newPage();
    await page.goto(server.url);
    const replies = await page.evaluate(async () => {
      const get = async (path: string) => {
        const res = await fetch(path);
        return [res.status, await res.text()];
      };
      return [await get("/"), await get("/events"), await get("/?token=x")];
    });
    expect(replies).toEqual([
      [403, ""],
      [403, ""],
      [403, ""],
    ]);
    await page.close();
  });

  it("shows live progress, then loads the final report", async () => {
    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);

    const response = await page.goto(server.url);
    expect(response?.status()).toBe(200);
    expect(await page.locator("#live-status").textContent()).toBe("Waiting for the first verdict…");

    server.push({ done: 1, total: 2, file: "refunds.jsonl", trajectoryId: PAYLOAD, verdict: "false" });
    await page.locator("#live-status", { hasText: "Judged 1 of 2 trajectories" }).waitFor({ timeout: 10_000 });
    expect(await page.locator("#live-list li").textContent()).toBe(`Fail ${PAYLOAD} (refunds.jsonl)`);
    server.push({
      done: 2,
      total: 2,
      file: "refunds.jsonl",
      trajectoryId: "refund-2",
      verdict: "na",
      naReason: "not_applicable",
    });
    server.push({ done: 3, total: 4, trajectoryId: "refund-3", verdict: "na", naReason: "insufficient_evidence" });
    server.push({ done: 4, total: 4, trajectoryId: "refund-4", verdict: "na", naReason: "insufficient_evidence", error: true });
    await page.locator("#live-list li", { hasText: "refund-4" }).waitFor({ timeout: 10_000 });
    // Labeled as the final report labels them.
    expect(await page.locator("#live-list li .badge").allTextContents()).toEqual([
      "Fail",
      "Didn't apply",
      "No verdict — insufficient evidence",
      "Error — no valid model answer",
    ]);
    expect(await page.locator("#live-progress").evaluate((p) => (p as unknown as { value: number }).value)).toBe(4);

    server.finish(finalReport);
    await page.locator(".card").waitFor({ timeout: 10_000 });
    await server.finalServed;
    expect(await page.locator(".card h2").textContent()).toBe("refund-1");
    expect(await page.locator(".card-head .badge").textContent()).toBe("Fail");
    expect(await page.locator(".event .content").textContent()).toBe(PAYLOAD);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();

    const origin = originOf(server.url);
    expect(requests.filter((url) => !url.startsWith(origin + "/"))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
