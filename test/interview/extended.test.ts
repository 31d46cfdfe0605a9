/**
 * Issue 21: the interview shows and edits every form of the extended rule
 * language (value matchers, on, fresh, within, per, sum, the condition
 * check with `each`, `with`, `when`), and nothing a person wrote disappears
 * or is rewritten when they save a form unchanged: the judge.yaml confirmed
 * through every front end means the judge.yaml drafted (both parsed, IRs
 * compared).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyBinding, formFromClause, newCheckForm, type CheckForm, type ClauseForm } from "../../compiler/interview/fields.js";
import { formSnippet } from "../../compiler/interview/form-snippet.js";
import { parseClauseSnippet } from "../../compiler/interview/snippet.js";
import { interviewOutcome, startInterview, step, type InterviewState } from "../../compiler/interview/state.js";
import { runTerminalInterview } from "../../compiler/interview/terminal.js";
import { currentView } from "../../compiler/interview/view.js";
import { readForm, startWebInterview } from "../../compiler/interview/web.js";
import { describeWithBrowser, launchChromium, watchPage } from "../support/browser.js";
import { serializeJudgeYaml } from "../../compiler/ir/index.js";
import type { Check, JudgeIR, Trigger } from "../../compiler/ir/types.js";
import { randomExtendedJudge, rng } from "../support/extended-ir.js";
import { parseOrThrow } from "../support/judges.js";
import { extendedInterviewInput, extendedIR } from "./extended-fixture.js";

/** The form through the web page's JSON and the server's reader, as a browser would send it back. */
function throughPage(form: ClauseForm): ClauseForm {
  const read = readForm(JSON.parse(JSON.stringify(form)));
  if (typeof read === "string") throw new Error(read);
  return read;
}

function checkBack(check: Check, form: ClauseForm = formFromClause({ kind: "check", check })) {
  return parseClauseSnippet("check", formSnippet(form, check.quote));
}

function triggerBack(trigger: Trigger) {
  return parseClauseSnippet("trigger", formSnippet(formFromClause({ kind: "trigger", trigger }), ""));
}

const AIRLINE = join(import.meta.dirname, "..", "..", "examples", "airline-cancellations", "judge.yaml");

describe("issue 21: a form saved unchanged is the clause it was made from", () => {
  const judges: JudgeIR[] = [extendedIR(), parseOrThrow(readFileSync(AIRLINE, "utf8")).ir];
  const r = rng(2121);
  for (let i = 0; i < 300; i++) judges.push(randomExtendedJudge(r));

  it(`every check and trigger of extended.yaml, the airline example and 300 random judges using every form, directly and through the page's JSON`, () => {
    const differences: string[] = [];
    let checks = 0;
    for (const ir of judges) {
      for (const rule of ir.metaBehaviors) {
        const trigger = triggerBack(rule.trigger);
        if (!trigger.ok || trigger.clause.kind !== "trigger" || JSON.stringify(trigger.clause.trigger) !== JSON.stringify(rule.trigger))
          expect(trigger).toEqual({ ok: true, clause: { kind: "trigger", trigger: rule.trigger } });
        for (const check of rule.checks) {
          checks++;
          const form = formFromClause({ kind: "check", check });
          for (const [how, back] of [
            ["form", checkBack(check, form)],
            ["page", checkBack(check, throughPage(form))],
          ] as const) {
            if (!back.ok)
              differences.push(`${how}: ${JSON.stringify(check)}\n${formSnippet(form, check.quote)}\n${JSON.stringify(back.diagnostics)}`);
            else if (back.clause.kind !== "check") differences.push(`${how}: not a check`);
            else {
              try {
                expect(back.clause.check).toStrictEqual(check);
              } catch {
                differences.push(`${how}: ${JSON.stringify(check)}\n  became ${JSON.stringify(back.clause.check)}`);
              }
            }
          }
        }
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(checks).toBeGreaterThan(600);
  });

  it("shows each form as text a person can read and edit", () => {
    const [values, same, windows, turns] = extendedIR().metaBehaviors;
    const form = (check: Check) => formFromClause({ kind: "check", check }) as CheckForm;
    const refund = form(values!.checks[0]!);
    expect(refund.patterns.match).toEqual([
      {
        action: "{in: [issue_refund, issue_credit]}",
        actor: "",
        contentIncludes: "",
        content: "",
        metadata: "amount: {gt: 500}, reason: {exists: false}",
      },
    ]);
    expect(form(values!.checks[1]!).patterns.match![0]!.metadata).toBe(
      'at: {gte: "2024-05-14T15:00:00Z", lt: "2024-06-01"}, region: {not: {matches: "^(eu|us)-", flags: i}}',
    );
    expect(form(values!.checks[2]!).patterns.match![0]!.content).toBe('{matches: "\\\\b(bye|goodbye)\\\\b", flags: i}');
    expect(form(same!.checks[0]!).on).toBe("metadata.reservation_id");
    expect(form(same!.checks[1]!)).toMatchObject({ fresh: "true" });
    expect(form(same!.checks[1]!).patterns.first![0]!.content).toBe('{equals: "yes"}');
    const condition = form(same!.checks[2]!);
    expect(condition.with).toEqual([
      {
        name: "r",
        side: "latest",
        pattern: [{ action: "get_reservation_details_result", actor: "", contentIncludes: "", content: "", metadata: "" }],
        on: "metadata.reservation_id",
      },
      {
        name: "u",
        side: "first",
        pattern: [{ action: "get_user_details_result", actor: "", contentIncludes: "", content: "", metadata: "" }],
        on: "{each: metadata.user_id, first: metadata.id}",
      },
    ]);
    expect(condition.when).toMatch(/^r\.cabin == "business" \|\| /);
    expect(form(windows!.checks[1]!).on).toBe("{after: metadata.order_id, match: metadata.order}");
    expect(form(turns!.checks[0]!)).toMatchObject({ per: "metadata.@turn", max: "1" });
    expect(form(turns!.checks[0]!).patterns.match![0]!.metadata).toBe('"@turn": {exists: true}');
    expect(form(turns!.checks[1]!)).toMatchObject({ per: "metadata.customer_id", sum: "metadata.amount", max: "1000" });
    expect(form(turns!.checks[2]!)).toMatchObject({ on: "metadata.id", within: "2" });
  });
});

function typed(form: CheckForm, quote = "q"): Check {
  const parsed = parseClauseSnippet("check", formSnippet(form, quote));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  if (parsed.clause.kind !== "check") throw new Error("not a check");
  return parsed.clause.check;
}

function withMatch(
  type: CheckForm["type"],
  fields: Partial<CheckForm["patterns"][string][number]>,
  extra: Partial<CheckForm> = {},
): CheckForm {
  const form = newCheckForm(type);
  const role = Object.keys(form.patterns)[0]!;
  form.patterns[role] = [{ ...form.patterns[role]![0]!, ...fields }];
  return { ...form, ...extra };
}

describe("issue 21: what a person types in the new fields", () => {
  it("a bound is a number or a date; what is compared as text stays text", () => {
    expect(
      typed(withMatch("forbidden", { action: "{in: [200, yes, on]}", metadata: "amount: {gt: 500, lte: 1e3}, code: 200, ok: {not: 404}" })),
    ).toMatchObject({
      match: [{ action: { in: ["200", "yes", "on"] }, metadata: { amount: { gt: 500, lte: 1000 }, code: "200", ok: { not: "404" } } }],
    });
    expect(
      typed(withMatch("forbidden", { metadata: 'at: {gte: 2024-05-14, lt: "2024-06-01T00:00:00Z"}, note: {exists: false}' })),
    ).toMatchObject({
      match: [{ metadata: { at: { gte: "2024-05-14", lt: "2024-06-01T00:00:00Z" }, note: { exists: false } } }],
    });
  });

  it("content, on, fresh, within, per and sum as typed", () => {
    expect(
      typed(
        withMatch(
          "required",
          { actor: "agent", content: "{matches: bye, flags: i}" },
          { on: "metadata.order_id", after: [{ ...emptyBinding().pattern[0]!, action: "open_order" }] },
        ),
      ),
    ).toMatchObject({
      match: [{ actor: "agent", content: { matches: "bye", flags: "i" } }],
    });
    const ordering = withMatch("ordering", { action: "approve" }, { on: "{first: metadata.id, before: metadata.order}", fresh: "yes" });
    ordering.patterns.before = [{ ...ordering.patterns.first![0]!, action: "refund" }];
    expect(typed(ordering)).toMatchObject({ on: { first: "metadata.id", before: "metadata.order" }, fresh: true });
    const pairing = withMatch("pairing", { action: "lookup" }, { within: "3", on: "metadata.id" });
    pairing.patterns.followedBy = [{ ...pairing.patterns.each![0]!, action: "lookup_result" }];
    expect(typed(pairing)).toMatchObject({ within: 3, on: "metadata.id" });
    expect(typed(withMatch("count", { actor: "agent" }, { per: "metadata.@turn", sum: "metadata.amount", max: "1" }))).toMatchObject({
      per: "metadata.@turn",
      sum: "metadata.amount",
      max: 1,
    });
  });

  it("a condition's names and expression; an empty name slot is no name", () => {
    const form = withMatch("condition", { action: "cancel_reservation" }, { when: 'r.insurance == "yes"' });
    form.with = [
      {
        ...emptyBinding(),
        name: "r",
        pattern: [{ ...emptyBinding().pattern[0]!, action: "get_reservation_details_result" }],
        on: "metadata.reservation_id",
      },
      emptyBinding(),
    ];
    expect(typed(form)).toEqual({
      type: "condition",
      quote: "q",
      each: [{ action: "cancel_reservation" }],
      with: { r: { latest: [{ action: "get_reservation_details_result" }], on: "metadata.reservation_id" } },
      when: 'r.insurance == "yes"',
    });
  });

  it("a mistake gets the parser's message at the field's path, and nothing is silently dropped", () => {
    const problem = (form: CheckForm) => {
      const parsed = parseClauseSnippet("check", formSnippet(form, "q"));
      return parsed.ok ? "accepted" : parsed.diagnostics.map((d) => `${d.path}: ${d.message}`).join("\n");
    };
    expect(problem(withMatch("forbidden", { metadata: "amount: {gt: lots}" }))).toMatch(/^match\[0\]\.metadata\.amount\.gt: /);
    expect(problem(withMatch("forbidden", { action: "{greater: 5}" }))).toMatch(/^match\[0\]\.action: .*greater/);
    // Not YAML: reaches the parser as typed, not as an exact action named "{in: [a".
    expect(problem(withMatch("forbidden", { action: "{in: [a" }))).not.toBe("accepted");
    expect(problem(withMatch("ordering", { action: "a" }, { fresh: "always" }))).toMatch(/fresh: /);
    expect(problem(withMatch("pairing", { action: "a" }, { within: "0" }))).toMatch(/within: /);
    const condition = withMatch("condition", { action: "a" }, { when: "x.y == 1" });
    expect(problem(condition)).toMatch(/^when: .*x/);
    const named = { ...condition, with: [{ ...emptyBinding(), name: "r", side: "latests" }], when: "r.y == 1" };
    expect(problem(named)).toMatch(/latests/);
  });
});

/** Answers the terminal interview as it asks: e at every question, Enter at every field (keep it), y to save and to write. */
function keepEveryField(): { input: PassThrough; output: Writable; text: () => string } {
  const input = new PassThrough();
  let text = "";
  let pending = "";
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const s = chunk.toString("utf8");
      text += s;
      pending += s;
      // Each prompt ends the text written before the answer is read.
      if (/\(default a\): $/.test(pending)) input.write("e\n");
      else if (/\]: $/.test(pending)) input.write("\n");
      else if (/save this edit\? \[Y\/n\] \(e: the fields again\): $/.test(pending)) input.write("y\n");
      else if (/write\? \[Y\/n\] \(b: back\): $/.test(pending)) input.write("y\n");
      else {
        done();
        return;
      }
      pending = "";
      done();
    },
  });
  return { input, output, text: () => text };
}

describe("issue 21: every question of extended.yaml edited and saved unchanged, in each front end", () => {
  it("the terminal: field by field, every value kept, the judge.yaml confirmed is the draft's", async () => {
    const input = extendedInterviewInput();
    const answers = keepEveryField();
    const result = await runTerminalInterview(input, { input: answers.input, output: answers.output });
    expect(result.ir).toStrictEqual(input.draft.ir);
    expect(parseOrThrow(serializeJudgeYaml(result.ir)).ir).toStrictEqual(input.draft.ir);
    // Every form was put to the person as a field, showing its value.
    const shown = answers.text();
    for (const field of [
      "match[0].action (a name, or {in: [a, b]}",
      "[{in: [issue_refund, issue_credit]}]",
      "[amount: {gt: 500}, reason: {exists: false}]",
      'match[0].content (the whole content: {matches: "re", flags: i}, {equals: "yes"}) [{matches: "\\\\b(bye|goodbye)\\\\b", flags: i}]',
      "on (metadata.<key>: both events share its value; or {first, before: metadata.<key>} each side its own; empty for none) [metadata.reservation_id]",
      "fresh (true: every before event needs its own first event since the previous one) [true]",
      "with.r (the name) [r]",
      "with.r (latest or first: which earlier event the name is bound to) [latest]",
      'with.r.latest[0].action (a name, or {in: [a, b]}, {matches: "^re"}, {not: a}) [get_reservation_details_result]',
      "with.u.on (metadata.<key>: shares the each event's value; empty for none) [{each: metadata.user_id, first: metadata.id}]",
      "with.[2] (a new name for an earlier event; empty for none) []",
      "when (the expression over the names",
      "[{after: metadata.order_id, match: metadata.order}]",
      "per (metadata.<key>: the bounds hold for each of its values) [metadata.@turn]",
      "sum (metadata.<key>: bound the sum of its values, not the number of events) [metadata.amount]",
      "within (N: the follower is one of the next N events) [2]",
    ])
      expect(shown).toContain(field);
  }, 60_000);

  it("the server the page talks to: each question's form posted back as the page has it, the judge.yaml confirmed is the draft's", () => {
    const input = extendedInterviewInput();
    let state: InterviewState = startInterview(input);
    let edits = 0;
    for (;;) {
      const view = currentView(state);
      if (view.kind === "review") break;
      const form = throughPage(view.forms[view.formKind]!);
      const outcome = step(state, { type: "edit", text: formSnippet(form, view.quote ?? ""), as: form.kind });
      if (!outcome.ok) throw new Error(`${view.label}: ${outcome.error} ${JSON.stringify(outcome.diagnostics)}`);
      state = outcome.state;
      edits++;
    }
    expect(edits).toBe(input.draft.ir.metaBehaviors.reduce((n, rule) => n + 1 + rule.checks.length, 0));
    const outcome = interviewOutcome(state);
    expect(outcome.problems).toEqual([]);
    expect(outcome.ir).toStrictEqual(input.draft.ir);
    expect(parseOrThrow(outcome.yaml).ir).toStrictEqual(input.draft.ir);
  });

  it("a question shows the condition's names as evidence roles, and warns of a key no sample has", () => {
    const input = extendedInterviewInput();
    let state: InterviewState = startInterview(input);
    // Questions: trigger, 3 checks; trigger, ordering, ordering, condition.
    state = step(state, { type: "goto", question: 7 }).state;
    const view = currentView(state);
    if (view.kind !== "question") throw new Error("expected a question");
    expect(view.label).toBe("Check 3 of 3 · condition");
    expect(view.evidence.roles.map((r) => r.role)).toEqual(["each", "with.r", "with.u"]);
    expect(view.evidence.roles.every((r) => r.matches > 0)).toBe(true);
    const form = view.forms.check as CheckForm;
    const edited = step(state, {
      type: "edit",
      text: formSnippet({ ...form, with: [{ ...form.with[0]!, on: "metadata.reservaton_id" }, form.with[1]!] }, view.quote!),
    });
    expect(edited.ok).toBe(true);
    const after = currentView(step(edited.state, { type: "goto", question: 7 }).state);
    expect(after.kind === "question" && after.warnings).toContainEqual(
      expect.stringMatching(/metadata key "reservaton_id".*reservation_id/),
    );
  });
});

describeWithBrowser("issue 21: the interview page shows and edits every extended form", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("opens every question in the editor, shows each form in its fields, and saves it unchanged: the judge.yaml confirmed is the draft's", async () => {
    const input = extendedInterviewInput();
    const server = await startWebInterview(input);
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    try {
      await page.goto(server.url);
      const total = input.draft.ir.metaBehaviors.reduce((n, rule) => n + 1 + rule.checks.length, 0);
      for (let number = 1; number <= total; number++) {
        await page.locator("#progress", { hasText: new RegExp(`^Question ${number} of ${total}$`) }).waitFor({ timeout: 10_000 });
        await page.click("#choice-edit");
        const label = await page.locator("#clause-label").textContent();
        if (label === "Check 1 of 3 · forbidden" && number === 2) {
          expect(await page.locator('[data-path="match[0].action"]').inputValue()).toBe("{in: [issue_refund, issue_credit]}");
          expect(await page.locator('[data-path="match[0].metadata"]').inputValue()).toBe("amount: {gt: 500}, reason: {exists: false}");
        }
        if (label === "Check 3 of 3 · condition") {
          expect(await page.locator('[data-path="with.r"]').first().inputValue()).toBe("r");
          expect(await page.locator('[data-path="with.u.on"]').inputValue()).toBe("{each: metadata.user_id, first: metadata.id}");
          expect(await page.locator('[data-path="when"]').inputValue()).toMatch(/^r\.cabin == "business"/);
          // The preview of the condition as it stands: it passes one session and fails the other.
          await page.locator("#edit-preview .v-clause-fail", { hasText: "1 (breaks-all)" }).waitFor({ timeout: 10_000 });
        }
        if (label === "Check 1 of 3 · ordering" && number === 6) {
          expect(await page.locator('[data-path="on"]').inputValue()).toBe("metadata.reservation_id");
        }
        if (label === "Check 1 of 3 · count" && number === 14) {
          expect(await page.locator('[data-path="per"]').inputValue()).toBe("metadata.@turn");
        }
        await page.click("#edit-save");
      }
      await page.locator("#review").waitFor();
      await page.click("#confirm");
      await page.locator("#done").waitFor();
      const result = await server.result;
      expect(result.ir).toStrictEqual(input.draft.ir);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 120_000);

  it("adds a name to a condition in the form, and its expression uses it", async () => {
    const input = extendedInterviewInput();
    const server = await startWebInterview({ ...input, ask: [1] });
    const page = await browser.newPage();
    const { problems } = watchPage(page);
    try {
      await page.goto(server.url);
      for (let number = 1; number <= 3; number++) {
        await page.locator("#progress", { hasText: new RegExp(`^Question ${number} of 4$`) }).waitFor({ timeout: 10_000 });
        await page.click("#choice-accept");
      }
      await page.locator("#clause-label", { hasText: "Check 3 of 3 · condition" }).waitFor({ timeout: 10_000 });
      await page.click("#choice-edit");
      await page.getByRole("button", { name: "Name another earlier event" }).click();
      await page.fill('[data-path="with.[2]"]', "c");
      await page.fill('[data-path="with.[2].latest[0].action"]', "message");
      await page.selectOption('[data-path="with.[2].latest[0].actor"]', "user");
      await page.fill('[data-path="when"]', 'r.insurance == "yes" && c.content != ""');
      await page.locator("#edit-preview .v-clause-pass", { hasText: "1 (keeps-all)" }).waitFor({ timeout: 10_000 });
      await page.click("#edit-save");
      await page.locator("#review").waitFor();
      await page.click("#confirm");
      const result = await server.result;
      const condition = result.ir.metaBehaviors[1]!.checks[2]!;
      expect(condition).toMatchObject({
        type: "condition",
        with: {
          r: { latest: [{ action: "get_reservation_details_result" }], on: "metadata.reservation_id" },
          u: { first: [{ action: "get_user_details_result" }], on: { each: "metadata.user_id", first: "metadata.id" } },
          c: { latest: [{ action: "message", actor: "user" }] },
        },
        when: 'r.insurance == "yes" && c.content != ""',
      });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 120_000);
});
