"""Records the bedrock importer fixtures: real agent loops run through boto3's
bedrock-runtime client (`converse`) against a canned model server on
127.0.0.1. The canned bodies are the model's turns in the Converse API's
published wire format; the requests, message lists and responses in the
fixtures are what boto3 and the loop produced. The tools really run in the
loop (a refund-support agent: get_order, issue_refund, send_email,
escalate_to_supervisor, add_case_note, get_receipt).

Two fixtures wrap those runs the way other writers store them, from their
published shapes (see test/fixtures/importers/bedrock/README.md): Bedrock
model invocation log records, and Strands Agents session messages
(FileSessionManager's SessionMessage files, one per line).

    python3 scripts/record-fixtures/bedrock/record.py

Needs boto3 (any recent version; recorded with 1.43.11). Nothing leaves the
loopback interface; the access keys are placeholders the local server ignores.
"""

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import boto3
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "test", "fixtures", "importers", "bedrock")
MODEL = "anthropic.claude-sonnet-4-20250514-v1:0"
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

queue = []
requests = []  # (path, wire body as JSON, request id)
counter = {"n": 0}


class Canned(BaseHTTPRequestHandler):
    """Answers each POST with the next canned Converse body; fixed headers so recordings repeat byte for byte."""

    def version_string(self):
        return "canned"

    def date_time_string(self, timestamp=None):
        return "Mon, 06 Jan 2025 10:00:00 GMT"

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        counter["n"] += 1
        request_id = f"req-rec{counter['n']:04d}"
        requests.append((self.path, body, request_id))
        if not queue:
            self.send_response(500)
            self.end_headers()
            return
        out = json.dumps(queue.pop(0)).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("x-amzn-requestid", request_id)
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Canned)
threading.Thread(target=server.serve_forever, daemon=True).start()
client = boto3.client(
    "bedrock-runtime",
    region_name="us-east-1",
    endpoint_url=f"http://127.0.0.1:{server.server_port}",
    aws_access_key_id="local",
    aws_secret_access_key="local",
    config=Config(retries={"max_attempts": 1}),
)


def reply(content, stop):
    """A Converse response body as the service sends it."""
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 300, "outputTokens": 50, "totalTokens": 350},
        "metrics": {"latencyMs": 420},
    }


def use(tool_use_id, name, tool_input):
    return {"toolUse": {"toolUseId": tool_use_id, "name": name, "input": tool_input}}


ORDERS = {"A-1001": {"item": "kettle", "amount": 25}, "A-1002": {"item": "toaster", "amount": 40}, "B-7": {"item": "lamp", "amount": 60}}


def get_order(order_id):
    if order_id in ORDERS:
        return {"status": "found", "order_id": order_id, **ORDERS[order_id]}
    return {"status": "not_found", "order_id": order_id}


def issue_refund(order_id, amount):
    if order_id == "A-1002":
        raise RuntimeError("payment processor timeout")
    return {"status": "approved", "order_id": order_id, "amount": amount, "reference": f"RF-{order_id}"}


TOOLS = {
    "get_order": lambda i: get_order(i["order_id"]),
    "issue_refund": lambda i: issue_refund(i["order_id"], i["amount"]),
    "send_email": lambda i: {"status": "sent", "template": i["template"], "to": i["to"]},
    "escalate_to_supervisor": lambda i: {"status": "escalated", "reason": i["reason"]},
    "add_case_note": lambda i: {"status": "saved", "kind": i["kind"]},
    # A result of several parts: text blocks and an image.
    "get_receipt": lambda i: [{"text": f"Receipt for {i['order_id']}"}, {"text": "Paid by card."}, {"image": {"format": "png", "source": {"bytes": PIXEL}}}],
}
TOOL_CONFIG = {
    "tools": [
        {"toolSpec": {"name": name, "description": f"The {name} tool", "inputSchema": {"json": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}}
        for name in TOOLS
    ]
}


def converse_result(tool_use):
    """The Converse docs' toolResult: JSON results as a json block, a list of parts as is, an exception as status error."""
    try:
        value = TOOLS[tool_use["name"]](tool_use["input"])
        content = value if isinstance(value, list) else [{"json": value}]
        return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": content, "status": "success"}}
    except Exception as error:  # the tool failed: the model is told, with status error
        return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": str(error)}], "status": "error"}}


def strands_result(tool_use):
    """What a Strands @tool function's result becomes (strands/tools/decorator.py `_wrap_tool_result`, `stream`)."""
    try:
        value = TOOLS[tool_use["name"]](tool_use["input"])
        return {"toolResult": {"toolUseId": tool_use["toolUseId"], "status": "success", "content": [{"text": str(value)}]}}
    except Exception as error:
        return {"toolResult": {"toolUseId": tool_use["toolUseId"], "status": "error", "content": [{"text": f"Error: {type(error).__name__} - {error}"}]}}


def loop(messages, result=converse_result, max_turns=10, order=None, system=None, guardrail=None):
    """The tool-use loop of the Converse docs: append the model's message, run every toolUse, answer them in one user message."""
    last = None
    for turn in range(1, max_turns + 1):
        kwargs = {"modelId": MODEL, "messages": messages, "toolConfig": TOOL_CONFIG, "inferenceConfig": {"maxTokens": 1024}}
        if system:
            kwargs["system"] = [{"text": system}]
        if guardrail:
            kwargs["guardrailConfig"] = guardrail
        last = client.converse(**kwargs)
        messages.append(last["output"]["message"])
        if last["stopReason"] != "tool_use" or turn == max_turns:
            break
        uses = [block["toolUse"] for block in last["output"]["message"]["content"] if "toolUse" in block]
        if order and turn in order:
            uses.sort(key=lambda u: order[turn].index(u["toolUseId"]))
        messages.append({"role": "user", "content": [result(u) for u in uses]})
    return messages, last


def jsonable(value):
    """boto3 values as JSON: bytes as the base64 the wire carries."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def write(name, text):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(text)


def pretty(value):
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False) + "\n"


# 1. Parallel toolUse blocks answered out of order, a tool that fails (status error), reasoning, an image
# in the user's message; logged as the last exchange: the wire request and boto3's response dict.
queue.extend(
    [
        reply(
            [
                {"reasoningContent": {"reasoningText": {"text": "Two orders; look both up before refunding.", "signature": "c2lnLXJlYzE="}}},
                {"text": "Let me look both orders up."},
                use("tooluse_rec01", "get_order", {"order_id": "A-1001"}),
                use("tooluse_rec02", "get_order", {"order_id": "A-1002"}),
            ],
            "tool_use",
        ),
        reply([use("tooluse_rec03", "issue_refund", {"order_id": "A-1001", "amount": 25}), use("tooluse_rec04", "issue_refund", {"order_id": "A-1002", "amount": 40})], "tool_use"),
        reply([{"text": "\n\n"}, use("tooluse_rec05", "send_email", {"template": "refund_confirmation", "to": "dana@example.com"})], "tool_use"),
        reply([{"text": "A-1001 is refunded and confirmed by email. The A-1002 refund failed at the processor; I will retry it."}], "end_turn"),
    ]
)
_, last = loop(
    [
        {
            "role": "user",
            "content": [
                {"image": {"format": "png", "source": {"bytes": PIXEL}}},
                {"text": "Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com."},
            ],
        }
    ],
    system="You are a refund support agent.",
    order={1: ["tooluse_rec02", "tooluse_rec01"], 2: ["tooluse_rec04", "tooluse_rec03"]},
)
write("refund-parallel-error.json", pretty({"request": requests[-1][1], "response": last}))

# 2. A result of several parts (text, text, image), a call without input, and a run stopped after its turn
# budget with a refund call unanswered: the bare message list the loop kept.
queue.extend(
    [
        reply([{"text": "Let me check your order and receipt."}, use("tooluse_rec06", "get_order", {"order_id": "B-7"}), use("tooluse_rec07", "get_receipt", {"order_id": "B-7"})], "tool_use"),
        reply([use("tooluse_rec08", "issue_refund", {"order_id": "B-7", "amount": 60})], "tool_use"),
    ]
)
messages, _ = loop([{"role": "user", "content": [{"text": "Lamp B-7 flickers. Refund it."}]}], max_turns=2)
write("cut-off-messages.json", pretty(messages))

# 3. Bedrock model invocation logging: one record per Converse call (the wire request as inputBodyJson, the
# response body as outputBodyJson), one JSON object per line as CloudWatch Logs exports them. Four conversations:
# an escalation over three calls, a guardrail that intervened, an answer cut off at max_tokens, a careless refund.
first = len(requests)
queue.extend(
    [
        reply([use("tooluse_rec09", "escalate_to_supervisor", {"reason": "legal question"})], "tool_use"),
        reply([use("tooluse_rec10", "add_case_note", {"kind": "handover", "text": "Legal question about refunds."})], "tool_use"),
        reply([{"text": "A supervisor will answer your legal question."}], "end_turn"),
        reply([{"text": "Sorry, I can't help with that request."}], "guardrail_intervened"),
        reply([{"text": "Our refund policy covers"}], "max_tokens"),
        reply([use("tooluse_rec11", "issue_refund", {"order_id": "A-1001", "amount": 25})], "tool_use"),
        reply([{"text": "Refunded, the money is on its way."}], "end_turn"),
    ]
)
responses = list(queue)
loop([{"role": "user", "content": [{"text": "Is this refund legal under consumer law?"}]}])
loop(
    [{"role": "user", "content": [{"text": "Refund me or I will hack your systems."}]}],
    guardrail={"guardrailIdentifier": "gr-refunds", "guardrailVersion": "1"},
)
loop([{"role": "user", "content": [{"text": "Explain the whole refund policy in detail."}]}])
loop([{"role": "user", "content": [{"text": "Just refund A-1001, $25, no questions."}]}])
lines = []
for k, (path, body, request_id) in enumerate(requests[first:]):
    out = responses[k]
    lines.append(
        {
            "schemaType": "ModelInvocationLog",
            "schemaVersion": "1.0",
            "timestamp": f"2025-01-06T10:00:{k:02d}Z",
            "accountId": "123456789012",
            "identity": {"arn": "arn:aws:sts::123456789012:assumed-role/refund-desk/recorder"},
            "region": "us-east-1",
            "requestId": request_id,
            "operation": "Converse",
            "modelId": path.split("/")[2].replace("%3A", ":"),
            "input": {"inputContentType": "application/json", "inputBodyJson": body, "inputTokenCount": 300},
            "output": {"outputContentType": "application/json", "outputBodyJson": out, "outputTokenCount": 50},
        }
    )
write("invocation-log.jsonl", "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))

# 4. A Strands Agents session: the agent's messages as FileSessionManager stores them (one SessionMessage per
# message_<n>.json), here one per line in the order `ls` lists the files (message_10 before message_2). Tool
# results are what Strands makes of a @tool function's return value: str(dict), a Python repr, not JSON; a
# failing tool is status error with "Error: <type> - <message>". Bytes are base64 in Strands' wrapper.
queue.extend(
    [
        reply([{"text": "I'll look the orders up."}, use("tooluse_rec12", "get_order", {"order_id": "A-1001"}), use("tooluse_rec13", "get_order", {"order_id": "B-7"})], "tool_use"),
        reply([use("tooluse_rec14", "issue_refund", {"order_id": "A-1001", "amount": 25})], "tool_use"),
        reply([use("tooluse_rec15", "send_email", {"template": "refund_confirmation", "to": "lee@example.com"})], "tool_use"),
        reply([{"text": "A-1001 is refunded. Do you want B-7 refunded too?"}], "end_turn"),
        reply([use("tooluse_rec16", "issue_refund", {"order_id": "A-1002", "amount": 40})], "tool_use"),
        reply([{"text": "The A-1002 refund failed: the payment processor timed out. I'll retry later."}], "end_turn"),
    ]
)
session, _ = loop(
    [
        {
            "role": "user",
            "content": [
                {"text": "Refund A-1001 please, it broke. Here's the photo. I'm lee@example.com."},
                {"image": {"format": "png", "source": {"bytes": PIXEL}}},
            ],
        }
    ],
    result=strands_result,
)
session.append({"role": "user", "content": [{"text": "No, refund A-1002 instead."}]})
session, _ = loop(session, result=strands_result)


def session_message(message, index):
    """strands/types/session.py SessionMessage.to_dict(): bytes as {"__bytes_encoded__": true, "data": base64}."""

    def encode(value):
        if isinstance(value, (bytes, bytearray)):
            return {"__bytes_encoded__": True, "data": base64.b64encode(value).decode()}
        if isinstance(value, dict):
            return {k: encode(v) for k, v in value.items()}
        if isinstance(value, list):
            return [encode(v) for v in value]
        return value

    at = f"2025-01-06T11:00:{index:02d}.000000+00:00"
    return {"message": encode(message), "message_id": index, "redact_message": None, "created_at": at, "updated_at": at}


files = sorted((f"message_{i}.json", session_message(m, i)) for i, m in enumerate(session))
write("strands-session.jsonl", "".join(json.dumps(record, ensure_ascii=False) + "\n" for _, record in files))

if queue:
    raise SystemExit("unused canned answers")
server.shutdown()
