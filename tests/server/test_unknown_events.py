"""An event of a type this version of tether does not define, in a live session's stream.

A newer version's worker may write event types an older server does not know (a
rolling upgrade). Written into a session's stream mid-turn, such an event reaches the
followers of the sessions API as it was stored (and so do its history and a stream
that starts after it), while the AI SDK and AG-UI responses streaming that turn skip it
with one warning each, naming its type, and go on to the turn's end.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import orjson
import pytest
from _served import Served

NEW_TYPE = "message.reasoning"


async def inject(served: Served, session_id: str) -> None:
    """Append an event of a type tether does not define to the session's stream."""
    info = await served.host.get_session(session_id)
    event = {
        "type": NEW_TYPE,
        "data": {"text": "thinking it over"},
        "meta": {"id": "evt_from_a_newer_version", "turnId": None, "sequence": 0},
    }
    await served.backend.stores.workflow.write_stream(info.run_id, "events", [orjson.dumps(event)])


async def follow(
    served: Served, session_id: str, start: int = 0, until: str = "turn.completed"
) -> list[dict[str, Any]]:
    """The sessions API's SSE stream of the session from `start` to an event of `until`."""
    out: list[dict[str, Any]] = []
    async with served.client().stream(
        "GET", f"/v1/sessions/{session_id}/events", params={"start": start}
    ) as r:
        assert r.status_code == 200, await r.aread()
        kind = None
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                event = json.loads(line.removeprefix("data: "))
                assert event["type"] == kind
                out.append(event)
                if kind == until:
                    return out
    return out


async def sse_json(r: httpx.Response, on: str, then: Any) -> list[dict[str, Any]]:
    """The JSON of each ``data:`` line of a streaming response; `then()` is awaited
    once, after the first whose type is `on`."""
    out: list[dict[str, Any]] = []
    async for line in r.aiter_lines():
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        out.append(json.loads(line.removeprefix("data: ")))
        if out[-1]["type"] == on and then is not None:
            await then()
            then = None
    return out


def warnings(caplog: pytest.LogCaptureFixture, front_end: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and f"the {front_end} adapter" in r.getMessage()
    ]


async def test_the_ai_sdk_skips_it_and_the_sessions_api_passes_it_on(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    body = {"id": "c1", "messages": [{"id": "u1", "role": "user", "parts": []}]}
    body["messages"][0]["parts"] = [{"type": "text", "text": "check db"}]
    followed: asyncio.Task[list[dict[str, Any]]] | None = None

    async def mid_turn() -> None:
        nonlocal followed
        followed = asyncio.create_task(follow(served, "c1"))
        await inject(served, "c1")

    with caplog.at_level(logging.WARNING, logger="tether.server"):
        async with served.client().stream("POST", "/v1/ui/aisdk/chat", json=body) as r:
            assert r.status_code == 200, await r.aread()
            parts = await sse_json(r, "tool-input-available", mid_turn)
    assert followed is not None
    events = await asyncio.wait_for(followed, 30)
    # The turn streamed to its end: the tool's output, the reply, the finish.
    types = [p["type"] for p in parts]
    assert "tool-output-available" in types and types[-1] == "finish", types
    text = "".join(p["delta"] for p in parts if p["type"] == "text-delta")
    assert text == "Checking.Checked."
    assert NEW_TYPE not in json.dumps(parts)
    [warned] = warnings(caplog, "AI SDK")
    assert repr(NEW_TYPE) in warned and "does not define" in warned
    # The sessions API passed it on, in its place, as stored.
    [new] = [e for e in events if e["type"] == NEW_TYPE]
    assert new["data"] == {"text": "thinking it over"}
    assert new["meta"]["id"] == "evt_from_a_newer_version"
    assert [e["index"] for e in events] == list(range(len(events)))
    called = next(e["index"] for e in events if e["type"] == "tool.call")
    assert called < new["index"] < events[-1]["index"]
    c = served.client()
    history = (await c.get("/v1/sessions/c1/history")).json()["events"]
    assert history[: len(events)] == events
    page = await c.get("/v1/sessions/c1/events", params={"follow": "false", "start": 0})
    assert page.status_code == 200
    assert f"event: {NEW_TYPE}\n" in page.text and "thinking it over" in page.text
    # One more, now the last event: a stream that starts there begins with it.
    await served.events("c1", until="session.waiting", start=-1)
    await inject(served, "c1")
    [last] = await asyncio.wait_for(follow(served, "c1", start=-1, until=NEW_TYPE), 30)
    assert last["index"] == (await c.get("/v1/sessions/c1/history")).json()["next_offset"] - 1
    # The adapter's scan of the session reads past it: no turn to resume.
    assert (await c.get("/v1/ui/aisdk/chat/c1/stream")).status_code == 204


async def test_ag_ui_skips_it(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    body = {
        "threadId": "t1",
        "runId": "r1",
        "messages": [{"id": "m1", "role": "user", "content": "check db"}],
    }
    with caplog.at_level(logging.WARNING, logger="tether.server"):
        async with served.client().stream("POST", "/v1/agui/ops", json=body) as r:
            assert r.status_code == 200, await r.aread()
            events = await sse_json(r, "TOOL_CALL_END", lambda: inject(served, "t1"))
    types = [e["type"] for e in events]
    assert "TOOL_CALL_RESULT" in types and types[-1] == "RUN_FINISHED", types
    assert events[-1]["outcome"] == {"type": "success"}
    assert NEW_TYPE not in json.dumps(events)
    [warned] = warnings(caplog, "AG-UI")
    assert repr(NEW_TYPE) in warned
    # The thread's scan reads past it: no run in progress to replay.
    assert (await served.client().get("/v1/agui/ops/t1/stream")).status_code == 204


async def test_the_sessions_state_and_the_python_api_read_past_it(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    c = served.client()
    assert (await c.post("/v1/sessions", json={"agent": "ops", "session_id": "s1"})).is_success
    sent = await c.post("/v1/sessions/s1/messages", json={"text": "check db"})
    assert sent.is_success, sent.text
    await served.events("s1", until="session.waiting")
    await inject(served, "s1")
    with caplog.at_level(logging.WARNING, logger="tether.agent"):
        shown = await c.get("/v1/sessions/s1")
        assert shown.status_code == 200, shown.text
        assert shown.json()["status"] == "idle"
        session = await served.host.get_session("s1")
        assert (await session.state()).status == "idle"
        assert await session.pending_requests() == []
        known = await session.read_events()
        assert NEW_TYPE not in [e.type for e in known]
        assert known[-1].type == "session.waiting"
        followed = [e.type async for e in session.events(known[-1].index, follow=False)]
        assert followed == ["session.waiting"]
    skipped = [r.getMessage() for r in caplog.records if repr(NEW_TYPE) in r.getMessage()]
    assert len(skipped) <= 1 and all("does not define" in m for m in skipped)


async def test_a_damaged_event_is_a_problem_document_not_a_plain_500(served: Served) -> None:
    c = served.client()
    assert (await c.post("/v1/sessions", json={"agent": "ops", "session_id": "d1"})).is_success
    info = await served.host.get_session("d1")
    # An event of a known type whose data does not fit its record.
    damaged = {"type": "turn.completed", "data": {"usage": "lots"}, "meta": {"id": "evt_x"}}
    await served.backend.stores.workflow.write_stream(
        info.run_id, "events", [orjson.dumps(damaged)]
    )
    r = await c.get("/v1/sessions/d1")
    assert r.status_code == 500
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "unreadable_data"
    assert "turn.completed" in r.json()["detail"]
