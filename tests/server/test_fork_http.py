"""``POST /v1/sessions/{id}/fork`` over HTTP: 201 with the fork, tenant rules, refusals."""

from __future__ import annotations

from _served import Served


async def test_fork_over_http(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "hello")
    await served.events("s1", until="turn.completed")
    c = served.client()
    r = await c.post("/v1/sessions/s1/fork", json={"at": 1, "session_id": "s1-f"})
    assert r.status_code == 201, r.text
    assert r.headers["location"] == "/v1/sessions/s1-f"
    assert r.json()["session_id"] == "s1-f"
    again = await c.post("/v1/sessions/s1/fork", json={"at": 1, "session_id": "s1-f"})
    assert again.status_code == 201 and again.json()["session_id"] == "s1-f"
    fork = (await c.get("/v1/sessions/s1-f/transcript")).json()["entries"]
    original = (await c.get("/v1/sessions/s1/transcript")).json()["entries"]
    assert fork == original and [e["text"] for e in fork if e["kind"] == "user"] == ["hello"]
    # The default: a new id; no body at all is fine.
    fresh = await c.post("/v1/sessions/s1/fork")
    assert fresh.status_code == 201 and fresh.json()["session_id"] != "s1"
    # Another tenant's session is not there; its id is taken for a fork.
    assert (await served.client("eve").post("/v1/sessions/s1/fork")).status_code == 404
    await served.session("e1", who="eve")
    taken = await c.post("/v1/sessions/s1/fork", json={"session_id": "e1"})
    assert taken.status_code == 409 and taken.json()["code"] == "conflict"
    bad = await c.post("/v1/sessions/s1/fork", json={"at": 9})
    assert bad.status_code == 409 and bad.json()["code"] == "fork_refused"
    both = await c.post("/v1/sessions/s1/fork", json={"at": 0, "at_event": 0})
    assert both.status_code == 422
    negative = await c.post("/v1/sessions/s1/fork", json={"at": -1})
    assert negative.status_code == 422


async def test_a_fork_over_http_serves_the_files_of_its_kept_messages(served: Served) -> None:
    await served.session("f1")
    c = served.client()
    r = await c.post(
        "/v1/sessions/f1/attachments", content=b"the plan", headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 201, r.text
    ref = r.json()
    await served.send("f1", "look", attachments=[ref])
    await served.events("f1", until="turn.completed")
    r = await c.post("/v1/sessions/f1/fork", json={"session_id": "f1-f"})
    assert r.status_code == 201, r.text
    got = await c.get(f"/v1/sessions/f1-f/attachments/{ref['id']}")
    assert got.status_code == 200 and got.content == b"the plan"
    entries = (await c.get("/v1/sessions/f1-f/transcript")).json()["entries"]
    assert [e["attachments"] for e in entries if e["kind"] == "user"] == [[ref]]
