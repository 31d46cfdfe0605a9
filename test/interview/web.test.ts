import { request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestsWithoutTheToken } from "../support/token-refusals.js";
import { InterviewCancelledError, runInterview } from "../../compiler/interview/index.js";
import { parseActionRequest, parsePreviewRequest, readForm, startWebInterview } from "../../compiler/interview/web.js";
import type { WebInterview } from "../../compiler/interview/web.js";
import { parseJudgeYaml, serializeJudgeYaml } from "../../compiler/ir/index.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { draft, draftIR, HOSTILE, interviewInput, proportionSamples, samples, spec } from "./fixture.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";

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

  it("previews an edit as it is typed, changing nothing, behind the same guards as an answer", async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      send(withToken(server, "/preview"), {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const form = { kind: "trigger", description: "The agent issues a refund.", semantic: false, match: [{ action: "get_order" }] };
    const ok = await post({ at: 0, form });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({
      ok: true,
      yaml: "description: The agent issues a refund.\nmatch:\n  action: get_order\n",
      preview: {
        trigger: { fires: ["clean-refund"], silent: ["escalated"] },
        rule: { pass: ["clean-refund"], fail: [], na: ["escalated"] },
      },
      evidence: { roles: [{ role: "trigger", matches: 1 }] },
    });
    const invalid = await post({ at: 0, form: { ...form, match: [{ actor: "robot" }] } });
    expect(JSON.parse(invalid.body)).toEqual({
      ok: false,
      diagnostics: [expect.objectContaining({ path: "match[0].actor", line: 0, text: "match[0].actor: must be user, agent, or tool" })],
    });
    const yaml = await post({ at: 0, text: "description: d\nmatch: {action: get_order, colour: red}" });
    expect(JSON.parse(yaml.body)).toMatchObject({
      ok: false,
      diagnostics: [{ line: 2, text: expect.stringMatching(/^line 2, col \d+: match: unknown key "colour"/) }],
    });
    // Nothing was answered.
    const state = JSON.parse((await send(withToken(server, "/state"))).body) as { view: { question: number; decision?: unknown } };
    expect([state.view.question, state.view.decision]).toEqual([0, undefined]);

    expect((await post({ at: 0, form }, { Origin: "http://attacker.example" })).status).toBe(403);
    const plain = await send(withToken(server, "/preview"), { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(plain.status).toBe(415);
    const stale = await post({ at: 3, form });
    expect([stale.status, JSON.parse(stale.body)]).toEqual([
      200,
      { ok: false, stale: true, error: "the interview moved on in another tab" },
    ]);
    expect((await send(withToken(server, "/preview"))).status).toBe(405);
    expect(
      (await send(`${originOf(server.url)}/preview`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }))
        .status,
    ).toBe(403);
    const bad = await post({ at: 0, form: { kind: "check", type: "__proto__", patterns: {} } });
    expect([bad.status, (JSON.parse(bad.body) as { error: string }).error]).toEqual([
      400,
      "form.type must be one of ordering, pairing, required, forbidden, count, condition",
    ]);
  });

  it("reads only well-formed forms", () => {
    expect(readForm({ kind: "semanticCheck", question: "q?", quote: "ignored" })).toEqual({ kind: "semanticCheck", question: "q?" });
    expect(
      readForm({ kind: "check", type: "count", patterns: { match: [{ action: "a" }], first: [{ action: "ignored" }] }, min: "1" }),
    ).toEqual({
      kind: "check",
      type: "count",
      patterns: { match: [{ action: "a", actor: "", contentIncludes: "", content: "", metadata: "" }] },
      after: [],
      min: "1",
      max: "",
      distinctBy: "",
      on: "",
      fresh: "",
      within: "",
      per: "",
      sum: "",
      with: [],
      when: "",
    });
    expect(readForm({ kind: "check", type: "condition", patterns: { each: [] }, with: [{ name: "r", side: 1 }] })).toBe(
      "form.with[0]: name, side and on are text",
    );
    expect(readForm({ kind: "check", type: "condition", patterns: { each: [] }, when: ["x"] })).toBe("form.when must be text");
    expect(readForm({ kind: "check", type: "required", patterns: { match: [{ action: 1 }] } })).toBe(
      "form.patterns.match: every field is text",
    );
    expect(readForm({ kind: "check", type: "required", patterns: { match: {} } })).toBe("form.patterns.match must be a list of matchers");
    expect(readForm({ kind: "trigger", description: ["x"] })).toBe("form.description must be text");
    expect(readForm({ kind: "other" })).toBe("form.kind must be trigger, check or semanticCheck");
    expect(parsePreviewRequest('{"at": 1, "text": "x", "as": "rule"}')).toBe("as must be trigger, check or semanticCheck");
    expect(parsePreviewRequest('{"at": 1, "text": "x", "as": "check"}')).toEqual({ at: 1, text: "x", as: "check" });
  });

  it("reads only well-formed actions", () => {
    expect(parseActionRequest('{"at": 1, "action": {"type": "widen"}}')).toEqual({ at: 1, action: { type: "widen" } });
    expect(parseActionRequest('{"at": 1, "action": {"type": "edit", "text": "x", "as": "semanticCheck"}}')).toEqual({
      at: 1,
      action: { type: "edit", text: "x", as: "semanticCheck" },
    });
    expect(parseActionRequest('{"at": 1, "action": {"type": "edit-form", "form": {"kind": "semanticCheck", "question": "q?"}}}')).toEqual({
      at: 1,
      action: { type: "edit-form", form: { kind: "semanticCheck", question: "q?" } },
    });
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
    await page.click("#yaml-edit summary");
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

describeWithBrowser("structured editing in chromium, through generate to the written judge.yaml", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("edits fields with the preview recomputed as they change, rejects an invalid value with the parser's message, and writes the edit with the quote verbatim", async () => {
    // The fixture's spec and samples on disk, and its hand-made draft in place of the drafter's, so the questions are fixed.
    const dir = mkdtempSync(join(tmpdir(), "bj-interview-"));
    const body = spec.sections.map((s) => `## ${s.heading}\n\n${s.body}\n`).join("\n");
    writeFileSync(
      join(dir, "BEHAVIOR.md"),
      `---\nname: ${spec.name}\ndescription: ${spec.description}\n---\n\n${spec.preamble}\n\n${body}`,
    );
    const files = samples.map((t) => {
      const file = join(dir, `${t.id}.json`);
      writeFileSync(file, JSON.stringify(t));
      return file;
    });
    let url: string | undefined;
    const out = join(dir, "judge.yaml");
    const generated = generateJudgeYaml({
      spec: dir,
      samples: files,
      out,
      compile: false,
      interviewer: async (input) => {
        const interview = await startWebInterview({ ...input, draft: draft() });
        url = interview.url;
        return interview.result;
      },
    });
    await waitFor(() => url !== undefined);
    const page = await browser.newPage();
    const { problems, requests } = watchPage(page);
    await page.goto(url!);
    await expectQuestion(page, 1, "Trigger");
    expect(await page.locator("#preview-body .trigger-line").textContent()).toBe(
      "The trigger fires on 2 (clean-refund, escalated); not on 0.",
    );
    await page.click("#choice-accept");

    await expectQuestion(page, 2, "Check 1 of 1 · ordering");
    expect(await page.locator("#preview-body .v-clause-pass").textContent()).toBe("1 (clean-refund)");
    expect(await page.locator("#preview-body .v-clause-fail").textContent()).toBe("1 (escalated)");
    await page.click("#choice-edit");
    const quote = "Before the agent issues a refund, it retrieves the order and the lookup finds it";
    expect(await page.locator("#form-quote").textContent()).toBe(quote);
    // Prefilled from the clause.
    expect(await page.locator('[data-path="first[0].action"]').inputValue()).toBe("get_order_result");
    expect(await page.locator('[data-path="first[0].actor"]').inputValue()).toBe("tool");
    expect(await page.locator('[data-path="first[0].metadata"]').inputValue()).toBe("status: found");
    await expectText(page, "#edit-preview .v-clause-pass", "1 (clean-refund)");

    // A value no sample has: the preview turns at once, and says so loudly.
    await page.fill('[data-path="first[0].metadata"]', "status: missing");
    await expectText(page, "#edit-preview .v-clause-fail", "2 (clean-refund, escalated)");
    expect(await page.locator("#edit-preview .preview-warnings li").allTextContents()).toEqual([
      "Warning: the rule fails every sample it applies to (clean-refund, escalated)",
      "Warning: checks[0] fails every sample the rule applies to (clean-refund, escalated)",
      'Warning: checks[0]: no sample "get_order_result" event has metadata status: missing',
    ]);
    expect(await page.locator("#evidence-summary").textContent()).toMatch(/^With your edit: first: 0 events · before: 3 events/);
    // The saved clause has not changed.
    expect(await page.locator("#preview-body .v-clause-pass").textContent()).toBe("1 (clean-refund)");

    // Another type brings its own fields; a bound the parser refuses is shown with its message, on its field.
    await page.selectOption('[data-path="type"]', "count");
    expect(await page.locator('[data-path="match[0].action"]').inputValue()).toBe("get_order_result");
    expect(await page.locator('[data-path="after[0].action"]').inputValue()).toBe("issue_refund");
    await page.fill('[data-path="min"]', "two");
    await expectText(page, "#edit-diagnostics li", "min: must be a non-negative integer");
    expect(await page.locator('[data-path="min"]').getAttribute("aria-invalid")).toBe("true");
    await page.click("#edit-save");
    await page.locator("#error", { hasText: "not a valid clause" }).waitFor();
    await expectQuestion(page, 2, "Check 1 of 1 · ordering");
    await page.selectOption('[data-path="type"]', "ordering");
    expect(await page.locator('[data-path="before[0].action"]').inputValue()).toBe("issue_refund");
    await page.fill('[data-path="first[0].metadata"]', "status: found, order_id: A-1");
    await expectText(page, "#edit-preview .v-clause-pass", "1 (clean-refund)");
    expect(await page.locator("#edit-diagnostics li").count()).toBe(0);
    expect(await page.locator('[data-path="min"]').count()).toBe(0);
    await page.click("#edit-save");

    await expectQuestion(page, 3, "Trigger");
    await page.click("#choice-accept");
    await expectQuestion(page, 4, "Check 1 of 1 · pairing");
    await page.click("#choice-accept");

    // A semantic question becomes an event check, its quote kept.
    await expectQuestion(page, 5, "Semantic check 1 of 1");
    expect(await page.locator("#preview-body .v-clause-na").textContent()).toBe("2 (clean-refund, escalated)");
    await page.click("#choice-edit");
    expect(await page.locator('[data-path="question"]').inputValue()).toBe(
      "Did the agent avoid treating a chat message as the confirmation?",
    );
    await page.check("#form-kind-check");
    await page.selectOption('[data-path="type"]', "forbidden");
    await page.fill('[data-path="match[0].action"]', "message");
    await page.selectOption('[data-path="match[0].actor"]', "agent");
    await page.fill('[data-path="match[0].contentIncludes"]', "on its way");
    await expectText(page, "#edit-preview .v-clause-pass", "2 (clean-refund, escalated)");
    expect(await page.locator("#form-quote").textContent()).toBe("A chat message saying the money is on its way is not a substitute.");
    await page.click("#edit-save");

    for (const [n, label] of [
      [6, "Trigger"],
      [7, "Check 1 of 2 · forbidden"],
      [8, "Check 2 of 2 · required"],
    ] as const) {
      await expectQuestion(page, n, label);
      await page.click("#choice-accept");
    }
    await page.locator("#review").waitFor();
    expect(await page.locator("#review-preview h4").allTextContents()).toEqual([
      "Look up the order first",
      "Confirm every approved refund",
      "Stop paying out once escalated",
    ]);
    expect(await page.locator("#review-preview .preview-warnings li").allTextContents()).toContain(
      "Warning: the rule fails every sample it applies to (escalated)",
    );
    await page.click("#confirm");
    await page.locator("#done").waitFor();

    const result = await generated;
    const written = readFileSync(out, "utf8");
    expect(written).toBe(result.yaml);
    const [lookup, confirm] = result.ir.metaBehaviors;
    expect(lookup!.checks).toEqual([
      {
        type: "ordering",
        quote,
        first: [{ action: "get_order_result", actor: "tool", metadata: { status: "found", order_id: "A-1" } }],
        before: [{ action: "issue_refund" }],
      },
    ]);
    expect(confirm!.semanticChecks).toEqual([]);
    expect(confirm!.checks[1]).toEqual({
      type: "forbidden",
      quote: "A chat message saying the money is on its way is not a substitute.",
      match: [{ action: "message", actor: "agent", contentIncludes: "on its way" }],
    });
    expect(written).toContain(`quote: ${quote}\n`);
    expect(written).toContain("quote: A chat message saying the money is on its way is not a substitute.\n");
    expect(requests.filter((u) => !u.startsWith(new URL(url!).origin + "/"))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describeWithBrowser("the preview's trigger warnings in chromium", () => {
  let browser: Browser;
  let server: WebInterview;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startWebInterview(interviewInput({ ask: [2] }));
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("flags a trigger that never fires where its checks' events are, widens it from the button, and gives a semantic trigger events again", async () => {
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    await page.goto(server.url);
    await expectQuestion(page, 1, "Trigger");
    await page.click("#choice-edit");
    await page.fill('[data-path="match[0].action"]', "get_order");
    await expectText(page, "#edit-preview .trigger-line", "The trigger fires on 1 (clean-refund); not on 1 (escalated).");
    expect(await page.locator("#edit-preview .preview-warnings li").first().textContent()).toMatch(
      /^Warning: the trigger never fires on the samples where checks\[0\]'s events appear \(escalated\); the trigger gates every check/,
    );
    await page.click("#edit-save");

    await expectQuestion(page, 2, "Check 1 of 2 · forbidden");
    expect(await page.locator("#preview-body .v-clause-na").textContent()).toBe("2 (clean-refund, escalated)");
    await page.click("#widen");
    // Widened in place: the same question, judged where its events are.
    await expectText(page, "#preview-body .v-clause-fail", "1 (escalated)");
    await expectQuestion(page, 2, "Check 1 of 2 · forbidden");
    expect(await page.locator("#widen").count()).toBe(0);

    await page.click("#back");
    await expectQuestion(page, 1, "Trigger");
    expect(await page.locator("#current-yaml").textContent()).toContain("action: escalate_to_supervisor");
    await page.click("#choice-semantic");
    await page.fill("#semantic-text", "The case is escalated.");
    await page.click("#semantic-save");
    await expectQuestion(page, 2, "Check 1 of 2 · forbidden");
    expect(await page.locator("#preview-body .trigger-line").textContent()).toMatch(/^The trigger is semantic/);
    expect(await page.locator('#preview-body .preview-warnings li[data-kind="never-judged"]').textContent()).toBe(
      "Warning: the rule is n.a. on every sample: its trigger is a question for a model, so the preview cannot show how the rule judges them; if an event marks the situation, make the trigger match it",
    );
    await page.click("#back");
    await expectQuestion(page, 1, "Trigger");
    await page.click("#choice-edit");
    expect(await page.locator('[data-path="match[0].action"]').count()).toBe(0);
    await page.uncheck("#form-semantic-trigger");
    await page.fill('[data-path="match[0].action"]', "escalate_to_supervisor");
    await expectText(page, "#edit-preview .trigger-line", "The trigger fires on 1 (escalated); not on 1 (clean-refund).");
    await page.click("#edit-save");
    await expectQuestion(page, 2, "Check 1 of 2 · forbidden");
    await page.click("#choice-accept");
    await page.click("#choice-accept");
    await page.locator("#review").waitFor();
    await page.click("#confirm");
    const result = await server.result;
    expect(result.ir.metaBehaviors[2]!.trigger).toEqual({
      description: "The case is escalated.",
      match: [{ action: "escalate_to_supervisor" }],
    });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describeWithBrowser("the review's warnings about proportions in chromium", () => {
  let browser: Browser;
  let server: WebInterview;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startWebInterview(interviewInput({ samples: proportionSamples, ask: [] }));
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("names a check that fails most samples and a rule that fails none where the others fail some", async () => {
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    await page.goto(server.url);
    await page.locator("#review").waitFor();
    const warnings = page.locator("#review-preview .preview-warnings li");
    expect(await warnings.evaluateAll((items) => items.map((i) => i.getAttribute("data-kind")))).toEqual([
      "fails-most-samples",
      "fails-no-sample",
    ]);
    expect(await warnings.first().textContent()).toBe(
      "Warning: checks[0] fails 3 of the 4 samples it judges (quick-a, quick-b, escalated-refund): if most of these sessions went right, the check asks for more than the rule does",
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

async function expectText(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector, { hasText: text }).first().waitFor({ timeout: 10_000 });
  expect(await page.locator(selector).first().textContent()).toBe(text);
}

async function expectQuestion(page: Page, number: number, label: string): Promise<void> {
  await page.locator("#progress", { hasText: new RegExp(`^Question ${number} of \\d+$`) }).waitFor({ timeout: 10_000 });
  expect(await page.locator("#clause-label").textContent()).toBe(label);
}
