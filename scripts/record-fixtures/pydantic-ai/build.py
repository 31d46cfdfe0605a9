"""Builds the pydantic-ai importer fixtures: message histories as
`ModelMessagesTypeAdapter.dump_json(result.all_messages())` writes them.

Pydantic AI does not run here (it is not installed, and nothing is
installed for fixtures), so the histories are written from its published
source: pydantic/pydantic-ai `pydantic_ai_slim/pydantic_ai/messages.py` at
25ca1394b6c3c045370dae0e30d7bba7555ac1a7 (every dataclass field, in
declaration order, as pydantic serializes dataclasses; datetimes as UTC ISO
strings with "Z"; bytes as base64) and the agent graph's behaviour (an
output tool's call is answered "Final result processed."; a tool raising
ModelRetry, or arguments failing validation, becomes a RetryPromptPart with
the tool's name). The tools run for real (the refund-support agent of the
other formats' fixtures).

    python3 scripts/record-fixtures/pydantic-ai/build.py
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "test", "fixtures", "importers", "pydantic-ai")
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

clock = {"s": 0}


def now():
    clock["s"] += 1
    return f"2025-01-06T12:{clock['s'] // 60:02d}:{clock['s'] % 60:02d}.{clock['s'] * 1000:06d}Z"


def usage(i=300, o=50):
    return {
        "input_tokens": i,
        "cache_write_tokens": 0,
        "cache_read_tokens": 0,
        "output_tokens": o,
        "input_audio_tokens": 0,
        "cache_audio_read_tokens": 0,
        "output_audio_tokens": 0,
        "details": {},
    }


def request(parts, run_id, instructions=None):
    return {"parts": parts, "timestamp": now(), "instructions": instructions, "kind": "request", "run_id": run_id, "metadata": None}


def response(parts, run_id, finish="stop", model="gpt-5.1", provider="openai", response_id=None):
    return {
        "parts": parts,
        "usage": usage(),
        "model_name": model,
        "timestamp": now(),
        "kind": "response",
        "provider_name": provider,
        "provider_url": "https://api.openai.com/v1/" if provider == "openai" else "https://api.anthropic.com",
        "provider_details": {"finish_reason": finish_native(finish, provider)},
        "provider_response_id": response_id,
        "finish_reason": finish,
        "run_id": run_id,
        "metadata": None,
    }


def finish_native(finish, provider):
    if provider == "anthropic":
        return {"stop": "end_turn", "tool_call": "tool_use", "length": "max_tokens"}[finish]
    return {"stop": "stop", "tool_call": "tool_calls", "length": "length"}[finish]


def system(text):
    return {"content": text, "timestamp": now(), "dynamic_ref": None, "part_kind": "system-prompt"}


def user(content):
    return {"content": content, "timestamp": now(), "part_kind": "user-prompt"}


def text(content):
    return {"content": content, "id": None, "provider_name": None, "provider_details": None, "part_kind": "text"}


def thinking(content, provider):
    return {"content": content, "id": None, "signature": "c2lnLXBhaQ==", "provider_name": provider, "provider_details": None, "part_kind": "thinking"}


def call(name, args, call_id, kind="tool-call", provider=None):
    return {"tool_name": name, "args": args, "tool_call_id": call_id, "id": None, "provider_name": provider, "provider_details": None, "part_kind": kind}


def tool_return(name, content, call_id):
    return {"tool_name": name, "content": content, "tool_call_id": call_id, "metadata": None, "timestamp": now(), "part_kind": "tool-return"}


def builtin_return(name, content, call_id, provider):
    return {
        "tool_name": name,
        "content": content,
        "tool_call_id": call_id,
        "metadata": None,
        "timestamp": now(),
        "provider_name": provider,
        "provider_details": None,
        "part_kind": "builtin-tool-return",
    }


def retry(content, call_id, name=None):
    return {"content": content, "tool_name": name, "tool_call_id": call_id, "timestamp": now(), "part_kind": "retry-prompt"}


class ModelRetry(Exception):
    pass


ORDERS = {"A-1001": {"item": "kettle", "amount": 25}, "A-1002": {"item": "toaster", "amount": 40}, "B-7": {"item": "lamp", "amount": 60}}


def get_order(order_id):
    if order_id in ORDERS:
        return {"status": "found", "order_id": order_id, **ORDERS[order_id]}
    return {"status": "not_found", "order_id": order_id}


def issue_refund(order_id, amount):
    if order_id == "A-1002":
        raise ModelRetry("payment processor timeout, try again later")
    return {"status": "approved", "order_id": order_id, "amount": amount, "reference": f"RF-{order_id}"}


TOOLS = {
    "get_order": lambda a: get_order(a["order_id"]),
    "issue_refund": lambda a: issue_refund(a["order_id"], a["amount"]),
    "send_email": lambda a: {"status": "sent", "template": a["template"], "to": a["to"]},
    "escalate_to_supervisor": lambda a: {"status": "escalated", "reason": a["reason"]},
    "add_case_note": lambda a: {"status": "saved", "kind": a["kind"]},
}


def run_tools(calls):
    """The agent graph's tool step: each call's return (or its RetryPromptPart), an output tool answered as processed."""
    parts = []
    for c in calls:
        args = json.loads(c["args"]) if isinstance(c["args"], str) else c["args"]
        if c["tool_name"] == "final_result":
            parts.append(tool_return("final_result", "Final result processed.", c["tool_call_id"]))
            continue
        try:
            parts.append(tool_return(c["tool_name"], TOOLS[c["tool_name"]](args), c["tool_call_id"]))
        except ModelRetry as error:
            parts.append(retry(str(error), c["tool_call_id"], c["tool_name"]))
    return parts


def write(name, value):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(value)


# 1. Structured output (output_type=RefundOutcome): the model answers by calling final_result. Parallel
# calls with dict args (Anthropic), a tool raising ModelRetry (retry-prompt with tool_name), a retry that
# works, thinking, a system prompt and an image in the user's prompt; the run's all_messages_json().
run = "0198a1b2-0000-7000-8000-000000000001"
history = [
    request(
        [
            system("You are a refund support agent."),
            user(["Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com.", {"data": PIXEL, "media_type": "image/png", "vendor_metadata": None, "identifier": "4effda", "kind": "binary"}]),
        ],
        run,
    )
]
steps = [
    [thinking("Two orders; look both up first.", "anthropic"), text("Let me look both orders up."), call("get_order", {"order_id": "A-1001"}, "toolu_pai01"), call("get_order", {"order_id": "A-1002"}, "toolu_pai02")],
    [call("issue_refund", {"order_id": "A-1001", "amount": 25}, "toolu_pai03"), call("issue_refund", {"order_id": "A-1002", "amount": 40}, "toolu_pai04")],
    [call("send_email", {"template": "refund_confirmation", "to": "dana@example.com"}, "toolu_pai05")],
    [text("A-1001 is refunded and confirmed; the A-1002 refund failed, I'll report it."), call("final_result", {"refunded": ["A-1001"], "failed": ["A-1002"], "message": "A-1001 is refunded and confirmed by email; the A-1002 refund failed at the processor."}, "toolu_pai06")],
]
for k, parts in enumerate(steps):
    history.append(response(parts, run, finish="tool_call", model="claude-sonnet-4-5", provider="anthropic", response_id=f"msg_pai{k + 1:04d}"))
    calls = [p for p in parts if p["part_kind"] == "tool-call"]
    history.append(request(run_tools(calls), run))
write("refund-structured-output.json", json.dumps(history, indent=2) + "\n")

# 2. A history that ends at the final_result call (streamed runs stop there: no "Final result processed."
# return), args as JSON text (OpenAI), an escalation with its handover note.
run = "0198a1b2-0000-7000-8000-000000000002"
history = [request([user("Is this refund legal under consumer law?")], run, instructions="You are a refund support agent.")]
steps = [
    [call("escalate_to_supervisor", '{"reason": "legal question"}', "call_pai07")],
    [call("add_case_note", '{"kind": "handover", "text": "Legal question about refunds."}', "call_pai08")],
]
for k, parts in enumerate(steps):
    history.append(response(parts, run, finish="tool_call", response_id=f"chatcmpl-pai{k + 7:04d}"))
    history.append(request(run_tools(parts), run, instructions="You are a refund support agent."))
history.append(response([call("final_result", '{"message": "A supervisor will answer your legal question."}', "call_pai09")], run, finish="tool_call", response_id="chatcmpl-pai0009"))
write("streamed-final-result.json", json.dumps(history, indent=2) + "\n")

# 3. Several runs, one history per line (a JSONL log of all_messages_json()): a text answer; a retry-prompt
# without a tool name (text output that failed validation) then a good answer; an answer cut off at the
# token limit; a built-in web search; a careless refund (no lookup, no email); a run stopped with a call
# unanswered; and a second run continuing the first's history (message_history=...).
lines = []
run = "0198a1b2-0000-7000-8000-000000000003"
first = [request([user("What is your refund policy?")], run), response([text("Damaged items can be refunded within 30 days of delivery.")], run, response_id="chatcmpl-pai0010")]
lines.append(first)
run = "0198a1b2-0000-7000-8000-000000000004"
lines.append(
    [
        request([user("Give me the refund window as a number of days.")], run),
        response([text("About a month.")], run, response_id="chatcmpl-pai0011"),
        request([retry("Please return an integer number of days.", "pyd_ai_retry_1")], run),
        response([text("30")], run, response_id="chatcmpl-pai0012"),
    ]
)
run = "0198a1b2-0000-7000-8000-000000000005"
lines.append([request([user("Explain the whole refund policy in detail.")], run), response([text("Our refund policy covers")], run, finish="length", response_id="chatcmpl-pai0013")])
run = "0198a1b2-0000-7000-8000-000000000006"
lines.append(
    [
        request([user("Is lamp B-7 recalled?")], run),
        response(
            [
                call("web_search", {"query": "lamp B-7 recall"}, "srvtoolu_pai01", kind="builtin-tool-call", provider="anthropic"),
                builtin_return("web_search", [{"title": "No recall for lamp B-7", "url": "https://example.com/recall", "type": "web_search_result"}], "srvtoolu_pai01", "anthropic"),
                text("No recall is listed for lamp B-7."),
            ],
            run,
            model="claude-sonnet-4-5",
            provider="anthropic",
            response_id="msg_pai0014",
        ),
    ]
)
run = "0198a1b2-0000-7000-8000-000000000007"
careless = [request([user("Just refund A-1001, $25, no questions.")], run)]
parts = [call("issue_refund", '{"order_id": "A-1001", "amount": 25}', "call_pai10")]
careless += [response(parts, run, finish="tool_call", response_id="chatcmpl-pai0015"), request(run_tools(parts), run)]
careless.append(response([text("Refunded, the money is on its way.")], run, response_id="chatcmpl-pai0016"))
lines.append(careless)
run = "0198a1b2-0000-7000-8000-000000000008"
lines.append(
    [
        request([user("Lamp B-7 flickers. Refund it.")], run),
        response([call("get_order", '{"order_id": "B-7"}', "call_pai11")], run, finish="tool_call", response_id="chatcmpl-pai0017"),
        request(run_tools([call("get_order", '{"order_id": "B-7"}', "call_pai11")]), run),
        response([call("issue_refund", '{"order_id": "B-7", "amount": 60}', "call_pai12")], run, finish="tool_call", response_id="chatcmpl-pai0018"),
    ]
)
run = "0198a1b2-0000-7000-8000-000000000009"
lines.append(first + [request([user("Thanks. Does that include shipping?")], run), response([text("Shipping is refunded when the item arrived damaged.")], run, response_id="chatcmpl-pai0019")])
write("several-runs.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
