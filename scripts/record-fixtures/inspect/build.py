"""Builds the inspect importer's own fixture: an Inspect AI eval log (.json)
of the refund-support agent, written as Inspect writes `EvalLog` JSON.

Inspect AI does not run here (it is not installed, and nothing is installed
for fixtures), so the log follows the published source:
UKGovernmentBEIS/inspect_ai at 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17,
`src/inspect_ai/log/_log.py` (EvalLog, EvalSpec, EvalSample: id, epoch,
input, target, messages, output, scores, metadata, store, events,
model_usage, total_time, working_time, uuid, error, attachments, limit),
`src/inspect_ai/model/_chat_message.py` (ChatMessage{System,User,Assistant,
Tool}: id, content, source, metadata, role; assistant tool_calls and model;
tool tool_call_id, function, error), `src/inspect_ai/tool/_tool_call.py`
(ToolCall: id, function, arguments, parse_error, view, type; ToolCallError:
type, message), `src/inspect_ai/_util/content.py` (ContentText,
ContentReasoning, ContentImage, ContentToolUse) and `src/inspect_ai/log/_condense.py`
(images in messages stored as `attachment://<hash>`). The field layout matches
the real logs copied beside it (tests/analysis/test_logs in the same repository).
The tools run for real.

    python3 scripts/record-fixtures/inspect/build.py
"""

import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "test", "fixtures", "importers", "inspect")
PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
MODEL = "anthropic/claude-sonnet-4-5"

counter = {"n": 0}


def mid():
    counter["n"] += 1
    return f"msg{counter['n']:04d}InspectRefundDesk"


ORDERS = {"A-1001": {"item": "kettle", "amount": 25}, "A-1002": {"item": "toaster", "amount": 40}, "B-7": {"item": "lamp", "amount": 60}}


class ToolError(Exception):
    pass


def get_order(order_id):
    if order_id in ORDERS:
        return {"status": "found", "order_id": order_id, **ORDERS[order_id]}
    return {"status": "not_found", "order_id": order_id}


def issue_refund(order_id, amount):
    if order_id == "A-1002":
        raise ToolError("payment processor timeout")
    return {"status": "approved", "order_id": order_id, "amount": amount, "reference": f"RF-{order_id}"}


TOOLS = {
    "get_order": lambda a: get_order(a["order_id"]),
    "issue_refund": lambda a: issue_refund(a["order_id"], a["amount"]),
    "send_email": lambda a: {"status": "sent", "template": a["template"], "to": a["to"]},
    "escalate_to_supervisor": lambda a: {"status": "escalated", "reason": a["reason"]},
    "add_case_note": lambda a: {"status": "saved", "kind": a["kind"]},
}


def system(text):
    return {"id": mid(), "content": text, "source": "input", "role": "system"}


def user(content, source="input"):
    return {"id": mid(), "content": content, "source": source, "role": "user"}


def assistant(content, calls=None):
    message = {"id": mid(), "content": content, "source": "generate", "role": "assistant"}
    if calls:
        message["tool_calls"] = [{"id": c[0], "function": c[1], "arguments": c[2]} for c in calls]
    message["model"] = "claude-sonnet-4-5-20250929"
    return message


def run(calls):
    """Inspect's call_tools: a tool message per call; a ToolError becomes error {type: unknown} with its message."""
    out = []
    for call_id, name, args in calls:
        message = {"id": mid(), "content": "", "role": "tool", "tool_call_id": call_id, "function": name}
        try:
            message["content"] = json.dumps(TOOLS[name](args))
        except ToolError as error:
            message["content"] = str(error)
            message["error"] = {"type": "unknown", "message": str(error)}
        out.append(message)
    return out


def sample(sample_id, epoch, messages, stop="stop", error=None, limit=None, attachments=None):
    last = next((m for m in reversed(messages) if m["role"] == "assistant"), None)
    s = {
        "id": sample_id,
        "epoch": epoch,
        "input": messages[1]["content"] if isinstance(messages[1]["content"], str) else [messages[1]],
        "target": "refund handled",
        "messages": messages,
        "output": {
            "model": "claude-sonnet-4-5-20250929",
            "choices": [{"message": last, "stop_reason": stop}] if last else [],
            "usage": {"input_tokens": 900, "output_tokens": 120, "total_tokens": 1020},
            "time": 3.5,
        },
        "scores": {"includes": {"value": "C" if error is None and limit is None else "I", "answer": last["content"] if last and isinstance(last["content"], str) else ""}},
        "metadata": {},
        "store": {},
        "events": [],
        "model_usage": {MODEL: {"input_tokens": 900, "output_tokens": 120, "total_tokens": 1020}},
        "total_time": 4.2,
        "working_time": 4.0,
        "uuid": f"UuidRefundDesk{sample_id}x{epoch}",
        "error_retries": [],
        "attachments": attachments or {},
    }
    if error is not None:
        s["error"] = error
    if limit is not None:
        s["limit"] = limit
    return s


SYSTEM = "You are a refund support agent. Look orders up before refunding."
image_hash = hashlib.md5(PIXEL.encode()).hexdigest()
samples = []

# Sample 1, epoch 1: an image in the user's message (an attachment), reasoning and text in one assistant
# message, parallel calls, a refund that fails (error), the confirmation email, a final answer.
calls1 = [("toolu_ins01", "get_order", {"order_id": "A-1001"}), ("toolu_ins02", "get_order", {"order_id": "A-1002"})]
calls2 = [("toolu_ins03", "issue_refund", {"order_id": "A-1001", "amount": 25}), ("toolu_ins04", "issue_refund", {"order_id": "A-1002", "amount": 40})]
calls3 = [("toolu_ins05", "send_email", {"template": "refund_confirmation", "to": "dana@example.com"})]
messages = [
    system(SYSTEM),
    user(
        [
            {"type": "text", "text": "Orders A-1001 and A-1002 arrived broken, see the photo. Refund both; I'm dana@example.com."},
            {"type": "image", "image": f"attachment://{image_hash}", "detail": "auto"},
        ]
    ),
    assistant(
        [
            {"type": "reasoning", "reasoning": "Two orders: look both up first.", "signature": "c2lnLWlucw==", "redacted": False},
            {"type": "text", "text": "Let me look both orders up."},
        ],
        calls1,
    ),
    *run(calls1),
    assistant("", calls2),
    *run(calls2),
    assistant("", calls3),
    *run(calls3),
    assistant("A-1001 is refunded and confirmed by email. The A-1002 refund failed at the processor; I will retry it."),
]
samples.append(sample("refund-two", 1, messages, attachments={image_hash: PIXEL}))

# Sample 1, epoch 2: the same input, a careless run: a refund without a lookup and no email.
calls = [("toolu_ins06", "issue_refund", {"order_id": "A-1001", "amount": 25})]
messages = [system(SYSTEM), user("Orders A-1001 and A-1002 arrived broken. Refund both; I'm dana@example.com."), assistant("", calls), *run(calls), assistant("Refunded A-1001, the money is on its way.")]
samples.append(sample("refund-two", 2, messages))

# Sample 2: a server-side web search (ContentToolUse) in the assistant's content, an escalation whose
# argument was long enough to be stored as an attachment, and the handover note.
note = "Legal question about refunds under consumer law; the customer asks whether a refund can be refused after 30 days. " * 2
note_hash = hashlib.md5(note.encode()).hexdigest()
calls = [("toolu_ins07", "escalate_to_supervisor", {"reason": "legal question"})]
calls_b = [("toolu_ins08", "add_case_note", {"kind": "handover", "text": f"attachment://{note_hash}"})]
messages = [
    system(SYSTEM),
    user("Is this refund legal under consumer law?"),
    assistant(
        [
            {"type": "tool_use", "tool_type": "web_search", "id": "srvtoolu_ins01", "name": "web_search", "arguments": '{"query": "refund law 30 days"}', "result": "No clear answer found.", "context": None, "error": None},
            {"type": "text", "text": "The search is inconclusive; I'll escalate."},
        ],
        calls,
    ),
    *run(calls),
    assistant("", calls_b),
    *run([("toolu_ins08", "add_case_note", {"kind": "handover", "text": note})]),
    assistant("A supervisor will answer your legal question."),
]
samples.append(sample("legal", 1, messages, attachments={note_hash: note}))

# Sample 3: stopped by the message limit with a refund call unanswered.
calls = [("toolu_ins09", "get_order", {"order_id": "B-7"})]
messages = [system(SYSTEM), user("Lamp B-7 flickers. Refund it."), assistant("", calls), *run(calls), assistant("", [("toolu_ins10", "issue_refund", {"order_id": "B-7", "amount": 60})])]
samples.append(sample("lamp", 1, messages, stop="tool_calls", limit={"type": "message", "limit": 5}))

# Sample 4: the model API failed mid-run (a sample error).
messages = [system(SYSTEM), user("What is your refund policy?")]
samples.append(
    sample(
        "policy",
        1,
        messages + [assistant("Damaged items can be refunded within")],
        stop="max_tokens",
        error={"message": "RateLimitError('rate limited')", "traceback": "Traceback (most recent call last):\n  ...\nRateLimitError: rate limited\n", "traceback_ansi": ""},
    )
)

log = {
    "version": 2,
    "status": "success",
    "eval": {
        "eval_id": "EvalRefundDesk0000000001",
        "run_id": "RunRefundDesk00000000001",
        "created": "2025-01-06T10:00:00+00:00",
        "task": "refund_desk",
        "task_id": "TaskRefundDesk000000001",
        "task_version": 0,
        "task_file": "refund_desk.py",
        "task_registry_name": "refund_desk",
        "task_attribs": {},
        "task_args": {},
        "dataset": {"samples": 4, "sample_ids": ["refund-two", "legal", "lamp", "policy"], "shuffled": False},
        "model": MODEL,
        "model_generate_config": {},
        "model_args": {},
        "config": {"epochs": 2, "epochs_reducer": ["mean"], "fail_on_error": False, "sandbox_cleanup": True, "log_samples": True, "log_realtime": True, "log_images": True, "score_display": True},
        "packages": {"inspect_ai": "0.3.130"},
        "scorers": [{"name": "includes", "options": {}, "metrics": [{"name": "inspect_ai/accuracy", "options": {}}], "metadata": {}}],
    },
    "plan": {"name": "plan", "steps": [{"solver": "use_tools", "params": {}}, {"solver": "generate", "params": {}}], "config": {}},
    "results": {"total_samples": 5, "completed_samples": 4, "scores": []},
    "stats": {"started_at": "2025-01-06T10:00:00+00:00", "completed_at": "2025-01-06T10:01:00+00:00", "model_usage": {}},
    "samples": samples,
    "reductions": [],
}
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "refund-desk.json"), "w", encoding="utf-8") as f:
    f.write(json.dumps(log, indent=2) + "\n")
