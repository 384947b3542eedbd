"""The real AI SDK (`ai` from npm, in Node) drives a `tether serve` through useChat's engine.

`chat.mjs` runs the AI SDK's `AbstractChat` (what React's `useChat` wraps) with its
`DefaultChatTransport`: text, a tool call parked on approval, the approval answered
with `addToolApprovalResponse` (sent automatically), and a second client resuming the
turn in progress. The `ai` package is installed by npm into tests/server/aisdk on first
use (CI installs it in .ci/run).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from _served import Served
from served_process import TOKEN, tether_serve

from tether.server import ui_parts

AISDK = Path(__file__).with_name("aisdk")


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    npm = shutil.which("npm")
    assert node and npm, "node and npm are needed for the AI SDK test"
    if not (AISDK / "node_modules" / "ai" / "package.json").exists():
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=AISDK,
            check=True,
            timeout=300,
        )
    return node


def _texts(message: dict[str, Any]) -> str:
    return "".join(p["text"] for p in message["parts"] if p["type"] == "text")


@pytest.mark.slow
def test_use_chat_against_tether_serve(node: str, tmp_path: Path) -> None:
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as process:
        done = subprocess.run(
            [node, "chat.mjs", process.url, TOKEN, "chat-1"],
            cwd=AISDK,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout.strip().splitlines()[-1])
        headers = {"Authorization": f"Bearer {TOKEN}"}
        history = httpx.get(
            f"{process.url}/v1/sessions/chat-1/history", headers=headers, timeout=10
        ).json()["events"]
        for _ in range(200):  # the answered question's turn ends on the server's worker
            if history[-1]["type"] in ("turn.completed", "session.waiting"):
                break
            time.sleep(0.05)
            history = httpx.get(
                f"{process.url}/v1/sessions/chat-1/history", headers=headers, timeout=10
            ).json()["events"]
        started = [e["data"] for e in history if e["type"] == "turn.started"]
        files = next(d for d in started if d["text"] == "read this")["attachments"]
        downloads = [
            httpx.get(
                f"{process.url}/v1/sessions/chat-1/attachments/{f['id']}",
                headers=headers,
                timeout=10,
            )
            for f in files
        ]
    assert out["errors"] == [] and out["status"] == "ready"
    assert out["hello"]["role"] == "assistant"
    assert _texts(out["hello"]) == "You said: hello there"
    # The finish part's metadata is the turn's usage: the SDK keeps it on the message.
    usage = out["hello"]["metadata"]["usage"]
    assert usage["calls"] == 1 and usage["input_tokens"] > 0 and usage["output_tokens"] > 0
    tool = next(p for p in out["approvalRequested"]["parts"] if p["type"] == "dynamic-tool")
    assert tool["toolName"] == "restart_service" and tool["input"] == {"service": "api"}
    assert tool["state"] == "approval-requested" and tool["approval"]["id"]
    approved = next(p for p in out["approved"]["parts"] if p["type"] == "dynamic-tool")
    assert approved["state"] == "output-available"
    assert json.loads(approved["output"]) == {"restarted": "api"}
    assert _texts(out["approved"]).endswith("Restarted.")
    # The resumed client saw the same turn as the sender, replayed from its start.
    assert _texts(out["resumed"]) == _texts(out["sender"]) == "Checking.Checked."
    resumed_tool = next(p for p in out["resumed"]["parts"] if p["type"] == "dynamic-tool")
    assert resumed_tool["state"] == "output-available"
    # The declared state as each turn ended: before the note, and with it.
    [before] = [p for p in out["hello"]["parts"] if p["type"] == "data-tether-state"]
    assert before == {"type": "data-tether-state", "id": "state", "data": {"notes": []}}
    [noted] = [p for p in out["noted"]["parts"] if p["type"] == "data-tether-state"]
    assert noted["data"] == {"notes": ["buy milk"]}
    assert _texts(out["noted"]) == "Noted."
    # File parts (data: URLs) became attachments the model was given, by reference.
    assert [p["type"] for p in out["fileMessage"]["parts"]] == ["file", "file", "text"]
    assert _texts(out["files"]) == (
        "You said: read this (files: notes.txt:12=zwölf notes, dot.png:11)"
    )
    assert [(f["filename"], f["mime_type"], f["size"]) for f in files] == [
        ("notes.txt", "text/plain", 12),
        ("dot.png", "image/png", 11),
    ]
    assert [d.content for d in downloads] == [
        "zwölf notes".encode(),
        bytes([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]),
    ]
    # A question reaches the client as a data part with its options and display hint;
    # an answer that is a label, not an option id, is refused (422), the id is taken.
    [asked] = [p for p in out["asked"]["parts"] if p["type"] == "data-tether-input"]
    request = asked["data"]["request"]
    assert request["kind"] == "question" and request["display"] == "confirmation"
    assert request["options"] == [
        {"id": "p1", "label": "P1 (revenue)", "style": "primary"},
        {"id": "p2", "label": "p2", "style": None},
    ]
    assert out["labelRefused"]["status"] == 422
    assert out["labelRefused"]["body"]["code"] == "invalid_answer"
    assert out["answered"] == 200
    [resolved] = [e["data"] for e in history if e["type"] == "input.resolved"][-1:]
    assert resolved["request_id"] == request["request_id"] and resolved["answer"] == "p1"
    result = [e["data"] for e in history if e["type"] == "tool.result"][-1]
    assert result["content"] == "inc-1 is p1"


def _event(index: int, kind: str, **data: Any) -> dict[str, Any]:
    """A session event in its wire form (`SessionEvent.to_json`)."""
    meta = {"id": f"evt_{index}", "turnId": "t1", "stepIndex": 1, "attempt": 1}
    return {"index": index, "type": kind, "data": data, "meta": meta}


def test_projection_of_a_turn() -> None:
    parts = ui_parts(
        [
            _event(0, "turn.started", submission_id="s:m1", text="hi"),
            _event(1, "message.delta", text="Hel"),
            _event(2, "message.delta", text="lo"),
            _event(3, "message.completed", text="Hello"),
            _event(4, "tool.call", call_id="c1", name="x", arguments={"a": 1}),
            _event(5, "tool.result", call_id="c1", name="x", content="boom", is_error=True),
            _event(6, "turn.failed", submission_id="s:m1", error="model down"),
            _event(7, "turn.started", submission_id="s:m2", text="never reached"),
        ]
    )
    assert [p["type"] for p in parts] == [
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-delta",
        "text-end",
        "tool-input-available",
        "tool-output-error",
        "error",
        "finish-step",
        "finish",
    ]
    assert parts[0]["messageId"] == "t1" and parts[-1]["finishReason"] == "error"


async def test_resuming_a_chat_with_no_turn_in_progress(served: Served) -> None:
    """useChat with ``resume: true`` resumes as it mounts, before its first message has
    opened the session: nothing to resume, as for an idle session or another tenant's."""
    ada, eve = served.client("ada"), served.client("eve")
    fresh = await ada.get("/v1/ui/aisdk/chat/never-opened/stream")
    assert fresh.status_code == 204 and fresh.content == b""
    await served.session("idle-chat")
    await served.send("idle-chat", "hello")
    await served.events("idle-chat", until="turn.completed")
    assert (await ada.get("/v1/ui/aisdk/chat/idle-chat/stream")).status_code == 204
    # Another tenant learns nothing: the same answer as for an id no one holds.
    assert (await eve.get("/v1/ui/aisdk/chat/idle-chat/stream")).status_code == 204
    # An id no session can have is still refused.
    bad = await ada.get("/v1/ui/aisdk/chat/" + "x" * 300 + "/stream")
    assert bad.status_code == 404 and bad.json()["code"] == "not_found"
    # Opening the chat afterwards works as ever: resuming opened nothing.
    assert (await ada.get("/v1/sessions/never-opened")).status_code == 404
