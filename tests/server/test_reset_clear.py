"""Reset and clear over HTTP: a fresh transcript, a new run under the same id."""

from __future__ import annotations

import asyncio

from _served import Served, stranded_session


async def _state(served: Served, session_id: str) -> dict[str, object]:
    return dict((await served.client().get(f"/v1/sessions/{session_id}")).json())


async def test_clear_gives_a_fresh_transcript(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "hello")
    await served.events("s1", until="turn.completed")
    r = await served.client().post("/v1/sessions/s1/clear")
    assert r.status_code == 202, r.text
    await served.events("s1", until="session.moved")
    await served.send("s1", "again")
    events = await served.events("s1", follow="false")
    assert [e["index"] for e in events] == list(range(len(events)))
    for _ in range(200):
        transcript = (await served.client().get("/v1/sessions/s1/transcript")).json()["entries"]
        if [e.get("text") for e in transcript if e["kind"] == "user"] == ["again"]:
            break
        await asyncio.sleep(0.05)
    assert [e.get("text") for e in transcript if e["kind"] == "user"] == ["again"]


async def test_reset_opens_the_id_again(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "restart api")
    first = await served.events("s1", until="turn.waiting")
    r = await served.client().post("/v1/sessions/s1/reset")
    assert r.status_code == 200, r.text
    assert r.json()["session_id"] == "s1"
    # The stream goes on: a new session.started that names its predecessor.
    more = await served.events("s1", start=len(first), until="session.started")
    assert more[-1]["data"]["predecessor"]
    await served.send("s1", "hello")
    tail = await served.events("s1", start=more[-1]["index"], until="turn.completed")
    assert tail[-1]["type"] == "turn.completed"
    assert (await _state(served, "s1"))["status"] in ("idle", "running")


async def test_a_stranded_session_refuses_clear_and_takes_reset(served: Served) -> None:
    await stranded_session(served, "old1")
    c = served.client()
    refused = await c.post("/v1/sessions/old1/clear")
    assert refused.status_code == 409 and refused.json()["code"] == "session_stranded"
    r = await c.post("/v1/sessions/old1/reset")
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["stranded"] is False and state["deployment"] == "server-test"
    await served.send("old1", "hello")
    events = await served.events("old1", until="turn.completed")
    assert events[-1]["type"] == "turn.completed"


async def test_another_tenant_cannot_reset_or_clear(served: Served) -> None:
    await served.session("s1")
    for verb in ("reset", "clear"):
        r = await served.client("eve").post(f"/v1/sessions/s1/{verb}")
        assert r.status_code == 404


async def test_reset_answers_with_the_new_sessions_state(served: Served) -> None:
    await served.session("s2")
    await served.send("s2", "restart api")
    await served.events("s2", until="input.requested")
    c = served.client()
    [pending] = (await c.get("/v1/sessions/s2/requests")).json()["items"]
    assert pending["kind"] == "approval"
    r = await c.post("/v1/sessions/s2/reset")
    assert r.status_code == 200, r.text
    state = r.json()
    # The new session: no turn, nothing pending (the cancelled turn's approval is gone).
    assert (state["status"], state["turn_id"], state["pending"]) == ("idle", None, [])
    assert (await c.get("/v1/sessions/s2/requests")).json()["items"] == []
    again = await _state(served, "s2")
    assert (again["status"], again["pending"]) == ("idle", [])
    answer = await c.post(
        f"/v1/sessions/s2/requests/{pending['request_id']}/answer", json={"answer": "approve"}
    )
    assert answer.status_code == 409 and answer.json()["code"] == "answer_refused"
