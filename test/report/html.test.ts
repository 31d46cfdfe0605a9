import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../compiler/report/html.js";
import type { ReportInput, RuleInfo } from "../../compiler/report/html.js";
import { renderJunit } from "../../compiler/report/junit.js";
import type { RuleInfo as CompiledRuleInfo } from "../../runtime/judge.js";
import type { Clause, MetaBehaviorJudgment, Trajectory, TrajectoryEvent, TrajectoryJudgment } from "../../runtime/types.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";

// ---------------------------------------------------------------------------
// Fixtures: a staged-rollout behavior judged over four trajectories.

const rules: RuleInfo[] = [
  {
    name: "Test before deploy",
    trigger: { description: "the agent deploys", kind: "match" },
    checks: [{ type: "ordering", quote: "Run the full test suite before any deploy." }],
    semanticChecks: [],
  },
  {
    name: "Canary before fleet",
    trigger: { description: "a fleet-wide deploy happens", kind: "match" },
    checks: [{ type: "ordering", quote: "Always deploy to the canary stage before the fleet." }],
    semanticChecks: [
      {
        quote: "Explain the rollout plan to the user first.",
        question: "Did the agent explain the plan before deploying?",
      },
    ],
  },
  {
    name: "Roll back on a failing health check",
    trigger: { description: "a health check fails after a deploy", kind: "semantic" },
    checks: [{ type: "required", quote: "Roll back in the same session." }],
    semanticChecks: [],
  },
];

function event(
  id: string,
  actor: TrajectoryEvent["actor"],
  action: string,
  content = "",
  metadata: Record<string, string> = {},
): TrajectoryEvent {
  return { id, actor, action, content, metadata };
}

function trajectory(id: string, complete: boolean, events: TrajectoryEvent[], description = ""): Trajectory {
  return { id, description, complete, events };
}

function clause(verdict: Clause["verdict"], quote: string, extra: Partial<Clause> = {}): Clause {
  return { kind: "predicate", quote, verdict, naReason: null, citations: [], ...extra };
}

function meta(
  name: string,
  verdict: MetaBehaviorJudgment["verdict"],
  clauses: Clause[],
  extra: Partial<MetaBehaviorJudgment> = {},
): MetaBehaviorJudgment {
  return { name, verdict, naReason: null, triggered: true, clauses, ...extra };
}

function judged(trajectoryId: string, verdict: TrajectoryJudgment["verdict"], metaBehaviors: MetaBehaviorJudgment[]): TrajectoryJudgment {
  return { behavior: "staged-rollout", trajectoryId, verdict, metaBehaviors };
}

const noHealthFailure = meta(
  "Roll back on a failing health check",
  "na",
  [
    clause("na", "a health check fails after a deploy", {
      kind: "semantic",
      check: "trigger",
      naReason: "not_applicable",
      reasoning: "Every health check passed.",
      citations: [{ eventId: "e4", description: "health check passed" }],
    }),
  ],
  { naReason: "not_applicable", triggered: false },
);

const cleanEvents = [
  event("e1", "user", "message", "Roll out v2.4 please."),
  event("e2", "agent", "run_tests", "", { suite: "full" }),
  event("e3", "tool", "run_tests_result", "412 passed", { status: "passed" }),
  event("e4", "agent", "deploy", "v2.4", { stage: "canary" }),
  event("e5", "agent", "deploy", "v2.4", { stage: "fleet" }),
];

const sampleReport: ReportInput = {
  behavior: "staged-rollout",
  rules,
  results: [
    {
      file: "trajectories/clean.json",
      trajectory: trajectory("rollout-clean", true, cleanEvents, "A textbook rollout."),
      judgment: judged("rollout-clean", "true", [
        meta("Test before deploy", "true", [
          clause("true", "Run the full test suite before any deploy.", {
            check: "ordering",
            citations: [
              { eventId: "e2", description: "tests ran" },
              { eventId: "e4", description: "first deploy" },
            ],
          }),
        ]),
        meta("Canary before fleet", "true", [
          clause("true", "Always deploy to the canary stage before the fleet.", {
            check: "ordering",
            citations: [
              { eventId: "e4", description: "canary" },
              { eventId: "e5", description: "fleet" },
            ],
          }),
          clause("true", "Explain the rollout plan to the user first.", {
            kind: "semantic",
            check: "question",
            reasoning: "The user asked for the rollout and the agent followed the usual plan.",
            citations: [{ eventId: "e1", description: "the request" }],
          }),
        ]),
        noHealthFailure,
      ]),
    },
    {
      file: "trajectories/skipped-canary.json",
      trajectory: trajectory("rollout-skipped-canary", true, [
        event("e1", "user", "message", "Ship it."),
        event("e2", "agent", "run_tests"),
        event("e3", "tool", "run_tests_result", "412 passed", { status: "passed" }),
        event("e4", "agent", "deploy", "v2.4", { stage: "fleet", host: "web-3" }),
      ]),
      judgment: judged("rollout-skipped-canary", "false", [
        meta("Test before deploy", "true", [
          // No `check` field: the report falls back to the rule list to name the kind.
          clause("true", "Run the full test suite before any deploy.", {
            citations: [{ eventId: "e2", description: "" }],
          }),
        ]),
        meta("Canary before fleet", "false", [
          clause("false", "Always deploy to the canary stage before the fleet.", {
            check: "ordering",
            citations: [{ eventId: "e4", description: "fleet deploy with no canary before it" }],
            verification: "confirmed",
            reasoning: "The only deploy went straight to the fleet.",
          }),
        ]),
        noHealthFailure,
      ]),
    },
    {
      file: "trajectories/cut-off.jsonl",
      trajectory: trajectory("rollout-cut-off", false, [
        event("e1", "user", "message", "Roll out v2.5."),
        event("e2", "agent", "run_tests"),
      ]),
      judgment: judged("rollout-cut-off", "na", [
        meta("Test before deploy", "na", [], { naReason: "insufficient_evidence", triggered: false }),
        meta("Canary before fleet", "na", [], { naReason: "insufficient_evidence", triggered: false }),
        meta(
          "Roll back on a failing health check",
          "na",
          [
            clause("na", "a health check fails after a deploy", {
              kind: "semantic",
              check: "trigger",
              naReason: "insufficient_evidence",
              reasoning: "No model was available to decide this trigger.",
            }),
          ],
          { naReason: "insufficient_evidence", triggered: false },
        ),
      ]),
    },
    {
      file: "trajectories/cut-off.jsonl",
      trajectory: trajectory("rollout-overturned", true, cleanEvents),
      judgment: judged("rollout-overturned", "true", [
        meta("Test before deploy", "true", [
          clause("true", "Run the full test suite before any deploy.", {
            check: "ordering",
            verification: "overturned",
            predicateVerdict: "false",
            reasoning: "The tests ran in CI right before; the deploy was covered.",
            citations: [{ eventId: "e9", description: "CI run" }],
          }),
        ]),
        meta("Canary before fleet", "true", [clause("true", "Always deploy to the canary stage before the fleet.", { check: "ordering" })]),
        noHealthFailure,
      ]),
    },
  ],
  errors: [
    {
      file: "trajectories/cut-off.jsonl",
      caseIndex: 2,
      line: 3,
      message: "events[0].actor must be user, agent, or tool",
    },
  ],
};

const PAYLOAD = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

/** Every untrusted string of the input carries the payload. */
const hostileReport: ReportInput = {
  behavior: `${PAYLOAD}behavior`,
  rules: [
    {
      name: `${PAYLOAD}rule`,
      trigger: { description: `${PAYLOAD}trigger`, kind: "match" },
      checks: [{ type: "forbidden", quote: `${PAYLOAD}quote` }],
      semanticChecks: [],
    },
  ],
  results: [
    {
      file: `${PAYLOAD}file.json`,
      trajectory: trajectory(
        `${PAYLOAD}id`,
        true,
        [event(`${PAYLOAD}e1`, "agent", `${PAYLOAD}action`, PAYLOAD, { [`${PAYLOAD}key`]: `${PAYLOAD}value` })],
        `${PAYLOAD}description`,
      ),
      judgment: {
        behavior: `${PAYLOAD}behavior`,
        trajectoryId: `${PAYLOAD}id`,
        verdict: "false",
        metaBehaviors: [
          meta(`${PAYLOAD}rule`, "false", [
            clause("false", `${PAYLOAD}quote`, {
              check: "forbidden",
              citations: [{ eventId: `${PAYLOAD}e1`, description: `${PAYLOAD}citation` }],
              reasoning: `${PAYLOAD}reasoning`,
              error: `${PAYLOAD}error`,
              verification: "unverified",
            }),
          ]),
        ],
      },
    },
  ],
  errors: [{ file: `${PAYLOAD}bad.json`, caseIndex: 0, message: `${PAYLOAD}message` }],
};

/** The reasoning a semantic clause carries when no model was there to decide it. */
const NO_MODEL = "No model was available to decide this clause, so it has no verdict.";

/** A rule whose pairing failed: a refund approval (e2) that nothing answered with an email; one rule passes with an undecided question. */
const pairingReport: ReportInput = {
  behavior: "refund-support",
  rules: [
    {
      name: "Email every approved refund",
      trigger: { description: "a refund is approved", kind: "match" },
      checks: [{ type: "pairing", quote: "Every approved refund is followed by a confirmation email." }],
      semanticChecks: [],
    },
    {
      name: "Explain refusals",
      trigger: { description: "always", kind: "match" },
      checks: [{ type: "required", quote: "The agent answers." }],
      semanticChecks: [{ quote: "the agent explains why", question: "Did it explain why?" }],
    },
  ],
  results: [
    {
      file: "unanswered.json",
      trajectory: trajectory("email-missing", true, [
        event("e1", "user", "message", "Refund order 7 please."),
        event("e2", "tool", "refund_approved", "order 7"),
        event("e3", "agent", "message", "Done, your refund is on its way."),
        event("e4", "tool", "log", "session closed"),
      ]),
      judgment: judged("email-missing", "false", [
        meta("Email every approved refund", "false", [
          clause("false", "Every approved refund is followed by a confirmation email.", {
            check: "pairing",
            citations: [{ eventId: "e2", description: "event matching `each` with no later event matching `followedBy`" }],
            verification: "unverified",
          }),
        ]),
        meta("Explain refusals", "true", [
          clause("true", "The agent answers.", { check: "required", citations: [{ eventId: "e3", description: "first match" }] }),
          clause("na", "the agent explains why", {
            kind: "semantic",
            check: "question",
            naReason: "insufficient_evidence",
            reasoning: NO_MODEL,
          }),
        ]),
      ]),
    },
    {
      file: "last.json",
      trajectory: trajectory("approved-at-the-end", true, [
        event("e1", "user", "message", "Refund order 8."),
        event("e2", "tool", "refund_approved", "order 8"),
      ]),
      judgment: judged("approved-at-the-end", "false", [
        meta("Email every approved refund", "false", [
          clause("false", "Every approved refund is followed by a confirmation email.", {
            check: "pairing",
            citations: [{ eventId: "e2", description: "event matching `each` with no later event matching `followedBy`" }],
            verification: "unverified",
          }),
        ]),
        meta("Explain refusals", "true", [clause("true", "The agent answers.", { check: "required" })]),
      ]),
    },
  ],
};

/** The same rules over a trajectory where everything passed. */
const passingReport: ReportInput = {
  ...pairingReport,
  results: [
    {
      file: "fine.json",
      trajectory: trajectory("fine", true, [event("e1", "agent", "message", "hi")]),
      judgment: judged("fine", "true", [meta("Explain refusals", "true", [clause("true", "The agent answers.", { check: "required" })])]),
    },
  ],
};

const inlineBlock = (html: string, tag: "script" | "style") => {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html);
  if (match === null) throw new Error(`no <${tag}>`);
  return match[1]!;
};

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

// ---------------------------------------------------------------------------

describe("renderHtmlReport", () => {
  const html = renderHtmlReport(sampleReport);

  it("gives byte-identical HTML for the same input", () => {
    expect(renderHtmlReport(structuredClone(sampleReport))).toBe(html);
  });

  it("renders one card per trajectory, carrying its verdict", () => {
    const cards = [...html.matchAll(/<article class="card" id="trajectory-(\d+)" data-verdict="(\w+)">/g)];
    expect(cards.map((m) => m[2])).toEqual(["true", "false", "na", "true"]);
  });

  it("shows triggers, verbatim quotes, clause kinds and verification", () => {
    expect(html).toContain("Applies when</span> the agent deploys");
    expect(html).toContain("decided by the model");
    expect(html).toContain(`<blockquote class="quote">Always deploy to the canary stage before the fleet.</blockquote>`);
    expect(html).toContain("Deterministic · ordering");
    expect(html).toContain("Semantic · question");
    expect(html).toContain("Semantic · trigger");
    expect(html).toContain("Confirmed: the model agreed with the deterministic Fail.");
    expect(html).toContain("Overturned: the deterministic check said Fail; the model disagreed.");
    expect(html).toContain("No model was available to decide this trigger.");
    expect(html).toContain("not in the trajectory shown"); // e9 is cited but absent
  });

  it("says why a rule's checks did not run: trigger not met, undecided, or an incomplete trace", () => {
    const undecided = meta(
      "Roll back on a failing health check",
      "na",
      [
        clause("na", "a health check fails after a deploy", {
          kind: "semantic",
          check: "trigger",
          naReason: "insufficient_evidence",
          reasoning: "No model was available to decide this clause, so it has no verdict.",
        }),
      ],
      { naReason: "insufficient_evidence", triggered: false },
    );
    const cutOff = meta("Test before deploy", "na", [], { naReason: "insufficient_evidence", triggered: false });
    const notMet = meta("Canary before fleet", "na", [], { naReason: "not_applicable", triggered: false });
    const page = renderHtmlReport({
      rules,
      results: [
        {
          file: "f.json",
          trajectory: trajectory("t", false, [event("e1", "user", "message")]),
          judgment: judged("t", "na", [cutOff, notMet, undecided]),
        },
      ],
    });
    const notes = [...page.matchAll(/<p class="not-triggered">([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(notes).toEqual([
      "The trigger did not fire in the events recorded, which may not be the whole session, so no check ran.",
      "The trigger did not fire, so no check ran.",
      "Whether the rule applies could not be decided, so no check ran.",
    ]);
  });

  it("names the kind of a clause from the rule list when the clause lacks `check`", () => {
    const card = html.slice(html.indexOf('id="trajectory-1"'), html.indexOf('id="trajectory-2"'));
    expect(card).toMatch(/Test before deploy[\s\S]*Deterministic · ordering/);
  });

  it("lists the inputs that could not be judged", () => {
    expect(html).toContain("Could not be judged (1)");
    expect(html).toContain("trajectories/cut-off.jsonl:3 (case 2)");
    expect(html).toContain("events[0].actor must be user, agent, or tool");
  });

  it("allows exactly its own inline script and style, by hash", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replaceAll("&#39;", "'");
    expect(csp).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'sha256-${sha256(inlineBlock(html, "script"))}'`);
    expect(csp).toContain(`style-src 'sha256-${sha256(inlineBlock(html, "style"))}'`);
    expect(csp).not.toContain("connect-src");
  });

  it("loads nothing from elsewhere", () => {
    // Links within the page (the per-rule table to the cards) load nothing.
    expect(html).not.toMatch(/\b(src|href)="(?!data:|#)/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("escapes every untrusted string", () => {
    const hostile = renderHtmlReport(hostileReport);
    expect(hostile.match(/<script/g)).toHaveLength(1);
    expect(hostile).not.toContain("<img");
    expect(hostile).not.toContain('onerror="');
    const escaped = "&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;";
    for (const field of [
      "behavior",
      "rule",
      "trigger",
      "quote",
      "file.json",
      "id",
      "e1",
      "action",
      "key",
      "value",
      "description",
      "citation",
      "reasoning",
      "error",
      "message",
    ]) {
      expect(hostile, field).toContain(escaped + field);
    }
  });

  it("accepts the `rules` a compiled judge exports", () => {
    const exported: readonly CompiledRuleInfo[] = [
      {
        name: "R",
        trigger: { description: "always", kind: "match" },
        checks: [{ type: "required", quote: "q" }],
        semanticChecks: [],
      },
    ];
    // The assignment is the type check; the render proves the shape is used.
    const input: ReportInput = { rules: exported, results: [] };
    expect(renderHtmlReport(input)).toContain('<th scope="row">R</th>');
  });

  it("counts trajectories in the header and the per-rule table alike, in the table's words", () => {
    expect(html).toContain(
      `<p class="totals" id="totals">4 trajectories: <span class="v-pass">2 passed</span> · <span class="v-fail">1 failed</span> · <span class="v-na">0 didn't apply</span> · <span class="v-na">1 no verdict</span>`,
    );
    expect(html).toContain("<h2>Trajectories by rule</h2>");
    expect(html).toContain(`<span id="shown-count" class="shown-count">Showing 4 of 4 trajectories</span>`);
  });

  it("links each rule's row to the cards where it failed", () => {
    const row = /<tr><th scope="row">Canary before fleet<\/th>.*<\/tr>/.exec(html)?.[0];
    expect(row).toContain(`<td class="failing-in"><a href="#trajectory-1-rule-1">rollout-skipped-canary</a></td>`);
    expect(html).toContain(`<section class="rule" id="trajectory-1-rule-1" data-rule="1" data-verdict="false">`);
    expect(/<tr><th scope="row">Test before deploy<\/th>.*<\/tr>/.exec(html)?.[0]).toContain(`<td class="failing-in"></td>`);
  });

  it("starts with only failures shown when there is a failure, and with everything when there is none", () => {
    expect(html).toContain(`<input type="checkbox" id="only-failures" checked>`);
    expect(renderHtmlReport(passingReport)).toContain(`<input type="checkbox" id="only-failures">`);
    // Nothing failed: no column of empty links either.
    expect(renderHtmlReport(passingReport)).not.toContain("Failed in");
  });

  it("says beside a Pass how many clauses no model decided", () => {
    const page = renderHtmlReport(pairingReport);
    expect(page).toContain(
      `<span class="badge pass">Pass</span> <span class="undecided">(1 clause undecided: no model)</span> <h3>Explain refusals</h3>`,
    );
    // The card of a failing trajectory says it too: its verdict rests on fewer clauses than the spec states.
    expect(page).toContain(
      `<span class="badge fail">Fail</span> <span class="undecided">(1 clause undecided: no model)</span> <h2>email-missing</h2>`,
    );
    expect(page).not.toContain(`(1 clause undecided: no model)</span> <h2>approved-at-the-end</h2>`);
    const two = renderHtmlReport({
      ...pairingReport,
      results: [
        {
          file: "f.json",
          judgment: judged("t", "true", [
            meta("Explain refusals", "true", [
              clause("true", "The agent answers.", { check: "required" }),
              clause("na", "a", { kind: "semantic", check: "question", naReason: "insufficient_evidence", reasoning: NO_MODEL }),
              clause("na", "b", { kind: "semantic", check: "question", naReason: "insufficient_evidence", reasoning: NO_MODEL }),
            ]),
          ]),
        },
      ],
    });
    expect(two).toContain(`<span class="badge pass">Pass</span> <span class="undecided">(2 clauses undecided: no model)</span> <h2>t</h2>`);
  });

  it("says Unverified only when a model could have verified the failure", () => {
    expect(renderHtmlReport(pairingReport)).toContain("Unverified: no model checked this Fail.");
    expect(renderHtmlReport({ ...pairingReport, model: false })).not.toContain("Unverified");
  });

  it("shows for a failed pairing what did follow the unanswered event, or that nothing did", () => {
    const page = renderHtmlReport(pairingReport);
    expect(page).toContain(
      `<summary>What followed <code class="event-id">e2</code>: 2 events, none matching <code>followedBy</code></summary>`,
    );
    const followed = /<details class="followed" open>[\s\S]*?<\/details>/.exec(page)![0];
    expect(
      [
        ...followed.matchAll(/<code class="event-id">(e\d)<\/code> <span class="actor">\w+<\/span> <span class="action">(\w+)<\/span>/g),
      ].map((m) => `${m[1]} ${m[2]}`),
    ).toEqual(["e3 message", "e4 log"]);
    expect(page).toContain(
      `<p class="followed none"><span class="label">What followed</span> Nothing followed <code class="event-id">e2</code>: it is the last event recorded.</p>`,
    );
  });

  it("renders an empty run", () => {
    const empty = renderHtmlReport({ rules: [], results: [] });
    expect(empty).toContain("No trajectory was judged.");
  });
});

// ---------------------------------------------------------------------------

const artifactsDir = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));

interface PageWatch {
  page: Page;
  problems: string[];
  requests: string[];
}

describeWithBrowser("the HTML report in chromium", () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), "bj-report-"));
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function openReport(name: string, input: ReportInput): Promise<PageWatch> {
    const file = join(dir, name);
    writeFileSync(file, renderHtmlReport(input));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const { problems, requests } = watchPage(page);
    await page.goto(pathToFileURL(file).href);
    return { page, problems, requests };
  }

  const visibleCardIds = (page: Page) => page.locator(".card:visible h2").allTextContents();

  it("shows every card with its verdict, marks incomplete trajectories, and loads nothing else", async () => {
    const { page, problems, requests } = await openReport("report.html", sampleReport);
    expect(await page.locator(".card").count()).toBe(4);
    expect(await page.locator(".card-head .badge").allTextContents()).toEqual([
      "Pass",
      "Fail",
      "No verdict — insufficient evidence",
      "Pass",
    ]);
    const cutOff = page.locator(".card", { hasText: "rollout-cut-off" });
    await expect(cutOff.locator(".tag.incomplete").textContent()).resolves.toBe("Incomplete");
    expect(await page.locator(".card .tag.incomplete").count()).toBe(1);
    const labels = await page.locator(".rule-head .badge").allTextContents();
    expect(new Set(labels)).toEqual(new Set(["Pass", "Fail", "Didn't apply", "No verdict — insufficient evidence"]));
    expect(requests.every((url) => url.startsWith("file://") || url.startsWith("data:"))).toBe(true);
    expect(problems).toEqual([]);

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "report.png"), fullPage: true });
    await page.close();
  });

  it("shows the cited events in the evidence panel, open for failures", async () => {
    const { page } = await openReport("evidence.html", sampleReport);
    const failing = page.locator('.clause[data-verdict="false"]');
    const evidence = failing.locator(".evidence");
    expect(await evidence.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    const item = evidence.locator(".event");
    expect(await item.locator(".event-id").textContent()).toBe("e4");
    expect(await item.locator(".actor").textContent()).toBe("agent");
    expect(await item.locator(".action").textContent()).toBe("deploy");
    expect(await item.locator(".content").textContent()).toBe("v2.4");
    expect(await item.locator(".metadata").innerText()).toMatch(/stage\s+fleet\s+host\s+web-3/);
    expect(await item.locator(".cite").textContent()).toBe("fleet deploy with no canary before it");
    await page.close();
  });

  it("filters to failures only, and by rule", async () => {
    const { page, problems } = await openReport("filters.html", sampleReport);
    const count = page.locator("#shown-count");

    await page.locator("#only-failures").check();
    expect(await visibleCardIds(page)).toEqual(["rollout-skipped-canary"]);
    expect(await page.locator(".rule:visible h3").allTextContents()).toEqual(["Canary before fleet"]);
    expect(await count.textContent()).toBe("Showing 1 of 4 trajectories");
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "report-failures.png"), fullPage: true });

    await page.locator("#rule-filter").selectOption({ label: "Test before deploy" });
    expect(await visibleCardIds(page)).toEqual([]);
    expect(await count.textContent()).toBe("Showing 0 of 4 trajectories");

    await page.locator("#only-failures").uncheck();
    expect(await visibleCardIds(page)).toHaveLength(4);
    expect(new Set(await page.locator(".rule:visible h3").allTextContents())).toEqual(new Set(["Test before deploy"]));
    expect(await page.locator(".rule:visible").count()).toBe(4);

    await page.locator("#rule-filter").selectOption({ label: "All rules" });
    expect(await page.locator(".rule:visible").count()).toBe(12);
    expect(await count.textContent()).toBe("Showing 4 of 4 trajectories");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps a <script> in trajectory text inert and shows it literally", async () => {
    const { page, problems } = await openReport("hostile.html", hostileReport);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator(".event .content").textContent()).toBe(PAYLOAD);
    expect(await page.locator(".rule h3").textContent()).toBe(`${PAYLOAD}rule`);
    expect(await page.locator(".quote").textContent()).toBe(`${PAYLOAD}quote`);
    expect(await page.locator(".evidence .metadata dd").textContent()).toBe(`${PAYLOAD}value`);
    expect(await page.locator(".trajectory .metadata dd").textContent()).toBe(`${PAYLOAD}value`);
    expect(await page.title()).toBe(`${PAYLOAD}behavior: behavior-judge report`);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    // The filter script still runs on a hostile page: the rule option shows the name as text.
    expect(await page.locator("#rule-filter option").nth(1).textContent()).toBe(`${PAYLOAD}rule`);
    await page.locator("#only-failures").check();
    expect(await page.locator("#shown-count").textContent()).toBe("Showing 1 of 1 trajectory");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens with only failures shown when there is one, and shows everything when there is none", async () => {
    const { page, problems } = await openReport("opens-on-failures.html", sampleReport);
    expect(await page.locator("#only-failures").isChecked()).toBe(true);
    expect(await visibleCardIds(page)).toEqual(["rollout-skipped-canary"]);
    expect(await page.locator("#shown-count").textContent()).toBe("Showing 1 of 4 trajectories");
    await page.close();
    const passing = await openReport("opens-all-passing.html", passingReport);
    expect(await passing.page.locator("#only-failures").isChecked()).toBe(false);
    expect(await visibleCardIds(passing.page)).toEqual(["fine"]);
    expect([...problems, ...passing.problems]).toEqual([]);
    await passing.page.close();
  });

  it("takes a link in the per-rule table to the failing rule's card, clearing a filter that hid it", async () => {
    const { page, problems } = await openReport("links.html", pairingReport);
    const links = page.locator('.summary tr:has(th:text-is("Email every approved refund")) a');
    expect(await links.allTextContents()).toEqual(["email-missing", "approved-at-the-end"]);
    // A rule filter that hides the target: following the link shows it anyway.
    await page.locator("#rule-filter").selectOption({ label: "Explain refusals" });
    expect(await page.locator("#trajectory-1-rule-0").isVisible()).toBe(false);
    await links.nth(1).click();
    await page.waitForURL(/#trajectory-1-rule-0$/);
    const target = page.locator("#trajectory-1-rule-0");
    await expect.poll(() => target.isVisible()).toBe(true);
    expect(await target.locator("h3").textContent()).toBe("Email every approved refund");
    expect(
      await target.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top < (globalThis as unknown as { innerHeight: number }).innerHeight && box.bottom > 0;
      }),
    ).toBe(true);
    expect(await page.locator("#rule-filter").inputValue()).toBe("");
    // What followed the unanswered approval is shown with it, open.
    const followed = page.locator("#trajectory-0-rule-0 .followed");
    expect(await followed.locator(".event .action").allTextContents()).toEqual(["message", "log"]);
    expect(await followed.locator(".event .action").first().isVisible()).toBe(true);
    expect(await page.locator("#trajectory-1-rule-0 .followed").textContent()).toContain("Nothing followed e2");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps leading newlines and whitespace of event content", async () => {
    const content = "\n  indented\n\ttabbed\n";
    const input: ReportInput = {
      rules: [],
      results: [
        {
          file: "f.json",
          trajectory: trajectory("t", true, [event("e1", "tool", "read_result", content)]),
          judgment: judged("t", "false", [meta("R", "false", [clause("false", "q", { citations: [{ eventId: "e1", description: "" }] })])]),
        },
      ],
    };
    const { page } = await openReport("whitespace.html", input);
    expect(await page.locator(".evidence .content").textContent()).toBe(content);
    expect(await page.locator(".trajectory .content").textContent()).toBe(content);
    await page.close();
  });

  it("produces JUnit XML that chromium's XML parser accepts", async () => {
    const xml = renderJunit({
      files: [{ file: `odd "name" <&>\u0001.jsonl`, judgments: sampleReport.results.map((r) => r.judgment) }],
      errors: sampleReport.errors ?? [],
    });
    const page = await browser.newPage();
    const parsed = await page.evaluate((source) => {
      type Node = {
        nodeName: string;
        getAttribute(name: string): string | null;
        getElementsByTagName(name: string): { length: number };
      };
      const parser = new (
        globalThis as unknown as {
          DOMParser: new () => { parseFromString(s: string, t: string): { documentElement: Node } };
        }
      ).DOMParser();
      const root = parser.parseFromString(source, "application/xml").documentElement;
      return {
        root: root.nodeName,
        parseErrors: root.getElementsByTagName("parsererror").length,
        tests: root.getAttribute("tests"),
        testcases: root.getElementsByTagName("testcase").length,
        suiteName: (root.getElementsByTagName("testsuite") as unknown as Node[])[0]?.getAttribute("name"),
      };
    }, xml);
    expect(parsed).toEqual({
      root: "testsuites",
      parseErrors: 0,
      tests: "13",
      testcases: 13,
      suiteName: `odd "name" <&>\ufffd.jsonl`,
    });
    await page.close();
  });
});
