// Writes the built claude-code importer fixtures. Claude Code cannot run here
// (it needs its service), so these sessions are written record by record in
// the shapes its transcripts have: the envelope (uuid, parentUuid, sessionId,
// isSidechain, userType, cwd, version, gitBranch, timestamp), one assistant
// record per content block of one API message (same message.id), tool
// results in user records with toolUseResult and sourceToolAssistantUUID,
// and the records that are not conversation (file-history-snapshot,
// system/turn_duration, attachment/queued_command, the <synthetic> API
// error). test/fixtures/importers/claude-code/README.md names where each
// shape was observed. Deterministic: the same bytes on every run.
//
//   node scripts/record-fixtures/claude-code/build.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "..", "test", "fixtures", "importers", "claude-code");

const CWD = "/home/dev/shop";
const VERSION = "2.1.63";
const MODEL = "claude-sonnet-4-5-20250929";

/** A session writer: each record gets the envelope, the next uuid and a later timestamp. */
function session(n, start) {
  const sessionId = `5e55${String(n).padStart(4, "0")}-0000-4000-8000-000000000000`;
  const records = [];
  let count = 0;
  let last = null;
  let clock = Date.parse(start);
  const uuid = () => `${String(n).padStart(4, "0")}${String(++count).padStart(4, "0")}-1111-4000-8000-${String(count).padStart(12, "0")}`;
  const stamp = (ms = 1500) => new Date((clock += ms)).toISOString();
  const envelope = (type, extra, ms) => {
    const id = uuid();
    const record = {
      parentUuid: last,
      isSidechain: false,
      userType: "external",
      cwd: CWD,
      sessionId,
      version: VERSION,
      gitBranch: "main",
      ...extra,
      type,
      uuid: id,
      timestamp: stamp(ms),
    };
    last = id;
    records.push(record);
    return record;
  };
  let requests = 0;
  return {
    records,
    sessionId,
    prompt(content, extra = {}) {
      return envelope("user", { message: { role: "user", content }, ...extra }, 20_000);
    },
    /** One API message written block by block: returns a function that writes its next block. */
    message(id, usage = { input_tokens: 4, cache_creation_input_tokens: 1200, cache_read_input_tokens: 18000, output_tokens: 96 }) {
      const requestId = `req_011CV${String(n).padStart(2, "0")}${String(++requests).padStart(4, "0")}AbCdEf`;
      return (block, stop = null) =>
        envelope(
          "assistant",
          {
            message: { model: MODEL, id, type: "message", role: "assistant", content: [block], stop_reason: stop, stop_sequence: null, usage },
            requestId,
          },
          900,
        );
    },
    result(call, content, toolUseResult, { error = false } = {}) {
      const block = { tool_use_id: call.message.content[0].id, type: "tool_result", content };
      if (error) block.is_error = true;
      return envelope("user", { message: { role: "user", content: [block] }, toolUseResult, sourceToolAssistantUUID: call.uuid }, 2500);
    },
    raw(record) {
      records.push(record);
      return record;
    },
    other(type, extra) {
      return envelope(type, extra, 200);
    },
    stamp,
    get last() {
      return last;
    },
  };
}

const toolUse = (id, name, input) => ({ type: "tool_use", id, name, input });
const text = (t) => ({ type: "text", text: t });
const catN = (lines, from = 1) => lines.map((l, i) => `${String(from + i).padStart(6)}→${l}`).join("\n");

const invoice = [
  "export interface Line { price: number; quantity: number }",
  "export interface Invoice { lines: Line[]; discount?: number; taxRate: number }",
  "",
  "export function total(invoice: Invoice): number {",
  "  const net = invoice.lines.reduce((sum, l) => sum + l.price * l.quantity, 0);",
  "  return Math.round(net * (1 + invoice.taxRate) * 100) / 100;",
  "}",
];
const invoiceTest = [
  'import { total } from "./invoice";',
  "",
  'test("sums the lines with tax", () => {',
  "  expect(total({ lines: [{ price: 10, quantity: 2 }], taxRate: 0.2 })).toBe(24);",
  "});",
  'test("applies the discount before tax", () => {',
  "  expect(total({ lines: [{ price: 10, quantity: 2 }], discount: 5, taxRate: 0.2 })).toBe(18);",
  "});",
];

function write(name, records) {
  writeFileSync(join(out, name), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/** A good session: parallel reads with their results between the blocks, a failed test run (a text-part result), a fix, the tests green, /exit. */
function parallelCallsAndErrors() {
  const s = session(1, "2025-11-20T09:14:02.000Z");
  s.raw({
    type: "file-history-snapshot",
    messageId: "00010000-2222-4000-8000-000000000001",
    snapshot: { messageId: "00010000-2222-4000-8000-000000000001", trackedFileBackups: {}, timestamp: "2025-11-20T09:14:02.000Z" },
    isSnapshotUpdate: false,
  });
  s.prompt("The invoice total ignores the discount field. Fix it and make sure the tests pass.");
  let m = s.message("msg_01QbTq8n3JYk4WcDxqXyZ7aA");
  m({ type: "thinking", thinking: "Read the module and its test before changing anything.", signature: "EqQBCkYIBRgCKkCw1f3zR5mBq0yW" });
  m(text("I'll read the invoice module and its test first."));
  const read1 = m(toolUse("toolu_01Hd8RZ7yb1Q4gFJtKxVw3mN", "Read", { file_path: `${CWD}/src/invoice.ts` }));
  // Claude Code runs a call as soon as its block is complete: this result comes before the next block.
  s.result(read1, catN(invoice), {
    type: "text",
    file: { filePath: `${CWD}/src/invoice.ts`, content: invoice.join("\n"), numLines: invoice.length, startLine: 1, totalLines: invoice.length },
  });
  const read2 = m(toolUse("toolu_01Xk2PqLm9Vd7aTeWs4Ry6Bc", "Read", { file_path: `${CWD}/src/invoice.test.ts` }), "tool_use");
  s.result(read2, catN(invoiceTest), {
    type: "text",
    file: {
      filePath: `${CWD}/src/invoice.test.ts`,
      content: invoiceTest.join("\n"),
      numLines: invoiceTest.length,
      startLine: 1,
      totalLines: invoiceTest.length,
    },
  });
  m = s.message("msg_01Bz5Yw2fGm8Ktq3HvRcN1pD");
  m(text("\n\n"));
  const oldLine = invoice[4];
  const newLine = "  const net = invoice.lines.reduce((sum, l) => sum + l.price * l.quantity, 0) - (invoice.discount ?? 0);";
  const edit1 = m(toolUse("toolu_01Mn4BvCx7Zq2WeRt5Yu8IoP", "Edit", { file_path: `${CWD}/src/invoice.ts`, old_string: oldLine, new_string: newLine }), "tool_use");
  s.result(
    edit1,
    `The file ${CWD}/src/invoice.ts has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${catN([invoice[3], newLine, invoice[5]], 4)}`,
    {
      filePath: `${CWD}/src/invoice.ts`,
      oldString: oldLine,
      newString: newLine,
      originalFile: invoice.join("\n"),
      structuredPatch: [{ oldStart: 4, oldLines: 3, newStart: 4, newLines: 3, lines: [` ${invoice[3]}`, `-${oldLine}`, `+${newLine}`, ` ${invoice[5]}`] }],
      userModified: false,
      replaceAll: false,
    },
  );
  m = s.message("msg_01Ce7Hj3kLp9Qw2ErT6yU4iO");
  const test1 = m(toolUse("toolu_01Vb8Nm3Qw6Er9Ty2Ui5Op1A", "Bash", { command: "npm test", description: "Run the test suite" }), "tool_use");
  const failure = "Exit code 1\n FAIL  src/invoice.test.ts\n  ✓ sums the lines with tax (2 ms)\n  ✕ applies the discount before tax (3 ms)\n\n  Expected: 18\n  Received: 19\n\nTests: 1 failed, 1 passed, 2 total";
  s.result(test1, [text(failure)], `Error: ${failure}`, { error: true });
  m = s.message("msg_01Dr4Tg7yHu2Ji5Ko8Lp3Za6");
  m(text("One test still fails: the discount is subtracted after rounding with tax. I'll apply it to the net amount before tax."));
  const fixed = "  const net = invoice.lines.reduce((sum, l) => sum + l.price * l.quantity, 0) - (invoice.discount ?? 0) * 1;";
  const edit2 = m(toolUse("toolu_01Sx3Dc6Fv9Gb2Nh5Jm8Kq4W", "Edit", { file_path: `${CWD}/src/invoice.ts`, old_string: newLine, new_string: fixed }), "tool_use");
  s.result(edit2, `The file ${CWD}/src/invoice.ts has been updated.`, {
    filePath: `${CWD}/src/invoice.ts`,
    oldString: newLine,
    newString: fixed,
    originalFile: [...invoice.slice(0, 4), newLine, ...invoice.slice(5)].join("\n"),
    structuredPatch: [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1, lines: [`-${newLine}`, `+${fixed}`] }],
    userModified: false,
    replaceAll: false,
  });
  m = s.message("msg_01Ef6Ug9hJi3Kl7Mn1Op4Qr8");
  const test2 = m(toolUse("toolu_01Rt5Yu8Io2Pa6Sd9Fg3Hj7K", "Bash", { command: "npm test", description: "Run the test suite again" }), "tool_use");
  const pass = "PASS  src/invoice.test.ts\n  ✓ sums the lines with tax (2 ms)\n  ✓ applies the discount before tax (1 ms)\n\nTests: 2 passed, 2 total";
  s.result(test2, pass, { stdout: pass, stderr: "", interrupted: false, isImage: false });
  m = s.message("msg_01Gh8Wj2kLm5No9Pq3Rs6Tu1");
  m(text("Fixed: `total` now subtracts `discount` from the net amount before tax, and both tests pass."), "end_turn");
  s.other("system", { subtype: "turn_duration", durationMs: 48213, isMeta: false });
  s.prompt("<command-name>/exit</command-name>\n            <command-message>exit</command-message>\n            <command-args></command-args>");
  s.prompt("<local-command-stdout>Goodbye!</local-command-stdout>");
  write("parallel-calls-and-errors.jsonl", s.records);
}

/** A force push the user rejects and interrupts; the agent then opens a pull request. */
function interruptedForcePush() {
  const s = session(2, "2025-11-21T16:02:41.000Z");
  s.prompt("Ship the discount fix to main.");
  let m = s.message("msg_01Kp2Lq5Mr8Ns1Ot4Pu7Qv0W");
  m(text("I'll push the branch to main."));
  const push = m(toolUse("toolu_01Ab3Cd6Ef9Gh2Ij5Kl8Mn1O", "Bash", { command: "git push --force origin HEAD:main", description: "Push the fix to main" }), "tool_use");
  s.result(
    push,
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
    "User rejected tool use",
    { error: true },
  );
  s.prompt([text("[Request interrupted by user for tool use]")]);
  s.prompt("Never force-push to main. Open a pull request instead.");
  m = s.message("msg_01Lq3Mr6Ns9Ot2Pu5Qv8Rw1X");
  const pr = m(toolUse("toolu_01Pq4Rs7Tu0Vw3Xy6Za9Bc2D", "Bash", { command: "gh pr create --fill --base main", description: "Open a pull request" }), "tool_use");
  s.result(pr, "https://github.com/acme/shop/pull/42", { stdout: "https://github.com/acme/shop/pull/42\n", stderr: "", interrupted: false, isImage: false });
  m = s.message("msg_01Mr4Ns7Ot0Pu3Qv6Rw9Sx2Y");
  m(text("Opened https://github.com/acme/shop/pull/42 against main."), "end_turn");
  write("interrupted-force-push.jsonl", s.records);
}

/** A large Write, a prompt queued while the agent works, an API error, then the session killed while an Edit runs. */
function killedMidCall() {
  const s = session(3, "2025-11-22T11:40:00.000Z");
  s.prompt("Write fixtures/orders.json with 200 sample orders for the import tests.");
  const orders = [];
  for (let i = 1; i <= 200; i++)
    orders.push({ id: `ord_${String(i).padStart(4, "0")}`, customer: `c${(i * 7919) % 1000}`, total: ((i * 3719) % 50000) / 100, status: i % 9 === 0 ? "refunded" : "paid" });
  const content = `${JSON.stringify(orders, null, 2)}\n`;
  let m = s.message("msg_01Nt5Ou8Pv1Qw4Rx7Sy0Tz3A");
  const w = m(toolUse("toolu_01Tu5Vw8Xy1Za4Bc7De0Fg3H", "Write", { file_path: `${CWD}/fixtures/orders.json`, content }), "tool_use");
  s.raw({
    type: "attachment",
    attachment: { type: "queued_command", prompt: "also add a test that reads the refunded orders", commandMode: "prompt", origin: { kind: "human" } },
    parentUuid: s.last,
    isSidechain: false,
    userType: "external",
    cwd: CWD,
    sessionId: s.sessionId,
    version: VERSION,
    gitBranch: "main",
    uuid: "00030099-1111-4000-8000-000000000099",
    timestamp: s.stamp(300),
  });
  s.result(w, `File created successfully at: ${CWD}/fixtures/orders.json`, { type: "create", filePath: `${CWD}/fixtures/orders.json`, content, structuredPatch: [] });
  s.other("assistant", {
    message: {
      id: "c0ffee00-0000-4000-8000-000000000001",
      model: "<synthetic>",
      role: "assistant",
      stop_reason: "stop_sequence",
      stop_sequence: "",
      type: "message",
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      content: [text('API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')],
    },
    error: "server_error",
    isApiErrorMessage: true,
    apiErrorStatus: 529,
  });
  m = s.message("msg_01Ou6Pv9Qw2Rx5Sy8Tz1Ua4B");
  m(text("Adding the refund test to the import suite."));
  m(
    toolUse("toolu_01Vw6Xy9Za2Bc5De8Fg1Hi4J", "Edit", {
      file_path: `${CWD}/src/import.test.ts`,
      old_string: 'describe("import", () => {',
      new_string: 'describe("import", () => {\n  test("reads refunded orders", () => expect(load().filter((o) => o.status === "refunded")).toHaveLength(22));',
    }),
    "tool_use",
  );
  write("killed-mid-call.jsonl", s.records);
}

/**
 * Sub-agents in the session's own file (the in-file sidechain layout): two
 * parallel Task calls, one whose records carry its agentId (named by the
 * result's toolUseResult.agentId), one whose records carry none (found by its
 * prompt), and a background Task whose transcript is written after its
 * launch result. The second sub-agent writes a file.
 */
function subagentsInline() {
  const s = session(4, "2025-11-24T08:30:00.000Z");
  const side = (agentId) => {
    let parent = null;
    let k = 0;
    const add = (type, extra, ms = 1200) => {
      const uuid = `${agentId ?? "side"}-${String(++k).padStart(4, "0")}-4000-8000-000000000000`;
      const record = {
        parentUuid: parent,
        isSidechain: true,
        userType: "external",
        cwd: CWD,
        sessionId: s.sessionId,
        version: VERSION,
        gitBranch: "main",
        ...(agentId === undefined ? {} : { agentId }),
        ...extra,
        type,
        uuid,
        timestamp: s.stamp(ms),
      };
      parent = uuid;
      s.raw(record);
      return record;
    };
    let requests = 0;
    return {
      prompt: (content) => add("user", { message: { role: "user", content } }),
      block: (id, block, stop = null) =>
        add("assistant", {
          message: { model: "claude-haiku-4-5-20251001", id, type: "message", role: "assistant", content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 40 } },
          requestId: `req_011CW${agentId ?? "side"}${++requests}`,
        }),
      result: (call, content, toolUseResult) =>
        add("user", { message: { role: "user", content: [{ tool_use_id: call.message.content[0].id, type: "tool_result", content }] }, toolUseResult }, 400),
    };
  };
  s.prompt("Refunds in other currencies come out wrong. Find where refunds are computed and add a currency check.");
  let m = s.message("msg_01Sa1Tb2Uc3Vd4We5Xf6Yg7Z");
  m(text("I'll look for the refund code and the supported currencies in parallel."));
  const findPrompt = "Find where refunds are computed and report the file and function.";
  const listPrompt = "List the currencies the shop supports and write them to notes/currencies.md.";
  const t1 = m(toolUse("toolu_01Ta2Ub3Vc4Wd5Xe6Yf7Zg8A", "Task", { description: "Find the refund code", prompt: findPrompt, subagent_type: "Explore" }));
  const t2 = m(toolUse("toolu_01Ub3Vc4Wd5Xe6Yf7Zg8Ah9B", "Task", { description: "List currencies", prompt: listPrompt, subagent_type: "general-purpose" }), "tool_use");
  const a = side("a1b2c3d4");
  a.prompt(findPrompt);
  const grep = a.block("msg_01Va4Wb5Xc6Yd7Ze8Af9Bg0C", toolUse("toolu_01Wb5Xc6Yd7Ze8Af9Bg0Ch1D", "Grep", { pattern: "refund", path: "src", output_mode: "files_with_matches" }), "tool_use");
  a.result(grep, "Found 2 files\nsrc/refunds.ts\nsrc/refunds.test.ts", { mode: "files_with_matches", filenames: ["src/refunds.ts", "src/refunds.test.ts"], numFiles: 2 });
  const read = a.block("msg_01Xc6Yd7Ze8Af9Bg0Ch1Di2E", toolUse("toolu_01Yd7Ze8Af9Bg0Ch1Di2Ej3F", "Read", { file_path: `${CWD}/src/refunds.ts` }), "tool_use");
  const refunds = ["export function refund(order: Order, amount: number): Refund {", "  return { orderId: order.id, amount, currency: \"USD\" };", "}"];
  a.result(read, catN(refunds), { type: "text", file: { filePath: `${CWD}/src/refunds.ts`, content: refunds.join("\n"), numLines: 3, startLine: 1, totalLines: 3 } });
  a.block("msg_01Ze8Af9Bg0Ch1Di2Ej3Fk4G", text("Refunds are computed by `refund` in src/refunds.ts; it always sets the currency to USD."), "end_turn");
  const b = side(undefined);
  b.prompt(listPrompt);
  const w = b.block("msg_01Af9Bg0Ch1Di2Ej3Fk4Gl5H", toolUse("toolu_01Bg0Ch1Di2Ej3Fk4Gl5Hm6I", "Write", { file_path: `${CWD}/notes/currencies.md`, content: "USD\nEUR\nGBP\n" }), "tool_use");
  b.result(w, `File created successfully at: ${CWD}/notes/currencies.md`, { type: "create", filePath: `${CWD}/notes/currencies.md`, content: "USD\nEUR\nGBP\n", structuredPatch: [] });
  b.block("msg_01Ch1Di2Ej3Fk4Gl5Hm6In7J", text("The shop supports USD, EUR and GBP (written to notes/currencies.md)."), "end_turn");
  const answer = "Refunds are computed by `refund` in src/refunds.ts; it always sets the currency to USD.";
  s.result(t1, [text(answer), text("agentId: a1b2c3d4 (for resuming to continue this agent's work if needed)")], {
    status: "completed",
    prompt: findPrompt,
    agentId: "a1b2c3d4",
    content: [text(answer)],
    totalDurationMs: 7310,
    totalTokens: 20154,
    totalToolUseCount: 2,
  });
  s.result(t2, [text("The shop supports USD, EUR and GBP (written to notes/currencies.md).")], {
    status: "completed",
    prompt: listPrompt,
    content: [text("The shop supports USD, EUR and GBP (written to notes/currencies.md).")],
    totalDurationMs: 4120,
    totalTokens: 9812,
    totalToolUseCount: 1,
  });
  m = s.message("msg_01Di2Ej3Fk4Gl5Hm6In7Jo8K");
  const r = m(toolUse("toolu_01Ej3Fk4Gl5Hm6In7Jo8Kp9L", "Read", { file_path: `${CWD}/src/refunds.ts` }), "tool_use");
  s.result(r, catN(refunds), { type: "text", file: { filePath: `${CWD}/src/refunds.ts`, content: refunds.join("\n"), numLines: 3, startLine: 1, totalLines: 3 } });
  m = s.message("msg_01Fk4Gl5Hm6In7Jo8Kp9Lq0M");
  const fixed = "  return { orderId: order.id, amount, currency: order.currency };";
  const e = m(toolUse("toolu_01Gl5Hm6In7Jo8Kp9Lq0Mr1N", "Edit", { file_path: `${CWD}/src/refunds.ts`, old_string: refunds[1], new_string: fixed }), "tool_use");
  s.result(e, `The file ${CWD}/src/refunds.ts has been updated.`, {
    filePath: `${CWD}/src/refunds.ts`,
    oldString: refunds[1],
    newString: fixed,
    originalFile: refunds.join("\n"),
    structuredPatch: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: [`-${refunds[1]}`, `+${fixed}`] }],
    userModified: false,
    replaceAll: false,
  });
  m = s.message("msg_01Hm6In7Jo8Kp9Lq0Mr1Ns2O");
  const bgPrompt = "Run the whole test suite and report any failure.";
  const t3 = m(toolUse("toolu_01In7Jo8Kp9Lq0Mr1Ns2Ot3P", "Task", { description: "Run the tests", prompt: bgPrompt, subagent_type: "general-purpose", run_in_background: true }), "tool_use");
  s.result(t3, [text("Async agent launched successfully.\nagentId: bg01e5f6 (use TaskOutput to read its output)")], {
    isAsync: true,
    status: "async_launched",
    agentId: "bg01e5f6",
    description: "Run the tests",
    prompt: bgPrompt,
  });
  const c = side("bg01e5f6");
  c.prompt(bgPrompt);
  const run = c.block("msg_01Jo8Kp9Lq0Mr1Ns2Ot3Pu4Q", toolUse("toolu_01Kp9Lq0Mr1Ns2Ot3Pu4Qv5R", "Bash", { command: "npm test", description: "Run the test suite" }), "tool_use");
  const pass = "PASS  src/refunds.test.ts\nPASS  src/invoice.test.ts\n\nTests: 9 passed, 9 total";
  c.result(run, pass, { stdout: pass, stderr: "", interrupted: false, isImage: false });
  c.block("msg_01Lq0Mr1Ns2Ot3Pu4Qv5Rw6S", text("All 9 tests pass."), "end_turn");
  s.prompt("<task-notification>\n<task-id>bg01e5f6</task-id>\n<status>completed</status>\n<summary>Agent \"Run the tests\" completed</summary>\n<result>All 9 tests pass.</result>\n</task-notification>");
  m = s.message("msg_01Mr1Ns2Ot3Pu4Qv5Rw6Sx7T");
  m(text("Refunds now keep the order's currency instead of USD, and the test suite passes."), "end_turn");
  write("subagents-inline.jsonl", s.records);
}

mkdirSync(out, { recursive: true });
parallelCallsAndErrors();
interruptedForcePush();
killedMidCall();
subagentsInline();
