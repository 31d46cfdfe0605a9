// Builds the hand-made `adk` importer fixtures. ADK (Python) and the Gemini
// API cannot run here, so these are written from the writers' published
// source (see test/fixtures/importers/adk/README.md for the files and commits):
// ADK's Event / EventActions / Session pydantic models (camelCase aliases when
// the API server dumps them `by_alias`, snake_case in `adk run --save_session`),
// its `adk-<uuid>` client call ids, the `{result: …}` wrapping of a tool's
// non-dict return, the merged function response event of parallel calls, and
// the Gemini REST API's Content / Part / GenerateContentResponse (camelCase).
//   node scripts/record-fixtures/adk/build.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../../test/fixtures/importers/adk");
mkdirSync(out, { recursive: true });
const write = (name, value) => writeFileSync(join(out, name), JSON.stringify(value, null, 2) + "\n");
const writeLines = (name, values) => writeFileSync(join(out, name), values.map((v) => JSON.stringify(v)).join("\n") + "\n");

const T0 = 1762250400; // 2025-11-04T10:00:00Z, seconds as ADK writes them
const order = { order_id: "A-1001", status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] };
const policy = { eligible: true, reason: "damaged" };
const text = (t) => ({ text: t });
const call = (id, name, args) => ({ functionCall: id === undefined ? { name, args } : { id, name, args } });
const response = (id, name, value) => ({ functionResponse: id === undefined ? { name, response: value } : { id, name, response: value } });

// 1. GET /apps/{app}/users/{user}/sessions/{id} of the API server (camelCase): a triage agent transfers
//    to the refunds agent (transfer_to_agent, actions.transferToAgent), which calls lookup_order and
//    check_policy in one response; their responses come in
//    one merged event; issue_refund fails ({error}); the refunds agent tells the customer.
function refundSession() {
  let n = 0;
  const event = (author, content, extra = {}) => ({
    content,
    invocationId: "e-7f1c2d3e-0001",
    author,
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, ...(extra.actions ?? {}) },
    ...(extra.fields ?? {}),
    id: `ev${String(++n).padStart(2, "0")}`,
    timestamp: T0 + n * 0.75,
  });
  const model = (parts) => ({ parts, role: "model" });
  const user = (parts) => ({ parts, role: "user" });
  const usage = { usageMetadata: { candidatesTokenCount: 20, promptTokenCount: 300, totalTokenCount: 320 } };
  const events = [
    event("user", user([text("Order A-1001 arrived broken. Please refund it."), { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQSkZJRg==" } }])),
    event("triage", model([call("adk-0b1c2d3e-1111-4a5b-9c8d-000000000001", "transfer_to_agent", { agent_name: "refunds" })]), { fields: { finishReason: "STOP", ...usage } }),
    event("triage", user([response("adk-0b1c2d3e-1111-4a5b-9c8d-000000000001", "transfer_to_agent", { result: null })]), { actions: { transferToAgent: "refunds" } }),
    event(
      "refunds",
      model([
        text("Let me look that up."),
        call("adk-0b1c2d3e-1111-4a5b-9c8d-000000000002", "lookup_order", { order_id: "A-1001" }),
        call("adk-0b1c2d3e-1111-4a5b-9c8d-000000000003", "check_policy", { reason: "damaged", items: [{ sku: "MUG-1" }] }),
      ]),
      { fields: { finishReason: "STOP", ...usage } },
    ),
    event(
      "refunds",
      user([
        response("adk-0b1c2d3e-1111-4a5b-9c8d-000000000002", "lookup_order", order),
        response("adk-0b1c2d3e-1111-4a5b-9c8d-000000000003", "check_policy", policy),
      ]),
    ),
    event("refunds", model([call("adk-0b1c2d3e-1111-4a5b-9c8d-000000000004", "issue_refund", { order_id: "A-1001", amount: 18.5 })]), { fields: { finishReason: "STOP", ...usage } }),
    event("refunds", user([response("adk-0b1c2d3e-1111-4a5b-9c8d-000000000004", "issue_refund", { error: "payment gateway timeout" })])),
    event("refunds", model([text("I could not refund order A-1001 yet (the payment gateway timed out); a colleague will finish it today.")]), { fields: { finishReason: "STOP", ...usage } }),
  ];
  return { id: "5d1f0a9e-3c2b-4e8f-9a7d-6b5c4e3f2a10", appName: "refund_desk", userId: "customer-17", state: {}, events, lastUpdateTime: T0 + n };
}

// 2. `adk run --save_session` (model_dump_json(exclude_none=True): snake_case): a cancellation the
//    agent hands to a long-running tool whose response never came; the user writes again.
function cancelSession() {
  let n = 0;
  const event = (author, content, extra = {}) => ({
    invocation_id: "e-9a8b7c6d-0002",
    author,
    actions: { state_delta: {}, artifact_delta: {}, requested_auth_configs: {} },
    ...extra,
    content,
    id: `cx${++n}`,
    timestamp: T0 + 3600 + n,
  });
  return {
    id: "c4e3f2a1-0b9c-4d8e-8f7a-6e5d4c3b2a19",
    app_name: "refund_desk",
    user_id: "customer-18",
    state: {},
    events: [
      event("user", { parts: [{ text: "Please cancel order A-3003." }], role: "user" }),
      event(
        "orders",
        { parts: [{ function_call: { id: "adk-5e6f7a8b-2222-4c3d-8e9f-000000000009", name: "cancel_order", args: { order_id: "A-3003" } } }], role: "model" },
        { long_running_tool_ids: ["adk-5e6f7a8b-2222-4c3d-8e9f-000000000009"], finish_reason: "STOP" },
      ),
      event("user", { parts: [{ text: "Is it cancelled yet?" }], role: "user" }),
    ],
    last_update_time: T0 + 3600 + n,
  };
}

// 3. generateContent REST exchanges of one function-calling loop ({request, response}, camelCase), as an
//    app logs them: each request repeats the conversation. The model's calls carry no ids: two
//    lookup_order calls in one response, answered in order; check_policy waits for the lookups; the
//    refund fails.
function geminiExchanges() {
  const ask = { role: "user", parts: [text("Orders A-1001 and A-1002 both arrived broken. Please refund them.")] };
  const second = { order_id: "A-1002", status: "delivered", items: [{ sku: "MUG-1", price: 18.5 }] };
  const turns = [
    { role: "model", parts: [call(undefined, "lookup_order", { order_id: "A-1001" }), call(undefined, "lookup_order", { order_id: "A-1002" })] },
    { role: "user", parts: [response(undefined, "lookup_order", order), response(undefined, "lookup_order", second)] },
    { role: "model", parts: [call(undefined, "check_policy", { reason: "damaged", items: [{ sku: "MUG-1" }] })] },
    { role: "user", parts: [response(undefined, "check_policy", policy)] },
    { role: "model", parts: [call(undefined, "issue_refund", { order_id: "A-1001", amount: 37 })] },
    { role: "user", parts: [response(undefined, "issue_refund", { error: "payment gateway timeout" })] },
    { role: "model", parts: [text("Both orders qualify, but the refund did not go through (the payment gateway timed out). A colleague will finish it today.")] },
  ];
  const tools = [{ functionDeclarations: ["lookup_order", "check_policy", "issue_refund"].map((name) => ({ name, parameters: { type: "OBJECT" } })) }];
  const exchanges = [];
  for (let k = 0; k < turns.length; k += 2) {
    const contents = [ask, ...turns.slice(0, k)];
    exchanges.push({
      request: { contents, systemInstruction: { parts: [text("You are the refunds desk of a shop.")] }, tools },
      response: {
        candidates: [{ content: turns[k], finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 200 + 40 * k, candidatesTokenCount: 20, totalTokenCount: 220 + 40 * k },
        modelVersion: "gemini-2.5-flash",
        responseId: `resp-${k}`,
      },
    });
  }
  return exchanges;
}

// 4. The API server's /run_sse stream (event.model_dump_json(exclude_none=True, by_alias=True)), one
//    event per line (streamed with --streaming false, so no partial chunks): a thought, code the model
//    ran and its outcome between two texts, the answer.
function sseEvents() {
  let n = 0;
  const event = (author, content, extra = {}) => ({
    content,
    ...extra,
    invocationId: "e-3b4c5d6e-0003",
    author,
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} },
    id: `ss${++n}`,
    timestamp: T0 + 7200 + n * 0.5,
  });
  const model = (parts) => ({ parts, role: "model" });
  return [
    event("user", { parts: [text("What is the refund total for three mugs at 18.50 each?")], role: "user" }),
    event(
      "calculator",
      model([
        { text: "I should compute 3 x 18.50.", thought: true },
        text("Let me compute that."),
        { executableCode: { language: "PYTHON", code: "print(3 * 18.50)" } },
        { codeExecutionResult: { outcome: "OUTCOME_OK", output: "55.5\n" } },
        text("The refund total is 55.50."),
      ]),
      { finishReason: "STOP" },
    ),
  ];
}

write("refund-session.api.json", refundSession());
write("cancel-session.saved.json", cancelSession());
write("refund-gemini.exchanges.json", geminiExchanges());
writeLines("code-execution.sse.jsonl", sseEvents());
