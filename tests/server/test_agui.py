"""AG-UI over tether sessions: the real `@ag-ui/client` in Node, and the routes over HTTP.

`agui/run.mjs` drives `tether serve` with the AG-UI client's `HttpAgent`: a text run,
a tool call with its result, an approval interrupt resumed with an approval, a
question resumed with an answer, and a run whose connection drops mid-turn and goes
on with `Last-Event-ID` (the client's own event verification sees one unbroken run).
The package is installed by npm into tests/server/agui on first use (CI installs it
in .ci/run). The HTTP tests run on SQLite and Postgres.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from _served import Served, stranded_session
from served_process import TOKEN, tether_serve

from tether.agent import SessionEvent
from tether.server import AguiProjection, agui_events

AGUI = Path(__file__).with_name("agui")


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    npm = shutil.which("npm")
    assert node and npm, "node and npm are needed for the AG-UI test"
    if not (AGUI / "node_modules" / "@ag-ui" / "client" / "package.json").exists():
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=AGUI,
            check=True,
            timeout=300,
        )
    return node


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m.get("content") or "" for m in messages if m["role"] == "assistant"]


def test_http_agent_against_tether_serve(node: str, tmp_path: Path) -> None:
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as process:
        done = subprocess.run(
            [node, "run.mjs", process.url, TOKEN, "thread-1"],
            cwd=AGUI,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout.strip().splitlines()[-1])
        history = httpx.get(
            f"{process.url}/v1/sessions/thread-1/history",
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=10,
        ).json()["events"]
    for name in ("hello", "check", "restart", "approved", "ask", "answered", "dropped"):
        assert out[name]["errors"] == [], (name, out[name]["errors"])
        assert out[name]["types"][0] == "RUN_STARTED", name
        assert out[name]["types"][-1] == "RUN_FINISHED", name
    # A plain text run.
    assert _texts(out["hello"]["messages"])[-1] == "You said: hello there"
    assert out["hello"]["types"].count("TEXT_MESSAGE_CONTENT") == 4  # streamed word by word
    # A tool call and its result, then the reply.
    check = out["check"]
    call = next(e for e in check["events"] if e["type"] == "TOOL_CALL_START")
    assert call["toolCallName"] == "slow_check"
    result = next(e for e in check["events"] if e["type"] == "TOOL_CALL_RESULT")
    assert result["toolCallId"] == call["toolCallId"] and result["content"] == "db: healthy"
    assert _texts(check["messages"])[-2:] == ["Checking.", "Checked."]
    # An approval: the run ends with an interrupt about the call; the resume approves.
    finished = out["restart"]["events"][-1]
    assert finished["outcome"]["type"] == "interrupt"
    [interrupt] = out["restart"]["pendingInterrupts"]
    assert interrupt["reason"] == "tool_call"
    restart = next(e for e in out["restart"]["events"] if e["type"] == "TOOL_CALL_START")
    assert interrupt["toolCallId"] == restart["toolCallId"]
    assert interrupt["metadata"]["tether"]["arguments"] == {"service": "api"}
    approved = out["approved"]
    assert approved["pendingInterrupts"] == []
    restarted = next(e for e in approved["events"] if e["type"] == "TOOL_CALL_RESULT")
    assert json.loads(restarted["content"]) == {"restarted": "api"}
    assert _texts(approved["messages"])[-1] == "Restarted."
    # A question: its options are the response schema; the resume answers it.
    [question] = out["ask"]["pendingInterrupts"]
    assert question["reason"] == "input_required" and question["message"] == "Severity of inc-1?"
    assert question["responseSchema"]["properties"]["answer"]["enum"] == ["p1", "p2"]
    answered = next(e for e in out["answered"]["events"] if e["type"] == "TOOL_CALL_RESULT")
    assert answered["content"] == "inc-1 is p1"
    assert _texts(out["answered"]["messages"])[-1] == "Triaged."
    # The answers were the caller's, by the tether events.
    resolved = [e["data"] for e in history if e["type"] == "input.resolved"]
    assert [(r["answer"], r["by"]) for r in resolved] == [("approve", "ada"), ("p1", "ada")]
    # The dropped run: one reconnect, every session event once and in order, and the
    # client saw the same run as an undisturbed one.
    stats = out["dropStats"]
    assert len(stats["reconnects"]) == 1
    assert stats["ids"] == sorted(set(stats["ids"]))
    assert int(stats["reconnects"][0]) in stats["ids"][:-1]
    assert out["dropped"]["types"] == out["check"]["types"]
    assert _texts(out["dropped"]["messages"])[-2:] == ["Checking.", "Checked."]
    assert [e["type"] for e in history].count("turn.started") == 5


# -- the projection ------------------------------------------------------------------------
def _event(index: int, kind: str, step: int | None = 1, **data: Any) -> dict[str, Any]:
    """A session event in its wire form (`SessionEvent.to_json`)."""
    meta = {"id": f"evt_{index}", "turnId": "t1", "stepIndex": step, "attempt": 1}
    return {"index": index, "type": kind, "data": data, "meta": meta}


def test_projection_of_a_failed_turn() -> None:
    events = agui_events(
        [
            _event(0, "turn.started", step=0, submission_id="s:m1", text="hi"),
            _event(1, "message.delta", text="Hel"),
            _event(2, "message.delta", text="lo"),
            _event(3, "message.completed", text="Hello"),
            _event(4, "tool.call", call_id="c1", name="x", arguments={"a": 1}),
            _event(
                5,
                "tool.result",
                call_id="c1",
                name="x",
                content="boom",
                is_error=True,
                outcome="error",
            ),
            _event(6, "turn.failed", submission_id="s:m1", error="model down"),
            _event(7, "turn.started", submission_id="s:m2", text="never reached"),
        ],
        thread_id="th",
        run_id="r1",
    )
    assert [e["type"] for e in events] == [
        "RUN_STARTED",
        "STEP_STARTED",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",
        "STEP_FINISHED",
        "RUN_ERROR",
    ]
    assert events[2]["messageId"] == "th:1"
    assert events[6]["parentMessageId"] == "th:1"  # the call belongs to the reply
    assert events[7]["delta"] == '{"a":1}'
    assert events[9]["metadata"] == {"tether": {"outcome": "error", "isError": True}}
    assert events[-1] == {"type": "RUN_ERROR", "message": "model down", "code": "turn_failed"}


def test_projection_of_interrupts() -> None:
    approval = {
        "request_id": "approve:c1",
        "kind": "approval",
        "turn_id": "t1",
        "principal": "ada",
        "tool_name": "restart",
        "call_id": "c1",
        "data": {"arguments": {"service": "api"}},
    }
    question = {
        "request_id": "ask:c2:1",
        "kind": "question",
        "turn_id": "t1",
        "principal": "ada",
        "call_id": "c2",
        "prompt": "Severity?",
        "options": ["p1", "p2"],
    }
    events = agui_events(
        [
            _event(0, "turn.started", step=0, submission_id="s:m1", text="go"),
            _event(1, "message.completed", text="", tool_calls=[]),
            _event(2, "input.requested", request=approval),
            _event(3, "tool.call", call_id="c2", name="triage", arguments={}, workflow=True),
            _event(4, "input.requested", request=question),
            _event(5, "turn.waiting", on="input", request_ids=["approve:c1", "ask:c2:1"]),
        ]
    )
    finished = events[-1]
    assert finished["type"] == "RUN_FINISHED"
    first, second = finished["outcome"]["interrupts"]
    assert finished["outcome"]["type"] == "interrupt"
    assert first["reason"] == "tool_call" and first["toolCallId"] == "c1"
    assert first["responseSchema"]["required"] == ["approved"]
    assert second["reason"] == "input_required" and second["message"] == "Severity?"
    assert second["responseSchema"]["properties"]["answer"]["enum"] == ["p1", "p2"]
    assert "expiresAt" not in first  # tether's requests wait for their answer
    # The approval announced its call before the interrupt; each call once.
    starts = [e["toolCallId"] for e in events if e["type"] == "TOOL_CALL_START"]
    assert starts == ["c1", "c2"]


# -- over HTTP -----------------------------------------------------------------------------
async def agui(
    served: Served,
    body: dict[str, Any],
    who: str = "ada",
    *,
    drop_after: str | None = None,
) -> list[tuple[int | None, dict[str, Any]]]:
    """POST a run; its events with the ids their frames carried (to the end or a drop)."""
    async with served.client(who).stream("POST", "/v1/agui/ops", json=body) as r:
        assert r.status_code == 200, await r.aread()
        assert r.headers["content-type"].startswith("text/event-stream")
        return await _frames(r, drop_after)


async def _frames(
    r: httpx.Response, drop_after: str | None = None
) -> list[tuple[int | None, dict[str, Any]]]:
    out: list[tuple[int | None, dict[str, Any]]] = []
    frame_id: int | None = None
    async for line in r.aiter_lines():
        if line.startswith("id: "):
            frame_id = int(line[4:])
        elif line.startswith("data: "):
            event = json.loads(line[6:])
            out.append((frame_id, event))
            if drop_after is not None and event["type"] == drop_after and frame_id is not None:
                return out
            if event["type"] in ("RUN_FINISHED", "RUN_ERROR"):
                return out
        elif not line:
            frame_id = None
    return out


def _run(thread: str, run: str, text: str | None = None, **more: Any) -> dict[str, Any]:
    messages = [{"id": f"{run}-msg", "role": "user", "content": text}] if text else []
    return {"threadId": thread, "runId": run, "messages": messages, **more}


def _types(frames: list[tuple[int | None, dict[str, Any]]]) -> list[str]:
    return [e["type"] for _, e in frames]


async def _history(served: Served, thread: str) -> list[dict[str, Any]]:
    r = await served.client().get(f"/v1/sessions/{thread}/history")
    return list(r.json()["events"])


async def test_a_run_and_its_retry(served: Served) -> None:
    body = _run("th-a", "r1", "hello there")
    first = await agui(served, body)
    assert first[0][1] == {"type": "RUN_STARTED", "threadId": "th-a", "runId": "r1"}
    assert first[-1][1]["outcome"] == {"type": "success"}
    text = "".join(e["delta"] for _, e in first if e["type"] == "TEXT_MESSAGE_CONTENT")
    assert text == "You said: hello there"
    # The session is the caller's, opened by the run.
    state = (await served.client().get("/v1/sessions/th-a")).json()
    assert state["owner"] == "acme" and state["agent_name"] == "ops"
    # The same POST again admits nothing and streams the same run.
    again = await agui(served, body)
    assert again == first
    history = await _history(served, "th-a")
    assert [e["type"] for e in history].count("turn.started") == 1
    # The message history a client sends back is not sent again: only the new message.
    follow = {
        "threadId": "th-a",
        "runId": "r2",
        "messages": [
            body["messages"][0],
            {"id": "a1", "role": "assistant", "content": text},
            {"id": "m2", "role": "user", "content": [{"type": "text", "text": "more"}]},
        ],
    }
    second = await agui(served, follow)
    assert "".join(e["delta"] for _, e in second if e["type"] == "TEXT_MESSAGE_CONTENT") == (
        "You said: more"
    )
    assert [e["type"] for e in await _history(served, "th-a")].count("turn.started") == 2


async def test_approval_resume_deny_and_refusals(served: Served) -> None:
    first = await agui(served, _run("th-b", "r1", "restart api"))
    [interrupt] = first[-1][1]["outcome"]["interrupts"]
    assert interrupt["reason"] == "tool_call"
    # Every open interrupt must be covered, also by a run that brings a message.
    r = await served.client().post("/v1/agui/ops", json=_run("th-b", "r2", "hello"))
    assert r.status_code == 422 and r.json()["open_interrupts"] == [interrupt["id"]]
    entry = {"interruptId": interrupt["id"], "status": "cancelled"}
    resume = _run("th-b", "r3", resume=[entry])
    # Another principal of the tenant may not answer; another tenant sees no thread.
    r = await served.client("bob").post("/v1/agui/ops", json=resume)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = await served.client("eve").post("/v1/agui/ops", json=resume)
    assert r.status_code == 404
    r = await served.client("eve").get("/v1/agui/ops/th-b/stream")
    assert r.status_code == 404
    # A payload that is no answer: 422, nothing answered.
    bad = {"interruptId": interrupt["id"], "status": "resolved", "payload": 7}
    r = await served.client().post("/v1/agui/ops", json=_run("th-b", "r4", resume=[bad]))
    assert r.status_code == 422
    assert [
        p["request_id"] for p in (await served.client().get("/v1/sessions/th-b")).json()["pending"]
    ] == [interrupt["id"]]
    # Cancelled, an approval is denied: the turn goes on without the call.
    denied = await agui(served, resume)
    result = next(e for _, e in denied if e["type"] == "TOOL_CALL_RESULT")
    assert result["metadata"]["tether"]["outcome"] == "denied"
    assert denied[-1][1]["outcome"] == {"type": "success"}
    # Retried, the resume answers nothing new and streams the same run; answered
    # otherwise, it is refused.
    assert await agui(served, resume) == denied
    approve = {"interruptId": interrupt["id"], "status": "resolved"}
    r = await served.client().post("/v1/agui/ops", json=_run("th-b", "r5", resume=[approve]))
    assert r.status_code == 409 and r.json()["code"] == "answer_refused"
    unknown = {"interruptId": "approve:nope", "status": "resolved"}
    r = await served.client().post("/v1/agui/ops", json=_run("th-b", "r6", resume=[unknown]))
    assert r.status_code == 409 and r.json()["reason"] == "no such request"
    resolved = [e for e in await _history(served, "th-b") if e["type"] == "input.resolved"]
    assert [e["data"]["answer"] for e in resolved] == ["deny"]


async def test_question_cancelled_declines_it(served: Served) -> None:
    first = await agui(served, _run("th-c", "r1", "ask"))
    [question] = first[-1][1]["outcome"]["interrupts"]
    assert question["reason"] == "input_required"
    # The options' labels and styles and the display hint travel with the interrupt.
    answer = question["responseSchema"]["properties"]["answer"]
    assert answer["enum"] == ["p1", "p2"]
    assert answer["oneOf"] == [
        {"const": "p1", "title": "P1 (revenue)"},
        {"const": "p2", "title": "p2"},
    ]
    tether = question["metadata"]["tether"]
    assert tether["display"] == "confirmation"
    assert tether["options"][0] == {"id": "p1", "label": "P1 (revenue)", "style": "primary"}
    # The replay of a parked thread is the run that asked (a reload learns of it).
    async with served.client().stream("GET", "/v1/agui/ops/th-c/stream") as r:
        replay = await _frames(r)
    assert replay[-1][1]["outcome"]["interrupts"] == [question]
    # A label is not an answer: refused (422), nothing admitted.
    label = {"interruptId": question["id"], "status": "resolved", "payload": "P1 (revenue)"}
    r = await served.client().post("/v1/agui/ops", json=_run("th-c", "r2", resume=[label]))
    assert r.status_code == 422 and r.json()["code"] == "invalid_answer"
    assert r.json()["option_ids"] == ["p1", "p2"]
    # Cancelling the interrupt declines the question: the tool decides what follows
    # (here it reports the triage declined) and the turn goes on.
    cancelled = {"interruptId": question["id"], "status": "cancelled"}
    run = await agui(served, _run("th-c", "r2", resume=[cancelled]))
    assert run[-1][1]["outcome"] == {"type": "success"}
    result = next(e for _, e in run if e["type"] == "TOOL_CALL_RESULT")
    assert result["content"] == "inc-1: triage declined"
    # A retried run admits nothing new: the same decline, the same run.
    assert await agui(served, _run("th-c", "r2", resume=[cancelled])) == run
    resolved = [e for e in await _history(served, "th-c") if e["type"] == "input.resolved"]
    assert [e["data"]["answer"] for e in resolved] == [{"cancelled": True}]
    r = await served.client().get("/v1/agui/ops/th-c/stream")
    assert r.status_code == 204  # nothing in progress, nothing waiting


async def test_reconnect_mid_turn_gets_every_event_once(served: Served) -> None:
    body = _run("th-d", "r1", "check db")
    first = await agui(served, body, drop_after="TOOL_CALL_END")
    last_id = first[-1][0]
    assert last_id is not None
    # Mid-turn, a client that lost everything replays the run from its start.
    async with served.client().stream("GET", "/v1/agui/ops/th-d/stream?runId=r1") as r:
        replay = await _frames(r)
    headers = {"Last-Event-ID": str(last_id)}
    async with served.client().stream(
        "GET", "/v1/agui/ops/th-d/stream", params={"runId": "r1"}, headers=headers
    ) as r:
        assert r.status_code == 200
        rest = await _frames(r)
    joined = first + rest
    assert rest[0][1]["type"] != "RUN_STARTED"
    assert [e for _, e in joined] == [e for _, e in replay]
    ids = [i for i, _ in joined if i is not None]
    assert ids == sorted(set(ids))
    assert _types(joined).count("TOOL_CALL_START") == 1
    assert joined[-1][1] == {
        "type": "RUN_FINISHED",
        "threadId": "th-d",
        "runId": "r1",
        "outcome": {"type": "success"},
    }
    # `?offset=` is the same as Last-Event-ID.
    async with served.client().stream(
        "GET", "/v1/agui/ops/th-d/stream", params={"runId": "r1", "offset": last_id}
    ) as r:
        assert await _frames(r) == rest


async def test_error_statuses(served: Served) -> None:
    client = served.client()
    r = await served.client("nobody").post("/v1/agui/ops", json=_run("th-e", "r1", "hi"))
    assert r.status_code == 401
    r = await client.post("/v1/agui/nope", json=_run("th-e", "r1", "hi"))
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = await client.post("/v1/agui/ops", json={"runId": "r1", "messages": []})
    assert r.status_code == 422 and r.json()["code"] == "invalid_body"
    assert r.headers["content-type"] == "application/problem+json"
    r = await client.post("/v1/agui/ops", content=b"{nope", headers={"content-type": "x"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_json"
    r = await client.post("/v1/agui/ops", json=_run("th-e", "r1"))
    assert r.status_code == 422 and "nothing to run" in r.json()["detail"]
    r = await client.post("/v1/agui/ops", json=_run("bad id!", "r1", "hi"))
    assert r.status_code == 422
    image = {"type": "image", "source": {"type": "url", "value": "http://x/y.png"}}
    r = await client.post(
        "/v1/agui/ops",
        json={
            "threadId": "th-e",
            "runId": "r1",
            "messages": [{"id": "m", "role": "user", "content": [image]}],
        },
    )
    assert r.status_code == 422
    r = await client.post("/v1/agui/ops", json=_run("th-e", "r1", "x" * (1 << 20)))
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"
    entry = {"interruptId": "approve:c1", "status": "resolved"}
    r = await client.post("/v1/agui/ops", json=_run("th-e", "r1", "hi", resume=[entry]))
    assert r.status_code == 404  # a resume answers a thread that exists
    r = await client.get("/v1/agui/ops/th-e/stream")
    assert r.status_code == 404  # no thread was opened by the refused runs
    assert (await client.get("/v1/sessions/th-e")).status_code == 404
    await served.session("th-f")
    r = await client.get("/v1/agui/ops/th-f/stream", params={"offset": "x"})
    assert r.status_code == 422
    r = await client.get("/v1/agui/ops/th-f/stream")
    assert r.status_code == 204


async def test_stranded_and_expired_threads(served: Served) -> None:
    client = served.client()
    await stranded_session(served, "old1")
    [pending] = (await client.get("/v1/sessions/old1")).json()["pending"]
    entry = {"interruptId": pending["request_id"], "status": "resolved"}
    for r in (
        await client.post("/v1/agui/ops", json=_run("old1", "r1", resume=[entry])),
        await client.get("/v1/agui/ops/old1/stream"),
    ):
        assert r.status_code == 409 and r.json()["code"] == "session_stranded", r.text
    # Refused before anything was admitted.
    assert (await client.get("/v1/sessions/old1")).json()["pending"] == [pending]
    # Retention 0: once closed, the content is gone: 410.
    r = await client.post("/v1/sessions", json={"session_id": "gone", "retention": 0})
    assert r.status_code == 201
    await agui(served, _run("gone", "r1", "hello"))
    assert (await client.post("/v1/sessions/gone/close")).status_code == 202
    for _ in range(500):
        if (await client.get("/v1/sessions/gone")).json()["status"] == "closed":
            break
        await asyncio.sleep(0.02)
    r = await client.post("/v1/agui/ops", json=_run("gone", "r2", "again"))
    assert r.status_code == 410 and r.json()["code"] == "session_expired", r.text
    r = await client.get("/v1/agui/ops/gone/stream")
    assert r.status_code == 410 and r.json()["code"] == "session_expired"


def test_projection_goes_on_after_an_offset_and_across_attempts() -> None:
    wire = [
        _event(0, "turn.started", step=0, submission_id="s:m1", text="go"),
        _event(1, "message.delta", text="Chec"),
        _event(2, "message.delta", text="king."),
        _event(3, "message.completed", text="Checking."),
        _event(4, "turn.completed", step=2, submission_id="s:m1"),
    ]
    turn = [SessionEvent.from_json(e) for e in wire]
    whole = AguiProjection("th", "r1")
    frames = [whole.feed(e) for e in turn]
    # Going on after index 1 shows exactly what the whole run showed after it: the
    # open text is known from the events before, not from the adapter.
    rest = AguiProjection("th", "r1", after=1)
    assert [rest.feed(e) for e in turn][2:] == frames[2:]
    silent = AguiProjection("th", "r1", after=1)
    assert silent.feed(turn[0]) == ([], False) and silent.feed(turn[1]) == ([], False)
    # A step that ran again (its worker died) streams its reply again: the abandoned
    # attempt's text is closed, the new attempt's is a message of its own.
    retried = agui_events(
        [
            wire[0],
            wire[1],
            {
                **_event(2, "message.delta", text="Checking."),
                "meta": {"id": "evt_2b", "turnId": "t1", "stepIndex": 1, "attempt": 2},
            },
            wire[3],
            wire[4],
        ],
        thread_id="th",
    )
    texts = [(e["type"], e.get("messageId")) for e in retried if "TEXT" in e["type"]]
    assert texts == [
        ("TEXT_MESSAGE_START", "th:1"),
        ("TEXT_MESSAGE_CONTENT", "th:1"),
        ("TEXT_MESSAGE_END", "th:1"),
        ("TEXT_MESSAGE_START", "th:2"),
        ("TEXT_MESSAGE_CONTENT", "th:2"),
        ("TEXT_MESSAGE_END", "th:2"),
    ]
    assert retried[-1]["outcome"] == {"type": "success"}


@pytest.mark.crash
async def test_reconnect_after_the_worker_was_killed(db: tuple[str, str | None]) -> None:
    from _served import start_served
    from test_reconnect import start_worker

    async for served in start_served(*db, worker=False):
        first_worker = start_worker(served, hang=True)
        second_worker = None
        try:
            first = await agui(served, _run("th-k", "r1", "check db"), drop_after="TOOL_CALL_END")
            # The tool hangs in the first worker: kill it while the turn is in flight.
            first_worker.send_signal(signal.SIGKILL)
            first_worker.wait()
            second_worker = start_worker(served, hang=False)
            headers = {"Last-Event-ID": str(first[-1][0])}
            async with served.client().stream(
                "GET", "/v1/agui/ops/th-k/stream?runId=r1", headers=headers
            ) as r:
                rest = await _frames(r)
            joined = first + rest
            ids = [i for i, _ in joined if i is not None]
            assert ids == sorted(set(ids))
            assert _types(joined).count("TOOL_CALL_START") == 1
            assert _types(joined).count("TEXT_MESSAGE_START") == 2  # Checking., Checked.
            assert joined[-1][1]["outcome"] == {"type": "success"}
            result = next(e for _, e in joined if e["type"] == "TOOL_CALL_RESULT")
            assert result["content"] == "db: healthy"
        finally:
            for proc in (first_worker, second_worker):
                if proc is not None and proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()


async def test_an_approver_the_agent_names_may_resume(served: Served) -> None:
    first = await agui(served, _run("th-l", "r1", "restart db"))
    [interrupt] = first[-1][1]["outcome"]["interrupts"]
    assert interrupt["metadata"]["tether"]["approvers"] == ["lead"]
    entry = {"interruptId": interrupt["id"], "status": "resolved", "payload": True}
    run = await agui(served, _run("th-l", "r2", resume=[entry]), who="lead")
    assert run[-1][1]["outcome"] == {"type": "success"}
    resolved = [e for e in await _history(served, "th-l") if e["type"] == "input.resolved"]
    assert [(e["data"]["answer"], e["data"]["by"]) for e in resolved] == [("approve", "lead")]


async def test_the_declared_state_is_sent_as_the_run_ends(served: Served) -> None:
    first = await agui(served, _run("th-s", "r1", "note buy milk"))
    types = _types(first)
    assert types[-2:] == ["STATE_SNAPSHOT", "RUN_FINISHED"]
    assert types.count("STATE_SNAPSHOT") == 1
    assert first[-2][1] == {"type": "STATE_SNAPSHOT", "snapshot": {"notes": ["buy milk"]}}
    # The tool call's change, as it landed, before the call's result.
    [delta] = [e for _, e in first if e["type"] == "STATE_DELTA"]
    assert delta["delta"] == [{"op": "add", "path": "/notes", "value": ["buy milk"]}]
    assert types.index("STATE_DELTA") < types.index("TOOL_CALL_RESULT")
    second = await agui(served, _run("th-s", "r2", "note call bob"))
    assert second[-2][1]["snapshot"] == {"notes": ["buy milk", "call bob"]}
