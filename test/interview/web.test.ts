import { request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestsWithoutTheToken } from "../support/token-refusals.js";
import { InterviewCancelledError, runInterview } from "../../compiler/interview/index.js";
import { parseActionRequest, startWebInterview } from "../../compiler/interview/web.js";
import type { WebInterview } from "../../compiler/interview/web.js";
import { parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { draftIR, HOSTILE, interviewInput } from "./fixture.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request, so tests control the Host and Origin headers exactly. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        // A fresh connection each time: a pooled one would outlive the server and hide whether it still listens.
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const originOf = (url: string) => new URL(url).origin;
const withToken = (server: WebInterview, path: string) => `${originOf(server.url)}${path}?token=${tokenOf(server.url)}`;

function postAction(server: WebInterview, at: number | "review", action: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(withToken(server, "/action"), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ at, action }),
  });
}

describe("the interview server", () => {
  let server: WebInterview;

  beforeAll(async () => {
    server = await startWebInterview(interviewInput());
  });

  afterAll(async () => {
    await server.close();
  });

  it("listens on 127.0.0.1 with a fresh 256-bit token", async () => {
    const other = await startWebInterview(interviewInput());
    try {
      expect(new URL(server.url).hostname).toBe("127.0.0.1");
      expect(new URL(server.url).pathname).toBe("/");
      expect(tokenOf(server.url)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokenOf(other.url)).not.toBe(tokenOf(server.url));
    } finally {
      await other.close();
    }
    await expect(other.result).rejects.toThrow(/closed before the judge.yaml was confirmed/);
  });

  it("refuses every request without the right token with a bare 403", async () => {
    const origin = originOf(server.url);
    const token = tokenOf(server.url);
    const sameLengthWrong = (token[0] === "A" ? "B" : "A") + token.slice(1);
    const refused = requestsWithoutTheToken(token, ["/", "/state", "/action"]);
    for (const path of refused) {
      const reply = await send(origin + path);
      expect([path, reply.status, reply.body]).toEqual([path, 403, ""]);
    }
    const post = await send(`${origin}/action?token=${sameLengthWrong}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ at: 0, action: { type: "drop" } }),
    });
    expect(post.status).toBe(403);
    // Nothing was answered by the refused request.
    const state = JSON.parse((await send(withToken(server, "/state"))).body) as {
      view: { question: number; decision?: unknown };
    };
    expect([state.view.question, state.view.decision]).toEqual([0, undefined]);
  });

  it("refuses the right token under another host name (DNS rebinding) and from another origin", async () => {
    const port = new URL(server.url).port;
    expect((await send(server.url, { headers: { host: `attacker.example:${port}` } })).status).toBe(403);
    expect((await send(server.url, { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await postAction(server, 0, { type: "drop" }, { Origin: "http://attacker.example" })).status).toBe(403);
    expect((await postAction(server, 0, { type: "drop" }, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
  });

  it("serves the page under a strict policy that allows no other origin", async () => {
    const reply = await send(server.url);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    const csp = reply.headers["content-security-policy"]!;
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:; connect-src 'self';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(reply.body).not.toMatch(/\b(?:src|href)="(?!data:)/);
    expect(reply.body).not.toMatch(/https?:\/\//);
  });

  it("checks methods, content type, body and which question an answer is for", async () => {
    expect((await send(withToken(server, "/other"))).status).toBe(404);
    expect((await send(server.url, { method: "POST" })).status).toBe(405);
    expect((await send(withToken(server, "/action"))).status).toBe(405);
    const plain = await send(withToken(server, "/action"), {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(plain.status).toBe(415);
    const bad = await send(withToken(server, "/action"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect([bad.status, (JSON.parse(bad.body) as { error: string }).error]).toEqual([400, "the request body is not JSON"]);
    const stale = await postAction(server, 3, { type: "accept" });
    expect(stale.status).toBe(409);
    expect((JSON.parse(stale.body) as { view: { question: number } }).view.question).toBe(0);
    const invalid = await postAction(server, 0, { type: "edit", text: "description: x" });
    expect(invalid.status).toBe(200);
    expect(JSON.parse(invalid.body)).toMatchObject({
      refused: true,
      view: { question: 0, decisionLabel: expect.stringMatching(/^not answered/) },
      error: expect.stringMatching(/not a valid clause/),
      diagnostics: [{ path: "", message: expect.any(String) }],
    });
  });

  it("reads only well-formed actions", () => {
    expect(parseActionRequest('{"at": 1, "action": {"type": "edit", "text": "x"}}')).toEqual({
      at: 1,
      action: { type: "edit", text: "x" },
    });
    expect(parseActionRequest('{"at": "review", "action": {"type": "confirm", "extra": 1}}')).toEqual({
      at: "review",
      action: { type: "confirm" },
    });
    expect(parseActionRequest('{"at": 1, "action": {"type": "edit"}}')).toBe("edit needs text");
    expect(parseActionRequest('{"at": 1.5, "action": {"type": "accept"}}')).toMatch(/at must be/);
    expect(parseActionRequest('{"at": 1, "action": {"type": "__proto__"}}')).toBe('unknown action "__proto__"');
    expect(parseActionRequest("[]")).toBe("expected {at, action}");
  });
});

describe("runInterview in the browser mode", () => {
  let url: string | undefined;

  afterEach(() => {
    url = undefined;
  });

  it("hands out the URL, resolves on confirm, then stops serving", async () => {
    const result = runInterview(interviewInput({ ask: [2] }), { web: true, onUrl: (u) => (url = u) });
    await waitFor(() => url !== undefined);
    const server = { url: url! } as WebInterview;
    for (let at = 0; at < 3; at++) expect((await postAction(server, at, { type: "accept" })).status).toBe(200);
    const done = await postAction(server, "review", { type: "confirm" });
    expect(JSON.parse(done.body)).toMatchObject({ done: true, view: { kind: "review", confirmed: true } });
    await expect(result).resolves.toEqual({ ir: draftIR(), questionsAsked: 3 });
    await expect(send(server.url)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("ends without a judge.yaml when the person cancels, then stops serving", async () => {
    // Settled as soon as it rejects, so the rejection is never unhandled while the test is still sending.
    const outcome = runInterview(interviewInput(), { web: true, onUrl: (u) => (url = u) }).then(
      () => "resolved",
      (error: unknown) => error,
    );
    await waitFor(() => url !== undefined);
    const server = { url: url! } as WebInterview;
    const cancelUrl = withToken(server, "/cancel");
    // Only the page itself may cancel: another origin, or a form post, is refused.
    expect(
      (
        await send(cancelUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: "http://attacker.example" },
          body: "{}",
        })
      ).status,
    ).toBe(403);
    expect((await send(cancelUrl, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" })).status).toBe(415);
    const reply = await send(cancelUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(JSON.parse(reply.body)).toEqual({ cancelled: true });
    expect(await outcome).toBeInstanceOf(InterviewCancelledError);
    await expect(send(server.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeWithBrowser("the interview page in chromium", () => {
  let browser: Browser;
  let server: WebInterview;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startWebInterview(interviewInput());
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("refuses the page without the token, or with a wrong one", async () => {
    for (const path of ["/", "/?token=wrong", "/state"]) {
      const page = await browser.newPage();
      const statuses: number[] = [];
      page.on("response", (r) => statuses.push(r.status()));
      await page.goto(originOf(server.url) + path).catch(() => undefined);
      expect([path, statuses]).toEqual([path, [403]]);
      await page.close();
    }
  });

  it("walks through the questions, edits, asks a model instead, drops, goes back, reviews and confirms", async () => {
    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);

    await page.goto(server.url);
    await expectQuestion(page, 1, "Trigger");
    expect(await page.locator("#rule-name").textContent()).toBe("Look up the order first");
    expect(await page.locator("#evidence .evidence-group h4").allTextContents()).toEqual(["clean-refund", "escalatedincomplete"]);
    await page.click("#choice-accept");

    // An edit the parser refuses shows its diagnostics and stays on the question; a valid one moves on.
    await expectQuestion(page, 2, "Check 1 of 1 · ordering");
    expect(await page.locator("#quote").textContent()).toBe(
      "Before the agent issues a refund, it retrieves the order and the lookup finds it",
    );
    expect(await page.locator("#evidence-summary").textContent()).toBe("first: 1 event · before: 3 events");
    await page.click("#choice-edit");
    expect(await page.locator("#edit-text").inputValue()).toContain("type: ordering");
    await page.fill(
      "#edit-text",
      "type: ordering\nquote: Look it up first\nfirts: {action: get_order_result}\nbefore: {action: issue_refund}",
    );
    await page.click("#edit-save");
    await page.locator("#edit-diagnostics li").first().waitFor();
    expect(await page.locator("#edit-diagnostics").textContent()).toContain('line 3, col 1: unknown key "firts" (did you mean "first"?)');
    await expectQuestion(page, 2, "Check 1 of 1 · ordering");
    const edited = [
      "type: ordering",
      "quote: Before the agent issues a refund, it retrieves the order and the lookup finds it",
      "first: {action: get_order_result, metadata: {status: found}}",
      "before: [{action: issue_refund}, {action: issue_store_credit}]",
    ].join("\n");
    await page.fill("#edit-text", edited);
    await page.click("#edit-save");

    await expectQuestion(page, 3, "Trigger");
    await page.click("#choice-accept");

    await expectQuestion(page, 4, "Check 1 of 1 · pairing");
    // Hostile text from the draft and the samples is shown as text, never run.
    expect(await page.locator("#notes").textContent()).toBe(`check the email template ${HOSTILE}`);
    expect(await page.locator("#evidence .content").allTextContents()).toEqual(["", HOSTILE, ""]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.click("#choice-semantic");
    expect(await page.locator("#semantic-text").inputValue()).toMatch(/^Is this satisfied in the trajectory: "Whenever/);
    await page.fill("#semantic-text", "Did the agent email the refund confirmation after each approval?");
    await page.click("#semantic-save");

    await expectQuestion(page, 5, "Semantic check 1 of 1");
    expect(await page.locator("#evidence-summary").textContent()).toMatch(/A model answers this/);
    await page.click("#choice-drop");

    // Back once: the dropped question shows its answer; skipping ahead keeps it.
    await expectQuestion(page, 6, "Trigger");
    await page.click("#back");
    await expectQuestion(page, 5, "Semantic check 1 of 1");
    expect(await page.locator("#decision").textContent()).toBe("dropped");
    expect(await page.locator("#choice-accept").textContent()).toBe("Accept the draft instead");
    expect(await page.locator("#forward").textContent()).toBe("Keep my answer →");
    await page.click("#forward");

    await expectQuestion(page, 6, "Trigger");
    await page.click("#choice-accept");
    await expectQuestion(page, 7, "Check 1 of 2 · forbidden");
    await page.click("#choice-accept");
    await expectQuestion(page, 8, "Check 2 of 2 · required");
    await page.click("#choice-accept");

    await page.locator("#review").waitFor();
    const yaml = await page.locator("#review-yaml").textContent();
    expect(await page.locator("#review-notices").textContent()).toContain(
      "Answers: 5 accepted, 1 edited, 1 turned into semantic questions, 1 dropped.",
    );
    expect(await page.locator("#review-answers li").count()).toBe(8);
    await page.click("#confirm");
    await page.locator("#done").waitFor();

    const result = await server.result;
    expect(result.questionsAsked).toBe(8);
    expect(serializeJudgeYaml(result.ir)).toBe(yaml);
    const parsed = parseJudgeYaml(yaml!);
    expect(parsed.ok && parsed.ir).toEqual(result.ir);
    const expected = draftIR();
    expected.metaBehaviors[0]!.checks = [
      {
        type: "ordering",
        quote: "Before the agent issues a refund, it retrieves the order and the lookup finds it",
        first: [{ action: "get_order_result", metadata: { status: "found" } }],
        before: [{ action: "issue_refund" }, { action: "issue_store_credit" }],
      },
    ];
    expected.metaBehaviors[1]!.checks = [];
    expected.metaBehaviors[1]!.semanticChecks = [
      {
        quote: "Whenever the processor approves a refund, the agent afterwards sends the refund confirmation email",
        question: "Did the agent email the refund confirmation after each approval?",
      },
    ];
    expect(result.ir).toEqual(expected);

    const origin = originOf(server.url);
    expect(requests.filter((u) => !u.startsWith(origin + "/"))).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });
});

async function expectQuestion(page: Page, number: number, label: string): Promise<void> {
  await page.locator("#progress", { hasText: new RegExp(`^Question ${number} of \\d+$`) }).waitFor({ timeout: 10_000 });
  expect(await page.locator("#clause-label").textContent()).toBe(label);
}
