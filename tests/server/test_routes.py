"""Every route of the sessions API against a real uvicorn, on SQLite and Postgres."""

from __future__ import annotations

import asyncio

from _served import Served, stranded_session


async def test_create_is_idempotent_by_client_id(served: Served) -> None:
    c = served.client()
    r = await c.post("/v1/sessions", json={"session_id": "s1"})
    assert r.status_code == 201, r.text
    assert r.headers["location"] == "/v1/sessions/s1"
    state = r.json()
    assert state["session_id"] == "s1" and state["agent_name"] == "ops"
    assert state["owner"] == "acme" and state["status"] == "idle"
    again = await c.post("/v1/sessions", json={"session_id": "s1", "agent": "ops"})
    assert again.status_code == 200
    assert again.json()["created_at"] == state["created_at"]
    fresh = await c.post("/v1/sessions", json={})
    assert fresh.status_code == 201 and fresh.json()["session_id"].startswith("ses_")


async def test_send_follow_and_state(served: Served) -> None:
    await served.session("s1")
    submission = await served.send("s1", "hello there", client_message_id="m1")
    assert submission == "s1:m1"
    events = await served.events("s1", until="turn.completed")
    types = [e["type"] for e in events]
    assert types[0] == "session.started" and "turn.started" in types
    assert [e["index"] for e in events] == list(range(len(events)))
    completed = next(e for e in events if e["type"] == "message.completed")
    assert completed["data"]["text"] == "You said: hello there"
    # The same client_message_id again admits nothing new.
    assert await served.send("s1", "hello there", client_message_id="m1") == "s1:m1"
    r = await served.client().get("/v1/sessions/s1")
    assert r.status_code == 200
    assert r.json()["status"] in ("idle", "running")
    turns = [e for e in await served.events("s1", follow="false") if e["type"] == "turn.started"]
    assert len(turns) == 1


async def test_list_shows_only_the_callers_tenant(served: Served) -> None:
    await served.session("a1")
    await served.session("a2", who="bob")  # same tenant as ada
    await served.session("e1", who="eve")
    r = await served.client().get("/v1/sessions")
    assert r.status_code == 200
    assert sorted(i["session_id"] for i in r.json()["items"]) == ["a1", "a2"]
    r = await served.client("eve").get("/v1/sessions", params={"limit": 1})
    assert [i["session_id"] for i in r.json()["items"]] == ["e1"]


async def test_approval_answer_by_the_turns_principal(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "restart api")
    events = await served.events("s1", until="turn.waiting")
    request = next(e for e in events if e["type"] == "input.requested")["data"]["request"]
    assert request["kind"] == "approval" and request["principal"] == "ada"
    r = await served.client().get("/v1/sessions/s1")
    assert r.json()["status"] == "parked" and r.json()["parked_on"] == "input"
    pending = (await served.client().get("/v1/sessions/s1/requests")).json()["items"]
    assert [p["request_id"] for p in pending] == [request["request_id"]]
    url = f"/v1/sessions/s1/requests/{request['request_id']}/answer"
    # bob is of the same tenant but not the turn's principal nor an approver.
    refused = await served.client("bob").post(url, json={"answer": "approve"})
    assert refused.status_code == 403, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    ok = await served.client().post(url, json={"answer": "approve"})
    assert ok.status_code == 200, ok.text
    # The same answer again is a no-op; another one is refused.
    assert (await served.client().post(url, json={"answer": "approve"})).status_code == 200
    other = await served.client().post(url, json={"answer": "deny"})
    assert other.status_code == 409 and other.json()["code"] == "answer_refused"
    tail = await served.events("s1", start=events[-1]["index"] + 1, until="turn.completed")
    assert tail[-1]["type"] == "turn.completed"
    unknown = await served.client().post(
        "/v1/sessions/s1/requests/nope/answer", json={"answer": "approve"}
    )
    assert unknown.status_code == 409


async def test_a_named_approver_may_answer(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "restart db")
    events = await served.events("s1", until="turn.waiting")
    request_id = next(e for e in events if e["type"] == "input.requested")["data"]["request"][
        "request_id"
    ]
    r = await served.client("lead").post(
        f"/v1/sessions/s1/requests/{request_id}/answer", json={"answer": "deny"}
    )
    assert r.status_code == 200, r.text
    tail = await served.events("s1", start=events[-1]["index"] + 1, until="turn.completed")
    assert tail[-1]["type"] == "turn.completed"


async def test_question_answered_over_http(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "ask")
    events = await served.events("s1", until="turn.waiting")
    request = next(e for e in events if e["type"] == "input.requested")["data"]["request"]
    options = [
        {"id": "p1", "label": "P1 (revenue)", "style": "primary"},
        {"id": "p2", "label": "p2", "style": None},
    ]
    assert request["kind"] == "question" and request["options"] == options
    assert request["display"] == "confirmation"
    # The session's state and its pending requests show the same.
    state = (await served.client().get("/v1/sessions/s1")).json()
    assert state["pending"] == [request]
    pending = (await served.client().get("/v1/sessions/s1/requests")).json()["items"]
    assert pending == [request]
    url = f"/v1/sessions/s1/requests/{request['request_id']}/answer"
    for wrong in ("p9", "P1 (revenue)", 1):
        bad = await served.client().post(url, json={"answer": wrong})
        assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"
        problem = bad.json()
        assert problem["code"] == "invalid_answer" and problem["option_ids"] == ["p1", "p2"]
        assert "must be one of the option ids ['p1', 'p2']" in problem["detail"]
    assert (await served.client().post(url, json={"answer": "p2"})).status_code == 200
    tail = await served.events("s1", start=events[-1]["index"] + 1, until="turn.completed")
    assert tail[-1]["type"] == "turn.completed"
    result = next(e for e in tail if e["type"] == "tool.result")["data"]
    assert result["content"] == "inc-1 is p2"


async def test_question_declined_over_http(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "ask")
    events = await served.events("s1", until="turn.waiting")
    request = next(e for e in events if e["type"] == "input.requested")["data"]["request"]
    url = f"/v1/sessions/s1/requests/{request['request_id']}/answer"
    r = await served.client().post(url, json={"answer": {"cancelled": True}})
    assert r.status_code == 200, r.text
    tail = await served.events("s1", start=events[-1]["index"] + 1, until="turn.completed")
    result = next(e for e in tail if e["type"] == "tool.result")["data"]
    assert result["content"] == "inc-1: triage declined"
    again = await served.client().post(url, json={"answer": "p1"})
    assert again.status_code == 409 and again.json()["code"] == "answer_refused"


async def test_cancel_turn_and_close(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "restart api")
    waiting = await served.events("s1", until="turn.waiting")
    r = await served.client().post("/v1/sessions/s1/cancel")
    assert r.status_code == 202
    # From after the wait, not from the tail: the cancel's events may all be written
    # before this follow starts, and the tail is then the one after `turn.cancelled`.
    tail = await served.events("s1", start=waiting[-1]["index"] + 1, until="turn.cancelled")
    assert tail[-1]["type"] == "turn.cancelled"
    r = await served.client().post("/v1/sessions/s1/close")
    assert r.status_code == 202
    events = await served.events("s1")  # ends after session.closed
    assert events[-1]["type"] == "session.closed"
    refused = await served.client().post("/v1/sessions/s1/messages", json={"text": "hi"})
    assert refused.status_code == 409 and refused.json()["code"] == "session_closed"
    for _ in range(100):
        if (await served.client().get("/v1/sessions/s1")).json()["status"] == "closed":
            break
        await asyncio.sleep(0.05)
    assert (await served.client().get("/v1/sessions/s1")).json()["status"] == "closed"


async def test_usage_sums_the_sessions_model_calls(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "hello")
    events = await served.events("s1", until="turn.completed")
    await served.send("s1", "again")
    events += await served.events("s1", until="turn.completed", start=events[-1]["index"] + 1)
    completed = [e for e in events if e["type"] == "turn.completed"]
    r = await served.client().get("/v1/sessions/s1/usage")
    assert r.status_code == 200, r.text
    usage = r.json()
    assert usage["session_id"] == "s1" and usage["total"]["calls"] == 2
    assert usage["total"]["input_tokens"] > 0 and usage["total"]["output_tokens"] > 0
    # Each turn's sums are what its turn.completed said; no prices: no cost.
    assert usage["by_turn"] == {e["meta"]["turnId"]: e["data"]["usage"] for e in completed}
    assert list(usage["by_model"]) == ["scripted:model"] and usage["cost"] is None
    assert usage["unpriced"] == []
    assert (await served.client("eve").get("/v1/sessions/s1/usage")).status_code == 404


async def test_history_and_transcript_are_read_only(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "hello")
    await served.events("s1", until="session.waiting")
    # The run parks after its last event: wait until it stopped changing.
    before = (await served.client().get("/v1/sessions/s1")).json()
    for _ in range(50):
        await asyncio.sleep(0.1)
        now = (await served.client().get("/v1/sessions/s1")).json()
        if now == before:
            break
        before = now
    r = await served.client().get("/v1/sessions/s1/history", params={"start": 1, "limit": 2})
    assert r.status_code == 200
    body = r.json()
    assert [e["index"] for e in body["events"]] == [1, 2]
    assert body["next_offset"] == 3 and r.headers["stream-next-offset"] == "3"
    tail = (await served.client().get("/v1/sessions/s1/history", params={"start": -1})).json()
    assert len(tail["events"]) == 1
    transcript = (await served.client().get("/v1/sessions/s1/transcript")).json()["entries"]
    assert [e["kind"] for e in transcript][:2] == ["user", "assistant"]
    after = (await served.client().get("/v1/sessions/s1")).json()
    assert after["updated_at"] == before["updated_at"]


async def test_event_stream_sse_framing_and_resume(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "one two three")
    await served.events("s1", until="turn.completed")
    async with served.client().stream(
        "GET", "/v1/sessions/s1/events", params={"follow": "false"}
    ) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        text = (await r.aread()).decode()
        next_offset = int(r.headers["stream-next-offset"])
    frames = [f for f in text.split("\n\n") if f.startswith("id:")]
    ids = [int(f.split("\n")[0].removeprefix("id: ")) for f in frames]
    assert ids == list(range(next_offset))
    # Last-Event-ID resumes exactly after it (and wins over ?start).
    async with served.client().stream(
        "GET",
        "/v1/sessions/s1/events",
        params={"follow": "false", "start": 0},
        headers={"Last-Event-ID": "2"},
    ) as r:
        text = (await r.aread()).decode()
    resumed = [int(f.split("\n")[0][4:]) for f in text.split("\n\n") if f.startswith("id:")]
    assert resumed == list(range(3, next_offset))


async def test_keepalive_comments_on_a_quiet_stream(served: Served) -> None:
    await served.session("s1")
    seen = b""
    async with served.client().stream("GET", "/v1/sessions/s1/events") as r:
        assert r.headers["stream-next-offset"] == "0"
        async for chunk in r.aiter_bytes():
            seen += chunk
            if b": keep-alive" in seen:
                break
    assert b"id: 0\nevent: session.started" in seen


async def test_openapi_document_is_served(served: Served) -> None:
    r = await served.client("nobody").get("/v1/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["openapi"].startswith("3.")
    assert "/v1/sessions/{session_id}/events" in doc["paths"]
    assert "SendBody" in doc["components"]["schemas"]
    request = doc["components"]["schemas"]["InputRequestOut"]["properties"]
    assert request["display"]["anyOf"][0]["enum"] == ["text", "choice", "confirmation"]
    option = doc["components"]["schemas"]["OptionOut"]
    assert option["required"] == ["id", "label"]
    assert option["properties"]["style"]["anyOf"][0]["enum"] == ["primary", "danger"]


async def test_errors_are_problem_details(served: Served) -> None:
    c = served.client()
    r = await c.post("/v1/sessions", json={"session_id": "bad id!"})
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["status"] == 422 and problem["errors"][0]["loc"] == ["session_id"]
    r = await c.post("/v1/sessions", content=b"{not json")
    assert r.status_code == 422 and r.json()["code"] == "invalid_json"
    r = await c.post("/v1/sessions", json={"agent": "nobody"})
    assert r.status_code == 422
    await served.session("s1")
    big = "x" * (2 << 20)
    r = await c.post("/v1/sessions/s1/messages", json={"text": big})
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"
    r = await c.post("/v1/sessions/s1/messages", json={"text": "hi", "turn_policy": "shove"})
    assert r.status_code == 422
    r = await c.get("/v1/sessions/s1/events", params={"start": "x"})
    assert r.status_code == 422
    r = await c.get("/v1/sessions/nope")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = await c.get("/v1/nothing/here")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"


async def test_stranded_session_is_409_on_send_and_follow(served: Served) -> None:
    # Built by a deployment no live worker serves any more (the served worker is
    # "server-test"), and parked on an approval there.
    await stranded_session(served, "old1")
    c = served.client()
    state = (await c.get("/v1/sessions/old1")).json()
    assert state["stranded"] is True and state["deployment"] == "old-release"
    for r in (
        await c.post("/v1/sessions/old1/messages", json={"text": "hi"}),
        await c.get("/v1/sessions/old1/events"),
    ):
        assert r.status_code == 409, r.text
        problem = r.json()
        assert problem["code"] == "session_stranded"
        assert problem["deployment"] == "old-release" and problem["engine_version"]
    # History stays readable.
    history = await c.get("/v1/sessions/old1/history")
    assert history.status_code == 200
    follow_false = await c.get("/v1/sessions/old1/events", params={"follow": "false"})
    assert follow_false.status_code == 200


async def test_content_deleted_by_retention_is_410(served: Served) -> None:
    c = served.client()
    r = await c.post("/v1/sessions", json={"session_id": "gone", "retention": 0})
    assert r.status_code == 201
    await served.send("gone", "hello")
    await served.events("gone", until="turn.completed")
    assert (await c.post("/v1/sessions/gone/close")).status_code == 202
    for _ in range(200):
        if (await c.get("/v1/sessions/gone")).json()["status"] == "closed":
            break
        await asyncio.sleep(0.05)
    for path in ("history", "transcript", "events", "events?follow=false"):
        r = await c.get(f"/v1/sessions/gone/{path}")
        assert r.status_code == 410, (path, r.text)
        assert r.json()["code"] == "session_expired"


async def test_every_path_of_the_document_and_only_its_methods(served: Served) -> None:
    """Each path the document lists answers its methods; any other is 405 with Allow."""
    c = served.client()
    document = (await c.get("/v1/openapi.json")).json()
    assert {"/v1/health", "/v1/openapi.json", "/v1/sessions"} <= set(document["paths"])
    for path, operations in document["paths"].items():
        documented = {m.upper() for m in operations}
        allow = documented | ({"HEAD"} if "GET" in documented else set())
        concrete = path.replace("{agent}", "ops")
        for name in ("session_id", "attachment_id", "request_id", "chat_id", "thread_id", "token"):
            concrete = concrete.replace("{" + name + "}", "x1")
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"):
            if method in allow:
                continue
            r = await c.request(method, concrete)
            assert r.status_code == 405, (method, path, r.text)
            assert r.headers["allow"] == ", ".join(sorted(allow)), (method, path)
            assert r.headers["content-type"] == "application/problem+json"
            assert r.json()["code"] == "method_not_allowed"
    unknown = await c.get("/v1/nowhere")
    assert unknown.status_code == 404 and "/v1/openapi.json" in unknown.json()["detail"]


async def test_the_declared_state_route(served: Served) -> None:
    await served.session("s1")
    r = await served.client().get("/v1/sessions/s1/state")
    assert r.status_code == 200, r.text
    assert r.json() == {"session_id": "s1", "values": {"notes": []}}
    await served.send("s1", "note buy milk")
    events = await served.events("s1", until="turn.completed")
    await served.send("s1", "note call bob")
    await served.events("s1", until="turn.completed", start=events[-1]["index"] + 1)
    r = await served.client("bob").get("/v1/sessions/s1/state")  # same tenant
    assert r.json() == {"session_id": "s1", "values": {"notes": ["buy milk", "call bob"]}}
    # Another tenant's session, an unknown one, and no credentials.
    assert (await served.client("eve").get("/v1/sessions/s1/state")).status_code == 404
    assert (await served.client().get("/v1/sessions/nope/state")).status_code == 404
    assert (await served.client("nobody").get("/v1/sessions/s1/state")).status_code == 401
    spec = (await served.client().get("/v1/openapi.json")).json()
    operation = spec["paths"]["/v1/sessions/{session_id}/state"]["get"]
    assert operation["operationId"] == "sessionState"
    assert "StateOut" in spec["components"]["schemas"]
